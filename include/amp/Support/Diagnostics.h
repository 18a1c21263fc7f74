//===- Diagnostics.h - one format for pipeline diagnostics ------*- C++ -*-===//
//
// How every front end (amp-run on both devices, the embedding API, the
// benchmarks and tests) reports the diagnostics of a failed pass pipeline:
// "file:line:col: error: message", one per line, notes after their error, as
// mlir-opt's SourceMgrDiagnosticHandler (what amp-opt prints) begins each of
// its diagnostics.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_SUPPORT_DIAGNOSTICS_H
#define AMP_SUPPORT_DIAGNOSTICS_H

#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"

#include <string>

namespace mlir::amp {

/// "file:line:col" of `loc`, looking through name, call-site (the callee)
/// and fused (the first) locations; other locations as MLIR prints them.
std::string formatLocation(Location loc);

/// `diag` and its notes, one line each: "<location>: error|warning|note|
/// remark: <message>\n".
std::string formatDiagnostic(const Diagnostic &diag);

/// While it lives, every diagnostic emitted on `ctx` is appended to `text()`
/// (formatDiagnostic) instead of being passed on to other handlers.
class DiagnosticCollector {
public:
  explicit DiagnosticCollector(MLIRContext *ctx);
  const std::string &text() const { return collected; }
  /// The error "<what>:\n<text()>" (just "<what>" when nothing was
  /// collected).
  llvm::Error makeError(const llvm::Twine &what) const;

private:
  std::string collected;
  ScopedDiagnosticHandler handler;
};

/// Runs `pm` on `op` with crash containment (amp/Support/CrashContainment.h:
/// a crash inside a pass is one located error naming the pass, plus a
/// reproducer) and a handler that appends every diagnostic of the run to
/// `diagnostics` (formatDiagnostic) instead of passing it on. Returns what
/// the pass manager returns.
LogicalResult runCollectingDiagnostics(PassManager &pm, Operation *op,
                                       std::string &diagnostics);

/// Builds a pass manager on `module`'s context with `build`, runs it with
/// crash containment and, on failure (a crash too), returns the error
/// "<what> failed:\n<diagnostics>".
llvm::Error runPipeline(Operation *module,
                        llvm::function_ref<void(OpPassManager &)> build,
                        llvm::StringRef what);

} // namespace mlir::amp

#endif // AMP_SUPPORT_DIAGNOSTICS_H
