//===- PassRunner.h - run every amp pass on a module, checked --*- C++ -*-===//
//
// The robustness driver (amp-robustness) and the fuzzer (amp-fuzz) run every
// registered pass whose argument starts with "amp-" and every amp pipeline
// on a module and classify what happened:
//   - Success:        the pass succeeded and the IR verifies after every pass
//                     (the pipelines' inner passes included);
//   - Diagnosed:      the pass failed and emitted at least one error;
// and the defects
//   - SilentFailure:  the pass failed without emitting an error;
//   - VerifierFailed: a pass succeeded but left IR that does not verify.
// Crashes, assertions and sanitizer reports end the process (that is the
// point); hangs are caught by the caller's time limit (CTest TIMEOUT).
//
//===----------------------------------------------------------------------===//

#ifndef AMP_ROBUSTNESS_PASSRUNNER_H
#define AMP_ROBUSTNESS_PASSRUNNER_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace mlir::amp::robustness {

/// A pass or pipeline under test and the textual options it runs with.
struct PassUnderTest {
  std::string argument; ///< registry argument, e.g. "amp-autocast"
  std::string options;  ///< e.g. "precision=bf16", may be empty
  bool isPipeline = false;
  std::string str() const {
    return options.empty() ? argument : argument + "{" + options + "}";
  }
};

/// Every pass and pass pipeline registered under an argument starting with
/// "amp-", enumerated from the registry at run time (so passes added later
/// are covered without a change here), each with its default options, plus
/// a few option variants of the known configurable ones. Call after
/// registerAllPassesAndPipelines(). Sorted, no duplicates.
std::vector<PassUnderTest> listAmpPassesUnderTest();

enum class Outcome { Success, Diagnosed, SilentFailure, VerifierFailed };
llvm::StringRef outcomeName(Outcome outcome);

struct RunResult {
  Outcome outcome = Outcome::Success;
  std::string diagnostics; ///< errors emitted, first few, one per line
};

/// Runs `pass` on a clone of `module` (which is left untouched), with the
/// IR verified after every pass (the verifier errors are attributed to the
/// pass that produced the IR). Diagnostics are captured, not printed.
RunResult runChecked(ModuleOp module, const PassUnderTest &pass);

} // namespace mlir::amp::robustness

#endif // AMP_ROBUSTNESS_PASSRUNNER_H
