//===- MemoryReportPass.cpp - amp-memory-report --------------------------===//
//
// Prints or writes Analysis/MemoryReport.h's report for every training step
// of the module (Passes.td has the format). Changes no IR.
//
//===----------------------------------------------------------------------===//

#include "amp/Analysis/MemoryReport.h"
#include "amp/Analysis/TrainingStep.h"
#include "amp/Support/OutputFile.h"
#include "amp/Transforms/Passes.h"
#include "llvm/Support/Format.h"

#include <limits>
#include <numeric>

namespace mlir::amp {
#define GEN_PASS_DEF_MEMORYREPORT
#include "amp/Transforms/Passes.h.inc"
} // namespace mlir::amp

using namespace mlir;
using namespace mlir::amp;

/// `values`, largest first (equal sizes in their order); with
/// `skipEmpty`, values that hold no bytes (a tensor.empty) left out.
static void printValues(llvm::raw_ostream &os, ArrayRef<KeptValue> values,
                        bool skipEmpty) {
  SmallVector<size_t> order;
  for (auto [i, v] : llvm::enumerate(values))
    if (!skipEmpty || v.bytes > 0)
      order.push_back(i);
  llvm::stable_sort(order, [&](size_t a, size_t b) {
    return values[a].bytes > values[b].bytes;
  });
  for (size_t i : order) {
    const KeptValue &k = values[i];
    std::string what;
    llvm::raw_string_ostream ws(what);
    ws << k.value.getType();
    if (auto arg = dyn_cast<BlockArgument>(k.value))
      ws << " argument #" << arg.getArgNumber();
    else
      ws << " from " << k.value.getDefiningOp()->getName();
    if (auto loc = dyn_cast<FileLineColLoc>(k.value.getLoc()))
      ws << " (line " << loc.getLine() << ")";
    os << llvm::format("    %12lld  %s\n", (long long)k.bytes, what.c_str());
  }
}

static void printText(llvm::raw_ostream &os, func::FuncOp fn,
                      const MemoryReport &r, bool listKept, bool listPeak) {
  os << "amp-memory-report: @" << fn.getSymName()
     << (r.approximate ? " (approximate: some values have no static size, "
                         "or the seed is inside a loop)"
                       : "")
     << "\n";
  auto row = [&](llvm::StringRef what, const std::string &value) {
    os << llvm::format("  %-30s %s\n", what.str().c_str(), value.c_str());
  };
  row("parameters", formatBytes(r.parameterBytes));
  row("optimizer state", formatBytes(r.optimizerStateBytes));
  row("loss-scale state", formatBytes(r.lossScaleStateBytes));
  row("batch (inputs, labels)", formatBytes(r.batchBytes));
  row("kept for the backward",
      r.keptForBackwardBytes
          ? formatBytes(*r.keptForBackwardBytes) + ", " +
                std::to_string(r.kept.size()) + " values"
          : std::string("- (no amp.loss_grad seed: run the report before "
                        "amp-loss-scaling)"));
  if (listKept)
    printValues(os, r.kept, /*skipEmpty=*/false);
  row("peak live (tensor level)", formatBytes(r.peakLiveBytes));
  if (listPeak)
    printValues(os, r.peak, /*skipEmpty=*/true);
}

namespace {
struct MemoryReportPass : amp::impl::MemoryReportBase<MemoryReportPass> {
  using MemoryReportBase::MemoryReportBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    llvm::json::Array functions;
    LogicalResult result =
        forEachTrainStep(module, "amp-memory-report", [&](func::FuncOp fn) {
          FailureOr<MemoryReport> r = analyzeMemory(fn);
          if (failed(r))
            return failure();
          if (output.empty()) {
            printText(llvm::errs(), fn, *r, listKept, listPeak);
            return success();
          }
          llvm::json::Object o = r->toJSON();
          o["name"] = fn.getSymName().str();
          functions.push_back(std::move(o));
          return success();
        });
    if (failed(result))
      return signalPassFailure();
    if (output.empty())
      return markAllAnalysesPreserved();
    auto file = OutputFile::open(output, ".amp-memory-report-tmp");
    if (!file) {
      emitError(module.getLoc(), "amp-memory-report: ")
          << llvm::toString(file.takeError());
      return signalPassFailure();
    }
    (*file)->os() << llvm::formatv("{0:2}\n",
                                   llvm::json::Value(llvm::json::Object{
                                       {"functions", std::move(functions)}}));
    if (llvm::Error err = (*file)->commit()) {
      emitError(module.getLoc(), "amp-memory-report: ")
          << llvm::toString(std::move(err));
      return signalPassFailure();
    }
    markAllAnalysesPreserved();
  }
};
} // namespace
