//===- GPUPreconditions.h - input checks of the GPU stage passes -*- C++
//-*-===//
//
// The amp-gpu-* passes are stages of amp-lower-to-nvvm and expect the IR
// that the previous stages produce. Run alone on other input (the
// robustness corpus does), they must reject it with a located error that
// names the op and what the pass expects, never crash (issue 5).
//
//===----------------------------------------------------------------------===//

#ifndef AMP_TRANSFORMS_GPUPRECONDITIONS_H
#define AMP_TRANSFORMS_GPUPRECONDITIONS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"

namespace mlir::amp {

/// Fails (error on the op) at the first unregistered op in `func`: a stage
/// pass cannot tell where such an op runs or what it touches.
inline LogicalResult rejectUnregisteredOps(func::FuncOp func, StringRef pass) {
  WalkResult result = func.walk([&](Operation *op) {
    if (op->getDialect())
      return WalkResult::advance();
    op->emitError() << pass << ": unregistered op '" << op->getName()
                    << "' is not supported; run as part of amp-lower-to-nvvm "
                       "on IR of registered dialects";
    return WalkResult::interrupt();
  });
  return failure(result.wasInterrupted());
}

/// Fails (error on the op or function) when `func` still has tensor values:
/// memref-level stages run after one-shot bufferization.
inline LogicalResult requireBufferized(func::FuncOp func, StringRef pass) {
  auto isTensor = [](Type t) { return isa<TensorType>(t); };
  if (llvm::any_of(func.getArgumentTypes(), isTensor) ||
      llvm::any_of(func.getResultTypes(), isTensor))
    return emitError(func.getLoc())
           << pass
           << " expects bufferized input (memrefs, no tensors) but this "
              "function takes or returns tensors; run as part of "
              "amp-lower-to-nvvm (after one-shot-bufferize)";
  WalkResult result = func.walk([&](Operation *op) {
    auto hasTensor = [&](ValueRange values) {
      return llvm::any_of(values.getTypes(), isTensor);
    };
    bool blockArgs = llvm::any_of(op->getRegions(), [&](Region &r) {
      return llvm::any_of(r, [&](Block &b) {
        return llvm::any_of(b.getArgumentTypes(), isTensor);
      });
    });
    if (!hasTensor(op->getOperands()) && !hasTensor(op->getResults()) &&
        !blockArgs)
      return WalkResult::advance();
    op->emitError() << pass << " expects bufferized input (memrefs, no "
                    << "tensors) but '" << op->getName()
                    << "' works on tensors; run as part of amp-lower-to-nvvm "
                       "(after one-shot-bufferize)";
    return WalkResult::interrupt();
  });
  return failure(result.wasInterrupted());
}

} // namespace mlir::amp

#endif // AMP_TRANSFORMS_GPUPRECONDITIONS_H
