//===- BoundStep.h - a compiled training step bound to buffers --*- C++ -*-===//
//
// The public handle on a training step that runs: its arguments and results
// read by `amp.role` / `amp.updates` (docs/training-step.md) into plain
// data, the module lowered and JIT-compiled on a backend (Backend.h), one
// buffer per argument and per result, and the three things every driver does
// with them: reset the state, call the step, carry the state (every result
// with `amp.updates = i` becomes argument i). amp-run's loop (Trainer.h),
// the benchmarks and the execution tests all drive steps through it.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNTIME_BOUNDSTEP_H
#define AMP_RUNTIME_BOUNDSTEP_H

#include "amp/Analysis/TrainingStep.h"
#include "amp/Runtime/Backend.h"

#include <memory>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace mlir::amp::runtime {

/// Roles, shapes and element types of a training step (and its eval step)
/// as plain data, read before lowering replaces the functions.
struct StepLayout {
  std::string trainName;
  std::vector<ArgRole> argRoles;    ///< one per argument
  std::vector<TensorSpec> argSpecs; ///< dynamic sizes fixed to the batch
  std::vector<TensorSpec> resultSpecs;
  std::vector<unsigned> params, optStates; ///< argument indices
  std::vector<unsigned> inputs;  ///< argument indices, in order (1 or more)
  unsigned input = 0, label = 0; ///< argument indices; input: the first
  unsigned lossResult = 0;       ///< result index
  std::optional<unsigned> foundInfResult; ///< after loss scaling
  std::optional<unsigned> underflowCountResult, underflowTotalResult;
  /// amp-instrument-updates: tensor<Px5xf64>, one row per parameter.
  std::optional<unsigned> updateStatsResult;
  /// (argument, result holding its new value), by argument index.
  std::vector<std::pair<unsigned, unsigned>> updates;
  /// The bytes an argument starts from, by argument index (empty: none),
  /// from its `amp.initial_value` attribute (docs/training-step.md): a
  /// float or integer for a 0-d tensor (the loss scale, the counters loss
  /// scaling adds), a dense or dense_resource elements attribute of the
  /// argument's type (the weights of an exported model). A resource whose
  /// blob is elided gives none: the parameter is drawn at random.
  std::vector<std::vector<char>> initialData;
  /// The fan-in of each parameter as its contraction reads it
  /// (Analysis/ParameterFanIn.h), by argument index; nullopt for other
  /// arguments and parameters no contraction reads.
  std::vector<std::optional<int64_t>> fanIn;
  int64_t batch = 0; ///< examples per step (dimension 0 of the inputs)

  /// The `amp.eval_step`, if the module has one: its parameters are the
  /// training step's (same order, same types), its inputs the training
  /// inputs' (same order, same per-example shapes).
  struct Eval {
    std::string name;
    unsigned numArgs = 0;
    std::vector<unsigned> inputs; ///< argument indices, in order
    unsigned input = 0;           ///< the first input
    /// For each argument of the eval step: the training step's argument
    /// (a parameter) it shares a buffer with; inputs map to nothing.
    std::vector<std::optional<unsigned>> trainArgOf;
    std::vector<TensorSpec> inputSpecs; ///< one per input
    TensorSpec inputSpec, logitsSpec;   ///< inputSpec: the first input's
  };
  std::optional<Eval> eval;

  /// The first argument with `role`, if any.
  std::optional<unsigned> argWithRole(ArgRole role) const;

  /// Reads the layout of the one `amp.train_step` (and at most one
  /// `amp.eval_step`) of `module`, before or after amp-mixed-precision.
  /// Dynamic dimensions (only dimension 0 of the inputs, the label, the
  /// eval inputs and the logits may be dynamic; `checkStepShapes`) take
  /// `batch`. Errors: the contract (located diagnostics in the message),
  /// the eval step not matching the training step, unsupported types.
  static llvm::Expected<StepLayout> read(ModuleOp module, int64_t batch);
};

/// The steps a driver runs: the one `amp.train_step` function of `module`
/// and its `amp.eval_step` function, if any (null otherwise). Errors: no
/// training step, more than one of either.
llvm::Expected<std::pair<func::FuncOp, func::FuncOp>>
findSteps(ModuleOp module);

/// Every argument and result type of the training and eval steps of
/// `module` must be static but for dimension 0 (the batch) of the input, the
/// label, the eval step's input and its logits; and their sizes must fit in
/// 63 bits. Errors name the function, the argument or result, its role and
/// its type: amp-run would otherwise have to guess the other sizes.
llvm::Error checkStepShapes(func::FuncOp train, func::FuncOp eval);

/// A step compiled on a backend with one buffer per argument and result.
class BoundStep {
public:
  /// Reads the layout of `module` (StepLayout::read), lowers and
  /// JIT-compiles it on `backend` (in place: from here on `module` is the
  /// backend's LLVM IR) and allocates one zeroed buffer per argument and per
  /// result; the eval step shares the training step's parameter buffers and
  /// has its own inputs and logits. Errors: those of StepLayout::read and of
  /// `backend.compile`.
  static llvm::Expected<std::unique_ptr<BoundStep>>
  create(ModuleOp module, Backend &backend, int64_t batch);

  const StepLayout &layout() const { return stepLayout; }
  Backend &backend() { return device; }
  DeviceBuffer &arg(unsigned i) { return *args[i]; }
  DeviceBuffer &result(unsigned i) { return *results[i]; }
  size_t numArgs() const { return args.size(); }
  size_t numResults() const { return results.size(); }

  /// The state a run starts from, uploaded: every argument with initial
  /// data (`initialData`: a model's weights, the loss-scale state) starts
  /// from it; the other parameters are drawn by `initParameter`
  /// (ParameterInit.h) from `rng` in argument order with the layout's
  /// fan-in; the rest (optimizer state, counters) is zero. `initialScale`,
  /// when given, is the loss scale's value whatever the step says.
  void resetState(std::mt19937_64 &rng,
                  std::optional<double> initialScale = std::nullopt);

  /// One call of the training step: uploads nothing, downloads nothing
  /// (callers upload what they wrote and download what they read).
  /// Errors: the call failed, or the backend reported a failure.
  llvm::Error run();

  /// Every result with `amp.updates = i` becomes argument i for the next
  /// call (buffers swapped, nothing copied).
  void carry();

  bool hasEval() const { return stepLayout.eval.has_value(); }
  /// Input `k` of the eval step (its k-th input argument).
  DeviceBuffer &evalInput(unsigned k = 0) { return *evalInputBuffers[k]; }
  size_t numEvalInputs() const { return evalInputBuffers.size(); }
  DeviceBuffer &logits() { return *logitsBuffer; }
  /// One call of the eval step on the current parameters.
  llvm::Error runEval();

private:
  BoundStep(Backend &backend, StepLayout layout)
      : device(backend), stepLayout(std::move(layout)) {}

  Backend &device;
  StepLayout stepLayout;
  std::unique_ptr<JitModule> jit;
  std::vector<std::unique_ptr<DeviceBuffer>> args, results;
  std::vector<std::unique_ptr<DeviceBuffer>> evalInputBuffers;
  std::unique_ptr<DeviceBuffer> logitsBuffer;
};

} // namespace mlir::amp::runtime

#endif // AMP_RUNTIME_BOUNDSTEP_H
