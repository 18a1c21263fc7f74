//===- RunLog.cpp - the record of a training run --------------------------===//

#include "RunLog.h"

#include "amp/Support/OutputFile.h"
#include "llvm/Support/Format.h"

#include <cmath>
#include <cstdio>

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::runtime;

/// A stop rule's error (Trainer.h).
static llvm::Error stopRule(const llvm::Twine &msg) {
  return llvm::make_error<StopRuleError>(msg.str());
}

/// A value as printf's %g writes it (1, 0.5, 5.96046e-08): the log.
static std::string formatScale(double scale) {
  char text[32];
  std::snprintf(text, sizeof(text), "%g", scale);
  return text;
}

/// A float with the 9 significant digits that read back to the same float
/// (FLT_DECIMAL_DIG): the CSV.
static std::string formatExact(float value) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.9g", static_cast<double>(value));
  return text;
}

llvm::Expected<std::unique_ptr<RunLog>> RunLog::create(const TrainOptions &o,
                                                       RunResult &result,
                                                       const RunShape &shape,
                                                       llvm::raw_ostream &log) {
  std::unique_ptr<RunLog> record(new RunLog(o, result, shape, log));
  record->live = o.progress && log.is_displayed();
  record->lastProgress = std::chrono::steady_clock::now();
  if (o.csvPath.empty())
    return std::move(record);
  // amp/Support/OutputFile: atomic for a regular file (the replaced file's
  // mode is kept, an unwritable one refused), direct for /dev/stdout or a
  // pipe.
  auto csv = OutputFile::open(o.csvPath, ".tmp");
  if (!csv)
    return csv.takeError();
  record->csv = std::move(*csv);
  record->csv->os() << "run,step,epoch,loss,loss_scale,found_inf,step_ms"
                    << (shape.hasUnderflow
                            ? ",underflow_flushed,underflow_total"
                            : "");
  // Update statistics: all parameters together, then one triple per
  // parameter (k = its position among the parameters).
  if (shape.updateStatsParams > 0) {
    record->csv->os() << ",update_ratio,lost_frac,bf16_lost_frac";
    for (int64_t k = 0; k < shape.updateStatsParams; ++k)
      record->csv->os() << ",update_ratio_p" << k << ",lost_frac_p" << k
                        << ",bf16_lost_frac_p" << k;
  }
  record->csv->os() << "\n";
  return std::move(record);
}

RunLog::~RunLog() {
  if (csv)
    csv->discard();
}

llvm::Error RunLog::publish() {
  if (!csv)
    return llvm::Error::success();
  llvm::Error done = csv->commit();
  csv.reset();
  return done;
}

void RunLog::beginEpoch(int e) {
  epoch = e;
  lossSum = 0;
  lossCount = 0;
  skippedThisEpoch = 0;
}

/// The update statistics of one step for `rows` (a range of parameters):
/// ratio ||w' - w|| / ||w||, lost / changed, bf16_lost / changed.
struct UpdateSummary {
  double diff2 = 0, param2 = 0, changed = 0, lost = 0, bf16Lost = 0;
  double ratio() const { return param2 > 0 ? std::sqrt(diff2 / param2) : 0; }
  double lostFrac() const { return changed > 0 ? lost / changed : 0; }
  double bf16LostFrac() const { return changed > 0 ? bf16Lost / changed : 0; }
};
static UpdateSummary summarize(const std::vector<double> &stats, int64_t first,
                               int64_t last) {
  UpdateSummary s;
  for (int64_t k = first; k < last && 5 * k + 4 < int64_t(stats.size()); ++k) {
    s.diff2 += stats[5 * k];
    s.param2 += stats[5 * k + 1];
    s.changed += stats[5 * k + 2];
    s.lost += stats[5 * k + 3];
    s.bf16Lost += stats[5 * k + 4];
  }
  return s;
}

/// Steps that must lose at least half of their intended updates before the
/// run warns (and the fraction of the run's steps they must be).
constexpr int64_t kMostlyLostSteps = 20;

llvm::Error RunLog::record(const StepRecord &step) {
  msTotal += step.ms;
  ++result.steps;
  if (step.foundInf) {
    ++result.skippedSteps;
    ++skippedThisEpoch;
  }
  result.underflowFlushed += step.underflowFlushed;
  result.underflowTotal += step.underflowTotal;
  UpdateSummary updates =
      summarize(step.updateStats, 0, shape.updateStatsParams);
  if (shape.updateStatsParams > 0) {
    result.meanUpdateRatio +=
        (updates.ratio() - result.meanUpdateRatio) / double(result.steps);
    result.updatesIntended += updates.changed;
    result.updatesLost += updates.lost;
    result.updatesLostInBF16 += updates.bf16Lost;
    if (updates.changed > 0 && updates.lostFrac() >= 0.5)
      ++result.stepsMostlyLost;
  }
  if (std::isfinite(step.loss)) {
    lossSum += step.loss;
    ++lossCount;
  }
  if (csv) {
    llvm::raw_ostream &out = csv->os();
    out << result.name << "," << result.steps << "," << step.epoch << ","
        << formatExact(step.loss) << "," << formatExact(step.scaleUsed) << ","
        << (step.foundInf ? 1 : 0) << "," << llvm::format("%.4f", step.ms);
    if (shape.hasUnderflow)
      out << "," << step.underflowFlushed << "," << step.underflowTotal;
    if (shape.updateStatsParams > 0) {
      auto triple = [&](const UpdateSummary &s) {
        out << "," << llvm::format("%.6g", s.ratio()) << ","
            << llvm::format("%.6g", s.lostFrac()) << ","
            << llvm::format("%.6g", s.bf16LostFrac());
      };
      triple(updates);
      for (int64_t k = 0; k < shape.updateStatsParams; ++k)
        triple(summarize(step.updateStats, k, k + 1));
    }
    out << "\n";
  }
  // The stop rules (shared REFERENCE.md, "scale collapse"): stop, say why,
  // fail the run.
  std::string where = "step " + std::to_string(result.steps) + " (epoch " +
                      std::to_string(step.epoch) + ")";
  std::string precision = stringifyPrecision(options.rewrite.precision).str();
  if (!std::isfinite(step.loss)) {
    clearLiveLine();
    std::string kind = std::isnan(step.loss) ? "NaN" : "inf";
    if (step.nonFiniteParam)
      return llvm::joinErrors(
          publish(),
          stopRule(where + ": the loss is non-finite (" + kind +
                   ") because the parameters became non-finite in step " +
                   std::to_string(result.steps - 1) + "'s update (argument #" +
                   std::to_string(*step.nonFiniteParam) + " first): " +
                   (shape.checksOverflow
                        ? "its gradients were finite, so the update itself "
                          "overflowed (check the learning rate)"
                        : "this run checks no gradient for overflow, so "
                          "non-finite gradients reach the update (a run with "
                          "loss scaling, e.g. --run=" +
                              precision +
                              "+dynamic, skips such steps); stopping")));
    return llvm::joinErrors(
        publish(),
        stopRule(where + ": the loss itself is non-finite (" + kind +
                 "): the forward pass overflowed, which does not depend on "
                 "the loss scale, so backing off cannot help; stopping "
                 "(check the input, the learning rate and which ops run "
                 "in " +
                 precision + ")"));
  }
  if (step.foundInf && shape.dynamicScale &&
      step.scaleUsed <= static_cast<float>(options.rewrite.minScale)) {
    clearLiveLine();
    return llvm::joinErrors(
        publish(),
        stopRule(where + ": the loss scale is at its floor (" +
                 formatScale(options.rewrite.minScale) +
                 ", --min-scale) and the gradients still overflow (" +
                 llvm::Twine(step.consecutiveSkips) +
                 " consecutive skipped steps): backing off cannot help; "
                 "stopping"));
  }
  if (step.foundInf && shape.hasScale && !shape.dynamicScale &&
      step.consecutiveSkips >= kMaxConsecutiveStaticSkips) {
    clearLiveLine();
    return llvm::joinErrors(
        publish(),
        stopRule(where + ": " + llvm::Twine(step.consecutiveSkips) +
                 " consecutive steps overflowed at the static loss scale " +
                 formatScale(step.scaleUsed) +
                 ", so none of them updated the parameters; stopping "
                 "(lower --init-scale, or use dynamic loss scaling, "
                 "which backs off)"));
  }
  progressLine(step);
  return llvm::Error::success();
}

void RunLog::progressLine(const StepRecord &step) {
  if (!options.progress)
    return;
  auto now = std::chrono::steady_clock::now();
  double since = std::chrono::duration<double>(now - lastProgress).count();
  bool last = step.stepInEpoch == shape.stepsPerEpoch;
  if (live ? (since < 0.1 && !last)
           : (options.progressSeconds <= 0 || since < options.progressSeconds))
    return;
  lastProgress = now;
  double ms = msTotal / static_cast<double>(result.steps);
  int64_t totalSteps = shape.stepsPerEpoch * options.epochs;
  double eta = ms * static_cast<double>(totalSteps - result.steps) / 1000.0;
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "  [" << result.name << "] epoch " << epoch << "/" << options.epochs
     << ", step " << step.stepInEpoch << "/" << shape.stepsPerEpoch << ": loss "
     << llvm::format("%.4f", step.loss);
  if (shape.hasScale)
    os << ", loss scale " << formatScale(step.scaleUsed);
  if (shape.checksOverflow)
    os << ", skipped " << skippedThisEpoch;
  os << ", " << llvm::format("%.3f", ms) << " ms/step, ETA "
     << llvm::format("%.0f", eta) << " s";
  if (live) {
    log << "\r" << text << "\x1b[K";
    liveLineShown = true;
  } else {
    log << text << "\n";
  }
  log.flush();
}

void RunLog::clearLiveLine() {
  if (!liveLineShown)
    return;
  log << "\r\x1b[K";
  log.flush();
  liveLineShown = false;
}

void RunLog::endEpoch() {
  result.finalTrainLoss = lossCount ? lossSum / lossCount : NAN;
  clearLiveLine();
  if (!options.progress)
    return;
  log << "  [" << result.name << "] epoch " << epoch << "/" << options.epochs
      << ": train loss " << llvm::format("%.4f", result.finalTrainLoss);
  if (shape.hasEval)
    log << ", test accuracy " << llvm::format("%.4f", result.testAccuracy);
  if (shape.hasScale)
    log << ", loss scale " << llvm::format("%g", result.finalLossScale);
  if (shape.checksOverflow)
    log << ", skipped " << skippedThisEpoch;
  if (shape.hasUnderflow && result.underflowTotal > 0)
    log << ", backward flushed "
        << llvm::format("%.3f%%",
                        100.0 * static_cast<double>(result.underflowFlushed) /
                            static_cast<double>(result.underflowTotal));
  if (shape.updateStatsParams > 0 && result.updatesIntended > 0)
    log << ", update ratio " << llvm::format("%.2e", result.meanUpdateRatio)
        << ", lost "
        << llvm::format("%.1f%%",
                        100.0 * result.updatesLost / result.updatesIntended);
  if (result.steps > stepsBefore)
    log << ", "
        << llvm::format("%.3f", msTotal / double(result.steps - stepsBefore))
        << " ms/step";
  if (!shape.device.empty())
    log << " " << shape.device;
  log << "\n";
  log.flush();
}

void RunLog::interrupt() {
  clearLiveLine();
  if (lossCount)
    result.finalTrainLoss = lossSum / static_cast<double>(lossCount);
}

llvm::Error RunLog::finish() {
  // A resumed run times only its own steps.
  int64_t timed = result.steps - stepsBefore;
  result.msPerStep = timed > 0 ? msTotal / static_cast<double>(timed) : 0;
  if (shape.updateStatsParams > 0 && options.progress) {
    double intended = std::max(result.updatesIntended, 1.0);
    log << "  [" << result.name << "] updates: mean ||w' - w|| / ||w|| "
        << llvm::format("%.3e", result.meanUpdateRatio) << ", lost to "
        << shape.paramStorage << " storage "
        << llvm::format("%.2f%%", 100.0 * result.updatesLost / intended)
        << " of intended element updates, round-to-nearest bf16 would lose "
        << llvm::format("%.2f%%", 100.0 * result.updatesLostInBF16 / intended)
        << "; " << result.stepsMostlyLost << " of " << result.steps
        << " steps lost at least half\n";
    log.flush();
  }
  // Kahan and stochastic rounding carry what a step did not store (the
  // compensation, the expectation): only plain rounding stalls. A warning,
  // printed whatever --progress says (the summary line above is progress).
  if (shape.updateStatsParams > 0 && shape.paramStorage == "bf16" &&
      result.stepsMostlyLost >= kMostlyLostSteps &&
      2 * result.stepsMostlyLost >= result.steps) {
    log << "  [" << result.name << "] warning: " << result.stepsMostlyLost
        << " of " << result.steps
        << " steps lost at least half of their parameter updates to "
           "rounding in "
        << shape.paramStorage
        << " storage (|update| < |w| * 2^-9 rounds back to w): training "
           "stalls silently; use --master-weights=f32, bf16-kahan or "
           "bf16-stochastic, or a larger learning rate\n";
    log.flush();
  }
  if (result.steps > 0 && result.skippedSteps == result.steps)
    return llvm::joinErrors(
        publish(),
        stopRule("every step of the run (" + llvm::Twine(result.steps) +
                 " of " + llvm::Twine(result.steps) +
                 ") overflowed and was skipped: the parameters never "
                 "changed (lower --init-scale, or check the step)"));
  return publish();
}
