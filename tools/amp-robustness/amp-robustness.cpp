//===- amp-robustness.cpp - every amp pass over random and test IR --------===//
//
// Runs every amp pass and pipeline (PassRunner.h: enumerated from the
// registry) over
//   - generated random functions, seeds [--first-seed, +--functions),
//   - generated contract-following training steps (--steps of them),
//   - generated edge cases (--edge-cases of them: Generator.h),
//   - generated forward models (--forward-models of them),
//   - the given .mlir files, split at `// -----` (cases that do not parse
//     or verify on their own, e.g. -verify-diagnostics inputs, are counted
//     and skipped),
// with the IR verified after every pass. Every run must either succeed with
// valid IR or fail with a diagnostic; anything else is printed with the
// input that caused it and the tool exits 1. Crashes and sanitizer reports
// end the process (CTest reports them); hangs hit the CTest TIMEOUT.
//
//===----------------------------------------------------------------------===//

#include "Generator.h"
#include "PassRunner.h"
#include "amp/InitAll.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/PrettyStackTrace.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <map>

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::robustness;

static llvm::cl::opt<unsigned>
    numFunctions("functions", llvm::cl::desc("random functions to generate"),
                 llvm::cl::init(2000));
static llvm::cl::opt<unsigned>
    numSteps("steps", llvm::cl::desc("training steps to generate"),
             llvm::cl::init(200));
static llvm::cl::opt<unsigned> numEdgeCases(
    "edge-cases",
    llvm::cl::desc("edge-case modules to generate (dynamic parameter shapes, "
                   "resource constants, huge shapes, mixed gradients, "
                   "upstream crash classes)"),
    llvm::cl::init(100));
static llvm::cl::opt<unsigned> numForwardModels(
    "forward-models",
    llvm::cl::desc("torch-mlir-style forward models to generate (for "
                   "amp-differentiate and amp-build-train-step)"),
    llvm::cl::init(100));
static llvm::cl::opt<uint64_t> firstSeed("first-seed",
                                         llvm::cl::desc("first generator seed"),
                                         llvm::cl::init(1));
static llvm::cl::opt<bool>
    printOnly("print", llvm::cl::desc("print the generated IR and exit"));
static llvm::cl::opt<bool>
    listPasses("list-passes",
               llvm::cl::desc("print the passes under test and exit"));
static llvm::cl::list<std::string>
    files(llvm::cl::Positional, llvm::cl::desc("[test .mlir files...]"));

namespace {

struct Tally {
  unsigned cases = 0, skipped = 0, runs = 0, defects = 0;
  std::map<std::string, std::map<Outcome, unsigned>> perPass;
};

/// Runs every pass on the module in `text`; `label` names it in reports.
/// Returns false when the text itself does not parse or verify.
bool runAll(MLIRContext &ctx, StringRef text, const std::string &label,
            const std::vector<PassUnderTest> &passes, Tally &tally,
            bool mustParse) {
  std::string parseErrors;
  OwningOpRef<ModuleOp> module;
  {
    llvm::raw_string_ostream os(parseErrors);
    ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &d) {
      os << d.getLocation() << ": " << d << "\n";
      return success();
    });
    module = parseSourceString<ModuleOp>(text, &ctx, label);
    if (module && failed(verify(*module)))
      module = nullptr;
  }
  if (!module) {
    if (mustParse) {
      llvm::errs() << "DEFECT generator: " << label
                   << " does not parse or verify:\n"
                   << parseErrors << text << "\n";
      ++tally.defects;
    } else {
      ++tally.skipped;
    }
    return false;
  }
  ++tally.cases;
  for (const PassUnderTest &pass : passes) {
    // Printed with the stack trace if the pass crashes.
    std::string what = pass.str() + " on " + label + ":\n" + text.str();
    llvm::PrettyStackTraceString crashContext(what.c_str());
    RunResult r = runChecked(*module, pass);
    ++tally.runs;
    ++tally.perPass[pass.str()][r.outcome];
    if (r.outcome == Outcome::Success || r.outcome == Outcome::Diagnosed)
      continue;
    ++tally.defects;
    llvm::errs() << "DEFECT " << outcomeName(r.outcome) << ": " << pass.str()
                 << " on " << label << "\n"
                 << r.diagnostics << "input:\n"
                 << text << "\n";
  }
  return true;
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  DialectRegistry registry;
  registerAllDialectsAndExtensions(registry);
  registerAllPassesAndPipelines();
  std::vector<PassUnderTest> passes = listAmpPassesUnderTest();
  llvm::cl::ParseCommandLineOptions(
      argc, argv,
      "amp-robustness: every amp pass and pipeline over generated and test "
      "IR\n");

  if (listPasses) {
    for (const PassUnderTest &p : passes)
      llvm::outs() << (p.isPipeline ? "pipeline " : "pass ") << p.str() << "\n";
    return 0;
  }
  if (printOnly) {
    for (unsigned i = 0; i < numFunctions; ++i)
      llvm::outs() << "// seed " << firstSeed + i << "\n"
                   << generateRandomFunction(firstSeed + i) << "// -----\n";
    for (unsigned i = 0; i < numSteps; ++i)
      llvm::outs() << "// step seed " << firstSeed + i << "\n"
                   << generateTrainingStep(firstSeed + i) << "// -----\n";
    for (unsigned i = 0; i < numEdgeCases; ++i)
      llvm::outs() << "// edge case seed " << firstSeed + i << "\n"
                   << generateEdgeCase(firstSeed + i) << "// -----\n";
    for (unsigned i = 0; i < numForwardModels; ++i)
      llvm::outs() << "// forward model seed " << firstSeed + i << "\n"
                   << generateForwardModel(firstSeed + i) << "// -----\n";
    return 0;
  }

  auto start = std::chrono::steady_clock::now();
  Tally generated, steps, edges, models, tests;
  MLIRContext ctx(registry, MLIRContext::Threading::DISABLED);
  // Unknown ops must be left alone (autocast keeps them f32), not crashed on.
  ctx.allowUnregisteredDialects();
  for (unsigned i = 0; i < numFunctions; ++i) {
    uint64_t seed = firstSeed + i;
    runAll(ctx, generateRandomFunction(seed),
           "random function seed " + std::to_string(seed), passes, generated,
           /*mustParse=*/true);
  }
  for (unsigned i = 0; i < numSteps; ++i) {
    uint64_t seed = firstSeed + i;
    runAll(ctx, generateTrainingStep(seed),
           "training step seed " + std::to_string(seed), passes, steps,
           /*mustParse=*/true);
  }
  for (unsigned i = 0; i < numEdgeCases; ++i) {
    uint64_t seed = firstSeed + i;
    runAll(ctx, generateEdgeCase(seed),
           "edge case seed " + std::to_string(seed), passes, edges,
           /*mustParse=*/true);
  }
  for (unsigned i = 0; i < numForwardModels; ++i) {
    uint64_t seed = firstSeed + i;
    runAll(ctx, generateForwardModel(seed),
           "forward model seed " + std::to_string(seed), passes, models,
           /*mustParse=*/true);
  }
  for (const std::string &file : files) {
    auto buffer = llvm::MemoryBuffer::getFile(file);
    if (!buffer) {
      llvm::errs() << "error: cannot read " << file << "\n";
      return 1;
    }
    SmallVector<StringRef> chunks;
    (*buffer)->getBuffer().split(chunks, "// -----");
    for (size_t c = 0; c < chunks.size(); ++c)
      runAll(ctx, chunks[c], file + " case " + std::to_string(c + 1), passes,
             tests, /*mustParse=*/false);
  }
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();

  // Per pass: how often it transformed and how often it refused.
  llvm::outs() << llvm::format("%-58s %9s %9s\n", "pass", "success",
                               "diagnosed");
  std::map<std::string, std::map<Outcome, unsigned>> all;
  for (Tally *t : {&generated, &steps, &edges, &models, &tests})
    for (auto &[pass, counts] : t->perPass)
      for (auto &[outcome, n] : counts)
        all[pass][outcome] += n;
  for (auto &[pass, counts] : all)
    llvm::outs() << llvm::format("%-58s %9u %9u\n", pass.c_str(),
                                 counts[Outcome::Success],
                                 counts[Outcome::Diagnosed]);
  unsigned defects = generated.defects + steps.defects + edges.defects +
                     models.defects + tests.defects;
  llvm::outs() << "amp-robustness: " << generated.cases
               << " generated functions, " << steps.cases
               << " generated training steps, " << edges.cases
               << " generated edge cases, " << models.cases
               << " generated forward models, " << tests.cases
               << " test-file cases (" << tests.skipped
               << " skipped: invalid on purpose) x " << passes.size()
               << " passes/pipelines = "
               << generated.runs + steps.runs + edges.runs + models.runs +
                      tests.runs
               << " runs in " << llvm::format("%.1f", seconds)
               << " s; defects: " << defects
               << " (silent failures + verifier failures + invalid "
                  "generated IR)\n";
  return defects ? 1 : 0;
}
