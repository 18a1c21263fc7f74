//===- RunRecord.h - shared by the CPU and GPU trainers ---------*- C++ -*-===//
//
// Internal to lib/amp/Runtime. What a training run does the same way on the
// CPU (Trainer.cpp) and on CUDA (GpuTrainer.cpp), so the two cannot drift:
// running a pipeline with its diagnostics as the error, the options of the
// `amp-mixed-precision` rewrite, the per-step CSV (written atomically: a run
// that fails leaves no file, one that stops on scale collapse publishes its
// complete rows), the per-step accounting, the two rules that stop training
// (shared REFERENCE.md, "scale collapse") and the per-epoch progress line.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNTIME_RUNRECORD_H
#define AMP_RUNTIME_RUNRECORD_H

#include "amp/Pipelines/Pipelines.h"
#include "amp/Runtime/HostTensor.h"
#include "amp/Runtime/Trainer.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <optional>
#include <random>
#include <vector>

namespace mlir::amp::runtime {

/// Runs the passes `build` adds on `module`. Errors: the pipeline failed;
/// the message is "<what> failed:" and every diagnostic as
/// "file:line:col: error|warning|note: message".
llvm::Error runPipeline(ModuleOp module,
                        llvm::function_ref<void(PassManager &)> build,
                        llvm::StringRef what);

/// PyTorch nn.Linear's default init for a parameter: rank >= 2 from
/// U(-1/sqrt(fan_in), 1/sqrt(fan_in)), fan_in = product of all but the last
/// dimension; rank 0/1 (biases) zero. The same sequence on both devices for
/// the same `rng` seed.
void initParameter(HostTensor &t, std::mt19937_64 &rng);

/// Copies examples `indices[first, first + batch)` of `ds` into `input`
/// (f32, batch x exampleSize) and, if given, `label` (i32 or i64); rows past
/// the end of `indices` are zero.
void fillBatch(const Dataset &ds, const std::vector<int64_t> &indices,
               int64_t first, int64_t batch, HostTensor &input,
               HostTensor *label);

/// How many of the `batch` rows of `logits` (f32, batch x classes) starting
/// at test example `first` have their arg-max at the example's label (rows
/// past the end of `ds` are not counted).
int64_t countCorrect(const HostTensor &logits, const Dataset &ds, int64_t first,
                     int64_t batch, int64_t classes);

/// Sets the `amp-mixed-precision` options of a run (precision, loss scaling
/// and its dynamics, underflow instrumentation), identical for both devices.
void setMixedPrecisionOptions(const TrainOptions &o, MixedPrecisionOptions &mp);

/// One training step as the trainers observed it.
struct StepRecord {
  int epoch = 0;
  float loss = 0;               ///< the step's loss (fp32)
  float scaleUsed = 1;          ///< the loss scale the step ran with
  bool foundInf = false;        ///< the step was skipped (non-finite gradients)
  bool dynamicScale = false;    ///< the step has a dynamic loss-scale state
  int32_t consecutiveSkips = 0; ///< after this step, when the step counts
  int64_t underflowFlushed = 0, underflowTotal = 0; ///< with underflow stats
  double ms = 0; ///< wall time of the step call
};

/// Per-run accounting into a RunResult, and the CSV of `TrainOptions`.
class RunRecord {
public:
  /// Starts a run: opens a temporary file beside `o.csvPath` (if any; a
  /// device or pipe such as /dev/stdout is written directly, a symbolic
  /// link's target is replaced, amp/Support/OutputFile.h) and writes the
  /// header, with the underflow columns if `underflowColumns`. Errors, naming
  /// the path: a directory, the CSV cannot be created.
  static llvm::Expected<std::unique_ptr<RunRecord>>
  create(const TrainOptions &o, RunResult &result, bool underflowColumns);
  /// Discards the CSV unless it was published.
  ~RunRecord();

  /// Starts an epoch (resets the epoch's loss mean and skip count).
  void beginEpoch();
  /// Counts `step` and writes its row. Returns an error when training must
  /// stop, after publishing the CSV so far: the loss itself is non-finite
  /// (the forward overflowed; backing off cannot help), or the step
  /// overflowed with a dynamic scale already at `minScale`.
  llvm::Error record(const StepRecord &step);
  /// Ends an epoch: the mean finite loss becomes `finalTrainLoss`.
  void endEpoch();
  /// Writes the epoch's progress line to `log` (if `o.progress`); `device`
  /// is appended after "ms/step" when not empty, e.g. "(cuda)".
  void logEpoch(llvm::raw_ostream &log, int epoch, bool hasEval, bool hasScale,
                bool hasFoundInf, bool hasUnderflow,
                llvm::StringRef device) const;
  /// Mean ms per step over the run; publishes the CSV (renames it into
  /// place). Errors: the CSV could not be written.
  llvm::Error finish();

private:
  RunRecord(const TrainOptions &o, RunResult &result)
      : options(o), result(result) {}
  llvm::Error publish();

  const TrainOptions &options;
  RunResult &result;
  std::optional<llvm::sys::fs::TempFile> csvFile; ///< atomic CSV only
  std::string keepPath; ///< what csvFile replaces (symbolic links resolved)
  std::unique_ptr<llvm::raw_fd_ostream> csv;
  bool underflowColumns = false;
  double lossSum = 0, msTotal = 0;
  int64_t lossCount = 0, skippedThisEpoch = 0;
};

} // namespace mlir::amp::runtime

#endif // AMP_RUNTIME_RUNRECORD_H
