//===- training.cpp - casts and memory of a training step ----------------===//
//
// amp-bench-training: the training part of the benchmarks issue (items 3
// and 4). Prints `ROW|...` lines (benchmarks/README.md); everything else is
// commentary.
//
//   1. casts per op: for every examples/**/*.mlir with an amp.train_step,
//      the tensor-level arith.truncf/arith.extf that amp-mixed-precision
//      (f16 + dynamic) inserts, over the ops of the rewritten step (ops
//      outside linalg bodies).
//   2. activation bytes kept for the backward (Analysis/MemoryReport.h, as
//      amp-opt --amp-memory-report reports them): forward values (not
//      derived from the amp.loss_grad seed, not function arguments, not
//      constants) defined before the seed and read after it; fp32 step vs
//      the step after amp-autocast (f16), both cleaned up with canonicalize +
//      cse and then amp-recompute-for-backward, as amp-mixed-precision does.
//   3. amp-run peak RSS (ru_maxrss of the child from wait4), f16+dynamic vs
//      f32, 100 steps.
//
// Step times (ours on 1 and all threads, PyTorch, OpenBLAS) are measured by
// amp-bench-cpu-step (benchmarks/cpu-step).
//
// Usage: amp-bench-training [--root=DIR] [--data-dir=DIR] [--amp-run=PATH]
//
//===----------------------------------------------------------------------===//

#include "../BenchRows.h"
#include "amp/Analysis/MemoryReport.h"
#include "amp/Analysis/TrainingStep.h"
#include "amp/InitAll.h"
#include "amp/Pipelines/Pipelines.h"
#include "amp/Support/Diagnostics.h"
#include "amp/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <numeric>
#include <random>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

using namespace mlir;
using namespace mlir::amp;
using ::amp::bench::fmt;
using ::amp::bench::row;

namespace {
struct Config {
  std::string root = AMP_SOURCE_DIR;
  std::string dataDir = "/usr/share/datasets/fashion-mnist";
  std::string ampRun = AMP_RUN_PATH;
};
} // namespace

//===----------------------------------------------------------------------===//
// 1 + 2: IR figures
//===----------------------------------------------------------------------===//

/// Runs the passes `build` adds; prints diagnostics and returns false on
/// failure.
template <typename Fn> static bool runPasses(ModuleOp module, Fn build) {
  PassManager pm(module.getContext());
  build(pm);
  return succeeded(pm.run(module));
}

static func::FuncOp trainStepOf(ModuleOp module) {
  for (auto fn : module.getOps<func::FuncOp>())
    if (fn->hasAttr(kTrainStepAttr))
      return fn;
  return {};
}

namespace {
struct OpCounts {
  int64_t ops = 0;         ///< ops outside linalg bodies (func excluded)
  int64_t tensorCasts = 0; ///< arith.truncf/extf on tensors
  int64_t scalarCasts = 0; ///< arith.truncf/extf on scalars, same level
};
} // namespace

static OpCounts countOps(func::FuncOp fn) {
  OpCounts c;
  fn.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op == fn.getOperation())
      return WalkResult::advance();
    ++c.ops;
    if (isa<arith::TruncFOp, arith::ExtFOp>(op)) {
      if (isa<TensorType>(op->getResult(0).getType()))
        ++c.tensorCasts;
      else
        ++c.scalarCasts;
    }
    // Casts inside linalg bodies are the per-element f16 -> f32 extends
    // of the contractions, not tensors that are materialized.
    if (isa<linalg::LinalgOp>(op))
      return WalkResult::skip();
    return WalkResult::advance();
  });
  return c;
}

static std::string describe(Value v) {
  std::string s;
  llvm::raw_string_ostream os(s);
  auto line = [](Operation *op) -> std::string {
    if (auto flc = dyn_cast<FileLineColLoc>(op->getLoc()))
      return " (line " + std::to_string(flc.getLine()) + ")";
    return "";
  };
  Operation *def = v.getDefiningOp();
  os << v.getType() << " ";
  if (!def)
    return s + "block argument";
  if (isa<arith::TruncFOp>(def)) {
    Value src = def->getOperand(0);
    if (auto arg = dyn_cast<BlockArgument>(src))
      os << "f16 copy of argument #" << arg.getArgNumber();
    else
      os << "f16 copy of " << src.getDefiningOp()->getName()
         << line(src.getDefiningOp());
    return s;
  }
  os << def->getName() << line(def);
  return s;
}

/// Forward values kept for the backward of the training step `fn`
/// (Analysis/MemoryReport.h), described for the table.
namespace {
struct Kept {
  int64_t bytes = 0;
  std::vector<std::pair<std::string, int64_t>> values;
  bool approximate = false;
};
} // namespace

static std::optional<Kept> keptForBackward(func::FuncOp fn) {
  FailureOr<MemoryReport> report = analyzeMemory(fn);
  if (failed(report) || !report->keptForBackwardBytes)
    return std::nullopt;
  Kept k;
  k.bytes = *report->keptForBackwardBytes;
  k.approximate = report->approximate;
  for (const KeptValue &v : report->kept)
    k.values.push_back({describe(v.value), v.bytes});
  return k;
}

static void irFigures(MLIRContext &ctx, const Config &cfg) {
  std::vector<std::string> files;
  std::string examples = cfg.root + "/examples";
  std::error_code ec;
  for (llvm::sys::fs::recursive_directory_iterator it(examples, ec), end;
       it != end && !ec; it.increment(ec))
    if (llvm::sys::path::extension(it->path()) == ".mlir")
      files.push_back(it->path());
  std::sort(files.begin(), files.end());
  if (files.empty())
    llvm::errs() << "no examples/**/*.mlir under " << cfg.root << "\n";

  for (const std::string &file : files) {
    llvm::SmallString<128> rel(file);
    llvm::sys::path::replace_path_prefix(rel, examples + "/", "");
    llvm::sys::path::replace_extension(rel, "");
    std::string model(rel.str());
    llvm::SourceMgr sm;
    OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(file, sm, &ctx);
    if (!module) {
      llvm::errs() << file << ": does not parse\n";
      continue;
    }
    func::FuncOp original = trainStepOf(*module);
    if (!original) {
      llvm::outs() << model << ": no amp.train_step, skipped\n";
      continue;
    }

    // 1. Casts per op after amp-mixed-precision (f16 + dynamic).
    OpCounts before = countOps(original);
    OwningOpRef<ModuleOp> mp(cast<ModuleOp>((*module)->clone()));
    MixedPrecisionConfig opts; // f16 + dynamic (auto) are the defaults
    if (!runPasses(*mp, [&](PassManager &pm) {
          buildMixedPrecisionPipeline(pm, opts);
        })) {
      llvm::errs() << model << ": amp-mixed-precision failed\n";
      continue;
    }
    OpCounts after = countOps(trainStepOf(*mp));
    int64_t inserted = after.tensorCasts - before.tensorCasts;
    llvm::outs() << model << ": fp32 step " << before.ops
                 << " ops outside linalg bodies (" << before.tensorCasts
                 << " tensor casts); after amp-mixed-precision (f16 + dynamic) "
                 << after.ops << " ops, " << after.tensorCasts
                 << " tensor truncf/extf, " << after.scalarCasts
                 << " scalar casts (loss-scale inverse, not counted)\n";
    row("casts per op, " + model,
        std::to_string(inserted) + "/" + std::to_string(after.ops) + " = " +
            fmt("%.3f", double(inserted) / double(after.ops)),
        "-", "-", "-");

    // 2. Activation bytes kept for the backward: fp32 vs f16 autocast.
    auto cleaned = [&](bool autocast) -> std::optional<Kept> {
      OwningOpRef<ModuleOp> m(cast<ModuleOp>((*module)->clone()));
      if (!runPasses(*m, [&](PassManager &pm) {
            pm.addPass(createVerifyTrainingStep());
            if (autocast) {
              AutocastOptions a;
              a.precision = Precision::F16;
              pm.addPass(createAutocast(a));
            }
            pm.addPass(createCanonicalizerPass());
            pm.addPass(createCSEPass());
            // As amp-mixed-precision does, in both precisions.
            pm.addPass(createRecomputeForBackward());
          }))
        return std::nullopt;
      return keptForBackward(trainStepOf(*m));
    };
    std::optional<Kept> f32 = cleaned(false), f16 = cleaned(true);
    if (!f32 || !f16 || f32->bytes == 0) {
      llvm::errs() << model << ": activation analysis failed\n";
      continue;
    }
    for (auto [name, k] : {std::pair{"fp32", &*f32}, std::pair{"f16", &*f16}}) {
      llvm::outs() << model << ": kept for backward, " << name << " step ("
                   << k->values.size() << " values"
                   << (k->approximate ? ", approximate" : "") << "):\n";
      for (auto &[what, b] : k->values)
        llvm::outs() << "    " << llvm::format("%9.1f KB  ", b / 1024.0) << what
                     << "\n";
    }
    double ratio = double(f16->bytes) / double(f32->bytes);
    row("activation bytes kept for backward, " + model +
            ", f16 autocast vs fp32",
        fmt("%.2f", ratio) + "x (" + fmt("%.1f", f16->bytes / 1024.0) +
            " KB vs " + fmt("%.1f", f32->bytes / 1024.0) + " KB)",
        "fp32 step", "<= 0.55x", ratio <= 0.55 ? "met" : "missed");
  }
}

//===----------------------------------------------------------------------===//
// 3: peak RSS of amp-run
//===----------------------------------------------------------------------===//

/// ru_maxrss (KiB) of `argv[0]` run as a child; -1 on failure. Call this
/// while this process is small: the child's maxrss also covers the copy of
/// this process it starts as (until execve).
static long childPeakRssKb(const std::vector<std::string> &argv) {
  std::vector<char *> cargv;
  cargv.reserve(argv.size() + 1);
  for (const std::string &a : argv)
    cargv.push_back(const_cast<char *>(a.c_str()));
  cargv.push_back(nullptr);
  llvm::outs().flush();
  pid_t pid = fork();
  if (pid < 0)
    return -1;
  if (pid == 0) {
    int null = open("/dev/null", O_WRONLY);
    if (null >= 0) {
      dup2(null, STDOUT_FILENO);
      dup2(null, STDERR_FILENO);
    }
    execv(cargv[0], cargv.data());
    _exit(127);
  }
  int status = 0;
  struct rusage ru{};
  if (wait4(pid, &status, 0, &ru) != pid || !WIFEXITED(status) ||
      WEXITSTATUS(status) != 0)
    return -1;
  return ru.ru_maxrss;
}

static void rssFigures(const Config &cfg) {
  std::string model = cfg.root + "/examples/fashion-mnist/mlp.mlir";
  struct rusage self{};
  getrusage(RUSAGE_SELF, &self);
  long kb[2];
  const char *runs[2] = {"f32", "f16+dynamic"};
  for (int i = 0; i < 2; ++i) {
    kb[i] = childPeakRssKb({cfg.ampRun, model, std::string("--run=") + runs[i],
                            "--max-steps=100", "--data-dir=" + cfg.dataDir});
    llvm::outs() << "amp-run --run=" << runs[i] << " --max-steps=100: peak RSS "
                 << kb[i] << " KiB\n";
  }
  llvm::outs() << "(this process's peak RSS when forking: " << self.ru_maxrss
               << " KiB; MB below = MiB)\n";
  if (kb[0] <= 0 || kb[1] <= 0) {
    llvm::errs() << "amp-run failed (" << cfg.ampRun << ")\n";
    return;
  }
  row("amp-run peak RSS, f16+dynamic vs f32",
      fmt("%.2f", double(kb[1]) / double(kb[0])) + "x (" +
          fmt("%.0f", kb[1] / 1024.0) + " vs " + fmt("%.0f", kb[0] / 1024.0) +
          " MB)",
      "f32", "-", "-");
}

int main(int argc, char **argv) {
  Config cfg;
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef a(argv[i]);
    if (a.consume_front("--root="))
      cfg.root = a.str();
    else if (a.consume_front("--data-dir="))
      cfg.dataDir = a.str();
    else if (a.consume_front("--amp-run="))
      cfg.ampRun = a.str();
    else {
      llvm::errs() << "usage: " << argv[0]
                   << " [--root=DIR] [--data-dir=DIR] [--amp-run=PATH]\n";
      return 2;
    }
  }
  auto t0 = std::chrono::steady_clock::now();
  // Peak RSS first, while this process is still small (see childPeakRssKb).
  rssFigures(cfg);

  DialectRegistry registry;
  registerAllDialectsAndExtensions(registry);
  MLIRContext ctx(registry);
  ctx.disableMultithreading();
  irFigures(ctx, cfg);
  llvm::outs() << "amp-bench-training: "
               << llvm::format("%.1f",
                               std::chrono::duration<double>(
                                   std::chrono::steady_clock::now() - t0)
                                   .count())
               << " s\n";
  return 0;
}
