//===- VerifyTrainingStep.cpp - amp-verify-training-step ------------------===//

#include "amp/Analysis/TrainingStep.h"
#include "amp/Transforms/Passes.h"

namespace mlir::amp {
#define GEN_PASS_DEF_VERIFYTRAININGSTEP
#include "amp/Transforms/Passes.h.inc"
} // namespace mlir::amp

using namespace mlir;
using namespace mlir::amp;

namespace {
struct VerifyTrainingStepPass
    : amp::impl::VerifyTrainingStepBase<VerifyTrainingStepPass> {
  void runOnOperation() override {
    bool ok = true;
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (func->hasAttr(kTrainStepAttr)) {
        // A step whose markers were consumed by loss scaling still has to
        // satisfy the rest of the contract.
        bool scaled =
            llvm::any_of(llvm::seq(func.getNumArguments()), [&](unsigned i) {
              auto role = func.getArgAttrOfType<StringAttr>(i, kRoleAttr);
              return role && (role.getValue() == "loss_scale" ||
                              role.getValue() == "consecutive_skips");
            });
        ok &= succeeded(TrainingStep::analyze(func, !scaled));
      }
      if (func->hasAttr(kEvalStepAttr))
        ok &= succeeded(EvalStep::analyze(func));
    }
    if (!ok)
      signalPassFailure();
    markAllAnalysesPreserved();
  }
};
} // namespace
