//===- SeedLinearity.h - the backward is linear in the seed -----*- C++ -*-===//
//
// Read-only. Loss scaling replaces the backward seed d(loss)/d(loss) = 1 by
// S and relies on grad(S * L) = S * grad(L) (shared REFERENCE.md, "Loss
// scaling: the math and the state"): every gradient must be proportional to
// the seed, so that dividing by S restores it exactly. That holds iff the
// backward is homogeneous of degree 1 in the seed. This analysis gives
// every value of the backward a degree in the seed (0: does not change with
// S, 1: proportional to S) by the rules of the ops, and reports, located,
// each op that breaks homogeneity:
//   - a sum of a degree-1 and a non-zero degree-0 term (L2 weight decay added
//     to the raw gradient: unscaling divides the decay by S), also as a
//     select, a max/min or an insert into a seed-free tensor, and as a
//     micro-batch accumulator that starts from a seed-free non-zero value;
//   - a degree-2 product (g * g), a division by the backward (1 / g);
//   - a comparison, max or min against a seed-free non-zero threshold
//     (clipping the scaled backward: the threshold becomes t / S), a
//     non-linear math function of the backward (sqrt, exp, ...), a select
//     whose condition depends on such a comparison;
//   - an `amp.grad` whose raw gradient is not of degree 1;
//   - an op the analysis has no rule for (a call, an op of another dialect).
// Rules: arith (add/sub/mul/div/neg/casts/select/cmp/max/min), math.absf,
// linalg ops (through their bodies, block arguments taking their operands'
// degrees, an accumulator initialized to zero adopting its body's), tensor
// ops that move data (their float operands must agree), scf.for/if (an
// accumulator of the backward must start at zero or in the backward).
// Max, min and comparisons of two degree-1 values are fine (S > 0 keeps
// their order), so are ReLU masks of the backward.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_ANALYSIS_SEEDLINEARITY_H
#define AMP_ANALYSIS_SEEDLINEARITY_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::amp {

/// Checks that the backward of `func` (the values in `backward`, derived
/// from `seed`, that the `amp.grad` gradients are computed from) is
/// homogeneous of degree 1 in `seed`. Emits one located error, with a note
/// at the seed, for the first op that is not, and returns failure.
LogicalResult checkSeedLinearity(func::FuncOp func, Value seed,
                                 const llvm::SetVector<Value> &backward);

} // namespace mlir::amp

#endif // AMP_ANALYSIS_SEEDLINEARITY_H
