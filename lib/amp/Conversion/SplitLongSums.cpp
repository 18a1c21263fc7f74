//===- SplitLongSums.cpp - amp-split-long-sums ----------------------------===//
//
// Long float sums computed in blocks: partial sums over consecutive blocks
// of one reduction loop, then the sum of the partials. See the pass
// description in Conversion/Passes.td.
//
//===----------------------------------------------------------------------===//

#include "amp/Conversion/Passes.h"

#include "amp/Analysis/SumReduction.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::amp {
#define GEN_PASS_DEF_SPLITLONGSUMS
#include "amp/Conversion/Passes.h.inc"
} // namespace mlir::amp

using namespace mlir;

namespace {

/// Fewest blocks worth a split: fewer would shorten the chain of additions
/// by less than a factor of 16.
constexpr int64_t kMinBlocks = 16;

/// Most blocks considered (bounds the search when max-partials is large).
constexpr int64_t kMaxBlocks = int64_t(1) << 24;

/// Where to split: loop `loop` into `blocks` blocks; with `lanes` > 1,
/// also the innermost loop (the op's last, a reduction) into `lanes`
/// interleaved partial sums, its iteration `i * lanes + lane`.
struct Split {
  unsigned loop;
  int64_t blocks;
  int64_t lanes = 1;
};

/// The lanes of the innermost loop of `op` (its last loop) for `split`,
/// chosen from its extent E (inside a block when it is the split loop) as
/// the pass description says (`lanes` when it divides E, E when it is in
/// [lanes, 4 lanes], else the largest divisor of E in [lanes / 4, lanes]),
/// when that loop is a reduction of static extent that every input
/// indexing it reads as its last dimension (consecutive elements); else 1.
static int64_t chooseLanes(linalg::GenericOp op, const Split &split,
                           int64_t lanes) {
  unsigned last = op.getNumLoops() - 1;
  if (lanes <= 1 ||
      op.getIteratorTypesArray()[last] != utils::IteratorType::reduction)
    return 1;
  int64_t extent = op.getStaticLoopRanges()[last];
  if (ShapedType::isDynamic(extent))
    return 1;
  if (split.loop == last)
    extent /= split.blocks;
  for (OpOperand *input : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(input);
    bool reads = llvm::any_of(map.getResults(), [&](AffineExpr e) {
      return e.isFunctionOfDim(last);
    });
    if (reads &&
        (map.getNumResults() == 0 ||
         map.getResults().back() != getAffineDimExpr(last, op.getContext()) ||
         llvm::count_if(map.getResults(), [&](AffineExpr e) {
           return e.isFunctionOfDim(last);
         }) != 1))
      return 1;
  }
  // A multiple of `lanes` when one divides the extent; else the whole
  // loop when it has between `lanes` and 4 x `lanes` iterations (LLVM
  // vectorizes no loop of fewer than 16 iterations: a 28-wide row is
  // better as 28 lanes than as 2 x 14); else the largest divisor in
  // [lanes / 4, lanes].
  if (extent % lanes == 0)
    return lanes;
  if (extent >= lanes && extent <= 4 * lanes)
    return extent;
  for (int64_t l = lanes; l >= std::max<int64_t>(2, lanes / 4); --l)
    if (extent % l == 0)
      return l;
  return 1;
}

/// Whether every result of `op` is a float sum: the yielded value is
/// `arith.addf` of the init's block argument (used only there) and a term.
static bool isFloatSum(linalg::GenericOp op) {
  return llvm::all_of(op.getDpsInitsMutable(), [&](OpOperand &init) {
    return isa<FloatType>(getElementTypeOrSelf(init.get().getType())) &&
           amp::isSumOfInitAndTerm(op, init);
  });
}

/// Whether `op` has the shape of a matmul: three loops, one a reduction,
/// every shaped operand of rank 2.
static bool isMatmulShaped(linalg::GenericOp op) {
  if (op.getNumLoops() != 3 || op.getNumReductionLoops() != 1)
    return false;
  return llvm::all_of(op->getOperands(), [](Value v) {
    auto type = dyn_cast<ShapedType>(v.getType());
    return !type || type.getRank() == 2;
  });
}

/// The split of `op` with the shortest longest chain of additions, or
/// nullopt when it is not a long float sum of static extents (see the pass
/// description).
static std::optional<Split> chooseSplit(linalg::GenericOp op, int64_t minTerms,
                                        int64_t maxPartials, int64_t lanes) {
  if (!op.hasPureTensorSemantics() || op.getNumReductionLoops() == 0 ||
      op.getNumDpsInits() == 0 || !isFloatSum(op) || isMatmulShaped(op))
    return std::nullopt;
  // Outputs of static shapes (the partial sums get one more dimension); a
  // reduction loop of dynamic extent (a dynamic batch) may stay, it counts
  // as one term and is not split.
  SmallVector<int64_t> extents = op.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  for (auto [extent, iterator] : llvm::zip_equal(extents, iterators))
    if (ShapedType::isDynamic(extent) &&
        iterator != utils::IteratorType::reduction)
      return std::nullopt;
  if (llvm::any_of(op.getDpsInits(), [](Value init) {
        return !cast<RankedTensorType>(init.getType()).hasStaticShape();
      }))
    return std::nullopt;
  // Saturating products: a reduction of 2^62 x 2^62 terms is still long.
  auto times = [](int64_t a, int64_t b) {
    int64_t product;
    return llvm::MulOverflow(a, b, product) ? INT64_MAX : product;
  };
  int64_t terms = 1, outputs = 1;
  for (auto [extent, iterator] : llvm::zip_equal(extents, iterators))
    if (!ShapedType::isDynamic(extent))
      (iterator == utils::IteratorType::reduction ? terms : outputs) = times(
          iterator == utils::IteratorType::reduction ? terms : outputs, extent);
  if (terms < minTerms)
    return std::nullopt;
  std::optional<Split> best;
  int64_t bestChain = terms;
  for (auto [loop, iterator] : llvm::enumerate(iterators)) {
    if (iterator != utils::IteratorType::reduction)
      continue;
    int64_t extent = extents[loop];
    if (ShapedType::isDynamic(extent))
      continue;
    for (int64_t blocks = kMinBlocks; blocks <= extent; ++blocks) {
      if (times(outputs, blocks) > maxPartials || blocks > kMaxBlocks)
        break;
      if (extent % blocks != 0)
        continue;
      int64_t chain = std::max(terms / blocks, blocks);
      if (chain < bestChain) {
        bestChain = chain;
        best = Split{static_cast<unsigned>(loop), blocks};
      }
      if (blocks >= terms / blocks)
        break; // longer from here on
    }
  }
  if (best) {
    best->lanes = chooseLanes(op, *best, lanes);
    if (times(times(outputs, best->blocks), best->lanes) > maxPartials)
      best->lanes = 1;
  }
  return best;
}

/// Rewrites `op` by `split` into the partial sums and their sum.
static void splitSum(linalg::GenericOp op, Split split,
                     RewriterBase &rewriter) {
  MLIRContext *ctx = op.getContext();
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  unsigned numLoops = op.getNumLoops();
  int64_t blockSize = op.getStaticLoopRanges()[split.loop] / split.blocks;
  bool laned = split.lanes > 1;
  unsigned laneLoop = numLoops - 1;
  // Loops of the partial sums: the block first, then the op's loops, with
  // `split.loop` now running inside one block, then (with lanes) the lane:
  // the op's last loop runs over `lanes` consecutive iterations per step.
  unsigned newLoops = numLoops + 1 + (laned ? 1 : 0);
  AffineExpr lane = getAffineDimExpr(numLoops + 1, ctx);
  SmallVector<AffineExpr> replacements;
  for (unsigned loop = 0; loop < numLoops; ++loop) {
    AffineExpr inner = getAffineDimExpr(loop + 1, ctx);
    if (laned && loop == laneLoop)
      inner = inner * split.lanes + lane;
    replacements.push_back(loop == split.loop
                               ? getAffineDimExpr(0, ctx) * blockSize + inner
                               : inner);
  }
  auto rewriteMap = [&](AffineMap map) {
    return map.replaceDimsAndSymbols(replacements, {}, newLoops,
                                     map.getNumSymbols());
  };
  SmallVector<AffineMap> maps;
  for (OpOperand *input : op.getDpsInputOperands())
    maps.push_back(rewriteMap(op.getMatchingIndexingMap(input)));
  // The loop inside a block may appear only in expressions (a convolution's
  // window), from which linalg cannot infer its extent: one more input, a
  // tensor.empty of that extent that the body ignores, gives it (as
  // upstream's splitReductionByScaling does).
  // With lanes, its shape is [inner extent, lanes] on (that loop, lane)
  // for the lane loop.
  SmallVector<Value> inputs(op.getDpsInputs());
  int64_t laneExtent = op.getStaticLoopRanges()[laneLoop];
  if (laneLoop == split.loop)
    laneExtent = blockSize;
  if (!laned || laneLoop != split.loop) {
    inputs.push_back(tensor::EmptyOp::create(rewriter, loc, {blockSize},
                                             rewriter.getI1Type()));
    maps.push_back(
        AffineMap::get(newLoops, 0, getAffineDimExpr(split.loop + 1, ctx)));
  }
  if (laned) {
    inputs.push_back(tensor::EmptyOp::create(
        rewriter, loc, {laneExtent / split.lanes, split.lanes},
        rewriter.getI1Type()));
    maps.push_back(AffineMap::get(
        newLoops, 0, {getAffineDimExpr(laneLoop + 1, ctx), lane}, ctx));
  }
  SmallVector<Value> partialInits;
  SmallVector<Type> partialTypes;
  for (OpOperand &init : op.getDpsInitsMutable()) {
    AffineMap map = rewriteMap(op.getMatchingIndexingMap(&init));
    map = map.insertResult(getAffineDimExpr(0, ctx), map.getNumResults());
    if (laned)
      map = map.insertResult(lane, map.getNumResults());
    maps.push_back(map);
    auto type = cast<RankedTensorType>(init.get().getType());
    SmallVector<int64_t> shape(type.getShape());
    shape.push_back(split.blocks);
    if (laned)
      shape.push_back(split.lanes);
    Type element = type.getElementType();
    Value empty = tensor::EmptyOp::create(rewriter, loc, shape, element);
    Value negZero = arith::ConstantOp::create(
        rewriter, loc, element,
        rewriter.getFloatAttr(
            element,
            APFloat::getZero(cast<FloatType>(element).getFloatSemantics(),
                             /*Negative=*/true)));
    partialInits.push_back(
        linalg::FillOp::create(rewriter, loc, negZero, empty).getResult(0));
    partialTypes.push_back(partialInits.back().getType());
  }
  SmallVector<utils::IteratorType> iterators{utils::IteratorType::parallel};
  llvm::append_range(iterators, op.getIteratorTypesArray());
  if (laned)
    iterators.push_back(utils::IteratorType::parallel);
  auto partial = linalg::GenericOp::create(rewriter, loc, partialTypes, inputs,
                                           partialInits, maps, iterators);
  IRMapping none;
  op.getRegion().cloneInto(&partial.getRegion(), none);
  for (unsigned extra = op.getNumDpsInputs(); extra < inputs.size(); ++extra)
    partial.getBlock()->insertArgument(extra, rewriter.getI1Type(), loc);
  // linalg.index of the op's loops, renumbered; the split loop's index is
  // its block's start plus the index inside the block.
  Block *body = partial.getBlock();
  SmallVector<linalg::IndexOp> indices(body->getOps<linalg::IndexOp>());
  for (linalg::IndexOp index : indices) {
    rewriter.setInsertionPoint(index);
    uint64_t dim = index.getDim();
    Value inner = linalg::IndexOp::create(rewriter, index.getLoc(), dim + 1);
    if (laned && dim == laneLoop) {
      Value laneIndex =
          linalg::IndexOp::create(rewriter, index.getLoc(), numLoops + 1);
      Value step =
          arith::MulIOp::create(rewriter, index.getLoc(), inner,
                                arith::ConstantIndexOp::create(
                                    rewriter, index.getLoc(), split.lanes));
      inner = arith::AddIOp::create(rewriter, index.getLoc(), step, laneIndex);
    }
    if (dim == split.loop) {
      Value block = linalg::IndexOp::create(rewriter, index.getLoc(), 0);
      Value start = arith::MulIOp::create(
          rewriter, index.getLoc(), block,
          arith::ConstantIndexOp::create(rewriter, index.getLoc(), blockSize));
      inner = arith::AddIOp::create(rewriter, index.getLoc(), start, inner);
    }
    rewriter.replaceOp(index, inner);
  }

  // The sum of each output's partials, in block order (and lane order in a
  // block), added to its init.
  rewriter.setInsertionPoint(op);
  SmallVector<Value> sums;
  for (auto [partialSum, init] :
       llvm::zip_equal(partial.getResults(), op.getDpsInits())) {
    unsigned rank = cast<RankedTensorType>(partialSum.getType()).getRank();
    AffineMap all = AffineMap::getMultiDimIdentityMap(rank, ctx);
    unsigned summed = laned ? 2 : 1;
    AffineMap withoutBlocks =
        AffineMap::get(rank, 0, all.getResults().drop_back(summed), ctx);
    SmallVector<utils::IteratorType> iterators(rank - summed,
                                               utils::IteratorType::parallel);
    iterators.append(summed, utils::IteratorType::reduction);
    auto sum = linalg::GenericOp::create(
        rewriter, loc, init.getType(), partialSum, init,
        ArrayRef<AffineMap>{all, withoutBlocks}, iterators,
        [&](OpBuilder &b, Location l, ValueRange args) {
          linalg::YieldOp::create(
              b, l, ValueRange{arith::AddFOp::create(b, l, args[1], args[0])});
        });
    sums.push_back(sum.getResult(0));
  }
  rewriter.replaceOp(op, sums);
}

struct SplitLongSumsPass : amp::impl::SplitLongSumsBase<SplitLongSumsPass> {
  using SplitLongSumsBase::SplitLongSumsBase;

  void runOnOperation() override {
    SmallVector<std::pair<linalg::GenericOp, Split>> work;
    getOperation().walk([&](linalg::GenericOp op) {
      if (std::optional<Split> split =
              chooseSplit(op, minTerms, maxPartials, lanes))
        work.emplace_back(op, *split);
    });
    IRRewriter rewriter(&getContext());
    for (auto [op, split] : work)
      splitSum(op, split, rewriter);
  }
};

} // namespace
