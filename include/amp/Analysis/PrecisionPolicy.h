//===- PrecisionPolicy.h - autocast op classes ------------------*- C++ -*-===//
//
// The precision policy of autocast as data: every op gets a class (allow,
// deny, infer, clear; the consensus of PyTorch's autocast lists and
// TensorFlow's auto_mixed_precision_lists.h, shared REFERENCE.md) and a
// reason. The autocast plan (which operand of which op is demoted to which
// type) is computed from it without touching the IR; the Autocast pass only
// applies the plan. Read-only.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_ANALYSIS_PRECISIONPOLICY_H
#define AMP_ANALYSIS_PRECISIONPOLICY_H

#include "mlir/IR/Operation.h"
#include "mlir/IR/Types.h"
#include "llvm/ADT/SmallVector.h"

namespace mlir::amp {

enum class PrecisionClass {
  Allow,   ///< runs in low precision with fp32 accumulation (contractions)
  Deny,    ///< stays fp32: range/precision sensitive (exp, log, reductions)
  Infer,   ///< follows its inputs (elementwise arithmetic)
  Clear,   ///< neutral data movement (transpose, broadcast, fill, slices)
  Unknown, ///< not in the policy: stays fp32 and is reported
};

llvm::StringRef stringifyPrecisionClass(PrecisionClass cls);

struct OpPrecision {
  PrecisionClass cls;
  llvm::StringRef reason;
};

/// The class of `op` and why. Pure function of the op (its name, for linalg
/// ops also its indexing maps, iterator types and body).
OpPrecision classifyOp(Operation *op);

/// One decision of the autocast plan: run `op` with its `operands` (input
/// operand numbers of f32 tensors) demoted to the low-precision type.
struct DemotedOp {
  Operation *op;
  llvm::SmallVector<unsigned> operands;
};

/// The autocast plan of one function-like op: the allow ops to demote, in
/// program order. Ops of every other class keep fp32 (deny) or follow their
/// fp32 inputs (infer, clear).
struct AutocastPlan {
  llvm::SmallVector<DemotedOp> demoted;
};

/// Computes the plan for every op nested under `root`.
AutocastPlan planAutocast(Operation *root);

} // namespace mlir::amp

#endif // AMP_ANALYSIS_PRECISIONPOLICY_H
