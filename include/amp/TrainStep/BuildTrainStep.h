//===- BuildTrainStep.h - forward model -> training step --------*- C++ -*-===//
//
// The C++ entry point of `amp-build-train-step`
// (docs/training-step-builder.md): a forward model (a func.func returning
// logits, a regression output or a loss) becomes an fp32 training step that
// follows docs/training-step.md (roles, `amp.loss_grad`, one `amp.grad` per
// parameter, `amp.updates`), plus an `amp.eval_step`, so that
// amp-mixed-precision, the lowerings and amp-run take it as it is.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_TRAINSTEP_BUILDTRAINSTEP_H
#define AMP_TRAINSTEP_BUILDTRAINSTEP_H

#include "amp/TrainStep/TrainStepOptions.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::amp::trainstep {

/// Symbol names of the functions the builder adds.
constexpr llvm::StringLiteral kTrainStepName = "train_step";
constexpr llvm::StringLiteral kEvalStepName = "eval_step";

struct BuiltSteps {
  func::FuncOp train;
  func::FuncOp eval; ///< null: no eval step (loss=none, output not B x C)
};

/// Builds `@train_step` (and `@eval_step`) in `module` from the model
/// function chosen by `options.function` and erases the model when nothing
/// else refers to it.
///
/// `@train_step(params..., opt_state..., input, label | target)` returns
/// `(loss, params'..., opt_state'...)`: the forward of the model (its body,
/// with every trained value read from its `param` argument), the loss
/// (Losses.h), `%seed = amp.loss_grad %loss`, the backward from the seed
/// (amp-differentiate's `autodiff::differentiate`), `amp.grad` per
/// parameter, and the optimizer's update (Optimizers.h). A parameter made
/// from a constant keeps the constant's value as its `amp.initial_value`
/// (so a driver fine-tunes the model's weights). `@eval_step(params...,
/// input)` returns the model's output with amp.role = "logits".
///
/// A parameter whose gradient would not depend on the loss (the output
/// reads it only through ops without a derivative: fptosi / sitofp, a
/// comparison) is found by building the backward: chosen by
/// params=constants it stays a constant with a warning and the step is
/// built again without it (PyTorch leaves such a parameter's .grad None);
/// named in params= it is an error. The constants params=constants leaves
/// because they are not weights (ParameterSelection.h, `notWeightReason`)
/// get a remark each.
///
/// Errors, located: invalid options (`TrainStepOptions::validate`), no or
/// several candidate model functions, a declaration or a body of several
/// blocks, a model with other than one result, an output that does not fit
/// the loss (Losses.h), the errors of `selectParameters`, a named parameter
/// without a gradient, existing `@train_step`/`@eval_step` symbols, and the
/// errors of `differentiate` (an op without an adjoint rule, ...). Errors
/// about the module or the model function are located there without
/// printing it. The module is unchanged then.
FailureOr<BuiltSteps> buildTrainStep(ModuleOp module,
                                     const TrainStepOptions &options);

} // namespace mlir::amp::trainstep

#endif // AMP_TRAINSTEP_BUILDTRAINSTEP_H
