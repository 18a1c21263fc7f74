//===- StructuredAdjoint.h - adjoint of linalg structured ops ---*- C++ -*-===//
//
// One rule for every linalg structured op on tensors (linalg.generic and the
// named ops, whose scalar bodies the LinalgOp interface exposes): the
// cotangent of an operand is a linalg.generic over the op's iteration space
// that re-evaluates the scalar body, differentiates it symbolically (the
// scalar rules of arith and math) and writes with the operand's indexing
// map, reducing over the dimensions that map drops (docs/autodiff.md,
// "Structured ops"). Internal to the linalg external models.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_AUTODIFF_IMPLEMENTATIONS_STRUCTUREDADJOINT_H
#define AMP_AUTODIFF_IMPLEMENTATIONS_STRUCTUREDADJOINT_H

#include "amp/Autodiff/AdjointState.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace mlir::amp::autodiff {

/// Where the cotangent of a max or min reduction goes when several elements
/// equal the result.
enum class TieRule {
  /// Evenly among all equal elements (PyTorch's amax/amin, max() and min()
  /// of a whole tensor).
  Split,
  /// All of it to the first equal element in the order of the reduction
  /// dimensions (PyTorch's max_pool2d: the index the forward picked).
  First,
};

/// Adds the cotangents of `op`'s active operands (inputs, inits whose value
/// the body reads or that a reduction starts from, and float scalars the
/// body captures). Every input's indexing map must be a projected
/// permutation or have convolution windows (results s * d_o + d * d_k of a
/// parallel and a reduction dimension, static sizes); a reduction must
/// combine each float output once with an add, a max or a min. Located
/// errors otherwise.
LogicalResult buildStructuredAdjoint(OpBuilder &b, linalg::LinalgOp op,
                                     TieRule ties, AdjointState &state);

namespace structured {

/// How an output of a structured op is formed from its body.
enum class Combiner { None, Add, Max, Min };

struct OutputForm {
  Combiner combiner = Combiner::None;
  /// The body value the output is (None), accumulates (Max, Min: one), or
  /// the terms it adds (Add: acc + e_1 - e_2 + ...).
  SmallVector<Value, 1> elements;
  /// Add: which terms are subtracted.
  SmallVector<bool, 1> negated;
};

/// How output `k` (a float output) is formed: `None` when the op has no
/// reduction dimension (the body may read the output's block argument like
/// any input); otherwise the yielded value must be `combine(acc, e)` with
/// `acc` the output's block argument, used only there, and `e` independent
/// of every output block argument; `combine` is arith.maximumf / maxnumf,
/// minimumf / minnumf, cmpf + select choosing the larger or the smaller, or
/// a chain of arith.addf / subf that adds acc once (acc + e, e + acc - e',
/// ...). Located error otherwise.
FailureOr<OutputForm> analyzeOutput(linalg::LinalgOp op, unsigned k);

/// A convolution window in an operand's indexing map: result `position` is
/// stride * d_outDim + dilation * d_kernelDim.
struct Window {
  unsigned position;
  unsigned outDim;
  unsigned kernelDim;
  int64_t stride;
  int64_t dilation;
};

/// The windows of `map` (empty for a projected permutation). Every other
/// result must be a dimension; the out dimension must be parallel, the
/// kernel dimension a reduction, and each used in one result. Located error
/// (on `op`) otherwise.
FailureOr<SmallVector<Window>>
analyzeWindows(linalg::LinalgOp op, AffineMap map, unsigned operandNumber);

} // namespace structured
} // namespace mlir::amp::autodiff

#endif // AMP_AUTODIFF_IMPLEMENTATIONS_STRUCTUREDADJOINT_H
