//===- CheckLLVMLowering.cpp - amp-check-llvm-lowering --------------------===//

#include "amp/CPU/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "llvm/ADT/StringSet.h"

namespace mlir::amp {
#define GEN_PASS_DEF_CHECKLLVMLOWERING
#include "amp/CPU/Passes.h.inc"
} // namespace mlir::amp

using namespace mlir;

namespace {
struct CheckLLVMLoweringPass
    : amp::impl::CheckLLVMLoweringBase<CheckLLVMLoweringPass> {
  void runOnOperation() override {
    llvm::StringSet<> reported;
    bool ok = true;
    getOperation().walk([&](Operation *op) {
      // Ops of unregistered dialects have no Dialect (null): not lowered.
      Dialect *dialect = op->getDialect();
      // OpenMP ops (the parallel loops) are translated to LLVM IR as they
      // are, with LLVM-typed operands.
      if (op == getOperation() ||
          (dialect && isa<LLVM::LLVMDialect, omp::OpenMPDialect>(dialect)))
        return;
      ok = false;
      if (reported.insert(op->getName().getStringRef()).second)
        emitError(op->getLoc())
            << "amp-lower-to-llvm could not lower '" << op->getName()
            << "' to the LLVM dialect; no pattern of the CPU pipeline "
               "handles it (rewrite it with ops the pipeline supports, e.g. "
               "linalg named ops, linalg.generic, tensor, arith, math)";
    });
    if (!ok)
      signalPassFailure();
  }
};
} // namespace
