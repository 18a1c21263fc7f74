//===- amp-run.cpp - train an MLIR training step, fp32 vs mixed precision -===//
//
// Parses a module with an `amp.train_step` function (docs/training-step.md),
// and for each requested run (precision + loss-scale mode) rewrites it with
// amp-mixed-precision, JIT-compiles it for the CPU and trains it on the
// IDX dataset. Prints one table row per run.
//
//===----------------------------------------------------------------------===//

#include "amp/InitAll.h"
#include "amp/Runtime/GpuTrainer.h"
#include "amp/Runtime/IdxDataset.h"
#include "amp/Runtime/Trainer.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>

using namespace mlir;
namespace cl = llvm::cl;
namespace runtime = mlir::amp::runtime;

static cl::OptionCategory ampRunCategory("amp-run options");

static cl::opt<std::string> inputFile(cl::Positional,
                                      cl::desc("<training step .mlir>"),
                                      cl::Required, cl::cat(ampRunCategory));
static cl::list<std::string>
    runs("run",
         cl::desc("A run: <precision>[+<loss-scale>], precision f32|f16|bf16, "
                  "loss-scale dynamic|static|none (default none). Repeat or "
                  "comma-separate for several runs (default: f16+dynamic)"),
         cl::CommaSeparated, cl::cat(ampRunCategory));
static cl::opt<int> epochs("epochs", cl::desc("Training epochs"), cl::init(1),
                           cl::cat(ampRunCategory));
static cl::opt<int64_t>
    batchSize("batch-size",
              cl::desc("Batch size when the input's batch dimension is "
                       "dynamic"),
              cl::init(0), cl::cat(ampRunCategory));
static cl::opt<int64_t> maxSteps("max-steps",
                                 cl::desc("Limit steps per epoch (0: all)"),
                                 cl::init(0), cl::cat(ampRunCategory));
static cl::opt<std::string>
    dataDir("data-dir",
            cl::desc("Directory with the IDX .gz files (default: "
                     "$AMP_DATA_DIR, else Debian's "
                     "/usr/share/datasets/fashion-mnist)"),
            cl::init(""), cl::cat(ampRunCategory));
static cl::opt<std::string> csvPath("csv", cl::desc("Write per-step CSV here"),
                                    cl::init(""), cl::cat(ampRunCategory));
static cl::opt<double> initScale("init-scale",
                                 cl::desc("Initial (dynamic) or fixed "
                                          "(static) loss scale"),
                                 cl::init(32768.0), cl::cat(ampRunCategory));
static cl::opt<int> growthInterval("growth-interval",
                                   cl::desc("Clean steps before the loss "
                                            "scale doubles"),
                                   cl::init(2000), cl::cat(ampRunCategory));
static cl::opt<int> hysteresis("hysteresis",
                               cl::desc("Overflowing steps before the loss "
                                        "scale backs off (1 = PyTorch)"),
                               cl::init(1), cl::cat(ampRunCategory));
static cl::opt<double> minScale("min-scale",
                                cl::desc("Floor of the dynamic loss scale; "
                                         "training stops when a step at the "
                                         "floor overflows (default 2^-24)"),
                                cl::init(5.9604644775390625e-08),
                                cl::cat(ampRunCategory));
static cl::opt<double> maxScale("max-scale",
                                cl::desc("Cap of the dynamic loss scale "
                                         "(default 2^24)"),
                                cl::init(16777216.0), cl::cat(ampRunCategory));
static cl::opt<bool> underflowStats(
    "underflow-stats",
    cl::desc("Count backward values that round to zero/subnormal in f16 "
             "(bf16 for bf16 runs) and print the fraction per run"),
    cl::init(false), cl::cat(ampRunCategory));
static cl::opt<uint64_t> seed("seed", cl::desc("Init and shuffle seed"),
                              cl::init(0), cl::cat(ampRunCategory));

static bool parseRun(StringRef spec, runtime::TrainOptions &o) {
  auto [prec, scale] = spec.split('+');
  if (prec != "f32" && prec != "f16" && prec != "bf16")
    return false;
  if (!scale.empty() && scale != "dynamic" && scale != "static" &&
      scale != "none")
    return false;
  o.precision = prec.str();
  o.lossScale = scale.empty() ? "none" : scale.str();
  return true;
}

/// bf16 has fp32's exponent range: gradients do not underflow and loss
/// scaling only costs a check (shared REFERENCE.md; PyTorch's GradScaler is
/// for fp16 only).
static bool isBf16WithLossScaling(const runtime::TrainOptions &o) {
  return o.precision == "bf16" && o.lossScale != "none";
}

static cl::opt<std::string>
    device("device",
           cl::desc("Where to train: cpu (JIT) or cuda (amp-lower-to-nvvm, "
                    "docs/gpu.md)"),
           cl::init("cpu"), cl::cat(ampRunCategory));

static cl::opt<bool> tensorCores(
    "tensor-cores",
    cl::desc(
        "--device=cuda: f16/bf16 contractions with f32 accumulation on Tensor "
        "Cores (mma.sync) on sm_80 and newer; false keeps them one "
        "thread per output (amp-lower-to-nvvm tensor-cores=)"),
    cl::init(true), cl::cat(ampRunCategory));

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(ampRunCategory);
  cl::ParseCommandLineOptions(
      argc, argv,
      "amp-run: train an MLIR training step in fp32 and mixed precision\n");

  std::vector<std::string> runSpecs(runs.begin(), runs.end());
  if (runSpecs.empty())
    runSpecs.push_back("f16+dynamic");
  std::vector<runtime::TrainOptions> configs;
  for (const std::string &spec : runSpecs) {
    runtime::TrainOptions o;
    if (!parseRun(spec, o)) {
      llvm::errs() << "amp-run: bad --run '" << spec
                   << "': expected f32|f16|bf16 optionally followed by "
                      "+dynamic|+static|+none\n";
      return 1;
    }
    if (isBf16WithLossScaling(o)) {
      llvm::errs() << "amp-run: --run '" << spec
                   << "': loss scaling is for fp16; bf16 has fp32's exponent "
                      "range and needs none (use --run=bf16)\n";
      return 1;
    }
    o.epochs = epochs;
    o.batchSize = batchSize;
    o.maxStepsPerEpoch = maxSteps;
    o.seed = seed;
    o.initScale = initScale;
    o.growthInterval = growthInterval;
    o.hysteresis = hysteresis;
    o.minScale = minScale;
    o.maxScale = maxScale;
    o.underflowStats = underflowStats;
    o.tensorCores = tensorCores;
    configs.push_back(o);
  }
  for (size_t i = 0; i < runSpecs.size(); ++i)
    for (size_t j = 0; j < i; ++j)
      if (runSpecs[i] == runSpecs[j]) {
        llvm::errs() << "amp-run: --run '" << runSpecs[i]
                     << "' is given twice\n";
        return 1;
      }
  if (batchSize < 0) {
    llvm::errs() << "amp-run: --batch-size must be >= 1\n";
    return 1;
  }
  if (maxSteps < 0) {
    llvm::errs() << "amp-run: --max-steps must be >= 0 (0: every batch)\n";
    return 1;
  }
  if (epochs < 1) {
    llvm::errs() << "amp-run: --epochs must be >= 1\n";
    return 1;
  }

  if (device != "cpu" && device != "cuda") {
    llvm::errs() << "amp-run: --device must be cpu or cuda\n";
    return 1;
  }
  if (device == "cpu" && tensorCores.getNumOccurrences()) {
    llvm::errs() << "amp-run: --tensor-cores is for --device=cuda\n";
    return 1;
  }
  if (device == "cuda") {
    auto gpu = runtime::initCuda();
    if (!gpu) {
      llvm::errs() << "amp-run: --device=cuda: "
                   << llvm::toString(gpu.takeError()) << "\n";
      return 1;
    }
  }

  DialectRegistry registry;
  amp::registerAllDialectsAndExtensions(registry);
  MLIRContext context(registry);
  // Diagnostics name the location; they do not dump the whole function.
  context.printOpOnDiagnostic(false);
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagHandler(sourceMgr, &context);
  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(inputFile, sourceMgr, &context);
  if (!module) {
    llvm::errs() << "amp-run: cannot parse " << inputFile << "\n";
    return 1;
  }

  if (dataDir.empty()) {
    const char *env = std::getenv("AMP_DATA_DIR");
    dataDir = env && *env ? env : "/usr/share/datasets/fashion-mnist";
  }
  llvm::outs() << "amp-run: loading " << dataDir << "\n";
  llvm::outs().flush();
  auto trainSet = runtime::loadFashionMnist(dataDir, /*train=*/true);
  if (!trainSet) {
    llvm::errs() << "amp-run: " << llvm::toString(trainSet.takeError()) << "\n";
    return 1;
  }
  auto testSet = runtime::loadFashionMnist(dataDir, /*train=*/false);
  if (!testSet) {
    llvm::errs() << "amp-run: " << llvm::toString(testSet.takeError()) << "\n";
    return 1;
  }

  std::vector<runtime::RunResult> results;
  for (size_t i = 0; i < configs.size(); ++i) {
    runtime::TrainOptions o = configs[i];
    if (!csvPath.empty())
      o.csvPath = configs.size() == 1 ? csvPath.getValue()
                                      : csvPath + "." + runSpecs[i] + ".csv";
    llvm::outs() << "amp-run: run " << runSpecs[i] << " (" << o.epochs
                 << (o.epochs == 1 ? " epoch)\n" : " epochs)\n");
    llvm::outs().flush();
    auto r = device == "cuda" ? runtime::trainOnCuda(*module, o, *trainSet,
                                                     *testSet, llvm::outs())
                              : runtime::train(*module, o, *trainSet, *testSet,
                                               llvm::outs());
    if (!r) {
      llvm::errs() << "amp-run: run " << runSpecs[i] << ": "
                   << llvm::toString(r.takeError()) << "\n";
      return 1;
    }
    results.push_back(*r);
  }

  llvm::outs() << "\n"
               << llvm::format("%-16s %12s %10s %12s %8s %8s %10s\n", "run",
                               "train loss", "test acc", "loss scale",
                               "skipped", "steps", "ms/step");
  for (const auto &r : results) {
    char scaleText[32] = "-";
    if (r.finalLossScale > 0)
      std::snprintf(scaleText, sizeof(scaleText), "%g", r.finalLossScale);
    std::string scale = scaleText;
    std::string acc = r.testAccuracy >= 0
                          ? llvm::formatv("{0:F4}", r.testAccuracy).str()
                          : "-";
    llvm::outs() << llvm::format("%-16s %12.4f %10s %12s %8lld %8lld %10.2f\n",
                                 r.name.c_str(), r.finalTrainLoss, acc.c_str(),
                                 scale.c_str(), (long long)r.skippedSteps,
                                 (long long)r.steps, r.msPerStep);
  }
  if (underflowStats) {
    llvm::outs() << "\nbackward values flushed to zero/subnormal when "
                    "rounded to f16 (bf16 for bf16 runs), whole run:\n";
    for (const auto &r : results)
      llvm::outs() << llvm::format(
          "%-16s %14lld of %16lld non-zero values = %.4f%%\n", r.name.c_str(),
          (long long)r.underflowFlushed, (long long)r.underflowTotal,
          r.underflowTotal
              ? 100.0 * double(r.underflowFlushed) / double(r.underflowTotal)
              : 0.0);
  }
  return 0;
}
