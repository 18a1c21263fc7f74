//===- CPUParallelize.cpp - amp-cpu-parallelize ---------------------------===//
//
// Cuts the linalg ops of a bufferized step into scf.parallel chunks of
// output elements, so that amp-lower-to-llvm can run them on every core
// (convert-scf-to-openmp). Each output element stays with one thread and
// keeps its reduction order; see the pass description in Passes.td.
//
//===----------------------------------------------------------------------===//

#include "amp/Analysis/BufferUses.h"
#include "amp/CPU/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace mlir::amp {
#define GEN_PASS_DEF_CPUPARALLELIZE
#include "amp/CPU/Passes.h.inc"
} // namespace mlir::amp

using namespace mlir;
using namespace mlir::amp;

/// Iterations a dynamic loop is assumed to have when estimating work.
static constexpr int64_t kAssumedDynamicExtent = 128;

/// Loop iterations of `op` (dynamic loops counted as
/// kAssumedDynamicExtent).
static int64_t estimatedWork(linalg::LinalgOp op) {
  int64_t work = 1;
  for (int64_t e : op.getStaticLoopRanges())
    work *= ShapedType::isDynamic(e) ? kAssumedDynamicExtent : e;
  return work;
}

/// Whether init `init` of `op` is an or-flag: a 0-d integer output whose
/// yielded value is `arith.ori` of its block argument (used nowhere else)
/// and a value computed without it.
static bool isOrFlag(linalg::GenericOp op, OpOperand &init) {
  if (!op.getMatchingIndexingMap(&init).getResults().empty() ||
      !isa<IntegerType>(getElementTypeOrSelf(init.get().getType())))
    return false;
  BlockArgument arg = op.getMatchingBlockArgument(&init);
  auto yield = cast<linalg::YieldOp>(op.getBody()->getTerminator());
  unsigned resultNo = init.getOperandNumber() - op.getNumDpsInputs();
  auto orOp = yield.getValues()[resultNo].getDefiningOp<arith::OrIOp>();
  return orOp && arg.hasOneUse() &&
         (orOp.getLhs() == arg) != (orOp.getRhs() == arg);
}

/// If loop 0 of `op` is a reduction only because of or-flags (every other
/// output is indexed by it), rewrites `op` so that loop 0 is parallel: each
/// flag is or-reduced per index of loop 0 into a fresh buffer (filled with
/// false), which is or-reduced into the flag after the op and freed. Returns
/// the rewritten op, or `op` unchanged.
static linalg::GenericOp privatizeOrFlags(RewriterBase &rewriter,
                                          linalg::GenericOp op) {
  if (op.getNumLoops() == 0 ||
      op.getIteratorTypesArray()[0] != utils::IteratorType::reduction)
    return op;
  MLIRContext *ctx = op.getContext();
  AffineExpr d0 = getAffineDimExpr(0, ctx);
  SmallVector<OpOperand *> flags;
  for (OpOperand &init : op.getDpsInitsMutable()) {
    if (isOrFlag(op, init)) {
      flags.push_back(&init);
      continue;
    }
    AffineMap map = op.getMatchingIndexingMap(&init);
    if (!llvm::is_contained(map.getResults(), d0))
      return op;
  }
  if (flags.empty())
    return op;
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  SmallVector<Range, 4> ranges =
      cast<linalg::LinalgOp>(op.getOperation()).createLoopRanges(rewriter, loc);
  Value extent = getValueOrCreateConstantIndexOp(rewriter, loc, ranges[0].size);
  SmallVector<Value> inits(op.getDpsInits());
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  AffineMap perRow = AffineMap::get(op.getNumLoops(), 0, d0);
  SmallVector<std::pair<Value, Value>> partials; // (partial, flag)
  for (OpOperand *flag : flags) {
    auto type = cast<MemRefType>(flag->get().getType());
    auto partialType =
        MemRefType::get({ShapedType::kDynamic}, type.getElementType());
    if (auto size = getConstantIntValue(ranges[0].size))
      partialType = MemRefType::get({*size}, type.getElementType());
    Value partial = memref::AllocOp::create(
        rewriter, loc, partialType,
        partialType.hasStaticShape() ? ValueRange{} : ValueRange{extent});
    Value zero = arith::ConstantOp::create(
        rewriter, loc, rewriter.getZeroAttr(type.getElementType()));
    linalg::FillOp::create(rewriter, loc, ValueRange{zero},
                           ValueRange{partial});
    unsigned resultNo = flag->getOperandNumber() - op.getNumDpsInputs();
    inits[resultNo] = partial;
    maps[flag->getOperandNumber()] = perRow;
    partials.push_back({partial, flag->get()});
  }
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  iterators[0] = utils::IteratorType::parallel;
  auto rewritten = linalg::GenericOp::create(
      rewriter, loc, TypeRange{}, op.getDpsInputs(), inits, maps, iterators);
  rewriter.inlineRegionBefore(op.getRegion(), rewritten.getRegion(),
                              rewritten.getRegion().end());
  // flag |= partial[i] for every i, then free the partial flags.
  AffineMap id1 = AffineMap::getMultiDimIdentityMap(1, ctx);
  AffineMap scalar1 = AffineMap::get(1, 0, ctx);
  for (auto [partial, flag] : partials) {
    linalg::GenericOp::create(
        rewriter, loc, ValueRange{partial}, ValueRange{flag},
        ArrayRef<AffineMap>{id1, scalar1},
        ArrayRef<utils::IteratorType>{utils::IteratorType::reduction},
        [](OpBuilder &b, Location l, ValueRange args) {
          linalg::YieldOp::create(
              b, l, ValueRange{arith::OrIOp::create(b, l, args[1], args[0])});
        });
    memref::DeallocOp::create(rewriter, loc, partial);
  }
  rewriter.eraseOp(op);
  return rewritten;
}

/// Whether an output of `op` shares memory with an input read through a
/// different indexing map (chunks could then read what another chunk
/// wrote). Bufferization does not produce such ops; views made by hand
/// could.
static bool hasCrossChunkAliasing(linalg::LinalgOp op) {
  for (OpOperand &init : op.getDpsInitsMutable())
    for (OpOperand *input : op.getDpsInputOperands())
      if (viewRoot(init.get()) == viewRoot(input->get()) &&
          op.getMatchingIndexingMap(&init) != op.getMatchingIndexingMap(input))
        return true;
  return false;
}

/// Whether every term of `expr` grows with its dimensions (sums of
/// dimensions times positive constants, plus constants). Upstream's tiling
/// (computeSliceParameters) takes an operand's slice to start at the
/// expression of the tile's first iteration and to end at that of its
/// last, which holds only for such expressions: `i - k + 2` (the input
/// cotangent of a convolution, a transposed window) would get a slice too
/// short for the kernel.
static bool isMonotone(AffineExpr expr) {
  bool monotone = true;
  expr.walk([&](AffineExpr e) {
    auto bin = dyn_cast<AffineBinaryOpExpr>(e);
    if (!bin)
      return;
    if (bin.getKind() == AffineExprKind::Add)
      return;
    auto rhs = dyn_cast<AffineConstantExpr>(bin.getRHS());
    if (bin.getKind() != AffineExprKind::Mul || !rhs || rhs.getValue() < 0)
      monotone = false;
  });
  return monotone;
}

/// Whether loop `d` of `op` can be cut into chunks: every operand result
/// that depends on it is monotone.
static bool canChunk(linalg::LinalgOp op, unsigned d) {
  for (AffineMap map : op.getIndexingMapsArray())
    for (AffineExpr result : map.getResults())
      if (result.isFunctionOfDim(d) && !isMonotone(result))
        return false;
  return true;
}

namespace {
struct CPUParallelizePass : amp::impl::CPUParallelizeBase<CPUParallelizePass> {
  using Base::Base;

  /// Tile sizes that cut `op` into chunks (one non-zero entry), or empty
  /// when it stays sequential.
  SmallVector<int64_t> chooseChunks(linalg::LinalgOp op) const {
    SmallVector<int64_t> extents = op.getStaticLoopRanges();
    SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
    int64_t work = estimatedWork(op);
    if (extents.empty() || work < minWork)
      return {};
    for (auto [d, extent] : llvm::enumerate(extents)) {
      if (iterators[d] != utils::IteratorType::parallel || extent == 1 ||
          !canChunk(op, d))
        continue;
      bool dynamic = ShapedType::isDynamic(extent);
      int64_t size = dynamic ? kAssumedDynamicExtent : extent;
      int64_t inner = work / size;
      int64_t tile = std::max<int64_t>(1, llvm::divideCeil(chunkWork, inner));
      // The innermost loop is the vectorized one: whole vectors per chunk.
      if (d + 1 == extents.size())
        tile = llvm::alignTo(tile, 64);
      if (!dynamic && llvm::divideCeil(size, tile) < 2)
        continue;
      SmallVector<int64_t> tiles(extents.size(), 0);
      tiles[d] = tile;
      return tiles;
    }
    return {};
  }

  void runOnOperation() override {
    if (minWork < 1 || chunkWork < 1) {
      mlir::emitError(getOperation().getLoc(),
                      "amp-cpu-parallelize: min-work and chunk-work must be "
                      "at least 1");
      return signalPassFailure();
    }
    SmallVector<linalg::LinalgOp> ops;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (op.hasPureBufferSemantics() &&
          !op->getParentOfType<scf::ParallelOp>())
        ops.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : ops) {
      // (Only worth it when the op is cut afterwards.)
      if (auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
          generic && estimatedWork(op) >= minWork)
        op = privatizeOrFlags(rewriter, generic);
      if (hasCrossChunkAliasing(op))
        continue;
      SmallVector<int64_t> tiles = chooseChunks(op);
      if (tiles.empty())
        continue;
      rewriter.setInsertionPoint(op);
      linalg::LinalgTilingOptions options;
      options.setTileSizes(tiles).setLoopType(
          linalg::LinalgTilingLoopType::ParallelLoops);
      FailureOr<linalg::TiledLinalgOp> tiled =
          linalg::tileLinalgOp(rewriter, op, options);
      if (failed(tiled))
        continue;
      rewriter.eraseOp(op);
    }
  }
};
} // namespace
