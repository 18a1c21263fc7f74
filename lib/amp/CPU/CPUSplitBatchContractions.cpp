//===- CPUSplitBatchContractions.cpp - amp-cpu-split-batch-contractions ---===//
//
// Writes each batched contraction on buffers (linalg.batch_matmul, or a
// generic with a batch loop that indexes every operand first) as an
// scf.for over the batch of the rank-2 contraction on its matrices, which
// amp-cpu-tile-contractions then puts on the micro-kernels. See the pass
// description in CPU/Passes.td.
//
//===----------------------------------------------------------------------===//

#include "amp/CPU/Passes.h"

#include "amp/Analysis/Contraction.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::amp {
#define GEN_PASS_DEF_CPUSPLITBATCHCONTRACTIONS
#include "amp/CPU/Passes.h.inc"
} // namespace mlir::amp

using namespace mlir;
using namespace mlir::amp;

/// The batch loop of `op`: a parallel loop that is the first result of
/// every operand's map and appears nowhere else, with four loops in all
/// and rank-3 memref operands; nullopt otherwise.
static std::optional<unsigned> batchLoop(linalg::GenericOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumLoops() != 4 ||
      op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1 ||
      !op.getBody()->getOps<linalg::IndexOp>().empty())
    return std::nullopt;
  std::optional<unsigned> batch;
  for (OpOperand &operand : op->getOpOperands()) {
    auto type = dyn_cast<MemRefType>(operand.get().getType());
    AffineMap map = op.getMatchingIndexingMap(&operand);
    if (!type || type.getRank() != 3 || map.getNumResults() != 3)
      return std::nullopt;
    auto first = dyn_cast<AffineDimExpr>(map.getResult(0));
    if (!first || (batch && *batch != first.getPosition()))
      return std::nullopt;
    batch = first.getPosition();
    for (AffineExpr expr : map.getResults().drop_front())
      if (expr.isFunctionOfDim(*batch))
        return std::nullopt;
  }
  if (op.getIteratorTypesArray()[*batch] != utils::IteratorType::parallel)
    return std::nullopt;
  return batch;
}

/// Rewrites `op` (batch loop `batch`) as an scf.for over the batch of its
/// rank-2 contraction, when amp-cpu-tile-contractions would take that
/// (else leaves `op` as it is).
static void splitBatch(linalg::GenericOp op, unsigned batch,
                       RewriterBase &rewriter) {
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  Value extent = memref::DimOp::create(rewriter, loc, op.getDpsInits()[0], 0);
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  auto loop = scf::ForOp::create(rewriter, loc, zero, extent, one);
  rewriter.setInsertionPointToStart(loop.getBody());
  Value b = loop.getInductionVar();

  // The b-th matrix of each operand, rank-reduced.
  SmallVector<Value> matrices;
  for (Value operand : op->getOperands()) {
    auto type = cast<MemRefType>(operand.getType());
    SmallVector<OpFoldResult> offsets = {b, rewriter.getIndexAttr(0),
                                         rewriter.getIndexAttr(0)};
    SmallVector<OpFoldResult> sizes = {rewriter.getIndexAttr(1)};
    for (int64_t d = 1; d < 3; ++d)
      sizes.push_back(memref::getMixedSize(rewriter, loc, operand, d));
    SmallVector<OpFoldResult> strides(3, rewriter.getIndexAttr(1));
    auto reduced = memref::SubViewOp::inferRankReducedResultType(
        {type.getShape()[1], type.getShape()[2]}, type, offsets, sizes,
        strides);
    matrices.push_back(
        memref::SubViewOp::create(rewriter, loc, cast<MemRefType>(reduced),
                                  operand, offsets, sizes, strides));
  }
  // The maps without the batch: its result dropped, its loop removed.
  SmallVector<AffineMap> maps;
  for (AffineMap map : op.getIndexingMapsArray())
    maps.push_back(
        compressDims(map.dropResult(0), llvm::SmallBitVector(4).set(batch)));
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  iterators.erase(iterators.begin() + batch);
  auto matrix = linalg::GenericOp::create(
      rewriter, loc, TypeRange(), ValueRange(matrices).take_front(2),
      ValueRange(matrices).drop_front(2), maps, iterators);
  rewriter.cloneRegionBefore(op.getRegion(), matrix.getRegion(),
                             matrix.getRegion().begin());

  if (!matchBufferContraction(matrix)) {
    rewriter.eraseOp(loop);
    return;
  }
  rewriter.eraseOp(op);
}

namespace {
struct CPUSplitBatchContractionsPass
    : amp::impl::CPUSplitBatchContractionsBase<CPUSplitBatchContractionsPass> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    SmallVector<linalg::BatchMatmulOp> named;
    getOperation().walk([&](linalg::BatchMatmulOp op) {
      if (op.hasPureBufferSemantics())
        named.push_back(op);
    });
    for (linalg::BatchMatmulOp op : named) {
      rewriter.setInsertionPoint(op);
      (void)linalg::generalizeNamedOp(rewriter, op);
    }
    SmallVector<std::pair<linalg::GenericOp, unsigned>> work;
    getOperation().walk([&](linalg::GenericOp op) {
      if (std::optional<unsigned> batch = batchLoop(op))
        work.emplace_back(op, *batch);
    });
    for (auto [op, batch] : work)
      splitBatch(op, batch, rewriter);
  }
};
} // namespace
