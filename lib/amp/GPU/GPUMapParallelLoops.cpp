//===- GPUMapParallelLoops.cpp - amp-gpu-map-parallel-loops ---------------===//
//
// Tiles every outermost scf.parallel into a block loop and a thread loop and
// maps both to GPU processors, innermost dimension to x (coalesced).
//
//===----------------------------------------------------------------------===//

#include "amp/GPU/Passes.h"

#include "mlir/Dialect/GPU/Transforms/ParallelLoopMapper.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"

namespace mlir::amp {
#define GEN_PASS_DEF_GPUMAPPARALLELLOOPS
#include "amp/GPU/Passes.h.inc"
} // namespace mlir::amp

using namespace mlir;

/// Threads per block along each loop dimension: x is the innermost loop.
static SmallVector<int64_t> threadTile(unsigned rank, int64_t blockSize) {
  SmallVector<int64_t> tile(rank, 1);
  if (rank == 1) {
    tile[0] = blockSize;
  } else {
    tile[rank - 1] = 32;
    tile[rank - 2] = 8;
  }
  return tile;
}

/// Innermost dimension -> x, then y, then z; the others sequential.
static void map(scf::ParallelOp loop, gpu::Processor x) {
  MLIRContext *ctx = loop.getContext();
  unsigned rank = loop.getNumLoops();
  AffineMap id = AffineMap::getMultiDimIdentityMap(1, ctx);
  SmallVector<gpu::ParallelLoopDimMappingAttr> mapping;
  for (unsigned d = 0; d < rank; ++d) {
    unsigned fromInner = rank - 1 - d;
    gpu::Processor p =
        fromInner < 3
            ? static_cast<gpu::Processor>(static_cast<uint64_t>(x) + fromInner)
            : gpu::Processor::Sequential;
    mapping.push_back(gpu::ParallelLoopDimMappingAttr::get(ctx, p, id, id));
  }
  (void)gpu::setMappingAttr(loop, mapping);
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
    for (scf::ParallelOp op : outermost) {
      auto [blocks, threads] =
          scf::tileParallelLoop(op, threadTile(op.getNumLoops(), blockSize),
                                /*noMinMaxBounds=*/true);
      map(blocks, gpu::Processor::BlockX);
      map(threads, gpu::Processor::ThreadX);
    }
  }
};
} // namespace
