//===- amp-fuzz.cpp - libFuzzer target: parse MLIR, run every amp pass ----===//
//
// Input: bytes read as MLIR text (or bytecode). If they parse and verify,
// every amp pass and pipeline (robustness::listAmpPassesUnderTest) runs on a
// copy with the IR verified after each pass. A crash, an assertion, a
// sanitizer report, a pass that fails without a diagnostic or a pass that
// leaves invalid IR aborts (libFuzzer then saves the input as crash-*).
// Parse errors and passes that refuse with an error are fine.
//
// Built only with -DAMP_SANITIZE=ON (scripts/sanitize.sh), which also
// compiles the amp libraries with coverage instrumentation for libFuzzer
// (libMLIR.so / libLLVM.so are not instrumented: coverage guides on amp's
// code only). See docs/reliability.md.
//
//===----------------------------------------------------------------------===//

#include "../amp-robustness/PassRunner.h"
#include "amp/InitAll.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <memory>

using namespace mlir;
using namespace mlir::amp;

namespace {
DialectRegistry *registry;

/// Upstream MLIR 22's custom parsers of linalg.transpose / reduce /
/// broadcast crash (null attribute set after the error) on a malformed
/// `permutation = [...]` or `dimensions = [...]` list
/// (test/Regression/upstream-linalg-dense-array-parse.mlir). Such inputs
/// are rejected so the campaign explores amp's code instead of re-finding
/// that crash: after either keyword, only `= [` digits, commas, spaces `]`.
bool hasMalformedDenseArrayList(StringRef text) {
  auto isIdentChar = [](char c) { return llvm::isAlnum(c) || c == '_'; };
  for (StringRef keyword : {"permutation", "dimensions"}) {
    size_t pos = 0;
    while ((pos = text.find(keyword, pos)) != StringRef::npos) {
      pos += keyword.size();
      StringRef rest = text.drop_front(pos);
      if (!rest.empty() && (isIdentChar(rest[0]) || rest[0] == '(' ||
                            rest[0] == '"' || rest[0] == '.'))
        continue; // part of another identifier, e.g. `dimension(1)`
      rest = rest.ltrim(" \t\n");
      if (!rest.consume_front("="))
        return true;
      rest = rest.ltrim(" \t\n");
      if (rest.starts_with("array<"))
        continue; // generic form: parsed by the attribute parser
      if (!rest.consume_front("["))
        return true;
      // `[` (int (`,` int)*)? `]`
      rest = rest.ltrim(" \t\n");
      bool first = true;
      while (!rest.consume_front("]")) {
        if (!first && !rest.consume_front(","))
          return true;
        rest = rest.ltrim(" \t\n");
        rest.consume_front("-");
        size_t digits = rest.find_first_not_of("0123456789");
        if (digits == 0 || digits == StringRef::npos)
          return true;
        rest = rest.drop_front(digits).ltrim(" \t\n");
        first = false;
      }
    }
  }
  return false;
}

std::vector<robustness::PassUnderTest> *passes;
} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  registry = new DialectRegistry();
  registerAllDialectsAndExtensions(*registry);
  registerAllPassesAndPipelines();
  passes = new std::vector<robustness::PassUnderTest>(
      robustness::listAmpPassesUnderTest());
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 16384) // keep each input fast; the seeds are smaller
    return -1;
  if (hasMalformedDenseArrayList(
          StringRef(reinterpret_cast<const char *>(data), size)))
    return -1;
  MLIRContext ctx(*registry, MLIRContext::Threading::DISABLED);
  ctx.allowUnregisteredDialects();
  // Parse and verifier errors of the input itself are expected.
  ScopedDiagnosticHandler quiet(&ctx, [](Diagnostic &) { return success(); });
  auto buffer = llvm::MemoryBuffer::getMemBufferCopy(
      StringRef(reinterpret_cast<const char *>(data), size), "fuzz-input");
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &ctx);
  if (!module || failed(verify(*module)))
    return 0;
  for (const robustness::PassUnderTest &pass : *passes) {
    robustness::RunResult r = robustness::runChecked(*module, pass);
    if (r.outcome == robustness::Outcome::SilentFailure ||
        r.outcome == robustness::Outcome::VerifierFailed) {
      llvm::errs() << "amp-fuzz: " << pass.str() << ": "
                   << robustness::outcomeName(r.outcome) << "\n"
                   << r.diagnostics;
      std::abort();
    }
  }
  return 0;
}
