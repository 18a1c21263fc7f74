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

/// Where to split: loop `loop` into `blocks` blocks.
struct Split {
  unsigned loop;
  int64_t blocks;
};

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
                                        int64_t maxPartials) {
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

  // Loops of the partial sums: the block first, then the op's loops, with
  // `split.loop` now running inside one block.
  SmallVector<AffineExpr> replacements;
  for (unsigned loop = 0; loop < numLoops; ++loop) {
    AffineExpr inner = getAffineDimExpr(loop + 1, ctx);
    replacements.push_back(loop == split.loop
                               ? getAffineDimExpr(0, ctx) * blockSize + inner
                               : inner);
  }
  auto rewriteMap = [&](AffineMap map) {
    return map.replaceDimsAndSymbols(replacements, {}, numLoops + 1,
                                     map.getNumSymbols());
  };
  SmallVector<AffineMap> maps;
  for (OpOperand *input : op.getDpsInputOperands())
    maps.push_back(rewriteMap(op.getMatchingIndexingMap(input)));
  // The loop inside a block may appear only in expressions (a convolution's
  // window), from which linalg cannot infer its extent: one more input, a
  // tensor.empty of that extent that the body ignores, gives it (as
  // upstream's splitReductionByScaling does).
  SmallVector<Value> inputs(op.getDpsInputs());
  inputs.push_back(tensor::EmptyOp::create(rewriter, loc, {blockSize},
                                           rewriter.getI1Type()));
  maps.push_back(
      AffineMap::get(numLoops + 1, 0, getAffineDimExpr(split.loop + 1, ctx)));
  SmallVector<Value> partialInits;
  SmallVector<Type> partialTypes;
  for (OpOperand &init : op.getDpsInitsMutable()) {
    AffineMap map = rewriteMap(op.getMatchingIndexingMap(&init));
    maps.push_back(
        map.insertResult(getAffineDimExpr(0, ctx), map.getNumResults()));
    auto type = cast<RankedTensorType>(init.get().getType());
    SmallVector<int64_t> shape(type.getShape());
    shape.push_back(split.blocks);
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
  auto partial = linalg::GenericOp::create(rewriter, loc, partialTypes, inputs,
                                           partialInits, maps, iterators);
  IRMapping none;
  op.getRegion().cloneInto(&partial.getRegion(), none);
  partial.getBlock()->insertArgument(op.getNumDpsInputs(), rewriter.getI1Type(),
                                     loc);
  // linalg.index of the op's loops, renumbered; the split loop's index is
  // its block's start plus the index inside the block.
  Block *body = partial.getBlock();
  SmallVector<linalg::IndexOp> indices(body->getOps<linalg::IndexOp>());
  for (linalg::IndexOp index : indices) {
    rewriter.setInsertionPoint(index);
    uint64_t dim = index.getDim();
    Value inner = linalg::IndexOp::create(rewriter, index.getLoc(), dim + 1);
    if (dim == split.loop) {
      Value block = linalg::IndexOp::create(rewriter, index.getLoc(), 0);
      Value start = arith::MulIOp::create(
          rewriter, index.getLoc(), block,
          arith::ConstantIndexOp::create(rewriter, index.getLoc(), blockSize));
      inner = arith::AddIOp::create(rewriter, index.getLoc(), start, inner);
    }
    rewriter.replaceOp(index, inner);
  }

  // The sum of each output's partials, in block order, added to its init.
  rewriter.setInsertionPoint(op);
  SmallVector<Value> sums;
  for (auto [partialSum, init] :
       llvm::zip_equal(partial.getResults(), op.getDpsInits())) {
    unsigned rank = cast<RankedTensorType>(partialSum.getType()).getRank();
    AffineMap all = AffineMap::getMultiDimIdentityMap(rank, ctx);
    AffineMap withoutBlocks =
        AffineMap::get(rank, 0, all.getResults().drop_back(), ctx);
    SmallVector<utils::IteratorType> iterators(rank - 1,
                                               utils::IteratorType::parallel);
    iterators.push_back(utils::IteratorType::reduction);
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
      if (std::optional<Split> split = chooseSplit(op, minTerms, maxPartials))
        work.emplace_back(op, *split);
    });
    IRRewriter rewriter(&getContext());
    for (auto [op, split] : work)
      splitSum(op, split, rewriter);
  }
};

} // namespace
