//===- PrecisionPolicy.h - autocast op classes and painting -----*- C++ -*-===//
//
// The precision policy of autocast as data, and the painting that turns it
// into a decision per op. Read-only: nothing here mutates IR.
//
// 1. classifyOp: every op gets a class (allow, deny, infer, clear; the
//    consensus of PyTorch's aten/src/ATen/autocast_mode.cpp lists and
//    TensorFlow's grappler auto_mixed_precision_lists.h, shared
//    REFERENCE.md "Autocast") and a reason. Ops the policy does not know are
//    `unknown`: they stay f32 and are reported, never guessed.
// 2. planAutocast: paints the def-use graph of every function in the spirit
//    of TensorFlow's auto_mixed_precision pass (allow first; deny spreads
//    forward through infer/clear; infer/clear between allow ops become
//    allow; allow spreads through clear ops both ways) and records for each
//    op the precision it runs in and which rule or neighbour decided it.
//    The Autocast pass (Transforms/Autocast.cpp) applies the plan.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_ANALYSIS_PRECISIONPOLICY_H
#define AMP_ANALYSIS_PRECISIONPOLICY_H

#include "mlir/IR/Operation.h"
#include "mlir/IR/Types.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSet.h"

#include <string>

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

/// User overrides of the default lists (`amp-autocast allow=... deny=...`):
/// full op names such as `linalg.generic` or `tosa.exp`. An op named in
/// both lists is an error the pass reports before planning.
struct PolicyOverrides {
  llvm::StringSet<> allow;
  llvm::StringSet<> deny;
};

/// The class of `op` and why. Pure function of the op (its name, for linalg
/// ops also its indexing maps, iterator types and body), then the overrides.
OpPrecision classifyOp(Operation *op, const PolicyOverrides &overrides = {});

/// Whether `op` is a fused normalization: an elementwise linalg op (every
/// loop parallel) whose range-sensitive math (`rsqrt`, `sqrt`, ... of
/// `classifyOp`'s deny list) reads, within its body, only constants and
/// per-channel operands (inputs broadcast along some loop:
/// `isBroadcastOperand`), and which also reads a full-shaped float input
/// (the activation). torch-mlir's eval-mode batch_norm is one:
/// `(x - mean) * rsqrt(var + eps) * gamma + beta` over [N, C, H, W] with
/// the four statistics indexed by C. Its class is infer, not deny: the
/// activation follows its neighbours, as TensorFlow's FusedBatchNorm (infer
/// list) and PyTorch's batch_norm (no autocast list: runs in its input's
/// type, statistics in fp32) do; the statistics stay fp32.
bool isFusedNormalization(Operation *op);

/// Whether `use` is an input of linalg op `op` that some loop does not
/// index (a bias, a per-channel statistic): its indexing map is not a
/// permutation of all loops.
bool isBroadcastOperand(OpOperand &use);

/// The precision an op runs in after autocast.
enum class OpPrecisionChoice {
  F32,   ///< unchanged: f32 operands and results
  Low,   ///< tensors stored in f16/bf16 (elementwise bodies compute in f32,
         ///< PyTorch's opmath convention, then round once)
  Mixed, ///< contraction/convolution: low-precision inputs, f32 accumulator
         ///< and f32 result (Micikevicius et al. 2018)
  AsUsed ///< constants, tensor.empty and existing casts: materialized in the
         ///< type each user needs (constants converted at compile time)
};

llvm::StringRef stringifyPrecisionChoice(OpPrecisionChoice choice);

/// The decision for one op: its policy class, the precision it runs in and
/// the rule (or neighbour) that decided it, for the report.
struct OpDecision {
  OpPrecision policy;
  OpPrecisionChoice choice = OpPrecisionChoice::F32;
  std::string rule;
};

struct AutocastPlanOptions {
  PolicyOverrides overrides;
};

/// The autocast plan of every function under `root`: one decision per op
/// outside linalg bodies, in program order.
struct AutocastPlan {
  llvm::SmallVector<Operation *> order;
  llvm::DenseMap<Operation *, OpDecision> decisions;

  OpPrecisionChoice choiceOf(Operation *op) const {
    auto it = decisions.find(op);
    return it == decisions.end() ? OpPrecisionChoice::F32 : it->second.choice;
  }
  /// Whether operand `use` is read in low precision after autocast (the
  /// inputs of Mixed ops, every f32 tensor operand of Low ops except the
  /// per-channel operands of a fused normalization, which stay f32).
  bool readsLow(OpOperand &use) const;
  /// Whether result `value` of a planned op is stored in low precision.
  bool storesLow(Value value) const;
};

/// Paints every function nested under `root` (see the file comment). The
/// rules, in order (TensorFlow grappler auto_mixed_precision, adapted to
/// SSA values with f32 accumulation):
///   1. allow ops that can run in low precision are painted low (contractions
///      and convolutions as Mixed: low inputs, f32 accumulator);
///   2. deny spreads forward from deny ops through infer/clear ops (a clear op
///      only if the path reaches an infer or deny op);
///   3. infer/clear ops downstream and upstream of allow ops become Low;
///   4. clear ops next to a low-precision value (from an allow op's inputs
///      backwards, from a Low op both ways) become Low.
/// Loop-carried values, region results and function signatures stay f32:
/// scf/func ops and terminators are never painted.
AutocastPlan planAutocast(Operation *root,
                          const AutocastPlanOptions &options = {});

/// Evidence that `root` was already autocast: an `arith.truncf` from an f32
/// tensor to an f16 or bf16 tensor that an allow-class op (a contraction,
/// convolution, ...) reads, which is how amp-autocast (and PyTorch-style
/// manual casting) feeds contractions. Null if there is none.
struct ExistingNarrowing {
  Operation *cast = nullptr; ///< the arith.truncf
  Operation *user = nullptr; ///< the allow op that reads it
  Type lowType;              ///< its element type (f16 or bf16)
  explicit operator bool() const { return cast != nullptr; }
};
ExistingNarrowing findExistingNarrowing(Operation *root);

/// Floating-point operations of one execution of `op` (linalg ops: the
/// static loop ranges times the float ops of the body; elementwise arith on
/// tensors: the number of elements; otherwise 0). Dynamic sizes count 1.
int64_t estimateFlops(Operation *op);

} // namespace mlir::amp

#endif // AMP_ANALYSIS_PRECISIONPOLICY_H
