//===- Trainer.h - train a training step on a dataset, any device -*- C++
//-*-===//
//
// amp-run's engine, one loop for every device: rewrite an fp32 training step
// with `amp-mixed-precision`, bind it to a backend (BoundStep.h: CPU or
// CUDA), start from the initial state, and train: a shuffled batch per step,
// the state carried, the per-step record (CSV, the stop rules), the eval step
// after each epoch, progress on the way.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNTIME_TRAINER_H
#define AMP_RUNTIME_TRAINER_H

#include "amp/Runtime/Backend.h"
#include "amp/Runtime/BoundStep.h"
#include "amp/Runtime/DataParallel.h"
#include "amp/Runtime/IdxDataset.h"
#include "amp/Support/MixedPrecisionConfig.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace mlir::amp::runtime {

/// One replica of a data-parallel run (docs/distributed.md): the step is
/// rewritten by amp-data-parallel for `context`'s world size after
/// amp-mixed-precision, each rank trains on its shard of every global batch
/// (DataParallelContext::shardBegin), rank 0 reports.
struct DataParallelRun {
  DataParallelContext *context = nullptr; ///< required
  GradientBucketing bucket = GradientBucketing::Flat;
  /// Reduce in the run's precision (f16 / bf16) instead of f32
  /// (amp-data-parallel reduce-precision); no effect on f32 runs.
  bool lowPrecisionReduce = false;
  InjectionPlan injection; ///< test hook (amp-run --test-inject)
};

struct TrainOptions {
  /// The rewrite of the run (precision, loss scaling and its dynamics,
  /// autocast overrides, underflow statistics); fp32 without loss scaling
  /// unless set. The initial loss scale is also the value the loss-scale
  /// argument starts from.
  MixedPrecisionConfig rewrite = fp32();
  int epochs = 1;               ///< >= 1
  int64_t batchSize = 0;        ///< for a dynamic batch dimension; >= 0
  int64_t maxStepsPerEpoch = 0; ///< 0: the whole training set
  /// > 0: RunResult::Memory::largestBatch for this many bytes.
  int64_t memoryBudget = 0;
  uint64_t seed = 0;   ///< parameter init and shuffling
  std::string csvPath; ///< per-step CSV, empty: none
  /// One line per epoch to the log, and progress within an epoch: a live
  /// line when the log is a terminal, else a line every `progressSeconds`
  /// (0: none).
  bool progress = true;
  double progressSeconds = 15;
  /// Data-parallel training; none: one process.
  std::optional<DataParallelRun> dataParallel;
  /// One process reproducing this many data-parallel ranks: every sum over
  /// the batch in that many chunks (amp-chunk-batch-reductions, after the
  /// rewrite); 1: off. The step's batch is the ranks' global batch, and
  /// must be a multiple of it; not with dataParallel.
  int64_t emulateRanks = 1;
  /// After the run, also one a stop rule ended: this rank's state digest
  /// (writeStateDigest, DataParallel.h); empty: none.
  std::string statePath;
  /// Passes (textual pipeline, e.g. "func.func(canonicalize)") run after
  /// the rewrite and before the backend's lowering; empty: none. For tools
  /// and tests (amp-run's hidden --test-extra-passes). A pipeline that does
  /// not parse is an error of planRun.
  std::string extraPasses;

  /// Checkpoints (Checkpoint/Checkpoint.h, docs/data-and-checkpoints.md):
  /// written to `checkpointDir` (empty: none) at the end of every epoch,
  /// every `checkpointEvery` steps (0: only then) and when `stopRequested`
  /// says so; data-parallel, rank 0 writes.
  std::string checkpointDir;
  int64_t checkpointEvery = 0;
  /// Resume from the checkpoint in this directory (empty: start afresh): the
  /// state, the position and the data order continue bit for bit; a
  /// checkpoint of another run, step or configuration is refused.
  std::string resumeDir;
  /// Polled after every step: true ends the run there (a signal arrived);
  /// the checkpoint is written if asked and the result is `interrupted`.
  std::function<bool()> stopRequested;
  /// Called once when the run has trained every step (not when a stop rule,
  /// an error or `stopRequested` ended it), with the step whose parameters
  /// hold the trained values (amp-run's --save-model); data-parallel, on
  /// every rank. An error ends the run with it.
  std::function<llvm::Error(BoundStep &)> onTrained;
  /// Called with true before the step is compiled (the MLIR lowering and
  /// the JIT: half a minute for a ResNet) and with false after, also when
  /// compiling fails: amp-run ends at once on a signal while compiling.
  std::function<void(bool)> compiling;
  /// Test hook: raise(SIGINT) after this run's `testSignalAtStep`-th step in
  /// this process (0: off).
  int64_t testSignalAtStep = 0;

  static MixedPrecisionConfig fp32() {
    MixedPrecisionConfig config;
    config.precision = Precision::F32;
    config.lossScale = LossScaleMode::None;
    return config;
  }
};

/// What one run reports (amp-run prints one table row per run).
struct RunResult {
  std::string name;          ///< e.g. "f16 + dynamic"
  double finalTrainLoss = 0; ///< mean loss over the last epoch
  double testAccuracy = -1;  ///< after the last epoch; -1: no eval step
  double finalLossScale = 0; ///< 0 when the step has no loss scale
  int64_t skippedSteps = 0;  ///< steps with found_inf = true
  int64_t steps = 0;
  double msPerStep = 0;      ///< mean wall time of one step
  double compileSeconds = 0; ///< pipeline + lowering + JIT
  /// With `underflowStats`: over the whole run, finite non-zero backward
  /// elements whose f16/bf16 rounding is zero or subnormal, and all finite
  /// non-zero backward elements inspected.
  int64_t underflowFlushed = 0, underflowTotal = 0;
  /// The run ended early because `stopRequested` said so.
  bool interrupted = false;
  /// Steps of the run before this process (resumed from a checkpoint).
  int64_t resumedAtStep = 0;
  /// With `updateStats` (amp-instrument-updates), over the whole run: the
  /// mean over steps of ||w' - w|| / ||w|| (all parameters together),
  /// elements whose intended update was non-zero, those of them lost to
  /// rounding in the storage type and those bf16 storage would lose, and
  /// the steps that lost at least half of their intended updates.
  double meanUpdateRatio = 0;
  double updatesIntended = 0, updatesLost = 0, updatesLostInBF16 = 0;
  int64_t stepsMostlyLost = 0;
  /// The training step's bytes from its IR after the rewrite
  /// (Analysis/MemoryReport.h, tensor level; a dynamic batch counted at the
  /// run's batch size): parameters + optimizer and loss-scale state, the
  /// batch, the activations kept for the backward, the peak of live values.
  struct Memory {
    int64_t state = 0, batch = 0, kept = 0, peakLive = 0;
    bool approximate = false;
    /// On the CPU: the most bytes of the lowered step's buffers allocated
    /// at once (amp-cpu-plan-buffers' `amp.cpu_buffer_peak`: the arena and
    /// the buffers with their own allocation; arguments not included);
    /// absent for a dynamic batch or another device.
    std::optional<int64_t> cpuBuffers;
    /// With TrainOptions::memoryBudget: the largest batch whose peak live
    /// bytes fit (0: not even 1), found by counting every dynamic dimension
    /// at that size (a step whose batch is its only dynamic dimension);
    /// for a static batch, that batch if it fits, else 0.
    std::optional<int64_t> largestBatch;
    int64_t largestBatchPeak = 0; ///< its peak live bytes
    bool staticBatch = false;
    /// The search stopped at 2^40 examples, all of which fit.
    bool largestBatchCapped = false;
  };
  std::optional<Memory> memory;
};

/// What a run needs, known before any data is loaded or memory allocated.
struct RunPlan {
  int64_t batch = 0;            ///< examples per training step
  int64_t globalBatch = 0;      ///< batch x ranks (data-parallel), else batch
  int64_t valuesPerExample = 0; ///< of the (first) input
  /// One per input of the step, in argument order.
  struct Input {
    unsigned argument = 0;
    std::string type; ///< e.g. "tensor<4x6xi64>"
    int64_t valuesPerExample = 0;
    bool integer = false; ///< token ids and the like; else f32
    /// An integer input: the rows of the smallest table its values index
    /// (Analysis/IndexBound.h); values must stay below it.
    std::optional<int64_t> indexBound;
    /// An i1 input of rank >= 2 (a padding or attention mask): its last
    /// dimension's size, the length of one mask row; 0 otherwise.
    int64_t maskRow = 0;
    /// True keeps (attends) rather than masks: as the select that applies
    /// the mask says (Analysis/MaskConvention.h), else by rank: an
    /// attention mask of rank >= 3 ([B, 1, S, S], true = attend), a key
    /// padding mask of rank 2 ([B, S], true = ignore).
    bool attendMask = false;
  };
  std::vector<Input> inputs;
  std::optional<int64_t> classes; ///< logits per example of the eval step
  /// A step with a batch x K f32 target (loss=mse) in place of a label:
  /// K. The data decides what it is fed: the data's float regression
  /// targets of K values per example where it holds them (Dataset::target:
  /// `.npy` float targets), else the one-hot encoding of the data's class
  /// labels (then K must be the data's classes).
  std::optional<int64_t> targetClasses;
  /// A step with any other target (a regression output of any shape): its
  /// values per example; only data with regression targets feeds it.
  std::optional<int64_t> targetValues;
  std::string targetType; ///< the target's type, e.g. "tensor<16x4xf32>"
  /// The values per example regression targets must have: any target's
  /// (none for a step with a label).
  std::optional<int64_t> regressionValues() const {
    return targetValues ? targetValues : targetClasses;
  }
  /// The data must come with a field per input (several inputs, an integer
  /// input) or with regression targets: Dataset::inputs / target.
  bool needsStepData() const {
    return inputs.size() != 1 || inputs.front().integer ||
           targetValues.has_value();
  }
  /// The label's amp.classes (the classes its values index), when given.
  std::optional<int64_t> labelClasses;
  /// A label without amp.classes: the classes its values index as the
  /// step reads them (Analysis/IndexBound.h: the logits a one-hot encoding
  /// or an extract selects from), when that is found.
  std::optional<int64_t> lossClasses;
  uint64_t bufferBytes = 0; ///< arguments + results + eval buffers
  /// What the run will do that the user may not expect, one line each
  /// (e.g. a parameter whose amp.initial_value is elided starts random).
  std::vector<std::string> notes;
};

/// Checks `module` and `options` for a run on any device, touching no data
/// and allocating nothing: the options (MixedPrecisionConfig::validate, one
/// message naming the option and the value; epochs, batch size, max steps),
/// one `amp.train_step` and at most one `amp.eval_step`, the fp32 step
/// (not already loss-scaled: amp-run rewrites it per run itself), the
/// training-step contract (located diagnostics in the message), f32 or
/// integer inputs, static shapes but for the batch (checkStepShapes), the
/// batch size (a dynamic batch needs `batchSize`, a static one must agree
/// with it),
/// and the memory all buffers need against this machine's memory.
llvm::Expected<RunPlan> planRun(ModuleOp module, const TrainOptions &options);

/// What a run does with its data: trains (the training set must hold a
/// whole global batch) or only evaluates (amp-run --eval-only: the eval step
/// takes a partial last batch, as it does after each epoch of training).
enum class DataUse { Training, EvaluationOnly };

/// The checks that need the data's shapes, still before any allocation: the
/// inputs against `trainSet` and `testSet` (an image set feeds one f32
/// input and a label or one-hot target: a step with several inputs, an
/// integer input or a regression target is refused with the input or
/// target that does not fit; step data must have a field of the input's
/// kind and size per input, and regression targets of the target's size,
/// for a batch x K target as well), the eval step's classes (and a one-hot
/// target's values per example) against the classes of `testSet` (data
/// with class labels; both splits hold the same kind, as the data sources
/// ensure), no --eval-only on data with regression targets (its accuracy needs
/// class labels), and for training a global batch no larger than
/// `trainSet`.
llvm::Error checkRunAgainstData(const RunPlan &plan, const Dataset &trainSet,
                                const Dataset &testSet,
                                DataUse use = DataUse::Training);

/// `options.resumeDir` (none: success), before anything is compiled or
/// loaded: its checkpoint was made by this run, with the same options (for
/// evaluation, but those that shape only training, shapesTrainingOnly) and,
/// for training, the same --seed and with epochs left to train. The step's
/// signature and the training set's size are compared when the run starts
/// (train, evaluate). Errors: "cannot resume from '<file>': <what
/// differs>", and those of readCheckpoint.
llvm::Error checkResume(const TrainOptions &options, const RunPlan &plan,
                        DataUse use);

/// Trains the `amp.train_step` of `module` (fp32, not modified: a clone is
/// rewritten) on `trainSet` with `backend` and evaluates the `amp.eval_step`
/// (if any) on `testSet` after each epoch. The run starts from
/// BoundStep::resetState (seed `options.seed`; loss scale
/// `options.rewrite.initScale`). Errors: those of planRun and
/// checkRunAgainstData, pipeline and JIT failures (with their diagnostics),
/// a failed call; and the stop rules of a run (docs/loss-scaling.md, shared
/// REFERENCE.md "scale collapse"): a non-finite loss (the forward overflowed,
/// or the parameters became non-finite in the previous update), an
/// overflowing step with the dynamic scale at its floor `minScale`, 25
/// consecutive skipped steps with a static scale, and a run in which every
/// step was skipped. The CSV holds every step recorded before the stop.
/// Data-parallel (`o.dataParallel`): the CPU backend only; the ranks first
/// agree on the run (DataParallelContext::agree); rank 0 writes the CSV and
/// the progress; every rank evaluates (same parameters, so the same
/// accuracy; the time between steps stays the same on every rank); the stop
/// rules read reduced values, so every rank stops at the same step; their
/// errors are StopRuleError.
llvm::Expected<RunResult> train(ModuleOp module, const TrainOptions &options,
                                Backend &backend, const Dataset &trainSet,
                                const Dataset &testSet, llvm::raw_ostream &log);

/// The error of a run that a stop rule ended (a non-finite loss, the loss
/// scale at its floor, too many consecutive skipped steps, every step
/// skipped). The rules read only values every data-parallel rank shares (the
/// all-reduced loss, the found-inf flag, the scale, the parameters that
/// every rank updates alike), so every rank stops at the same step with the
/// same message, and a driver can end the ranks together (one message, no
/// MPI_Abort) instead of as a rank that failed alone.
class StopRuleError : public llvm::ErrorInfo<StopRuleError> {
public:
  static char ID;
  explicit StopRuleError(std::string message) : message(std::move(message)) {}
  void log(llvm::raw_ostream &os) const override { os << message; }
  std::error_code convertToErrorCode() const override {
    return llvm::inconvertibleErrorCode();
  }
  std::string message;
};

/// What `evaluate` measured.
struct EvalResult {
  std::string name;        ///< the run's name
  double accuracy = 0;     ///< on the whole test set
  double loss = 0;         ///< mean cross-entropy of the logits (f64)
  int64_t examples = 0;    ///< of the test set
  std::string startedFrom; ///< "the step's initial values" or the checkpoint
};

/// The `amp.eval_step` of `module`, rewritten for `options.rewrite`, on
/// `testSet` from the initial state (BoundStep::resetState with
/// `options.seed`), or from the checkpoint in `options.resumeDir`; nothing
/// is trained. Errors: those of train(), and a step without an eval step.
llvm::Expected<EvalResult> evaluate(ModuleOp module,
                                    const TrainOptions &options,
                                    Backend &backend, const Dataset &testSet);

} // namespace mlir::amp::runtime

#endif // AMP_RUNTIME_TRAINER_H
