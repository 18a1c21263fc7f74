//===- RunRecord.cpp - bookkeeping shared by the CPU and GPU trainers -----===//

#include "RunRecord.h"

#include "amp/Support/OutputFile.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/Format.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

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

/// "file:line:col" for file locations (also inside fused/name locations),
/// MLIR's own printing otherwise.
static std::string formatLocation(Location loc) {
  std::string str;
  llvm::raw_string_ostream os(str);
  if (auto flc = dyn_cast<FileLineColLoc>(loc))
    os << flc.getFilename().getValue() << ":" << flc.getLine() << ":"
       << flc.getColumn();
  else if (auto name = dyn_cast<NameLoc>(loc))
    return formatLocation(name.getChildLoc());
  else if (auto fused = dyn_cast<FusedLoc>(loc);
           fused && !fused.getLocations().empty())
    return formatLocation(fused.getLocations().front());
  else
    os << loc;
  return str;
}

llvm::Error
mlir::amp::runtime::runPipeline(ModuleOp module,
                                llvm::function_ref<void(PassManager &)> build,
                                llvm::StringRef what) {
  std::string diagnostics;
  llvm::raw_string_ostream os(diagnostics);
  ScopedDiagnosticHandler handler(module.getContext(), [&](Diagnostic &d) {
    const char *kind = d.getSeverity() == DiagnosticSeverity::Error ? "error"
                       : d.getSeverity() == DiagnosticSeverity::Warning
                           ? "warning"
                           : "note";
    os << formatLocation(d.getLocation()) << ": " << kind << ": " << d << "\n";
    for (Diagnostic &note : d.getNotes())
      os << formatLocation(note.getLocation()) << ": note: " << note << "\n";
    return success();
  });
  PassManager pm(module.getContext());
  build(pm);
  if (failed(pm.run(module)))
    return makeError(what + " failed:\n" + diagnostics);
  return llvm::Error::success();
}

void mlir::amp::runtime::initParameter(HostTensor &t, std::mt19937_64 &rng) {
  const TensorSpec &spec = t.spec();
  if (spec.shape.size() < 2)
    return t.fillZero();
  int64_t fanIn = 1;
  for (size_t i = 0; i + 1 < spec.shape.size(); ++i)
    fanIn *= spec.shape[i];
  float bound = 1.0f / std::sqrt(static_cast<float>(fanIn));
  std::uniform_real_distribution<float> dist(-bound, bound);
  float *p = t.as<float>();
  for (int64_t i = 0; i < spec.numElements(); ++i)
    p[i] = dist(rng);
}

void mlir::amp::runtime::fillBatch(const Dataset &ds,
                                   const std::vector<int64_t> &indices,
                                   int64_t first, int64_t batch,
                                   HostTensor &input, HostTensor *label) {
  float *x = input.as<float>();
  for (int64_t b = 0; b < batch; ++b) {
    int64_t pos = first + b;
    float *row = x + b * ds.exampleSize;
    if (pos >= static_cast<int64_t>(indices.size())) {
      std::memset(row, 0, sizeof(float) * ds.exampleSize);
      continue;
    }
    int64_t e = indices[pos];
    std::memcpy(row, ds.images.data() + e * ds.exampleSize,
                sizeof(float) * ds.exampleSize);
    if (!label)
      continue;
    if (label->spec().kind == ElementKind::I32)
      label->as<int32_t>()[b] = ds.labels[e];
    else
      label->as<int64_t>()[b] = ds.labels[e];
  }
}

int64_t mlir::amp::runtime::countCorrect(const HostTensor &logits,
                                         const Dataset &ds, int64_t first,
                                         int64_t batch, int64_t classes) {
  const float *l = logits.as<float>();
  int64_t correct = 0;
  for (int64_t b = 0; b < batch && first + b < ds.numExamples; ++b) {
    const float *row = l + b * classes;
    int64_t arg = std::max_element(row, row + classes) - row;
    correct += arg == ds.labels[first + b];
  }
  return correct;
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
  auto target = classifyOutput(o.csvPath);
  if (!target)
    return target.takeError();
  if (target->mode == OutputTarget::Mode::Direct) {
    // /dev/stdout, a pipe: written as the run goes.
    std::error_code ec;
    record->csv = std::make_unique<llvm::raw_fd_ostream>(o.csvPath, ec);
    if (ec)
      return makeError("cannot write '" + o.csvPath + "': " + ec.message());
  } else {
    auto tmp = llvm::sys::fs::TempFile::create(target->path + ".tmp-%%%%%%");
    if (!tmp)
      return makeError("cannot write '" + o.csvPath +
                       "': " + llvm::toString(tmp.takeError()));
    record->csvFile.emplace(std::move(*tmp));
    record->keepPath = target->path;
    record->csv = std::make_unique<llvm::raw_fd_ostream>(record->csvFile->FD,
                                                         /*shouldClose=*/false);
  }
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
  if (csv && !csvFile) { // written directly
    csv->flush();
    std::error_code ec = csv->error();
    csv->clear_error();
    csv.reset();
    if (ec)
      return makeError("cannot write '" + options.csvPath +
                       "': " + ec.message());
    return llvm::Error::success();
  }
  if (!csvFile)
    return llvm::Error::success();
  csv->flush();
  std::error_code ec = csv->error();
  csv->clear_error();
  csv.reset();
  llvm::Error done = ec ? csvFile->discard() : csvFile->keep(keepPath);
  csvFile.reset();
  if (ec) {
    llvm::consumeError(std::move(done));
    return makeError("cannot write '" + options.csvPath + "': " + ec.message());
  }
  if (done)
    return makeError("cannot write '" + options.csvPath +
                     "': " + llvm::toString(std::move(done)));
  return llvm::Error::success();
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
