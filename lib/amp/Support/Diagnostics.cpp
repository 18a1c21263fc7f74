//===- Diagnostics.cpp - one format for pipeline diagnostics --------------===//

#include "amp/Support/Diagnostics.h"

#include "amp/Support/CrashContainment.h"

#include "mlir/IR/Operation.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

std::string mlir::amp::formatLocation(Location loc) {
  if (auto flc = dyn_cast<FileLineColLoc>(loc))
    return (flc.getFilename().getValue() + ":" + llvm::Twine(flc.getLine()) +
            ":" + llvm::Twine(flc.getColumn()))
        .str();
  if (auto name = dyn_cast<NameLoc>(loc))
    return formatLocation(name.getChildLoc());
  if (auto call = dyn_cast<CallSiteLoc>(loc))
    return formatLocation(call.getCallee());
  if (auto fused = dyn_cast<FusedLoc>(loc);
      fused && !fused.getLocations().empty())
    return formatLocation(fused.getLocations().front());
  std::string text;
  llvm::raw_string_ostream os(text);
  os << loc;
  return text;
}

static llvm::StringRef severityName(DiagnosticSeverity severity) {
  switch (severity) {
  case DiagnosticSeverity::Error:
    return "error";
  case DiagnosticSeverity::Warning:
    return "warning";
  case DiagnosticSeverity::Note:
    return "note";
  case DiagnosticSeverity::Remark:
    return "remark";
  }
  return "error";
}

std::string mlir::amp::formatDiagnostic(const Diagnostic &diag) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << formatLocation(diag.getLocation()) << ": "
     << severityName(diag.getSeverity()) << ": " << diag << "\n";
  for (const Diagnostic &note : diag.getNotes())
    os << formatLocation(note.getLocation()) << ": note: " << note << "\n";
  return text;
}

mlir::amp::DiagnosticCollector::DiagnosticCollector(MLIRContext *ctx)
    : handler(ctx, [this](Diagnostic &diag) {
        collected += formatDiagnostic(diag);
        return success();
      }) {}

llvm::Error
mlir::amp::DiagnosticCollector::makeError(const llvm::Twine &what) const {
  if (collected.empty())
    return llvm::createStringError(llvm::inconvertibleErrorCode(), what);
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 what + ":\n" + collected);
}

LogicalResult mlir::amp::runCollectingDiagnostics(PassManager &pm,
                                                  Operation *op,
                                                  std::string &diagnostics) {
  DiagnosticCollector collector(op->getContext());
  LogicalResult result = runWithCrashContainment(pm, op);
  diagnostics += collector.text();
  return result;
}

llvm::Error
mlir::amp::runPipeline(Operation *module,
                       llvm::function_ref<void(OpPassManager &)> build,
                       llvm::StringRef what) {
  PassManager pm(module->getContext(), module->getName().getStringRef());
  build(pm);
  DiagnosticCollector collector(module->getContext());
  if (failed(runWithCrashContainment(pm, module)))
    return collector.makeError(what + " failed");
  return llvm::Error::success();
}
