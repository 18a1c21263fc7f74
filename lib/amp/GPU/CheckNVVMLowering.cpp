//===- CheckNVVMLowering.cpp - amp-check-nvvm-lowering --------------------===//

#include "amp/GPU/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "llvm/ADT/StringSet.h"

namespace mlir::amp {
#define GEN_PASS_DEF_CHECKNVVMLOWERING
#include "amp/GPU/Passes.h.inc"
} // namespace mlir::amp

using namespace mlir;

namespace {
struct CheckNVVMLoweringPass
    : amp::impl::CheckNVVMLoweringBase<CheckNVVMLoweringPass> {
  void runOnOperation() override {
    llvm::StringSet<> reported;
    bool ok = true;
    getOperation().walk([&](gpu::GPUModuleOp module) {
      module.walk([&](Operation *op) {
        if (op == module.getOperation() ||
            isa_and_nonnull<LLVM::LLVMDialect, NVVM::NVVMDialect>(
                op->getDialect()))
          return;
        ok = false;
        if (!reported.insert(op->getName().getStringRef()).second)
          return;
        InFlightDiagnostic diag = emitError(op->getLoc())
                                  << "amp-lower-to-nvvm could not lower '"
                                  << op->getName() << "' in kernel module '"
                                  << module.getName() << "' to LLVM/NVVM; ";
        // Unregistered ops (null dialect) have no conversion to look for.
        if (!op->isRegistered())
          diag << "the op is not registered, so no conversion can handle it";
        else
          diag << "no conversion pattern handles it (are the ConvertToLLVM "
                  "interfaces registered in this tool? "
                  "mlir::registerAllExtensions)";
      });
    });
    // Host code: LLVM, plus the GPU ops that LLVM IR translation handles.
    getOperation()->walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (isa<gpu::GPUModuleOp>(op))
        return WalkResult::skip();
      if (op == getOperation() ||
          isa_and_nonnull<LLVM::LLVMDialect>(op->getDialect()) ||
          isa<gpu::BinaryOp, gpu::LaunchFuncOp>(op))
        return WalkResult::advance();
      ok = false;
      if (reported.insert(op->getName().getStringRef()).second)
        emitError(op->getLoc())
            << "amp-lower-to-nvvm could not lower '" << op->getName()
            << "' in host code to LLVM"
            << (op->isRegistered() ? "" : "; the op is not registered");
      return WalkResult::advance();
    });
    if (!ok)
      signalPassFailure();
  }
};
} // namespace
