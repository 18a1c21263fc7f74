//===- TrainingStep.h - the training-step contract --------------*- C++ -*-===//
//
// Reads and checks the training-step contract of docs/training-step.md:
// which function arguments are parameters (fp32 master weights), optimizer
// state, input and label; which results are the loss and the updated state;
// where the backward seed (`amp.loss_grad`) and the parameter gradients
// (`amp.grad`) are. Read-only: never mutates IR.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_ANALYSIS_TRAININGSTEP_H
#define AMP_ANALYSIS_TRAININGSTEP_H

#include "amp/Dialect/Amp/IR/AmpOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>

namespace mlir::amp {

/// Attribute names of the contract.
constexpr llvm::StringLiteral kTrainStepAttr = "amp.train_step";
constexpr llvm::StringLiteral kEvalStepAttr = "amp.eval_step";
constexpr llvm::StringLiteral kRoleAttr = "amp.role";
constexpr llvm::StringLiteral kUpdatesAttr = "amp.updates";
/// On the state arguments that `amp-loss-scaling` adds: the value a driver
/// feeds the argument at the first step (`loss_scale`: init-scale as an f32
/// FloatAttr; `growth_tracker`, `hysteresis_tracker`, `consecutive_skips`:
/// 0 as an i32 IntegerAttr). Later steps feed the `amp.updates` result.
constexpr llvm::StringLiteral kInitialValueAttr = "amp.initial_value";
/// On a `label` argument: the number of classes its values index (the
/// logits' second dimension; amp-build-train-step writes it), so a driver
/// can refuse labels the loss would read out of bounds. Optional.
constexpr llvm::StringLiteral kClassesAttr = "amp.classes";
/// On a `param` argument made from a constant printed without its data
/// (`dense_resource<__elided__>`): where that constant is in the model file
/// (a FileLineColLoc), so that `amp-run --save-model` can give it a key and
/// write its trained blob (Runtime/Checkpoint/ModelExport.h).
constexpr llvm::StringLiteral kElidedAtAttr = "amp.elided_at";
/// On the module of a built step: the absolute path of the model file the
/// builder read (amp-build-train-step), the default of `amp-run --model`.
/// Optional.
constexpr llvm::StringLiteral kSourceModelAttr = "amp.source_model";
/// Beside it: the xxh3 hash of that file's bytes when the step was built
/// (`modelTextHash`, amp/Support/ModelSource.h); --save-model writes elided
/// weights by their places in the file only into the same bytes.
constexpr llvm::StringLiteral kSourceModelHashAttr = "amp.source_model_xxh3";
/// Result roles added by `amp-instrument-underflow` (tensor<i64> each).
constexpr llvm::StringLiteral kUnderflowCountRole = "underflow_count";
constexpr llvm::StringLiteral kUnderflowTotalRole = "underflow_total";

/// Result role added by `amp-instrument-updates`: tensor<Px5xf64>, one row
/// per parameter (||w' - w||^2, ||w||^2, changed, lost, bf16_lost).
constexpr llvm::StringLiteral kUpdateStatsRole = "update_stats";
/// Unit attribute that `amp-master-weights` puts on the op rounding a
/// parameter's new value to its storage type; operand #0 is the f32 value
/// it rounds (the intended new value), result #0 the stored one.
constexpr llvm::StringLiteral kRoundsUpdateAttr = "amp.rounds_update";
/// Unit attribute that `amp-recompute-for-backward` puts on the ops it
/// cloned into the backward (a forward value recomputed where the backward
/// reads it). It also keeps CSE from merging the clone with the forward's op.
constexpr llvm::StringLiteral kRecomputedAttr = "amp.recomputed";
/// On the "opt_state" arguments `amp-master-weights` adds:
/// "kahan_compensation" or "rounding_counter" (documentation only; they
/// are optimizer state for every other rule).
constexpr llvm::StringLiteral kStateKindAttr = "amp.state";

/// Roles of a training-step argument (`amp.role` on the argument).
enum class ArgRole {
  Param,         ///< "param": fp32 master weight, updated by the step
  OptState,      ///< "opt_state": optimizer state (momentum, moments, step)
  Input,         ///< "input": float or integer tensor, dim 0 = batch; 1+
  Label,         ///< "label": i32/i64 class indices, one per example
  Target,        ///< "target": float tensor, dim 0 = batch (not a label)
  LossScale,     ///< "loss_scale": tensor<f32> S (added by loss scaling)
  GrowthTracker, ///< "growth_tracker": tensor<i32> (added by loss scaling)
  /// "hysteresis_tracker": tensor<i32>, overflowing steps since the scale
  /// last grew (added by dynamic loss scaling)
  HysteresisTracker,
  /// "consecutive_skips": tensor<i32>, consecutive skipped (overflowing)
  /// steps (added by dynamic and static loss scaling)
  ConsecutiveSkips,
};

/// Roles of a result (`amp.role` on the result); a result that carries only
/// `amp.updates` is State.
enum class ResultRole { Loss, State, FoundInf, Logits };

std::optional<ArgRole> parseArgRole(llvm::StringRef name);

/// Calls `fn` on every `amp.train_step` function of `module`, in order,
/// and stops at the first failure. A module without one is an error on
/// the module: "<pass>: no func.func with the amp.train_step attribute;
/// mark the training step (docs/training-step.md)". For the passes whose
/// input is a training step.
LogicalResult
forEachTrainStep(ModuleOp module, llvm::StringRef pass,
                 llvm::function_ref<LogicalResult(func::FuncOp)> fn);
llvm::StringRef stringifyArgRole(ArgRole role);

/// What the contract says about one `amp.train_step` function.
struct TrainingStep {
  func::FuncOp func;
  llvm::SmallVector<ArgRole> argRoles;   ///< one per argument
  llvm::SmallVector<unsigned> params;    ///< argument indices
  llvm::SmallVector<unsigned> optStates; ///< argument indices
  /// The `input` arguments (one or more, in argument order); `input` is
  /// the first of them.
  llvm::SmallVector<unsigned> inputs;
  unsigned input = 0, label = 0;          ///< label: or the target
  unsigned lossResult = 0;                ///< result index
  std::optional<unsigned> foundInfResult; ///< after loss scaling
  /// After `amp-instrument-underflow`: the flushed and non-zero counts.
  std::optional<unsigned> underflowCountResult, underflowTotalResult;
  /// After `amp-instrument-updates`: the tensor<Px5xf64> statistics.
  std::optional<unsigned> updateStatsResult;
  /// For each argument index that is updated, the result that holds its
  /// new value (`amp.updates = i`).
  llvm::DenseMap<unsigned, unsigned> updateOfArg;
  LossGradOp lossGrad;
  /// The `amp.grad` of each parameter argument (by argument index). Empty
  /// after loss scaling has consumed the markers.
  llvm::DenseMap<unsigned, GradOp> gradOfParam;
  /// The backward: values derived from the seed that the `amp.grad`
  /// gradients are computed from (filled when the markers are checked), in
  /// discovery order.
  llvm::SetVector<Value> backwardValues;

  /// Reads the contract of `func` and checks it. Every violation is emitted
  /// as a located error (on the function, the argument, the result or the
  /// offending op) and the result is failure. With `requireMarkers` false,
  /// a step whose `amp.loss_grad`/`amp.grad` markers were already consumed
  /// by loss scaling is accepted.
  static FailureOr<TrainingStep> analyze(func::FuncOp func,
                                         bool requireMarkers = true);

  /// Index of the (first) argument with `role`, if any.
  std::optional<unsigned> argWithRole(ArgRole role) const;
};

/// forEachTrainStep for the passes that work where the backward starts:
/// each step's contract is checked (markers not required) and `fn` gets the
/// step and its `amp.loss_grad` seed when the body is one block holding the
/// seed at the top level; a step without one (after amp-loss-scaling, or
/// with the seed inside a micro-batch loop) is left alone. Errors: those of
/// forEachTrainStep and TrainingStep::analyze (located).
LogicalResult
forEachStepWithSeed(ModuleOp module, llvm::StringRef pass,
                    llvm::function_ref<void(func::FuncOp, Operation *seed)> fn);

/// What the contract says about an `amp.eval_step` function: parameters
/// (same order as the training step's), the inputs (as many as the training
/// step's, same order), one logits result of type batch x classes.
struct EvalStep {
  func::FuncOp func;
  llvm::SmallVector<unsigned> params;
  llvm::SmallVector<unsigned> inputs; ///< argument indices, in order
  unsigned input = 0;                 ///< the first input
  unsigned logitsResult = 0;
  static FailureOr<EvalStep> analyze(func::FuncOp func);
};

} // namespace mlir::amp

#endif // AMP_ANALYSIS_TRAININGSTEP_H
