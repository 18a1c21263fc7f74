//===- GradientCheck.h - a step's backward against its own loss -*- C++ -*-===//
//
// `amp-run --check-gradients`: whether the backward of a training step (the
// raw gradients its `amp.grad` markers name, hand-written or derived by
// amp-differentiate) is the derivative of the loss the same step returns.
// The step runs in f64 (amp-promote-to-f64) on one batch of real or
// synthetic data from the state a run starts from, and a few elements of
// every parameter are compared with central finite differences
// (L(w + h e_i) - L(w - h e_i)) / 2h of the step's own loss (shared
// REFERENCE.md, "Reverse-mode autodiff: what the oracles do").
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNTIME_GRADIENTCHECK_H
#define AMP_RUNTIME_GRADIENTCHECK_H

#include "amp/Runtime/Backend.h"
#include "amp/Runtime/IdxDataset.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mlir::amp::runtime {

struct GradientCheckOptions {
  int largest = 3;            ///< elements with the largest |gradient|
  int random = 2;             ///< and uniformly drawn ones, per parameter
  double relativeStep = 1e-6; ///< h = relativeStep * max(1, |w_i|)
  uint64_t seed = 0;          ///< initial state, batch, random elements
  int64_t batchSize = 0;      ///< for a dynamic batch dimension
};

/// One parameter's comparison.
struct ParameterCheck {
  unsigned argument = 0; ///< argument index of the parameter
  std::string type;      ///< e.g. "784x256xf32"
  int64_t checked = 0;   ///< elements compared
  /// The element with the largest relative error, its error, and both
  /// values. The relative error is max(0, |g - fd| - noise) / max(|g|, |fd|)
  /// with noise = 16 * 2^-52 * (|L(w+h)| + |L(w-h)|) / 2h, the part of a
  /// disagreement that the difference quotient of two f64 losses cannot
  /// resolve (a correct backward scores 0 to ~1e-7, a wrong one ~1). An
  /// element that disagrees by more than 1e-7 is retried with h / 100 and
  /// h / 10^4 (a kink nearer than h, e.g. a ReLU input of 1e-9, bends the
  /// quotient; a smaller step steps past it) and the best agreement counts.
  int64_t worstElement = 0;
  double worstError = 0, analytic = 0, numeric = 0;
  /// Elements at a kink of the loss (a ReLU input or a max-pool tie at
  /// exactly the checked point, common where biases start at 0 and a whole
  /// receptive field is zero, or within h of it: one of the ~10^5 ReLU and
  /// max-pool inputs downstream of AlexNet's first bias): the one-sided
  /// differences (L(w+h) - L(w)) / h and (L(w) - L(w-h)) / h disagree by
  /// more than 1e-4 of the larger, and the backward lies between them (a
  /// one-sided derivative, as PyTorch's relu picks 0 at 0). Their central
  /// difference is no test of the backward, so they count as agreeing; the
  /// report says how many. (A backward off by less than half that gap
  /// could pass so; a larger error cannot lie between the slopes.)
  int64_t kinks = 0;
};

struct GradientCheckResult {
  double loss = 0; ///< the loss (f64) at the checked point
  std::vector<ParameterCheck> params;
  double worstError() const;
};

/// Turns the `amp.train_step` of `module` (fp32 with its markers) into
/// `@name` returning (loss, the raw gradient of every parameter in argument
/// order: what each `amp.grad` marks), with the step's arguments, alone in
/// the module (other functions are erased); the markers stay (lower them
/// with amp-lower-to-standard: seed 1). Returns the parameters' argument
/// indices. Errors (located): the contract, a step of several blocks.
FailureOr<SmallVector<unsigned>> makeGradientFunction(ModuleOp module,
                                                      llvm::StringRef name);

/// Checks the `amp.train_step` of `module` (fp32 with its markers; not
/// modified) on `backend` with the first batch of `data` (shuffled with
/// `options.seed`), from the parameters a run starts from (their
/// `amp.initial_value`, else drawn as BoundStep::resetState draws them).
/// Errors: those of planRun (amp/Runtime/Trainer.h), a step that cannot be
/// promoted to f64 (located diagnostics), compile and call failures, a
/// non-finite loss at the checked point.
llvm::Expected<GradientCheckResult>
checkGradients(ModuleOp module, const GradientCheckOptions &options,
               Backend &backend, const Dataset &data);

} // namespace mlir::amp::runtime

#endif // AMP_RUNTIME_GRADIENTCHECK_H
