//===- GPUParallelDimsOuter.cpp - amp-gpu-parallel-dims-outer -------------===//
//
// Parallel loops of every linalg.generic first, reductions last, so that one
// scf.parallel (one kernel) covers every parallel dimension of the op.
//
//===----------------------------------------------------------------------===//

#include "amp/GPU/Passes.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::amp {
#define GEN_PASS_DEF_GPUPARALLELDIMSOUTER
#include "amp/GPU/Passes.h.inc"
} // namespace mlir::amp

using namespace mlir;

namespace {
struct GPUParallelDimsOuterPass
    : amp::impl::GPUParallelDimsOuterBase<GPUParallelDimsOuterPass> {
  void runOnOperation() override {
    SmallVector<linalg::GenericOp> generics;
    getOperation().walk([&](linalg::GenericOp op) { generics.push_back(op); });
    IRRewriter rewriter(&getContext());
    for (linalg::GenericOp op : generics) {
      SmallVector<unsigned> parallel, reduction;
      for (auto [i, iter] : llvm::enumerate(op.getIteratorTypesArray()))
        (linalg::isParallelIterator(iter) ? parallel : reduction).push_back(i);
      SmallVector<unsigned> permutation(parallel);
      permutation.append(reduction);
      bool identity = true;
      for (auto [i, p] : llvm::enumerate(permutation))
        identity &= i == p;
      if (identity)
        continue;
      rewriter.setInsertionPoint(op);
      if (failed(linalg::interchangeGenericOp(rewriter, op, permutation))) {
        op.emitError("amp-gpu-parallel-dims-outer could not interchange the "
                     "loops of this linalg.generic");
        return signalPassFailure();
      }
    }
  }
};
} // namespace
