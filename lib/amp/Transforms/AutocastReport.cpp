//===- AutocastReport.cpp - amp-autocast report ---------------------------===//

#include "AutocastReport.h"

#include "amp/Support/Counts.h"
#include "amp/Support/OutputFile.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::amp;

static bool isFloatTensor(Type t) {
  return isa<RankedTensorType>(t) && isa<FloatType>(getElementTypeOrSelf(t));
}
static bool isLowFloat(Type t) {
  Type e = getElementTypeOrSelf(t);
  return e.isF16() || e.isBF16();
}

static std::string locString(Location loc) {
  std::string s;
  llvm::raw_string_ostream os(s);
  loc.print(os);
  return s;
}

AutocastReport mlir::amp::summarizePlan(const AutocastPlan &plan,
                                        StringRef precision, bool withEntries) {
  AutocastReport report;
  report.precision = precision.str();
  for (Operation *op : plan.order) {
    const OpDecision &d = plan.decisions.lookup(op);
    ++report.perClass[d.policy.cls];
    if (d.choice == OpPrecisionChoice::Low)
      ++report.lowOps;
    else if (d.choice == OpPrecisionChoice::Mixed)
      ++report.mixedOps;
    if (!withEntries)
      continue;
    AutocastReport::Entry e;
    e.op = op->getName().getStringRef().str();
    e.loc = locString(op->getLoc());
    e.cls = stringifyPrecisionClass(d.policy.cls).str();
    e.reason = d.policy.reason.str();
    e.precision = stringifyPrecisionChoice(d.choice).str();
    e.rule = d.rule;
    e.flops = estimateFlops(op);
    report.ops.push_back(e);
    report.flopsTotal = saturatingAdd(report.flopsTotal, e.flops);
    if (d.choice == OpPrecisionChoice::Low ||
        d.choice == OpPrecisionChoice::Mixed)
      report.flopsLow = saturatingAdd(report.flopsLow, e.flops);
    if (d.policy.cls == PrecisionClass::Allow) {
      report.naiveFlopsLow = saturatingAdd(report.naiveFlopsLow, e.flops);
      auto dps = dyn_cast<DestinationStyleOpInterface>(op);
      for (OpOperand &use : op->getOpOperands())
        if (isFloatTensor(use.get().getType()) &&
            !isLowFloat(use.get().getType()) && (!dps || dps.isDpsInput(&use)))
          ++report.naiveCasts;
      for (Type t : op->getResultTypes())
        if (isFloatTensor(t) && !isLowFloat(t))
          ++report.naiveCasts;
    }
    if (d.choice == OpPrecisionChoice::AsUsed)
      continue;
    for (OpOperand &use : op->getOpOperands()) {
      Value v = use.get();
      if (!isFloatTensor(v.getType()))
        continue;
      Operation *def = v.getDefiningOp();
      if (def && plan.choiceOf(def) == OpPrecisionChoice::AsUsed &&
          def->getNumOperands() == 0)
        continue; // constants and tensor.empty are materialized, not cast
      bool producerLow = isLowFloat(v.getType()) || plan.storesLow(v);
      bool consumerLow = isLowFloat(v.getType()) || plan.readsLow(use);
      if (producerLow != consumerLow)
        ++report.boundaryEdges;
    }
  }
  return report;
}

InFlightDiagnostic mlir::amp::emitAutocastRemark(Operation *op) {
  InFlightDiagnostic diag = emitRemark(op->getLoc());
  // Operation::emitRemark would print the whole op after every remark (the
  // context's default); only an explicit -mlir-print-op-on-diagnostic asks
  // for that.
  static const llvm::cl::Option *printOp =
      llvm::cl::getRegisteredOptions().lookup("mlir-print-op-on-diagnostic");
  if (printOp && printOp->getNumOccurrences() > 0 &&
      op->getContext()->shouldPrintOpOnDiagnostic())
    diag.attachNote(op->getLoc())
        .append("see current operation: ")
        .appendOp(*op, OpPrintingFlags().printGenericOpForm());
  return diag;
}

void mlir::amp::emitPlanRemarks(const AutocastPlan &plan) {
  for (Operation *op : plan.order) {
    const OpDecision &d = plan.decisions.lookup(op);
    emitAutocastRemark(op) << "autocast: "
                           << stringifyPrecisionClass(d.policy.cls) << " ("
                           << d.policy.reason << "); "
                           << stringifyPrecisionChoice(d.choice) << ": "
                           << d.rule << "; op '" << op->getName() << "'";
  }
}

static llvm::json::Value toJson(const AutocastReport &r) {
  llvm::json::Array ops;
  for (const AutocastReport::Entry &e : r.ops)
    ops.push_back(llvm::json::Object{{"op", e.op},
                                     {"loc", e.loc},
                                     {"class", e.cls},
                                     {"reason", e.reason},
                                     {"precision", e.precision},
                                     {"rule", e.rule},
                                     {"flops", e.flops}});
  llvm::json::Object perClass;
  for (PrecisionClass c :
       {PrecisionClass::Allow, PrecisionClass::Deny, PrecisionClass::Infer,
        PrecisionClass::Clear, PrecisionClass::Unknown}) {
    auto it = r.perClass.find(c);
    perClass[stringifyPrecisionClass(c)] =
        it == r.perClass.end() ? 0 : it->second;
  }
  auto fraction = [](int64_t a, int64_t b) {
    return b == 0 ? 0.0 : double(a) / double(b);
  };
  llvm::json::Object totals{
      {"ops", int64_t(r.ops.size())},
      {"per_class", std::move(perClass)},
      {"low_ops", r.lowOps},
      {"mixed_ops", r.mixedOps},
      {"casts_inserted", r.counts.casts},
      {"boundary_edges", r.boundaryEdges},
      {"constants_converted", r.counts.constants},
      {"signatures_changed", r.counts.signatures},
      {"low_precision_activation_bytes", r.counts.lowBytes},
      {"flops_total", r.flopsTotal},
      {"flops_low", r.flopsLow},
      {"flops_low_fraction", fraction(r.flopsLow, r.flopsTotal)},
      {"naive_local_casts", r.naiveCasts},
      {"naive_local_flops_low_fraction",
       fraction(r.naiveFlopsLow, r.flopsTotal)},
  };
  return llvm::json::Object{{"precision", r.precision},
                            {"ops", std::move(ops)},
                            {"totals", std::move(totals)}};
}

LogicalResult mlir::amp::writeReport(const AutocastReport &report,
                                     StringRef path, Location loc) {
  auto file = OutputFile::open(path, ".tmp");
  if (!file)
    return emitError(loc) << "amp-autocast: report: "
                          << llvm::toString(file.takeError());
  (*file)->os() << llvm::formatv("{0:2}", toJson(report)) << "\n";
  if (llvm::Error err = (*file)->commit())
    return emitError(loc) << "amp-autocast: report: "
                          << llvm::toString(std::move(err));
  return success();
}
