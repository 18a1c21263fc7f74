//===- AutocastReport.h - amp-autocast report (private) ---------*- C++ -*-===//
//
// The explanation of one amp-autocast run: every op's location, class,
// chosen precision, reason and deciding rule, plus totals. Written as JSON
// (llvm::json) by `report=<file>`, atomically (temp file + rename); the same
// data as remarks with `remarks=true`.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_LIB_TRANSFORMS_AUTOCASTREPORT_H
#define AMP_LIB_TRANSFORMS_AUTOCASTREPORT_H

#include "amp/Analysis/PrecisionPolicy.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "mlir/Support/LLVM.h"

#include <map>
#include <string>
#include <vector>

namespace mlir::amp {

/// What applying the plan produced.
struct AutocastCounts {
  int64_t casts = 0;      ///< tensor arith.truncf/extf inserted
  int64_t constants = 0;  ///< constants converted at compile time
  int64_t lowBytes = 0;   ///< bytes of tensors now stored in low precision
  int64_t signatures = 0; ///< private functions whose signature changed
};

struct AutocastReport {
  struct Entry {
    std::string op, loc, cls, reason, precision, rule;
    int64_t flops = 0;
  };
  std::string precision;
  std::vector<Entry> ops;
  std::map<PrecisionClass, int64_t> perClass;
  int64_t lowOps = 0, mixedOps = 0;
  /// Def-use edges (float tensor operands) whose producer stores a
  /// different precision than the consumer reads: the most casts needed.
  int64_t boundaryEdges = 0;
  int64_t flopsTotal = 0, flopsLow = 0;
  /// The naive per-op policy (PyTorch-style local casting): every allow op
  /// casts each float tensor input to low precision and each result back.
  int64_t naiveCasts = 0, naiveFlopsLow = 0;
  AutocastCounts counts;
};

/// Collects the report of `plan` (before the IR is rewritten). Without
/// `withEntries` only the per-class and per-precision counts are filled
/// (what the pass statistics need), which keeps the pass cheap.
AutocastReport summarizePlan(const AutocastPlan &plan,
                             llvm::StringRef precision, bool withEntries);

/// One remark per planned op: class, reason, precision, rule and the op's
/// name, located at the op.
void emitPlanRemarks(const AutocastPlan &plan);

/// A remark located at `op` that, unlike Operation::emitRemark, does not
/// print the whole op (the MLIR context prints it by default): that only
/// happens when the command line has -mlir-print-op-on-diagnostic.
InFlightDiagnostic emitAutocastRemark(Operation *op);

/// Writes `report` as JSON to `path` via a temporary file in the same
/// directory and a rename, so readers never see half a file. Emits a
/// located error at `loc` and fails when the file cannot be written.
LogicalResult writeReport(const AutocastReport &report, llvm::StringRef path,
                          Location loc);

} // namespace mlir::amp

#endif // AMP_LIB_TRANSFORMS_AUTOCASTREPORT_H
