//===- CrashContainment.h - crashes in passes become errors ---*- C++ -*-===//
//
// Some valid inputs crash upstream MLIR passes (segfaults in
// expand-strided-metadata, bufferization, ...; test/Regression). A compiler
// must not die with a stack dump on them: the crash is contained and turned
// into a located error that names the pass, plus a reproducer file (the IR
// the pass received and the pass as a pipeline, in MLIR's reproducer format:
// `amp-opt --run-reproducer <file>` runs exactly that pass on exactly that
// IR again). Built on LLVM's CrashRecoveryContext (signals SIGSEGV, SIGBUS,
// SIGILL, SIGFPE, SIGABRT, SIGTRAP on the thread that runs the passes),
// following MLIR's own pass crash recovery
// (`PassManager::enableCrashReproducerGeneration` with local reproducers),
// which cannot be used as is: it also writes a reproducer and an extra error
// for every ordinary pass failure.
//
// What it costs: the passes run single-threaded (a crash on a worker thread
// cannot be recovered; multithreading is switched off for the run and
// restored after), and before each top-level pass of the pass manager (a
// nested pipeline's adaptor counts as one) the top-level operation is cloned:
// the reproducer holds that IR and, as its pipeline, the passes that ran on
// the crashed pass's operation up to the crash, inside their scopes
// (e.g. `builtin.module(gpu.module(canonicalize,cse,convert-gpu-to-nvvm))`).
// A pipeline that a pass runs itself (OpPassManager::run inside a pass) is
// replayed without the changes the enclosing pass made before it.
//
// After a contained crash the IR is in an unspecified state (the pass stopped
// half-way): report, and do not print, run or rely on the module again.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_SUPPORT_CRASHCONTAINMENT_H
#define AMP_SUPPORT_CRASHCONTAINMENT_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace mlir {
class Operation;
class PassManager;
} // namespace mlir

namespace mlir::amp {

/// How a crash inside a pass is contained.
struct CrashContainmentOptions {
  /// Off: the passes run exactly as without this helper (a crash ends the
  /// process with LLVM's stack dump).
  bool enabled = true;
  /// The reproducer file. Empty: a new file
  /// `amp-crash-reproducer-XXXXXX.mlir` in the system temporary directory
  /// ($TMPDIR, else /tmp). An existing file is replaced.
  std::string reproducerPath;
};

/// Runs `pm` on `op`, like `pm.run(op)`, with crash containment (unless
/// `options.enabled` is false). Returns failure when a pass fails (its
/// diagnostics are unchanged: no reproducer is written for an ordinary
/// failure) and when a pass crashes. A crash emits one error through `op`'s
/// context, located at the operation the crashing pass ran on:
///   "pass '<argument>' (<pass name>) crashed on '<op name>' [@<symbol>]
///    (<signal>): an internal compiler error; ...; reproducer: '<file>'
///    (run it with `amp-opt --run-reproducer <file>`)"
/// (or "... no reproducer: <why>" when the file cannot be written).
/// `pm` must not already have instrumentation that assumes every pass
/// finishes, and neither `pm` nor `op` may be used after a crash.
LogicalResult
runWithCrashContainment(PassManager &pm, Operation *op,
                        const CrashContainmentOptions &options = {});

/// For drivers that do not call `pm.run` themselves (mlir::MlirOptMain):
/// `attach` each PassManager before it runs (MlirOptMainConfig's pass
/// pipeline setup callback) and run the driver inside `run`. A crash inside
/// a pass is reported while the crashed thread's stack is still intact (the
/// context that owns the IR lives in the driver), with the same error as
/// runWithCrashContainment, after LLVM's stack dump; `run` then returns
/// false and the driver's objects must not be touched again: the caller
/// should exit (the files registered with llvm::sys::RemoveFileOnSignal,
/// such as an amp::OutputFile's temporary file, are already removed). A
/// crash outside a pass (parser, printer) is contained too, without error.
class DriverCrashContainment {
public:
  explicit DriverCrashContainment(CrashContainmentOptions options);
  ~DriverCrashContainment();

  /// Adds the instrumentation that tracks the running pass to `pm` and
  /// makes its context single-threaded. No-op when not enabled.
  void attach(PassManager &pm);
  /// Runs `driver`; false iff it crashed.
  bool run(llvm::function_ref<void()> driver);
  /// Whether the last crash happened inside a tracked pass (and so was
  /// reported).
  bool crashedInPass() const { return reported; }

private:
  CrashContainmentOptions options;
  bool reported = false;
};

} // namespace mlir::amp

#endif // AMP_SUPPORT_CRASHCONTAINMENT_H
