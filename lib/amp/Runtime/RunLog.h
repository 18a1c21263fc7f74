//===- RunLog.h - the record of a training run ------------------*- C++ -*-===//
//
// Internal to lib/amp/Runtime (the training driver, Trainer.cpp): what a run
// records per step, written once for every device. The per-step accounting
// into RunResult, the per-step CSV (written atomically: a run that fails
// leaves no file, one that stops on a stop rule publishes its complete rows),
// the stop rules (shared REFERENCE.md, "scale collapse"), and progress: a
// live line on a terminal, periodic lines otherwise, one line per epoch.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNTIME_RUNLOG_H
#define AMP_RUNTIME_RUNLOG_H

#include "amp/Runtime/Trainer.h"
#include "amp/Support/OutputFile.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <memory>
#include <optional>
#include <string>

namespace mlir::amp::runtime {

/// One training step as the driver observed it.
struct StepRecord {
  int epoch = 0;
  int64_t stepInEpoch = 0;      ///< 1-based
  float loss = 0;               ///< the step's loss (fp32)
  float scaleUsed = 1;          ///< the loss scale the step ran with
  bool foundInf = false;        ///< the step was skipped (non-finite gradients)
  int32_t consecutiveSkips = 0; ///< after this step, when it was skipped
  int64_t underflowFlushed = 0, underflowTotal = 0; ///< with underflow stats
  /// With update stats: per parameter ||w' - w||^2, ||w||^2, changed,
  /// lost, bf16_lost (amp-instrument-updates' row layout), flattened.
  std::vector<double> updateStats;
  double ms = 0; ///< wall time of the step (uploads, call, reads)
  /// For a non-finite loss: the first parameter (argument index) that was
  /// already non-finite when the step started, if any.
  std::optional<unsigned> nonFiniteParam;
};

/// What the run has: decides which columns and fields are printed.
struct RunShape {
  bool hasEval = false;
  bool hasScale = false; ///< dynamic or static loss scale
  bool dynamicScale = false;
  bool checksOverflow = false; ///< found_inf result
  bool hasUnderflow = false;
  int64_t updateStatsParams = 0; ///< rows of the update_stats result
  /// The parameters' storage ("bf16", "bf16-kahan", ...) for the messages.
  std::string paramStorage = "f32";
  int64_t stepsPerEpoch = 0;
  std::string device; ///< appended to progress lines, e.g. "(cuda)"
};

class RunLog {
public:
  /// Starts a run: opens a temporary file beside `o.csvPath` (if any; a
  /// device or pipe such as /dev/stdout is written directly, a symbolic
  /// link's target is replaced, amp/Support/OutputFile.h) and writes the
  /// header. Errors, naming the path: a directory, the CSV cannot be
  /// created.
  static llvm::Expected<std::unique_ptr<RunLog>> create(const TrainOptions &o,
                                                        RunResult &result,
                                                        const RunShape &shape,
                                                        llvm::raw_ostream &log);
  /// Discards the CSV unless it was published.
  ~RunLog();

  /// Starts epoch `epoch` (resets the epoch's loss mean and skip count).
  void beginEpoch(int epoch);
  /// Counts `step`, writes its CSV row and the progress. Returns an error
  /// when training must stop, after publishing the CSV so far: the loss is
  /// non-finite, the step overflowed with a dynamic scale at `minScale`, or
  /// 25 consecutive steps overflowed with a static scale.
  llvm::Error record(const StepRecord &step);
  /// A run resumed from a checkpoint mid-epoch: the epoch's finite losses
  /// so far (sum and count) and its skipped steps.
  void restoreEpoch(double sum, int64_t count, int64_t skipped) {
    lossSum = sum;
    lossCount = count;
    skippedThisEpoch = skipped;
  }
  double epochLossSum() const { return lossSum; }
  int64_t epochLossCount() const { return lossCount; }
  int64_t epochSkipped() const { return skippedThisEpoch; }
  /// The run stops mid-epoch (a signal): the epoch's mean finite loss so
  /// far becomes `finalTrainLoss` when it has one.
  void interrupt();
  /// Ends an epoch: the mean finite loss becomes `finalTrainLoss`; writes the
  /// epoch's line (accuracy and final scale from the result).
  void endEpoch();
  /// Mean ms per step over the run; the --update-stats summary (with
  /// --progress) and the warning that bf16 storage stalls training (always:
  /// a warning does not depend on the progress display); publishes the CSV.
  /// Errors: every step of the run was skipped, the CSV could not be
  /// written.
  llvm::Error finish();

private:
  RunLog(const TrainOptions &o, RunResult &result, const RunShape &shape,
         llvm::raw_ostream &log)
      : options(o), result(result), shape(shape), log(log) {}
  llvm::Error publish();
  void progressLine(const StepRecord &step);
  void clearLiveLine();

  const TrainOptions &options;
  RunResult &result;
  RunShape shape;
  llvm::raw_ostream &log;
  std::unique_ptr<OutputFile> csv; ///< until published or discarded
  int epoch = 0;
  double lossSum = 0, msTotal = 0;
  int64_t lossCount = 0, skippedThisEpoch = 0;
  /// Steps of the run before this process (resumed from a checkpoint).
  int64_t stepsBefore = 0;

public:
  void setStepsBefore(int64_t steps) { stepsBefore = steps; }

private:
  bool live = false; ///< the log is a terminal: one line rewritten in place
  bool liveLineShown = false;
  std::chrono::steady_clock::time_point lastProgress;
};

/// The maximum consecutive skipped steps of a run with a static loss scale.
constexpr int32_t kMaxConsecutiveStaticSkips = 25;

} // namespace mlir::amp::runtime

#endif // AMP_RUNTIME_RUNLOG_H
