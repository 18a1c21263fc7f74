//===- AutocastBenchmark.cpp - painted autocast vs naive per-op casting ---===//
//
// For each model (by default examples/models/{mlp,cnn,transformer}.mlir and
// examples/fashion-mnist/mlp.mlir; or the files given on the command line),
// runs amp-autocast (--precision, default f16) with report=<tmp>, reads the
// report's totals and prints two rows:
//   - casts inserted by the painting vs the naive per-op policy (PyTorch
//     autocast_mode.cpp style: every allow op casts its f32 inputs to f16
//     and its results back to f32, nothing shared), goal: painted <= naive
//     and painted <= boundary edges (one cast per value and type);
//   - the fraction of FLOPs that run in low precision, painted vs naive.
// All figures are counts from one run (no timing). Exit status 1 if a file
// cannot be read or autocast fails on it (with the reason), 2 on bad
// arguments (llvm::cl; --help lists them).
//
//===----------------------------------------------------------------------===//

#include "amp/InitAll.h"
#include "amp/Transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>

using namespace mlir;

static llvm::cl::list<std::string>
    modelFiles(llvm::cl::Positional, llvm::cl::desc("[model.mlir ...]"));
static llvm::cl::opt<amp::Precision>
    precisionOpt("precision",
                 llvm::cl::desc("amp-autocast precision: f16 or bf16"),
                 llvm::cl::init(amp::Precision::F16));

namespace {

void row(const std::string &bench, const std::string &figure,
         const std::string &ref, const std::string &goal, bool met) {
  llvm::outs() << "ROW|" << bench << "|" << figure << "|" << ref << "|" << goal
               << "|" << (met ? "met" : "missed") << "\n";
}

std::string pct(double f) {
  std::string s;
  llvm::raw_string_ostream(s) << llvm::format("%.1f%%", 100.0 * f);
  return s;
}

/// Runs amp-autocast on `path` and returns the report's totals. Parse and
/// pass errors are printed (with their location) by the context's handler.
std::optional<llvm::json::Object> autocastTotals(MLIRContext &ctx,
                                                 const std::string &path) {
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(path, &ctx);
  if (!module)
    return std::nullopt;
  llvm::SmallString<128> report;
  if (llvm::sys::fs::createTemporaryFile("amp-autocast", "json", report))
    return std::nullopt;
  PassManager pm(&ctx);
  amp::AutocastOptions options;
  options.precision = precisionOpt;
  options.reportFile = report.str().str();
  pm.addPass(amp::createAutocast(options));
  bool ok = succeeded(pm.run(*module));
  auto buffer = llvm::MemoryBuffer::getFile(report);
  llvm::sys::fs::remove(report);
  if (!ok || !buffer)
    return std::nullopt;
  llvm::Expected<llvm::json::Value> json =
      llvm::json::parse((*buffer)->getBuffer());
  if (!json) {
    llvm::consumeError(json.takeError());
    return std::nullopt;
  }
  const llvm::json::Object *totals = json->getAsObject()->getObject("totals");
  if (!totals)
    return std::nullopt;
  return *totals;
}

} // namespace

int main(int argc, char **argv) {
  llvm::cl::ParseCommandLineOptions(
      argc, argv,
      "amp-bench-autocast: casts and low-precision FLOPs of amp-autocast "
      "against a naive per-op policy\n");
  if (precisionOpt == amp::Precision::F32) {
    llvm::errs() << "amp-bench-autocast: --precision=f32: autocast changes "
                    "nothing in f32; choose f16 or bf16\n";
    return 2;
  }
  DialectRegistry registry;
  amp::registerAllDialectsAndExtensions(registry);
  MLIRContext ctx(registry);
  // (path, name in the rows): the defaults are named relative to the
  // source tree, as in docs/performance.md.
  std::vector<std::pair<std::string, std::string>> models;
  for (const std::string &file : modelFiles)
    models.emplace_back(file, file);
  if (models.empty())
    for (const char *model :
         {"examples/models/mlp.mlir", "examples/models/cnn.mlir",
          "examples/models/transformer.mlir",
          "examples/fashion-mnist/mlp.mlir"})
      models.emplace_back(std::string(AMP_SOURCE_DIR) + "/" + model, model);
  int status = 0;
  for (const auto &[path, model] : models) {
    if (!llvm::sys::fs::exists(path)) {
      llvm::errs() << "amp-bench-autocast: cannot read '" << path << "'\n";
      status = 1;
      continue;
    }
    std::optional<llvm::json::Object> t = autocastTotals(ctx, path);
    if (!t) {
      llvm::errs() << model << ": amp-autocast failed\n";
      status = 1;
      continue;
    }
    int64_t casts = t->getInteger("casts_inserted").value_or(-1);
    int64_t edges = t->getInteger("boundary_edges").value_or(-1);
    int64_t naive = t->getInteger("naive_local_casts").value_or(-1);
    double low = t->getNumber("flops_low_fraction").value_or(0);
    double naiveLow =
        t->getNumber("naive_local_flops_low_fraction").value_or(0);
    int64_t unknown = -1;
    if (const llvm::json::Object *pc = t->getObject("per_class"))
      unknown = pc->getInteger("unknown").value_or(-1);
    llvm::outs() << model << ": " << casts << " casts (" << edges
                 << " precision-boundary edges), naive per-op " << naive
                 << "; low-precision FLOPs " << pct(low) << " vs naive "
                 << pct(naiveLow) << "; unknown ops " << unknown << "\n";
    row("autocast casts, " + model,
        std::to_string(casts) + " (edges " + std::to_string(edges) + ")",
        "naive per-op " + std::to_string(naive), "<= naive, <= edges",
        casts <= naive && casts <= edges);
    row("autocast low-precision FLOP fraction, " + model, pct(low),
        "naive per-op " + pct(naiveLow), ">= naive", low >= naiveLow);
  }
  return status;
}
