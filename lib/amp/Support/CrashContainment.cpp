//===- CrashContainment.cpp - a crash inside a pass becomes an error ------===//

#include "amp/Support/CrashContainment.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/raw_ostream.h"

#include <atomic>
#include <csignal>
#include <cstring>

using namespace mlir;
using namespace mlir::amp;

namespace {

/// A pass that started and has not finished: what a report needs, taken
/// before the pass ran (after a crash the IR cannot be trusted).
struct RunningPass {
  std::string argument, name, opName, symbol;
  /// The passes that ran on the operation, as a pipeline from the top-level
  /// operation, ending with this one, e.g.
  /// `builtin.module(func.func(canonicalize,convert-linalg-to-loops))`.
  std::string pipeline;
  Location loc;
};

/// The pass manager's nested-pipeline adaptor is not a pass of its own: the
/// passes it runs are tracked instead (its class is private to MLIR).
bool isAdaptor(Pass *pass) {
  return pass->getArgument().empty() &&
         (pass->getName().contains("OpToOpPassAdaptor") ||
          pass->getName().starts_with("Pipeline Collection"));
}

/// Writes the reproducer: a comment saying what crashed, then the IR before
/// the pass with MLIR's `mlir_reproducer` resource (pipeline, threading,
/// verifier), which `--run-reproducer` applies. Returns the path, or the
/// reason why none could be written.
FailureOr<std::string> writeReproducer(RunningPass &r, Operation *snapshot,
                                       const CrashContainmentOptions &options,
                                       std::string &why) {
  std::string path = options.reproducerPath;
  int fd = -1;
  if (path.empty()) {
    llvm::SmallString<256> tmp;
    if (std::error_code ec = llvm::sys::fs::createTemporaryFile(
            "amp-crash-reproducer", "mlir", fd, tmp)) {
      why = "cannot create a temporary file: " + ec.message();
      return failure();
    }
    path = std::string(tmp);
  } else if (std::error_code ec = llvm::sys::fs::openFileForWrite(path, fd)) {
    why = "cannot write '" + path + "': " + ec.message();
    return failure();
  }
  llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
  os << "// amp crash reproducer: pass '" << r.argument << "' (" << r.name
     << ") crashed on '" << r.opName << "'"
     << (r.symbol.empty() ? "" : " @" + r.symbol) << ".\n";
  if (r.argument.empty())
    os << "// The pass has no registered name, so --run-reproducer cannot "
          "run it again;\n// the IR below is what it received.\n";
  else
    os << "// Reproduce: amp-opt --run-reproducer " << path << "\n";
  AsmState state(snapshot);
  if (!r.argument.empty())
    state.attachResourcePrinter("mlir_reproducer",
                                [&](Operation *, AsmResourceBuilder &builder) {
                                  builder.buildString("pipeline", r.pipeline);
                                  builder.buildBool("disable_threading", true);
                                  builder.buildBool("verify_each", true);
                                });
  snapshot->print(os, state);
  os << "\n";
  os.close();
  if (os.has_error()) {
    why = "cannot write '" + path + "': " + os.error().message();
    os.clear_error();
    return failure();
  }
  return path;
}

/// Tracks the passes that are running; reports the innermost one after a
/// crash.
class PassTracker : public PassInstrumentation {
public:
  explicit PassTracker(CrashContainmentOptions options)
      : options(std::move(options)) {}
  ~PassTracker() override;

  /// The reproducer's IR is the top-level operation as the pass manager's
  /// current top-level pass received it (cloned once per top-level pass:
  /// cloning before every nested pass cost O(ops x nested runs), 90% of the
  /// NVVM lowering of a 250-op model, one gpu.module per kernel); its
  /// pipeline replays, inside the scopes of the crashed pass's operation,
  /// the passes that had run on that operation, which with the nested
  /// pipelines' isolation reproduces what the operation went through.
  void runBeforePass(Pass *pass, Operation *op) override {
    SmallVector<Operation *> scopes; // op, its parent, ..., the top level
    for (Operation *o = op; o; o = o->getParentOp())
      scopes.push_back(o);
    Operation *root = scopes.back();
    size_t level = scopes.size() - 1;
    if (depth++ == 0) {
      snapshot = root->clone();
      levels.clear();
    }
    levels.resize(level + 1);
    if (levels[level].op != op)
      levels[level] = Level{op, {}};
    std::string text;
    llvm::raw_string_ostream ts(text);
    pass->printAsTextualPipeline(ts);
    levels[level].passes.push_back(text);
    if (isAdaptor(pass))
      return;

    RunningPass r{pass->getArgument().str(),
                  pass->getName().str(),
                  op->getName().getStringRef().str(),
                  "",
                  "",
                  op->getLoc()};
    if (auto symbol =
            op->getAttrOfType<StringAttr>(SymbolTable::getSymbolAttrName()))
      r.symbol = symbol.getValue().str();
    // root(scope1(passes on it before the adaptor, scope2(... passes)))
    llvm::raw_string_ostream os(r.pipeline);
    os << root->getName() << "(";
    for (size_t l = 1; l <= level; ++l) {
      ArrayRef<std::string> ran = levels[l - 1].passes;
      if (!ran.empty())
        ran = ran.drop_back(); // the adaptor that runs level l
      for (const std::string &p : ran)
        os << p << ",";
      os << scopes[level - l]->getName() << "(";
    }
    llvm::interleave(levels[level].passes, os, ",");
    for (size_t l = 0; l <= level; ++l)
      os << ")";
    running.push_back(std::move(r));
  }
  void runAfterPass(Pass *pass, Operation *) override { finished(pass); }
  void runAfterPassFailed(Pass *pass, Operation *) override { finished(pass); }

  /// After a crash: emits the error for the innermost running pass (and
  /// writes its reproducer). False if no pass was running.
  bool report(std::optional<int> signal) {
    if (running.empty())
      return false;
    RunningPass &r = running.back();
    std::string why;
    FailureOr<std::string> path =
        writeReproducer(r, snapshot.get(), options, why);
    InFlightDiagnostic diag = emitError(r.loc);
    diag << "pass '" << (r.argument.empty() ? r.name : r.argument) << "' ("
         << r.name << ") crashed on '" << r.opName << "'"
         << (r.symbol.empty() ? "" : " @" + r.symbol);
    if (signal)
      diag << " (signal " << *signal << ": " << strsignal(*signal) << ")";
    diag << ": an internal compiler error (the pass, not the input, is at "
            "fault; upstream MLIR's passes included); ";
    if (succeeded(path))
      diag << "reproducer: '" << *path
           << "' (run it with `amp-opt --run-reproducer " << *path
           << "`); report it with that file";
    else
      diag << "no reproducer: " << why;
    running.clear();
    depth = 0;
    snapshot = nullptr;
    levels.clear();
    return true;
  }

private:
  void finished(Pass *pass) {
    if (depth > 0 && --depth == 0)
      snapshot = nullptr;
    if (isAdaptor(pass) || running.empty())
      return;
    running.pop_back();
  }

  /// The passes that ran on one operation at one nesting level (the
  /// top-level operation is level 0), as textual pipelines.
  struct Level {
    Operation *op = nullptr;
    SmallVector<std::string> passes;
  };

  CrashContainmentOptions options;
  SmallVector<RunningPass> running;
  /// Passes started and not finished, adaptors included.
  unsigned depth = 0;
  /// The top-level operation before the current top-level pass.
  OwningOpRef<Operation *> snapshot;
  SmallVector<Level> levels;
};

/// The tracker of the pass manager that DriverCrashContainment::run is
/// running, for the report at crash time.
std::atomic<PassTracker *> driverTracker{nullptr};
/// Whether reportAtCrashTime reported a crash.
std::atomic<bool> driverReported{false};

PassTracker::~PassTracker() {
  PassTracker *self = this;
  driverTracker.compare_exchange_strong(self, nullptr);
}

/// LLVM signal handler callback (run at crash time by the crash recovery
/// context, before it jumps back): the crashed thread's stack, and so the
/// driver's MLIRContext and diagnostic handler, are still intact.
void reportAtCrashTime(void *) {
  if (PassTracker *tracker = driverTracker.exchange(nullptr))
    if (tracker->report(std::nullopt))
      driverReported = true;
}

} // namespace

LogicalResult
mlir::amp::runWithCrashContainment(PassManager &pm, Operation *op,
                                   const CrashContainmentOptions &options) {
  if (!options.enabled)
    return pm.run(op);
  MLIRContext *ctx = pm.getContext();
  bool threaded = ctx->isMultithreadingEnabled();
  ctx->disableMultithreading();
  auto owned = std::make_unique<PassTracker>(options);
  PassTracker *tracker = owned.get();
  pm.addInstrumentation(std::move(owned));

  llvm::CrashRecoveryContext::Enable();
  llvm::CrashRecoveryContext crc;
  LogicalResult result = failure();
  if (crc.RunSafely([&] { result = pm.run(op); })) {
    ctx->enableMultithreading(threaded);
    return result;
  }
  std::optional<int> signal;
  if (crc.RetCode > 128)
    signal = crc.RetCode - 128;
  if (!tracker->report(signal))
    emitError(op->getLoc())
        << "the pass manager crashed outside any pass (signal "
        << crc.RetCode - 128 << "): an internal compiler error";
  return failure();
}

DriverCrashContainment::DriverCrashContainment(CrashContainmentOptions options)
    : options(std::move(options)) {}

DriverCrashContainment::~DriverCrashContainment() = default;

void DriverCrashContainment::attach(PassManager &pm) {
  if (!options.enabled)
    return;
  pm.getContext()->disableMultithreading();
  auto tracker = std::make_unique<PassTracker>(options);
  driverTracker = tracker.get();
  pm.addInstrumentation(std::move(tracker));
}

bool DriverCrashContainment::run(llvm::function_ref<void()> driver) {
  if (!options.enabled) {
    driver();
    return true;
  }
  static bool registered =
      (llvm::sys::AddSignalHandler(reportAtCrashTime, nullptr), true);
  (void)registered;
  driverReported = false;
  llvm::CrashRecoveryContext::Enable();
  llvm::CrashRecoveryContext crc;
  // Runs LLVM's signal handlers at crash time: the stack dump, the removal
  // of files registered with RemoveFileOnSignal, and reportAtCrashTime.
  crc.DumpStackAndCleanupOnFailure = true;
  bool ok = crc.RunSafely(driver);
  reported = driverReported;
  return ok;
}
