//===- RunRecord.cpp - bookkeeping shared by the CPU and GPU trainers -----===//

#include "RunRecord.h"

#include "llvm/Support/Format.h"

#include <cmath>
#include <cstdio>

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::runtime;

static llvm::Error makeError(const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
}

/// A scale as printf's %g writes it (1, 0.5, 5.96046e-08).
static std::string formatScale(double scale) {
  char text[32];
  std::snprintf(text, sizeof(text), "%g", scale);
  return text;
}

void mlir::amp::runtime::setMixedPrecisionOptions(const TrainOptions &o,
                                                  MixedPrecisionOptions &mp) {
  mp.precision = o.precision;
  mp.lossScale = o.lossScale;
  mp.initScale = o.initScale;
  mp.growthInterval = o.growthInterval;
  mp.hysteresis = o.hysteresis;
  mp.minScale = o.minScale;
  mp.maxScale = o.maxScale;
  mp.underflowStats = o.underflowStats;
}

llvm::Expected<std::unique_ptr<RunRecord>>
RunRecord::create(const TrainOptions &o, RunResult &result,
                  bool underflowColumns) {
  std::unique_ptr<RunRecord> record(new RunRecord(o, result));
  record->underflowColumns = underflowColumns;
  if (o.csvPath.empty())
    return std::move(record);
  auto tmp = llvm::sys::fs::TempFile::create(o.csvPath + ".tmp-%%%%%%");
  if (!tmp)
    return makeError("cannot write " + o.csvPath + ": " +
                     llvm::toString(tmp.takeError()));
  record->csvFile.emplace(std::move(*tmp));
  record->csv = std::make_unique<llvm::raw_fd_ostream>(record->csvFile->FD,
                                                       /*shouldClose=*/false);
  *record->csv << "run,step,epoch,loss,loss_scale,found_inf,step_ms"
               << (underflowColumns ? ",underflow_flushed,underflow_total" : "")
               << "\n";
  return std::move(record);
}

RunRecord::~RunRecord() {
  csv.reset();
  if (csvFile)
    llvm::consumeError(csvFile->discard());
}

llvm::Error RunRecord::publish() {
  if (!csvFile)
    return llvm::Error::success();
  csv->flush();
  std::error_code ec = csv->error();
  csv->clear_error();
  csv.reset();
  llvm::Error done = ec ? csvFile->discard() : csvFile->keep(options.csvPath);
  csvFile.reset();
  if (ec) {
    llvm::consumeError(std::move(done));
    return makeError("cannot write " + options.csvPath + ": " + ec.message());
  }
  return done;
}

void RunRecord::beginEpoch() {
  lossSum = 0;
  lossCount = 0;
  skippedThisEpoch = 0;
}

llvm::Error RunRecord::record(const StepRecord &step) {
  msTotal += step.ms;
  ++result.steps;
  if (step.foundInf) {
    ++result.skippedSteps;
    ++skippedThisEpoch;
  }
  result.underflowFlushed += step.underflowFlushed;
  result.underflowTotal += step.underflowTotal;
  if (std::isfinite(step.loss)) {
    lossSum += step.loss;
    ++lossCount;
  }
  if (csv) {
    *csv << result.name << "," << result.steps << "," << step.epoch << ","
         << llvm::format("%.6g", step.loss) << ","
         << llvm::format("%.6g", step.scaleUsed) << ","
         << (step.foundInf ? 1 : 0) << "," << llvm::format("%.4f", step.ms);
    if (underflowColumns)
      *csv << "," << step.underflowFlushed << "," << step.underflowTotal;
    *csv << "\n";
  }
  // Scale collapse (shared REFERENCE.md): stop, say why, fail the run.
  std::string where = "step " + std::to_string(result.steps) + " (epoch " +
                      std::to_string(step.epoch) + ")";
  if (!std::isfinite(step.loss))
    return llvm::joinErrors(
        publish(),
        makeError(
            where + ": the loss itself is non-finite (" +
            llvm::Twine(std::isnan(step.loss) ? "NaN" : "inf") +
            "): the forward pass overflowed, which does not depend on the "
            "loss scale, so backing off cannot help; stopping (check the "
            "input, the learning rate and which ops run in " +
            options.precision + ")"));
  if (step.foundInf && step.dynamicScale &&
      step.scaleUsed <= static_cast<float>(options.minScale))
    return llvm::joinErrors(
        publish(),
        makeError(where + ": the loss scale is at its floor (" +
                  formatScale(options.minScale) +
                  ", --min-scale) and the gradients still overflow (" +
                  llvm::Twine(step.consecutiveSkips) +
                  " consecutive skipped steps): backing off cannot help; "
                  "stopping"));
  return llvm::Error::success();
}

void RunRecord::endEpoch() {
  result.finalTrainLoss = lossCount ? lossSum / lossCount : NAN;
}

void RunRecord::logEpoch(llvm::raw_ostream &log, int epoch, bool hasEval,
                         bool hasScale, bool hasFoundInf, bool hasUnderflow,
                         llvm::StringRef device) const {
  if (!options.progress)
    return;
  log << "  [" << result.name << "] epoch " << epoch << "/" << options.epochs
      << ": train loss " << llvm::format("%.4f", result.finalTrainLoss);
  if (hasEval)
    log << ", test accuracy " << llvm::format("%.4f", result.testAccuracy);
  if (hasScale)
    log << ", loss scale " << llvm::format("%g", result.finalLossScale);
  if (hasFoundInf)
    log << ", skipped " << skippedThisEpoch;
  if (hasUnderflow && result.underflowTotal > 0)
    log << ", backward flushed "
        << llvm::format("%.3f%%",
                        100.0 * static_cast<double>(result.underflowFlushed) /
                            static_cast<double>(result.underflowTotal));
  log << ", " << llvm::format("%.3f", msTotal / result.steps) << " ms/step";
  if (!device.empty())
    log << " " << device;
  log << "\n";
  log.flush();
}

llvm::Error RunRecord::finish() {
  result.msPerStep = msTotal / static_cast<double>(result.steps);
  return publish();
}
