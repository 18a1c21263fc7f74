//===- GPUMapParallelLoops.cpp - amp-gpu-map-parallel-loops ---------------===//
//
// Collapses every outermost scf.parallel to one dimension, tiles it into a
// block loop and a thread loop of block-size threads and maps them to
// block x and thread x. See the pass description in GPU/Passes.td.
//
//===----------------------------------------------------------------------===//

#include "amp/GPU/Passes.h"

#include "mlir/Dialect/GPU/Transforms/ParallelLoopMapper.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/IR/PatternMatch.h"

#include <numeric>

namespace mlir::amp {
#define GEN_PASS_DEF_GPUMAPPARALLELLOOPS
#include "amp/GPU/Passes.h.inc"
} // namespace mlir::amp

using namespace mlir;

/// Maps the one dimension of `loop` to processor `p`.
static void map(scf::ParallelOp loop, gpu::Processor p) {
  MLIRContext *ctx = loop.getContext();
  AffineMap id = AffineMap::getMultiDimIdentityMap(1, ctx);
  (void)gpu::setMappingAttr(
      loop, {gpu::ParallelLoopDimMappingAttr::get(ctx, p, id, id)});
}

/// `op` with all its dimensions collapsed into one, the last the fastest
/// (upstream's collapseParallelLoops: the linear index is split back with
/// remsi/divsi in the body).
static scf::ParallelOp collapseToOneDim(RewriterBase &rewriter,
                                        scf::ParallelOp op) {
  if (op.getNumLoops() == 1)
    return op;
  Block *block = op->getBlock();
  Operation *before = op->getPrevNode();
  Operation *after = op->getNextNode();
  std::vector<unsigned> all(op.getNumLoops());
  std::iota(all.begin(), all.end(), 0u);
  collapseParallelLoops(rewriter, op, {all});
  auto it = before ? std::next(before->getIterator()) : block->begin();
  auto end = after ? after->getIterator() : block->end();
  scf::ParallelOp collapsed;
  for (; it != end; ++it)
    if (auto parallel = dyn_cast<scf::ParallelOp>(*it))
      collapsed = parallel;
  return collapsed;
}

namespace {
struct GPUMapParallelLoopsPass
    : amp::impl::GPUMapParallelLoopsBase<GPUMapParallelLoopsPass> {
  using Base::Base;
  void runOnOperation() override {
    if (blockSize < 1 || blockSize > 1024) {
      // Located on the function, without printing all of it.
      mlir::emitError(getOperation().getLoc(),
                      "amp-gpu-map-parallel-loops: block-size must be in "
                      "[1, 1024], got ")
          << static_cast<int64_t>(blockSize);
      return signalPassFailure();
    }
    SmallVector<scf::ParallelOp> outermost;
    getOperation().walk([&](scf::ParallelOp op) {
      if (!op->getParentOfType<scf::ParallelOp>() &&
          !op->getParentOfType<gpu::LaunchOp>())
        outermost.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (scf::ParallelOp op : outermost) {
      // The pipeline's loops come from linalg (reductions are scf.for
      // inside); a parallel reduction has no one-thread-per-iteration form.
      if (op.getNumResults() != 0) {
        op->emitError("amp-gpu-map-parallel-loops: an scf.parallel with "
                      "reductions is not mapped to the GPU");
        return signalPassFailure();
      }
      rewriter.setInsertionPoint(op);
      scf::ParallelOp flat = collapseToOneDim(rewriter, op);
      if (!flat) {
        op->emitError("amp-gpu-map-parallel-loops: collapsing the loop to "
                      "one dimension failed");
        return signalPassFailure();
      }
      auto [blocks, threads] = scf::tileParallelLoop(
          flat, {static_cast<int64_t>(blockSize)}, /*noMinMaxBounds=*/true);
      map(blocks, gpu::Processor::BlockX);
      map(threads, gpu::Processor::ThreadX);
    }
  }
};
} // namespace
