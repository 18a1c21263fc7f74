//===- amp-run.cpp - train an MLIR training step, fp32 vs mixed precision -===//
//
// Parses a module with an `amp.train_step` function (docs/training-step.md)
// and, for each requested run (precision + loss-scale mode), trains it with
// the training driver (amp/Runtime/Trainer.h) on the CPU or a CUDA GPU on
// the IDX dataset, then prints one table row per run. Everything a run can
// be refused for is checked before the data is loaded.
//
//===----------------------------------------------------------------------===//

#include "TestPasses.h"
#include "amp/InitAll.h"
#include "amp/Runtime/CudaBackend.h"
#include "amp/Runtime/DataParallel.h"
#include "amp/Runtime/GradientCheck.h"
#include "amp/Runtime/HostTensor.h"
#include "amp/Runtime/IdxDataset.h"
#include "amp/Runtime/SyntheticData.h"
#include "amp/Runtime/Trainer.h"
#include "amp/Support/OptionParsers.h"
#include "amp/Support/OutputFile.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstdio>
#include <deque>
#include <fcntl.h>
#include <memory>
#include <thread>
#include <unistd.h>

#ifndef AMP_VERSION
#define AMP_VERSION "unknown"
#endif

using namespace mlir;
namespace cl = llvm::cl;
namespace runtime = mlir::amp::runtime;

static cl::OptionCategory ampRunCategory("amp-run options");

/// Descriptions with their defaults appended; cl::desc keeps a StringRef.
static llvm::StringRef withDefault(llvm::StringRef desc,
                                   const std::string &value) {
  static std::deque<std::string> storage;
  storage.push_back((desc + " (default: " + value + ")").str());
  return storage.back();
}
static std::string defaultText(double v) {
  char text[32];
  std::snprintf(text, sizeof(text), "%g", v);
  return text;
}
static std::string defaultText(int v) { return std::to_string(v); }
static std::string defaultText(bool v) { return v ? "true" : "false"; }
static std::string defaultText(amp::MasterWeights v) {
  return amp::stringifyMasterWeights(v).str();
}
static std::string defaultText(const std::string &v) {
  return v.empty() ? "none" : v;
}

static cl::opt<std::string> inputFile(cl::Positional,
                                      cl::desc("<training step .mlir>"),
                                      cl::Required, cl::cat(ampRunCategory));
static cl::list<std::string>
    runs("run",
         cl::desc("A run: <precision>[+<loss-scale>], precision f32|f16|bf16 "
                  "(amp-mixed-precision precision=), loss-scale "
                  "dynamic|static|none (loss-scale=; default none). Repeat or "
                  "comma-separate for several runs (default: f16+dynamic)"),
         cl::CommaSeparated, cl::cat(ampRunCategory));
static cl::opt<int>
    epochs("epochs", cl::desc(withDefault("Training epochs", defaultText(1))),
           cl::init(1), cl::cat(ampRunCategory));
static cl::opt<int64_t>
    batchSize("batch-size",
              cl::desc("Batch size when the input's batch dimension is dynamic "
                       "(default: the step's static batch size)"),
              cl::init(0), cl::cat(ampRunCategory));
static cl::opt<int64_t> maxSteps(
    "max-steps",
    cl::desc(withDefault("Limit steps per epoch (0: all)", defaultText(0))),
    cl::init(0), cl::cat(ampRunCategory));
static cl::opt<std::string> dataSource(
    "data",
    cl::desc("Training data: fashion-mnist (Debian's IDX files, --data-dir) "
             "or synthetic (seeded data of the step's own inputs: U[0, 1) "
             "floats, integers in --synthetic-int-range; uniform labels, "
             "regression targets of the target's shape; for throughput and "
             "other models) (default: fashion-mnist)"),
    cl::init("fashion-mnist"), cl::cat(ampRunCategory));
static cl::opt<int64_t> syntheticExamples(
    "synthetic-examples",
    cl::desc("--data=synthetic: training examples (default: 64 batches); the "
             "test set has a quarter as many"),
    cl::init(0), cl::cat(ampRunCategory));
static cl::opt<int64_t> syntheticIntRange(
    "synthetic-int-range",
    cl::desc("--data=synthetic: integer inputs (token ids) are drawn from "
             "[0, N) (default: the rows of the table the step indexes with "
             "them, e.g. an embedding's vocabulary; 2 when nothing bounds "
             "them)"),
    cl::init(0), cl::cat(ampRunCategory));
static cl::opt<int> classes(
    "classes",
    cl::desc("--data=synthetic: label classes (default: the eval step's "
             "logits, else 10)"),
    cl::init(0), cl::cat(ampRunCategory));
static cl::opt<bool> checkGradientsFlag(
    "check-gradients",
    cl::desc("Instead of training: compare the step's backward (its amp.grad "
             "gradients) with central finite differences of its own loss, "
             "in f64, on the largest and a few random elements of every "
             "parameter, from the initial state on the first batch; prints "
             "the worst relative error, exit 1 above "
             "--check-gradients-tolerance"),
    cl::init(false), cl::cat(ampRunCategory));
static cl::opt<double> checkGradientsTolerance(
    "check-gradients-tolerance",
    cl::desc(withDefault("Largest relative error --check-gradients accepts",
                         "1e-05")),
    cl::init(1e-5), cl::cat(ampRunCategory));
static cl::opt<bool>
    testPasses("amp-enable-test-passes", cl::Hidden,
               cl::desc("Register the test-only passes (amp-test-crash)"));
static cl::opt<std::string> testExtraPasses(
    "test-extra-passes", cl::Hidden,
    cl::desc("Test hook: a textual pass pipeline run after the rewrite"),
    cl::init(""));
static cl::opt<std::string>
    dataDir("data-dir",
            cl::desc("Directory with the IDX .gz files (default: "
                     "$AMP_DATA_DIR, else Debian's "
                     "/usr/share/datasets/fashion-mnist)"),
            cl::init(""), cl::cat(ampRunCategory));
static cl::opt<std::string>
    csvPath("csv",
            cl::desc("Write per-step CSV here: P itself for a single run "
                     "of one seed, else one file P.<run>.csv per run "
                     "(P.<run>.seed<N>.csv with --seeds); <run>.csv inside P "
                     "when P is a directory or ends with '/' (default: "
                     "none)"),
            cl::init(""), cl::cat(ampRunCategory));
static cl::opt<uint64_t>
    seed("seed", cl::desc(withDefault("Parameter init and shuffle seed", "0")),
         cl::init(0), cl::cat(ampRunCategory));
static cl::opt<int> seeds(
    "seeds",
    cl::desc(withDefault("Train every run this many times, with seeds --seed, "
                         "--seed + 1, ...; the table shows the mean and the "
                         "sample standard deviation of the test accuracy "
                         "('acc sd') over them",
                         "1")),
    cl::init(1), cl::cat(ampRunCategory));
static cl::opt<bool> progress(
    "progress",
    cl::desc(withDefault("Progress within an epoch: a live line on a "
                         "terminal, else a line every --progress-seconds",
                         "true")),
    cl::init(true), cl::cat(ampRunCategory));
static cl::opt<double> progressSeconds(
    "progress-seconds",
    cl::desc(withDefault("Seconds between progress lines when the output is "
                         "not a terminal (0: none)",
                         "15")),
    cl::init(15), cl::cat(ampRunCategory));
static cl::opt<std::string>
    device("device",
           cl::desc("Where to train: cpu (JIT) or cuda (amp-lower-to-nvvm, "
                    "docs/gpu.md) (default: cpu)"),
           cl::init("cpu"), cl::cat(ampRunCategory));
static cl::opt<bool> tensorCores(
    "tensor-cores",
    cl::desc(withDefault(
        "--device=cuda: f16/bf16 contractions with f32 accumulation on Tensor "
        "Cores (mma.sync) on sm_80 and newer; false keeps them one thread per "
        "output (amp-lower-to-nvvm tensor-cores=)",
        "true")),
    cl::init(true), cl::cat(ampRunCategory));

// Data-parallel training over MPI (docs/distributed.md).
static cl::opt<std::string> dataParallel(
    "data-parallel",
    cl::desc("Data-parallel training over MPI: auto (on when started by "
             "mpirun with more than one rank), on (MPI_Init even for one "
             "rank), off (default: auto)"),
    cl::init("auto"), cl::cat(ampRunCategory));
static cl::opt<amp::GradientBucketing> dpBucket(
    "dp-bucket",
    cl::desc("Data-parallel: gradients in one all-reduce (flat) or one "
             "all-reduce per gradient (amp-data-parallel bucket=) (default: "
             "flat)"),
    cl::values(clEnumValN(amp::GradientBucketing::Flat, "flat",
                          "one all-reduce over all gradients"),
               clEnumValN(amp::GradientBucketing::PerGradient, "per-gradient",
                          "one all-reduce per gradient")),
    cl::init(amp::GradientBucketing::Flat), cl::cat(ampRunCategory));
static cl::opt<std::string> dpReducePrecision(
    "dp-reduce-precision",
    cl::desc("Data-parallel: reduce gradients in f32, or in the run's low "
             "precision (low: f16 or bf16; f32 runs stay f32; "
             "amp-data-parallel reduce-precision=) (default: f32)"),
    cl::init("f32"), cl::cat(ampRunCategory));
static cl::opt<double> dpTimeout(
    "dp-timeout",
    cl::desc(withDefault("Data-parallel: end the job when no training step "
                         "finishes within this many seconds (a rank died or "
                         "hangs before a collective; 0: never)",
                         "600")),
    cl::init(600), cl::cat(ampRunCategory));
static cl::opt<int64_t> emulateRanks(
    "emulate-ranks",
    cl::desc("One process reproducing N data-parallel ranks: every sum over "
             "the batch in N consecutive chunks of batch / N, each from "
             "zero, added in order (amp-chunk-batch-reductions); a step at "
             "N x B then trains as N ranks at B do (for N = 2 bit for bit "
             "in f32 and bf16; f16 also needs --init-scale N times larger, "
             "docs/distributed.md) (default: 1, off)"),
    cl::init(1), cl::cat(ampRunCategory));
static cl::opt<std::string> testInject(
    "test-inject",
    cl::desc("Data-parallel test hook: KIND@RANK:STEP with KIND grad-inf "
             "(+inf in the first gradient), loss-nan (NaN in the loss), fail "
             "(the rank fails) or hang (the rank stops), on one rank before "
             "one step (counted over the run) (default: none)"),
    cl::init(""), cl::cat(ampRunCategory));
static cl::opt<std::string> dumpState(
    "dump-state",
    cl::desc("After each run write the state's digest (one line per "
             "parameter, optimizer and loss-scale state: FNV-1a 64 of its "
             "bytes, scalars' values) to P (P.<run> for several runs; "
             ".rank<R> appended when data-parallel) (default: none)"),
    cl::init(""), cl::cat(ampRunCategory));

// The rewrite's options, one flag per option of amp-mixed-precision with the
// same name (amp/Support/MixedPrecisionConfig.h); precision and loss-scale
// are given per run by --run.
#define AMP_RUN_SKIP(TYPE, FIELD, NAME, DEFAULT, DESC)
#define AMP_RUN_FLAG(TYPE, FIELD, NAME, DEFAULT, DESC)                         \
  static cl::opt<TYPE> FIELD##Flag(                                            \
      NAME, cl::desc(withDefault(DESC, defaultText(TYPE(DEFAULT)))),           \
      cl::init(DEFAULT), cl::cat(ampRunCategory));
#define AMP_RUN_LIST(TYPE, FIELD, NAME, DESC)                                  \
  static cl::list<TYPE> FIELD##Flag(NAME, cl::desc(DESC), cl::CommaSeparated,  \
                                    cl::cat(ampRunCategory));
AMP_MIXED_PRECISION_OPTIONS(AMP_RUN_SKIP, AMP_RUN_FLAG, AMP_RUN_LIST)
#undef AMP_RUN_SKIP
#undef AMP_RUN_FLAG
#undef AMP_RUN_LIST

/// The rewrite's options from the flags, for a run of `precision`/`mode`.
static amp::MixedPrecisionConfig rewriteOptions(amp::Precision precision,
                                                amp::LossScaleMode mode) {
  amp::MixedPrecisionConfig config;
#define AMP_RUN_SET(TYPE, FIELD, NAME, DEFAULT, DESC)                          \
  config.FIELD = FIELD##Flag;
#define AMP_RUN_SET_LIST(TYPE, FIELD, NAME, DESC)                              \
  config.FIELD.assign(FIELD##Flag.begin(), FIELD##Flag.end());
#define AMP_RUN_NONE(TYPE, FIELD, NAME, DEFAULT, DESC)
  AMP_MIXED_PRECISION_OPTIONS(AMP_RUN_NONE, AMP_RUN_SET, AMP_RUN_SET_LIST)
#undef AMP_RUN_SET
#undef AMP_RUN_SET_LIST
#undef AMP_RUN_NONE
  config.precision = precision;
  config.lossScale = mode;
  return config;
}

/// "<precision>[+<loss-scale>]"; an error names what is wrong.
static llvm::Expected<runtime::TrainOptions> parseRun(llvm::StringRef spec) {
  auto [prec, scale] = spec.split('+');
  std::optional<amp::Precision> precision = amp::parsePrecision(prec);
  if (!precision)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   amp::describeBadPrecision(prec));
  std::optional<amp::LossScaleMode> mode =
      scale.empty() ? amp::LossScaleMode::None : amp::parseLossScaleMode(scale);
  if (!mode || *mode == amp::LossScaleMode::Auto)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        mode ? std::string("'auto' is not a loss-scale mode of a run "
                           "(dynamic, static or none)")
             : amp::describeBadLossScaleMode(scale));
  runtime::TrainOptions o;
  o.rewrite = rewriteOptions(*precision, *mode);
  o.epochs = epochs;
  o.batchSize = batchSize;
  o.maxStepsPerEpoch = maxSteps;
  o.seed = seed;
  o.progress = progress;
  o.progressSeconds = progressSeconds;
  o.extraPasses = testExtraPasses;
  o.emulateRanks = emulateRanks;
  return o;
}

/// A run over its seeds.
struct RunSeries {
  std::vector<runtime::RunResult> seeds; ///< one result per seed, in order
  runtime::RunResult mean() const {
    runtime::RunResult m = seeds.front();
    auto avg = [&](auto field) {
      double sum = 0;
      for (const runtime::RunResult &r : seeds)
        sum += static_cast<double>(r.*field);
      return sum / static_cast<double>(seeds.size());
    };
    m.finalTrainLoss = avg(&runtime::RunResult::finalTrainLoss);
    m.testAccuracy = avg(&runtime::RunResult::testAccuracy);
    m.finalLossScale = avg(&runtime::RunResult::finalLossScale);
    m.skippedSteps = static_cast<int64_t>(
        std::llround(avg(&runtime::RunResult::skippedSteps)));
    m.msPerStep = avg(&runtime::RunResult::msPerStep);
    for (const runtime::RunResult &r : llvm::drop_begin(seeds)) {
      m.underflowFlushed += r.underflowFlushed;
      m.underflowTotal += r.underflowTotal;
      m.updatesIntended += r.updatesIntended;
      m.updatesLost += r.updatesLost;
      m.updatesLostInBF16 += r.updatesLostInBF16;
    }
    m.meanUpdateRatio = avg(&runtime::RunResult::meanUpdateRatio);
    m.stepsMostlyLost = static_cast<int64_t>(
        std::llround(avg(&runtime::RunResult::stepsMostlyLost)));
    return m;
  }
  /// Sample standard deviation of the test accuracy (0 for one seed).
  double accuracySd() const {
    if (seeds.size() < 2)
      return 0;
    double mean = this->mean().testAccuracy, sum = 0;
    for (const runtime::RunResult &r : seeds)
      sum += (r.testAccuracy - mean) * (r.testAccuracy - mean);
    return std::sqrt(sum / static_cast<double>(seeds.size() - 1));
  }
};

/// The table: one row per finished run (the mean over its seeds).
static void printTable(const std::vector<RunSeries> &series) {
  bool spread = seeds > 1;
  llvm::outs() << "\n"
               << llvm::format("%-16s %12s %10s", "run", "train loss",
                               "test acc");
  if (spread)
    llvm::outs() << llvm::format(" %8s", "acc sd");
  llvm::outs() << llvm::format(" %12s %8s %8s %10s\n", "loss scale", "skipped",
                               "steps", "ms/step");
  for (const RunSeries &s : series) {
    runtime::RunResult r = s.mean();
    char scaleText[32] = "-";
    if (r.finalLossScale > 0)
      std::snprintf(scaleText, sizeof(scaleText), "%g", r.finalLossScale);
    std::string acc = r.testAccuracy >= 0
                          ? llvm::formatv("{0:F4}", r.testAccuracy).str()
                          : "-";
    // Fixed point while it fits the column, else exponent form.
    const char *lossFormat = std::fabs(r.finalTrainLoss) < 1e6
                                 ? "%-16s %12.4f %10s"
                                 : "%-16s %12.4e %10s";
    llvm::outs() << llvm::format(lossFormat, r.name.c_str(), r.finalTrainLoss,
                                 acc.c_str());
    if (spread)
      llvm::outs() << llvm::format(
          " %8s", r.testAccuracy >= 0
                      ? llvm::formatv("{0:F4}", s.accuracySd()).str().c_str()
                      : "-");
    llvm::outs() << llvm::format(" %12s %8lld %8lld %10.2f\n", scaleText,
                                 (long long)r.skippedSteps, (long long)r.steps,
                                 r.msPerStep);
  }
  if (spread)
    llvm::outs() << "(means over " << seeds
                 << " seeds: --seed=" << seed.getValue() << " to "
                 << seed + seeds - 1 << ")\n";
  if (underflowStatsFlag) {
    llvm::outs() << "\nbackward values flushed to zero/subnormal when "
                    "rounded to f16 (bf16 for bf16 runs), whole run:\n";
    for (const RunSeries &s : series) {
      runtime::RunResult r = s.mean();
      llvm::outs() << llvm::format(
          "%-16s %14lld of %16lld non-zero values = %.4f%%\n", r.name.c_str(),
          (long long)r.underflowFlushed, (long long)r.underflowTotal,
          r.underflowTotal
              ? 100.0 * double(r.underflowFlushed) / double(r.underflowTotal)
              : 0.0);
    }
  }
  if (updateStatsFlag) {
    llvm::outs() << "\nparameter updates (--update-stats), whole run: mean "
                    "||w' - w|| / ||w||, intended element updates lost to "
                    "rounding in the parameters' storage, lost if stored in "
                    "bf16, steps that lost half or more (means over the seeds):\n";
    for (const RunSeries &s : series) {
      runtime::RunResult r = s.mean();
      double n = std::max(r.updatesIntended, 1.0);
      llvm::outs() << llvm::format(
          "%-16s ratio %.3e  lost %7.3f%%  bf16 would lose %7.3f%%  %lld "
          "steps\n",
          r.name.c_str(), r.meanUpdateRatio, 100.0 * r.updatesLost / n,
          100.0 * r.updatesLostInBF16 / n, (long long)r.stepsMostlyLost);
    }
  }
  llvm::outs().flush();
}

/// The data-parallel context, once MPI is initialized.
static runtime::DataParallelContext *dpContext = nullptr;

static int fail(const llvm::Twine &message) {
  llvm::outs().flush();
  if (dpContext && dpContext->worldSize() > 1) {
    // One write, so that the ranks' lines do not interleave; then end the
    // job: the other ranks may wait for this one in a collective.
    llvm::errs() << ("amp-run (rank " + llvm::Twine(dpContext->rank()) +
                     "): " + message + "\n")
                        .str();
    llvm::errs().flush();
    dpContext->abort(1);
  }
  llvm::errs() << "amp-run: " << message << "\n";
  return 1;
}

/// The prefix of an error about the run `spec`: "run <spec>: ", or
/// "--check-gradients: " when there is no training run.
static std::string runLabel(const std::string &spec) {
  return checkGradientsFlag ? "--check-gradients: " : "run " + spec + ": ";
}

/// --check-gradients: one table line per parameter, the verdict, 0 or 1.
static int checkGradients(ModuleOp module, runtime::Backend &backend,
                          const runtime::Dataset &data) {
  runtime::GradientCheckOptions options;
  options.seed = seed;
  options.batchSize = batchSize;
  llvm::outs() << "amp-run: gradient check (f64, central differences, h = "
               << llvm::format("%g", options.relativeStep)
               << " x max(1, |w|), the " << options.largest << " largest and "
               << options.random
               << " random elements of every parameter; a disagreement is "
                  "retried with h / 100 and h / 10^4; a difference within "
                  "the quotient's rounding noise counts as 0)\n";
  auto result = runtime::checkGradients(module, options, backend, data);
  if (!result)
    return fail("--check-gradients: " + llvm::toString(result.takeError()));
  llvm::outs() << llvm::format("%-10s %-20s %8s %14s %14s %14s\n", "argument",
                               "parameter", "elements", "worst rel err",
                               "backward", "finite diff");
  for (const runtime::ParameterCheck &p : result->params)
    llvm::outs() << llvm::format(
        "#%-9u %-20s %8lld %14.3e %14.6e %14.6e\n", p.argument, p.type.c_str(),
        (long long)p.checked, p.worstError, p.analytic, p.numeric);
  int64_t kinks = 0, checked = 0;
  for (const runtime::ParameterCheck &p : result->params) {
    kinks += p.kinks;
    checked += p.checked;
  }
  if (kinks)
    llvm::outs() << kinks << " of " << checked
                 << " elements sit on a kink of the loss (ReLU at 0, a max "
                    "tie): the one-sided differences disagree and the "
                    "backward lies between them, so they count as agreeing\n";
  double worst = result->worstError();
  bool passed = worst <= checkGradientsTolerance;
  llvm::outs() << "loss " << llvm::format("%.6f", result->loss)
               << ", worst relative error " << llvm::format("%.3e", worst)
               << " (tolerance "
               << llvm::format("%g", checkGradientsTolerance.getValue())
               << "): " << (passed ? "passed" : "FAILED") << "\n";
  llvm::outs().flush();
  if (!passed)
    llvm::errs() << "amp-run: --check-gradients: the backward differs from "
                    "the finite differences of the loss (worst relative "
                    "error "
                 << llvm::format("%.3e", worst) << ")\n";
  return passed ? 0 : 1;
}

/// `--threads`. libLLVM registers a hidden global option of that name
/// (unused by the JIT), so amp-run drops it and registers its own here,
/// after static initialization.
static cl::opt<unsigned> &threadsOption() {
  if (cl::Option *llvmOption = cl::getRegisteredOptions().lookup("threads"))
    llvmOption->removeArgument();
  static cl::opt<unsigned> option(
      "threads",
      cl::desc("--device=cpu: threads of the step's parallel loops "
               "(amp-lower-to-llvm threads=): 0 = every core (OpenMP's "
               "default, OMP_NUM_THREADS if set), 1 = no OpenMP; the results "
               "do not depend on it; at most 256 (default: 0)"),
      cl::init(0), cl::cat(ampRunCategory));
  return option;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  // A temporary CSV is removed also when amp-run's output pipe closes.
  amp::removeTemporaryOutputsOnSigpipe();
  cl::opt<unsigned> &cpuThreads = threadsOption();
  cl::HideUnrelatedOptions(ampRunCategory);
  cl::AddExtraVersionPrinter([](llvm::raw_ostream &os) {
    os << "amp-mlir " << AMP_VERSION << " (amp-run), built with LLVM/MLIR "
       << LLVM_VERSION_STRING << "\n";
  });
  // Passes by name for --test-extra-passes; the test-only ones before the
  // options are parsed.
  amp::registerAllPassesAndPipelines();
  for (int i = 1; i < argc; ++i)
    if (llvm::StringRef(argv[i]).ltrim('-') == "amp-enable-test-passes")
      amp::registerTestPasses();
  cl::ParseCommandLineOptions(
      argc, argv,
      "amp-run: train an MLIR training step in fp32 and mixed precision\n");

  // 1. Options, every run's, before anything is loaded.
  // --check-gradients checks the step's own backward, in f64 and before the
  // rewrite, on one batch: a flag that only shapes a training run would be
  // ignored, so it is refused.
  if (checkGradientsFlag) {
    // std::addressof: cl::list's operator& yields its storage.
    std::vector<const cl::Option *> trainingOnly = {
        std::addressof(runs), &epochs,      &maxSteps, &seeds, &csvPath,
        &dumpState,           &emulateRanks};
#define AMP_RUN_NONE(TYPE, FIELD, NAME, DEFAULT, DESC)
#define AMP_RUN_ADD(TYPE, FIELD, NAME, DEFAULT, DESC)                          \
  trainingOnly.push_back(&FIELD##Flag);
#define AMP_RUN_ADD_LIST(TYPE, FIELD, NAME, DESC)                              \
  trainingOnly.push_back(std::addressof(FIELD##Flag));
    AMP_MIXED_PRECISION_OPTIONS(AMP_RUN_NONE, AMP_RUN_ADD, AMP_RUN_ADD_LIST)
#undef AMP_RUN_NONE
#undef AMP_RUN_ADD
#undef AMP_RUN_ADD_LIST
    for (const cl::Option *option : trainingOnly)
      if (option->getNumOccurrences())
        return fail("--check-gradients checks the step's own backward in "
                    "f64, before the mixed-precision rewrite, on the first "
                    "batch: --" +
                    option->ArgStr +
                    " shapes a training run and does not apply; drop it");
  }
  std::vector<std::string> runSpecs(runs.begin(), runs.end());
  if (runSpecs.empty())
    runSpecs.push_back("f16+dynamic");
  if (batchSize.getNumOccurrences() && batchSize < 1)
    return fail("--batch-size=" + llvm::Twine(batchSize) + ": must be >= 1");
  if (epochs < 1)
    return fail("--epochs=" + llvm::Twine(epochs) + ": must be >= 1");
  if (maxSteps < 0)
    return fail("--max-steps=" + llvm::Twine(maxSteps) +
                ": must be >= 0 (0: every batch)");
  if (seeds < 1)
    return fail("--seeds=" + llvm::Twine(seeds) + ": must be >= 1");
  if (!(progressSeconds >= 0) || !std::isfinite(progressSeconds))
    return fail(
        "--progress-seconds=" + defaultText(progressSeconds.getValue()) +
        ": must be a finite number >= 0");
  std::vector<runtime::TrainOptions> configs;
  for (const std::string &spec : runSpecs) {
    auto o = parseRun(spec);
    if (!o)
      return fail("bad --run '" + spec + "': " + llvm::toString(o.takeError()));
    if (std::string why = o->rewrite.validate(); !why.empty()) {
      // A bad scale option names its flag; a run that cannot be (bf16 with
      // loss scaling) names the run.
      llvm::StringRef text(why);
      if (text.starts_with("loss-scale=") || text.starts_with("precision="))
        return fail("--run '" + spec + "': " + why);
      return fail("--" + why);
    }
    configs.push_back(*o);
  }
  // Twice the same run, also under two spellings (f16 and f16+none with
  // loss-scale auto, f32 and f32+none, ...).
  for (size_t i = 0; i < runSpecs.size(); ++i)
    for (size_t j = 0; j < i; ++j) {
      if (runSpecs[i] == runSpecs[j])
        return fail("--run '" + runSpecs[i] + "' is given twice");
      if (configs[i].rewrite.runName() == configs[j].rewrite.runName())
        return fail("--run '" + runSpecs[j] + "' and '" + runSpecs[i] +
                    "' are the same run (" + configs[i].rewrite.runName() +
                    ")");
    }
  // Per-run output files: P.<run>.csv / .json next to P, or <run>.csv
  // inside P when P is a directory (or ends with '/').
  auto perRunPath = [&](llvm::StringRef path, llvm::StringRef run,
                        llvm::StringRef ext, bool single) -> std::string {
    if (path.ends_with("/") || llvm::sys::fs::is_directory(path)) {
      // "dir/" that does not exist yet is made (as a directory is meant).
      (void)llvm::sys::fs::create_directories(path);
      return (path.rtrim('/') + "/" + run + ext).str();
    }
    return single ? path.str() : (path + "." + run + ext).str();
  };
  if (!autocastReportFlag.empty())
    for (size_t i = 0; i < configs.size(); ++i)
      configs[i].rewrite.autocastReport = perRunPath(
          autocastReportFlag, runSpecs[i], ".json", configs.size() == 1);
  if (dataSource != "fashion-mnist" && dataSource != "synthetic")
    return fail("--data=" + dataSource +
                ": must be fashion-mnist or synthetic");
  if (syntheticExamples < 0 || classes < 0)
    return fail("--synthetic-examples and --classes must be >= 1 (or 0: "
                "their defaults)");
  if (!(checkGradientsTolerance > 0))
    return fail("--check-gradients-tolerance=" +
                defaultText(checkGradientsTolerance.getValue()) +
                ": must be > 0");
  if (device != "cpu" && device != "cuda")
    return fail("--device=" + device + ": must be cpu or cuda");
  if (device == "cpu" && tensorCores.getNumOccurrences())
    return fail("--tensor-cores is for --device=cuda");
  if (device == "cuda" && cpuThreads.getNumOccurrences())
    return fail("--threads is for --device=cpu");
  // OpenMP's num_threads is an int, and libomp aborts the process when it
  // cannot create the threads: a bound well above any core count.
  constexpr unsigned kMaxThreads = 256;
  if (cpuThreads > kMaxThreads)
    return fail("--threads=" + llvm::Twine(cpuThreads.getValue()) +
                ": must be 0 (every core) or 1.." + llvm::Twine(kMaxThreads) +
                " (this machine has " +
                llvm::Twine(std::thread::hardware_concurrency()) +
                " hardware threads)");

  // 1b. Data parallelism: MPI_Init before anything is loaded, so that every
  // rank fails or runs alike; ranks other than 0 print nothing on stdout.
  if (dataParallel != "auto" && dataParallel != "on" && dataParallel != "off")
    return fail("--data-parallel=" + dataParallel +
                ": must be auto, on or off");
  if (dpReducePrecision != "f32" && dpReducePrecision != "low")
    return fail("--dp-reduce-precision=" + dpReducePrecision +
                ": must be f32 or low");
  if (!(dpTimeout >= 0))
    return fail("--dp-timeout=" + defaultText(dpTimeout.getValue()) +
                ": must be >= 0");
  std::optional<int> launched = runtime::launcherWorldSize();
  bool useMpi = dataParallel == "on" ||
                (dataParallel == "auto" && launched && *launched > 1);
  if (dataParallel == "off" && launched && *launched > 1)
    return fail("started by an MPI launcher with " + llvm::Twine(*launched) +
                " ranks but --data-parallel=off: every rank would train "
                "alone; drop the flag, or start one process");
  runtime::InjectionPlan injection;
  if (!testInject.empty()) {
    auto parsed = runtime::parseInjection(testInject);
    if (!parsed)
      return fail("--test-inject=" + testInject + ": " +
                  llvm::toString(parsed.takeError()));
    if (!useMpi)
      return fail("--test-inject is a data-parallel test hook: start amp-run "
                  "with mpirun or pass --data-parallel=on");
    injection = *parsed;
  }
  std::unique_ptr<runtime::DataParallelContext> mpiContext;
  if (useMpi) {
    if (device != "cpu")
      return fail("--device=" + device +
                  ": data-parallel training runs on the CPU; the GPU path "
                  "(NCCL or CUDA-aware MPI) is planned in "
                  "docs/distributed.md");
    if (checkGradientsFlag)
      return fail(dataParallel == "on"
                      ? "--check-gradients runs on one process: drop "
                        "--data-parallel=on"
                      : "--check-gradients runs on one process: start it "
                        "without mpirun");
    runtime::MpiContextOptions mpiOptions;
    mpiOptions.stepTimeoutSeconds = dpTimeout;
    auto created = runtime::createMpiContext(mpiOptions);
    if (!created)
      return fail((dataParallel == "on"
                       ? "--data-parallel=on: "
                       : "started by mpirun with " + std::to_string(*launched) +
                             " ranks: ") +
                  llvm::toString(created.takeError()));
    mpiContext = std::move(*created);
    dpContext = mpiContext.get();
    if (injection.rank >= dpContext->worldSize())
      return fail("--test-inject=" + testInject + ": there is no rank " +
                  llvm::Twine(injection.rank) + " of " +
                  llvm::Twine(dpContext->worldSize()));
    for (runtime::TrainOptions &o : configs) {
      runtime::DataParallelRun dp;
      dp.context = dpContext;
      dp.bucket = dpBucket;
      dp.lowPrecisionReduce = dpReducePrecision == "low";
      dp.injection = injection;
      o.dataParallel = dp;
    }
    if (!dpContext->reports()) {
      llvm::outs().flush();
      int null = open("/dev/null", O_WRONLY);
      if (null >= 0) {
        dup2(null, STDOUT_FILENO);
        close(null);
      }
    }
  }

  // 2. The device.
  std::unique_ptr<runtime::Backend> backend;
  if (device == "cuda") {
    runtime::CudaBackendOptions cuda;
    cuda.tensorCores = tensorCores;
    auto gpu = runtime::createCudaBackend(cuda);
    if (!gpu)
      return fail("--device=cuda: " + llvm::toString(gpu.takeError()));
    backend = std::move(*gpu);
  } else {
    backend = runtime::createCpuBackend(amp::LowerToLLVMConfig{cpuThreads});
  }

  // 3. The step, and every run planned on it.
  DialectRegistry registry;
  amp::registerAllDialectsAndExtensions(registry);
  MLIRContext context(registry);
  // Diagnostics name the location; they do not dump the whole function.
  context.printOpOnDiagnostic(false);
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagHandler(sourceMgr, &context);
  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(inputFile, sourceMgr, &context);
  if (!module)
    return fail("cannot parse " + inputFile);
  std::vector<runtime::RunPlan> plans;
  for (size_t i = 0; i < configs.size(); ++i) {
    auto plan = runtime::planRun(*module, configs[i]);
    if (!plan)
      return fail(runLabel(runSpecs[i]) + llvm::toString(plan.takeError()));
    plans.push_back(*plan);
  }
  for (const std::string &note : plans.front().notes)
    llvm::outs() << "amp-run: note: " << note << "\n";
  if (dpContext)
    llvm::outs() << "amp-run: data-parallel over " << dpContext->worldSize()
                 << (dpContext->worldSize() == 1 ? " rank" : " ranks")
                 << " (MPI), global batch " << plans[0].globalBatch << " = "
                 << dpContext->worldSize() << " x " << plans[0].batch << "\n";
  if (emulateRanks > 1)
    llvm::outs() << "amp-run: one process reproducing " << emulateRanks
                 << " data-parallel ranks: every sum over the batch in "
                 << emulateRanks << " chunks, batch " << plans[0].batch << " = "
                 << emulateRanks << " x " << plans[0].batch / emulateRanks
                 << "\n";

  // 4. The data, checked against every run before any is trained.
  std::optional<runtime::Dataset> trainSet, testSet;
  if (dataSource == "synthetic") {
    int64_t batch = 0;
    for (const runtime::RunPlan &p : plans)
      batch = std::max(batch, p.batch);
    int64_t examples =
        syntheticExamples > 0 ? syntheticExamples.getValue() : 64 * batch;
    int32_t numClasses = classes > 0        ? classes.getValue()
                         : plans[0].classes ? *plans[0].classes
                                            : 10;
    const runtime::RunPlan &plan = plans[0];
    if (!plan.needsStepData()) {
      // Both sets (test: a quarter) as f32 values plus an i32 label each,
      // checked before they are allocated.
      uint64_t values = static_cast<uint64_t>(plan.valuesPerExample);
      uint64_t perExample = values * 4 + 4,
               memory = runtime::physicalMemoryBytes();
      if (values > (UINT64_MAX / 8) / static_cast<uint64_t>(examples) ||
          (memory &&
           perExample * static_cast<uint64_t>(examples) / 4 * 5 > memory))
        return fail("--synthetic-examples=" + llvm::Twine(examples) +
                    ": the synthetic data (" + llvm::Twine(examples) +
                    " examples of " + llvm::Twine(values) +
                    " f32 values, plus a test set of a quarter) does not fit "
                    "in this machine's memory");
      llvm::outs() << "amp-run: synthetic data, " << examples
                   << " training examples of " << plan.valuesPerExample
                   << " values, " << numClasses << " classes\n";
      trainSet = runtime::makeSyntheticDataset(examples, plan.valuesPerExample,
                                               numClasses, seed);
      testSet = runtime::makeSyntheticDataset(
          std::max<int64_t>(examples / 4, numClasses), plan.valuesPerExample,
          numClasses, seed + 1);
    } else {
      // Data of the step's own inputs and target (Dataset::inputs).
      if (syntheticIntRange < 0)
        return fail("--synthetic-int-range=" +
                    llvm::Twine(syntheticIntRange.getValue()) +
                    ": must be >= 1 (or 0: from the step)");
      std::vector<runtime::SyntheticInput> inputs;
      std::string description;
      uint64_t values = 0;
      for (const runtime::RunPlan::Input &in : plan.inputs) {
        runtime::SyntheticInput s;
        s.valuesPerExample = in.valuesPerExample;
        s.integer = in.integer;
        std::string what =
            llvm::formatv("argument #{0} ({1}): {2} ", in.argument, in.type,
                          in.valuesPerExample)
                .str();
        if (in.integer) {
          if (syntheticIntRange > 0 && in.indexBound &&
              syntheticIntRange > *in.indexBound)
            return fail("--synthetic-int-range=" +
                        llvm::Twine(syntheticIntRange.getValue()) +
                        ": the integer input argument #" +
                        llvm::Twine(in.argument) + " (" + in.type +
                        ") indexes a table of " + llvm::Twine(*in.indexBound) +
                        " rows; values from [0, " +
                        llvm::Twine(syntheticIntRange.getValue()) +
                        ") would read past it");
          s.intRange = syntheticIntRange > 0 ? syntheticIntRange.getValue()
                       : in.indexBound       ? *in.indexBound
                                             : 2;
          what += "integers from [0, " + std::to_string(s.intRange) + ")";
          if (syntheticIntRange > 0)
            what += " (--synthetic-int-range)";
          else if (in.indexBound)
            what += " (the rows of the table it indexes)";
          else
            llvm::outs() << "amp-run: note: the integer input argument #"
                         << in.argument << " (" << in.type
                         << ") indexes no table amp-run can see; its "
                            "synthetic values are drawn from [0, 2) "
                            "(--synthetic-int-range=N: [0, N))\n";
        } else {
          what += "f32 values from U[0, 1)";
        }
        description += "\n  " + what;
        values += static_cast<uint64_t>(in.valuesPerExample);
        inputs.push_back(s);
      }
      if (plan.targetValues) {
        description += llvm::formatv("\n  target ({0}): {1} values "
                                     "tanh(a fixed random function of the "
                                     "inputs)",
                                     plan.targetType, *plan.targetValues)
                           .str();
        values += static_cast<uint64_t>(*plan.targetValues);
      }
      // Every value is stored as 4 or 8 bytes, plus a label per example.
      uint64_t memory = runtime::physicalMemoryBytes();
      if (values > (UINT64_MAX / 16) / static_cast<uint64_t>(examples) ||
          (memory &&
           (values * 8 + 4) * static_cast<uint64_t>(examples) / 4 * 5 > memory))
        return fail("--synthetic-examples=" + llvm::Twine(examples) +
                    ": the synthetic data (" + llvm::Twine(examples) +
                    " examples of " + llvm::Twine(values) +
                    " values, plus a test set of a quarter) does not fit "
                    "in this machine's memory");
      llvm::outs() << "amp-run: synthetic data, " << examples
                   << " training examples";
      if (!plan.targetValues)
        llvm::outs() << ", " << numClasses << " classes";
      llvm::outs() << ":" << description << "\n";
      trainSet = runtime::makeSyntheticStepDataset(
          examples, inputs, plan.targetValues, numClasses, seed, seed);
      testSet = runtime::makeSyntheticStepDataset(
          std::max<int64_t>(examples / 4, numClasses), inputs,
          plan.targetValues, numClasses, seed + 1, seed);
    }
  } else {
    if (dataDir.empty()) {
      const char *env = std::getenv("AMP_DATA_DIR");
      dataDir = env && *env ? env : "/usr/share/datasets/fashion-mnist";
    }
    llvm::outs() << "amp-run: loading " << dataDir << "\n";
    llvm::outs().flush();
    auto train = runtime::loadFashionMnist(dataDir, /*train=*/true);
    if (!train)
      return fail(llvm::toString(train.takeError()));
    auto test = runtime::loadFashionMnist(dataDir, /*train=*/false);
    if (!test)
      return fail(llvm::toString(test.takeError()));
    trainSet = std::move(*train);
    testSet = std::move(*test);
  }
  for (size_t i = 0; i < plans.size(); ++i)
    if (llvm::Error err =
            runtime::checkRunAgainstData(plans[i], *trainSet, *testSet))
      return fail(runLabel(runSpecs[i]) + llvm::toString(std::move(err)));

  if (checkGradientsFlag)
    return checkGradients(*module, *backend, *trainSet);

  // 5. The runs; when one fails, the table of those that finished, then why.
  std::vector<RunSeries> results;
  for (size_t i = 0; i < configs.size(); ++i) {
    RunSeries series;
    for (int k = 0; k < seeds; ++k) {
      runtime::TrainOptions o = configs[i];
      o.seed = seed + static_cast<uint64_t>(k);
      std::string name = runSpecs[i];
      if (seeds > 1)
        name += ".seed" + std::to_string(o.seed);
      if (!csvPath.empty())
        o.csvPath = perRunPath(csvPath, name, ".csv",
                               configs.size() == 1 && seeds == 1);
      if (!dumpState.empty()) {
        o.statePath = configs.size() == 1 && seeds == 1
                          ? dumpState.getValue()
                          : dumpState + "." + name;
        if (dpContext)
          o.statePath += ".rank" + std::to_string(dpContext->rank());
      }

      llvm::outs() << "amp-run: run " << runSpecs[i];
      if (seeds > 1)
        llvm::outs() << " seed " << o.seed;
      llvm::outs() << " (" << o.epochs
                   << (o.epochs == 1 ? " epoch)\n" : " epochs)\n");
      llvm::outs().flush();
      auto r = runtime::train(*module, o, *backend, *trainSet, *testSet,
                              llvm::outs());
      if (!r) {
        std::string error = llvm::toString(r.takeError());
        if (!results.empty())
          printTable(results);
        return fail("run " + name + ": " + error);
      }
      series.seeds.push_back(*r);
    }
    results.push_back(std::move(series));
  }
  printTable(results);
  return 0;
}
