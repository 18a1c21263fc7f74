//===- DifferentiatePass.cpp - amp-differentiate --------------------------===//

#include "amp/Autodiff/Passes.h"

#include "amp/Autodiff/Activity.h"
#include "amp/Autodiff/Differentiate.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir::amp {
#define GEN_PASS_DEF_DIFFERENTIATE
#include "amp/Autodiff/Passes.h.inc"
} // namespace mlir::amp

using namespace mlir;
using namespace mlir::amp::autodiff;

namespace {

/// The default selection: public functions with a body, one scalar float
/// tensor result and at least one float tensor argument.
bool isDefaultCandidate(func::FuncOp fn) {
  FunctionType type = fn.getFunctionType();
  if (!fn.isPublic() || fn.isDeclaration() || type.getNumResults() != 1)
    return false;
  auto loss = dyn_cast<RankedTensorType>(type.getResult(0));
  if (!loss || loss.getRank() != 0 || !isa<FloatType>(loss.getElementType()))
    return false;
  return llvm::any_of(type.getInputs(), [](Type t) {
    return isa<RankedTensorType>(t) && isDifferentiableType(t);
  });
}

SmallVector<unsigned> floatTensorArguments(func::FuncOp fn) {
  SmallVector<unsigned> indices;
  for (auto [i, t] : llvm::enumerate(fn.getArgumentTypes()))
    if (isa<RankedTensorType>(t) && isDifferentiableType(t))
      indices.push_back(i);
  return indices;
}

struct DifferentiatePass : amp::impl::DifferentiateBase<DifferentiatePass> {
  using DifferentiateBase::DifferentiateBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<func::FuncOp> functions;
    if (!function.empty()) {
      auto fn = module.lookupSymbol<func::FuncOp>(function);
      if (!fn) {
        emitError(module.getLoc()) << "amp-differentiate: no func.func @"
                                   << function << " in the module";
        return signalPassFailure();
      }
      functions.push_back(fn);
    } else {
      for (auto fn : module.getOps<func::FuncOp>())
        if (isDefaultCandidate(fn))
          functions.push_back(fn);
      if (functions.empty()) {
        // At the location only (an op's warning would print the module).
        emitWarning(module.getLoc())
            << "amp-differentiate: no public function returns one scalar "
               "float tensor from float tensor arguments; nothing to "
               "differentiate (name one with function=<name>)";
        return;
      }
    }
    for (func::FuncOp fn : functions) {
      SmallVector<unsigned> args(wrt.begin(), wrt.end());
      if (wrt.empty())
        args = floatTensorArguments(fn);
      if (args.empty()) {
        emitError(fn.getLoc())
            << "amp-differentiate: @" << fn.getSymName()
            << " has no float tensor argument to differentiate "
               "with respect to (its gradient function would "
               "return nothing)";
        return signalPassFailure();
      }
      std::string gradName = (fn.getSymName() + "_grad").str();
      if (failed(buildGradientFunction(fn, args, gradName)))
        return signalPassFailure();
    }
  }
};

} // namespace
