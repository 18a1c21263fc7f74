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

/// The adjoint of a gather: a linalg.generic over parallel dimensions that
/// yields `tensor.extract %T[i...]` of a differentiated tensor T captured
/// from above, the indices computed in the body from integer inputs and
/// linalg.index (torch-mlir's aten.embedding). Adds to T's cotangent the
/// scatter-add of the output's cotangent in the lexicographic order of the
/// iteration space (GatherAdjoint.cpp). False, with nothing built, when
/// `op` is not such a gather; a located error when it is one whose indices
/// or other reads cannot be handled.
FailureOr<bool> buildGatherAdjoint(OpBuilder &b, linalg::LinalgOp op,
                                   AdjointState &state);

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
/// result must be a dimension or a non-negative constant (one position of
/// that dimension: torch-mlir's size-1 broadcast); the out dimension must be
/// parallel, the kernel dimension a reduction, and each used in one result.
/// Located error (on `op`) otherwise.
FailureOr<SmallVector<Window>>
analyzeWindows(linalg::LinalgOp op, AffineMap map, unsigned operandNumber);

/// An input of a generic being built, with its map over the iteration space.
struct MappedValue {
  Value value;
  AffineMap map;
};

/// How the cotangent generic of a windowed operand iterates: the out
/// dimension o of each window runs over the operand's positions i instead,
/// and every other input indexed by o is read from a copy dilated by the
/// stride s and padded by (K - 1) * d, at i - d * k + (K - 1) * d.
struct WindowPlan {
  SmallVector<Window> windows;
  /// The operand's map with each window result replaced by its out
  /// dimension (its own map when it has no window).
  AffineMap outMap;
  /// Per window: the kernel extent K, the output extent O, the operand's
  /// extent X.
  SmallVector<int64_t> kernelSizes, outSizes, extents;
  /// Inputs (by position) to read from a dilated, padded copy, with their
  /// maps over the forward iteration space.
  SmallVector<std::pair<unsigned, AffineMap>> padded;
};

/// Plans the cotangent generic of operand `target` of `op`, read with `map`
/// (operand number `operandNumber`, for messages), whose other inputs are
/// `inputs` (maps over the forward iteration space, rewritten in place for
/// windows). Located errors: a map that analyzeWindows rejects, a window
/// with a dynamic size, a body that reads linalg.index, another windowed
/// input.
FailureOr<WindowPlan> planWindows(linalg::LinalgOp op, Value target,
                                  AffineMap map, unsigned operandNumber,
                                  MutableArrayRef<MappedValue> inputs);

/// An operand whose windows do not overlap and cover it exactly (each with
/// stride s == kernel extent K, dilation 1 and operand extent X == s * O,
/// as a 2x2 max pool with stride 2 or a ViT's patch embedding) read as
/// `tensor.expand_shape` of it: each window result s * o + k becomes the two
/// results o, k (extents O, K), so the map is a projected permutation and
/// the cotangent needs no dilated copy and no mask; a `collapse_shape`
/// with `reassociation` gives the operand's shape back.
struct BlockedWindows {
  AffineMap map;
  RankedTensorType type;
  SmallVector<ReassociationIndices> reassociation;
};

/// The blocked form of the operand `plan` was made for (of type
/// `targetType`, read with `map`), when every window is non-overlapping
/// and exact; std::nullopt otherwise (and for an operand without windows).
std::optional<BlockedWindows> blockWindows(const WindowPlan &plan,
                                           RankedTensorType targetType,
                                           AffineMap map);

/// `contribution` where some output read position i (t = i - d * k a
/// multiple of s in [0, s * O) for every window), 0 elsewhere; built in a
/// body of the planned iteration space.
Value maskUnreadPositions(OpBuilder &nb, Location loc, Value contribution,
                          const WindowPlan &plan);

/// `v`, read with `forwardMap`, dilated and padded along the out dimensions
/// of the plan's windows (insert_slice with stride s into zeros of extent
/// X + (K - 1) * d).
Value dilateAndPad(OpBuilder &b, Location loc, Value v, AffineMap forwardMap,
                   const WindowPlan &plan);

} // namespace structured
} // namespace mlir::amp::autodiff

#endif // AMP_AUTODIFF_IMPLEMENTATIONS_STRUCTUREDADJOINT_H
