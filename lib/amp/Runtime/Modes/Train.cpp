//===- Train.cpp - amp-run's training mode --------------------------------===//
//
// Every run over its seeds, one table row per run; on SIGINT or SIGTERM the
// step in flight finishes, the run writes its checkpoint (if asked), the
// table shows the finished runs and the interrupted one, runs that never
// started write nothing, and the status is 128 + the signal. A signal while
// a run compiles (nothing of it to keep) ends amp-run at once, with the
// same table and message.
//
//===----------------------------------------------------------------------===//

#include "Session.h"
#include "amp/Analysis/MemoryReport.h"

#include "amp/Runtime/Checkpoint/ModelExport.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <unistd.h>

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::runtime;

namespace {
/// A run over its seeds.
struct RunSeries {
  std::vector<RunResult> seeds; ///< one result per seed, in order
  RunResult mean() const {
    RunResult m = seeds.front();
    auto avg = [&](auto field) {
      double sum = 0;
      for (const RunResult &r : seeds)
        sum += static_cast<double>(r.*field);
      return sum / static_cast<double>(seeds.size());
    };
    m.finalTrainLoss = avg(&RunResult::finalTrainLoss);
    m.testAccuracy = avg(&RunResult::testAccuracy);
    m.finalLossScale = avg(&RunResult::finalLossScale);
    m.skippedSteps =
        static_cast<int64_t>(std::llround(avg(&RunResult::skippedSteps)));
    m.msPerStep = avg(&RunResult::msPerStep);
    for (const RunResult &r : llvm::drop_begin(seeds)) {
      m.underflowFlushed += r.underflowFlushed;
      m.underflowTotal += r.underflowTotal;
      m.updatesIntended += r.updatesIntended;
      m.updatesLost += r.updatesLost;
      m.updatesLostInBF16 += r.updatesLostInBF16;
      m.interrupted |= r.interrupted;
    }
    m.meanUpdateRatio = avg(&RunResult::meanUpdateRatio);
    m.stepsMostlyLost =
        static_cast<int64_t>(std::llround(avg(&RunResult::stepsMostlyLost)));
    return m;
  }
  /// Sample standard deviation of the test accuracy (0 for one seed).
  double accuracySd() const {
    if (seeds.size() < 2)
      return 0;
    double mean = this->mean().testAccuracy, sum = 0;
    for (const RunResult &r : seeds)
      sum += (r.testAccuracy - mean) * (r.testAccuracy - mean);
    return std::sqrt(sum / static_cast<double>(seeds.size() - 1));
  }
};

/// The signal that asked the runs to stop (0: none).
volatile std::sig_atomic_t stopSignal = 0;
/// Set while a run compiles: a stop then ends the process from the
/// handler, writing `tableWhileCompiling` to stdout and
/// `stopMessageWhileCompiling` (both prepared before) to stderr.
volatile std::sig_atomic_t whileCompiling = 0;
const std::string *tableWhileCompiling = nullptr;
const std::string *stopMessageWhileCompiling[2] = {nullptr, nullptr};
/// The autocast report the compiling run writes (while compiling), when no
/// file was there before: removed on a stop, as the run never started.
const std::string *reportWhileCompiling = nullptr;

/// Writes all of `text` to `fd` (async-signal-safe).
void writeAll(int fd, const std::string *text) {
  if (!text)
    return;
  const char *p = text->data();
  size_t left = text->size();
  while (left > 0) {
    ssize_t n = ::write(fd, p, left);
    if (n <= 0)
      return;
    p += n;
    left -= static_cast<size_t>(n);
  }
}

extern "C" void onStopSignal(int signal) {
  stopSignal = signal;
  if (!whileCompiling)
    return;
  // Compiling (the MLIR lowering and LLVM's JIT cannot be interrupted and
  // take half a minute on a ResNet): nothing of this run exists yet, the
  // outputs of finished runs are written, stdout was flushed.
  if (reportWhileCompiling)
    ::unlink(reportWhileCompiling->c_str());
  writeAll(1, tableWhileCompiling);
  writeAll(2, stopMessageWhileCompiling[signal == SIGTERM ? 1 : 0]);
  ::_exit(128 + signal);
}

/// SIGINT and SIGTERM set `stopSignal` while training (a second one ends
/// the process as usual); the previous handlers come back afterwards.
class StopSignals {
public:
  StopSignals() {
    stopSignal = 0;
    struct sigaction action = {};
    action.sa_handler = onStopSignal;
    action.sa_flags = SA_RESETHAND;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, &oldInt);
    sigaction(SIGTERM, &action, &oldTerm);
  }
  ~StopSignals() {
    sigaction(SIGINT, &oldInt, nullptr);
    sigaction(SIGTERM, &oldTerm, nullptr);
  }

private:
  struct sigaction oldInt = {}, oldTerm = {};
};
} // namespace

/// One line per run, "  [<run>] state ...": what its training step holds,
/// from the IR (RunResult::memory), and its kept bytes against the f32
/// run's; the bracket keeps the lines apart from the table's rows.
static void printMemory(const std::vector<RunSeries> &series, int64_t budget,
                        llvm::raw_ostream &out) {
  const RunResult *f32 = nullptr;
  for (const RunSeries &s : series)
    if (s.seeds.front().memory && s.seeds.front().name == "f32")
      f32 = &s.seeds.front();
  bool header = false;
  for (const RunSeries &s : series) {
    const RunResult &r = s.seeds.front();
    if (!r.memory)
      continue;
    if (!header)
      out << "\nmemory of one training step, from its IR (amp-memory-report: "
             "tensor level, before bufferization; CPU buffers: the lowered "
             "step's allocations at their most, arguments not included):\n";
    header = true;
    const RunResult::Memory &m = *r.memory;
    out << "  [" << r.name << "] state " << formatBytes(m.state) << ", batch "
        << formatBytes(m.batch) << ", kept for the backward "
        << formatBytes(m.kept);
    if (f32 && f32 != &r && f32->memory->kept > 0)
      out << llvm::format(" (%.2fx f32's)",
                          double(m.kept) / double(f32->memory->kept));
    out << ", peak live " << formatBytes(m.peakLive);
    if (m.approximate)
      out << " (approximate)";
    if (m.cpuBuffers) {
      out << "; CPU buffers " << formatBytes(*m.cpuBuffers);
      if (f32 && f32 != &r && f32->memory->cpuBuffers &&
          *f32->memory->cpuBuffers > 0)
        out << llvm::format(" (%.2fx f32's)",
                            double(*m.cpuBuffers) /
                                double(*f32->memory->cpuBuffers));
    }
    out << "\n";
    if (!m.largestBatch)
      continue;
    out << "  [" << r.name << "] --memory-budget=" << budget << ": ";
    if (m.staticBatch)
      out << "the step's batch is static; its peak live "
          << formatBytes(m.largestBatchPeak)
          << (*m.largestBatch > 0 ? " fits" : " does not fit") << "\n";
    else if (*m.largestBatch == 0)
      out << "not even a batch of 1 fits\n";
    else if (m.largestBatchCapped)
      out << "every batch up to " << *m.largestBatch
          << " fits (the search stops there; peak live "
          << formatBytes(m.largestBatchPeak) << ")\n";
    else
      out << "the largest batch that fits is " << *m.largestBatch
          << " (peak live " << formatBytes(m.largestBatchPeak) << ")\n";
  }
}

/// The table: one row per finished (or interrupted) run, the mean over its
/// seeds.
static void printTable(const RunRequest &request,
                       const std::vector<RunSeries> &series,
                       llvm::raw_ostream &out) {
  bool spread = request.seeds > 1;
  // The run column fits the longest run name (with its " *").
  int width = 16;
  for (const RunSeries &s : series)
    width = std::max(width, static_cast<int>(s.seeds.front().name.size()) + 2);
  out << "\n"
      << llvm::format("%-*s %12s %10s", width, "run", "train loss", "test acc");
  if (spread)
    out << llvm::format(" %8s", "acc sd");
  out << llvm::format(" %12s %8s %8s %10s\n", "loss scale", "skipped", "steps",
                      "ms/step");
  bool interrupted = false;
  for (const RunSeries &s : series) {
    RunResult r = s.mean();
    interrupted |= r.interrupted;
    char scaleText[32] = "-";
    if (r.finalLossScale > 0)
      std::snprintf(scaleText, sizeof(scaleText), "%g", r.finalLossScale);
    std::string acc = r.testAccuracy >= 0
                          ? llvm::formatv("{0:F4}", r.testAccuracy).str()
                          : "-";
    std::string name = r.name + (r.interrupted ? " *" : "");
    // Fixed point while it fits the column, else exponent form.
    const char *lossFormat = std::fabs(r.finalTrainLoss) < 1e6
                                 ? "%-*s %12.4f %10s"
                                 : "%-*s %12.4e %10s";
    out << llvm::format(lossFormat, width, name.c_str(), r.finalTrainLoss,
                        acc.c_str());
    if (spread)
      out << llvm::format(
          " %8s", r.testAccuracy >= 0
                      ? llvm::formatv("{0:F4}", s.accuracySd()).str().c_str()
                      : "-");
    out << llvm::format(" %12s %8lld %8lld %10.2f\n", scaleText,
                        (long long)r.skippedSteps, (long long)r.steps,
                        r.msPerStep);
  }
  out << "(train loss: the mean loss of the last epoch's steps; test acc: "
         "after the last epoch)\n";
  if (interrupted)
    out << "(*: interrupted by a signal; its train loss is the mean over "
           "the steps of the epoch it stopped in)\n";
  if (spread)
    out << "(means over " << request.seeds << " seeds: --seed=" << request.seed
        << " to " << request.seed + request.seeds - 1 << ")\n";
  printMemory(series, request.memoryBudget, out);
  if (request.rewrite.underflowStats) {
    out << "\nbackward values flushed to zero/subnormal when "
           "rounded to f16 (bf16 for bf16 runs), whole run:\n";
    for (const RunSeries &s : series) {
      RunResult r = s.mean();
      out << llvm::format("%-*s %14lld of %16lld non-zero values = %.4f%%\n",
                          width, r.name.c_str(), (long long)r.underflowFlushed,
                          (long long)r.underflowTotal,
                          r.underflowTotal
                              ? 100.0 * double(r.underflowFlushed) /
                                    double(r.underflowTotal)
                              : 0.0);
    }
  }
  if (request.rewrite.updateStats) {
    out << "\nparameter updates (--update-stats), whole run: mean "
           "||w' - w|| / ||w||, intended element updates lost to "
           "rounding in the parameters' storage, lost if stored in "
           "bf16, steps that lost half or more (means over the seeds):\n";
    for (const RunSeries &s : series) {
      RunResult r = s.mean();
      double n = std::max(r.updatesIntended, 1.0);
      out << llvm::format(
          "%-*s ratio %.3e  lost %7.3f%%  bf16 would lose %7.3f%%  %lld "
          "steps\n",
          width, r.name.c_str(), r.meanUpdateRatio, 100.0 * r.updatesLost / n,
          100.0 * r.updatesLostInBF16 / n, (long long)r.stepsMostlyLost);
    }
  }
  out.flush();
}

/// --save-model: the trained parameters into the model's blobs.
static llvm::Error saveModel(const Session &session, BoundStep &step,
                             llvm::raw_ostream &out) {
  std::map<std::string, std::vector<char>> blobs;
  std::vector<ModelBlob> elided;
  for (const auto &[p, blob] : session.modelBlobs) {
    DeviceBuffer &buffer = step.arg(p);
    buffer.download();
    const char *bytes = buffer.host().as<char>();
    blobs[blob.key].assign(bytes, bytes + buffer.spec().numElements() *
                                              buffer.spec().elementBytes());
    if (blob.elidedAt)
      elided.push_back(blob);
  }
  if (llvm::Error e = writeTrainedModel(
          session.modelPath, session.request.saveModel, blobs, elided))
    return e;
  out << "amp-run: wrote the trained model " << session.request.saveModel
      << " (" << blobs.size() << " blobs of " << session.modelPath
      << " replaced";
  if (!elided.empty())
    out << ", " << elided.size() << " of them elided there and now named";
  out << ")\n";
  return llvm::Error::success();
}

int mlir::amp::runtime::trainRuns(const RunRequest &request,
                                  llvm::raw_ostream &out,
                                  llvm::raw_ostream &err) {
  Session session(request, out, err);
  if (std::optional<int> failed = session.setUp())
    return *failed;

  // The runs; when one fails, the table of those that finished, then why.
  StopSignals signals;
  std::vector<RunSeries> results;
  int64_t stepsHere = 0;
  auto stopped = [&]() -> int {
    int signal = stopSignal;
    if (!results.empty())
      printTable(request, results, out);
    err << "amp-run: stopped by " << (signal == SIGTERM ? "SIGTERM" : "SIGINT")
        << "\n";
    return 128 + signal;
  };
  for (size_t i = 0; i < session.configs.size(); ++i) {
    RunSeries series;
    for (int k = 0; k < request.seeds; ++k) {
      if (stopSignal) {
        if (!series.seeds.empty())
          results.push_back(std::move(series));
        return stopped();
      }
      TrainOptions o = session.configs[i];
      session.outputsFor(i, request.seed + static_cast<uint64_t>(k), o);
      o.stopRequested = [] { return stopSignal != 0; };
      // What a signal while compiling prints: the finished runs' table
      // (with the seeds of this run that finished).
      std::vector<RunSeries> finished = results;
      if (!series.seeds.empty())
        finished.push_back(series);
      std::string table;
      if (!finished.empty()) {
        llvm::raw_string_ostream os(table);
        printTable(request, finished, os);
      }
      std::string stopMessages[2] = {
          "amp-run: stopped by SIGINT while compiling run " +
              session.runSpecs[i] + "\n",
          "amp-run: stopped by SIGTERM while compiling run " +
              session.runSpecs[i] + "\n"};
      const std::string &report = o.rewrite.autocastReport;
      o.compiling = [&](bool now) {
        if (now) {
          reportWhileCompiling =
              !report.empty() && !llvm::sys::fs::exists(report) ? &report
                                                                : nullptr;
          out.flush();
          err.flush();
          tableWhileCompiling = &table;
          stopMessageWhileCompiling[0] = &stopMessages[0];
          stopMessageWhileCompiling[1] = &stopMessages[1];
        }
        whileCompiling = now;
        // A signal that came before compiling (while the run planned and
        // loaded its data) ends amp-run here too, before a step is taken.
        if (now && stopSignal)
          onStopSignal(stopSignal);
        if (now && request.testSignalWhileCompiling ==
                       static_cast<int64_t>(i) * request.seeds + k + 1)
          std::raise(SIGINT);
      };
      if (!request.saveModel.empty())
        o.onTrained = [&](BoundStep &step) -> llvm::Error {
          if (session.dp && !session.dp->reports())
            return llvm::Error::success();
          return saveModel(session, step, out);
        };
      // The test hook counts the steps this process trains, over all runs.
      o.testSignalAtStep = request.testSignalAtStep > stepsHere
                               ? request.testSignalAtStep - stepsHere
                               : 0;
      out << "amp-run: run " << session.runSpecs[i];
      if (request.seeds > 1)
        out << " seed " << o.seed;
      out << " (" << o.epochs << (o.epochs == 1 ? " epoch" : " epochs");
      if (!o.resumeDir.empty())
        out << ", resumed from " << o.resumeDir;
      out << ")\n";
      out.flush();
      auto r = train(*session.module, o, *session.backend, *session.trainSet,
                     *session.testSet, out);
      if (!r) {
        // A stop rule ends every data-parallel rank at the same step: they
        // end together; any other error is this rank's alone.
        bool everyRank = true;
        std::string error;
        llvm::handleAllErrors(
            r.takeError(),
            [&](const StopRuleError &stop) {
              error += (error.empty() ? "" : "\n") + stop.message;
            },
            [&](const llvm::ErrorInfoBase &other) {
              everyRank = false;
              error += (error.empty() ? "" : "\n") + other.message();
            });
        if (!results.empty())
          printTable(request, results, out);
        std::string name = session.runSpecs[i];
        if (request.seeds > 1)
          name += ".seed" + std::to_string(o.seed);
        return everyRank ? session.failOnEveryRank("run " + name + ": " + error)
                         : session.fail("run " + name + ": " + error);
      }
      series.seeds.push_back(*r);
      stepsHere += r->steps - r->resumedAtStep;
      if (r->interrupted) {
        results.push_back(std::move(series));
        return stopped();
      }
    }
    results.push_back(std::move(series));
  }
  printTable(request, results, out);
  return 0;
}
