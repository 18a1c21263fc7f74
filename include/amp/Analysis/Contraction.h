//===- Contraction.h - matmul-shaped linalg.generic on buffers -*- C++ -*-===//
//
// Recognizes the contractions a training step is made of (forward X * W,
// weight gradients X^T * dY, input gradients dY * W^T) after
// bufferization, for the passes that give them a dedicated kernel:
// amp-gpu-tensor-core-contractions (Tensor Cores) and
// amp-cpu-tile-contractions (register-tiled CPU micro-kernels).
// Analysis only: nothing here changes the IR.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_ANALYSIS_CONTRACTION_H
#define AMP_ANALYSIS_CONTRACTION_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include <optional>

namespace mlir::amp {

/// A `linalg.generic` on buffers computing C[i, j] += A[i, k] * B[k, j]:
/// three loops, two parallel (i, j) and one reduction (k), in any order;
/// C rank 2 indexed (i, j); A indexed (i, k), or (k, i) when `transposeA`;
/// B indexed (k, j), or (j, k) when `transposeB`. The body is
/// `yield(out + x * y)` with x, y the A and B elements, each possibly
/// widened by `arith.extf` (autocast's f16/bf16 operands with f32
/// accumulation), in any operand order. `a` and `b` are named by role: when
/// the generic's first input is the one indexed by j, they are swapped
/// (the product of two floats does not depend on operand order).
struct BufferContraction {
  linalg::GenericOp op;
  /// The operand buffers by role (memrefs of rank 2).
  Value a, b, c;
  bool transposeA = false, transposeB = false;
  /// Loop positions of i, j and k in `op`.
  unsigned iLoop = 0, jLoop = 0, kLoop = 0;
  /// Whether the body widens A's / B's element before the multiply.
  bool extendA = false, extendB = false;
};

/// The contraction `op` computes (see BufferContraction), or nullopt when it
/// is not of that form, its operands are not float memrefs of rank 2, or C
/// is a view of the same buffer as A or B (a kernel that keeps C in
/// registers across k would then read stale operands). Element types and
/// layouts are the caller's to check.
std::optional<BufferContraction> matchBufferContraction(linalg::GenericOp op);

/// The body of a linalg.generic with two inputs and one output that sums
/// products of its inputs into the output: `yield(out + t)`, t = x * y with
/// x, y the two input elements, each possibly widened by `arith.extf`, in
/// either operand order, under zero or more `select(mask, t, 0.0)` whose
/// masks depend only on loop indices and constants (isIndexMask). This is
/// every contraction amp-differentiate and torch-mlir write as a generic:
/// matmuls, convolutions and their weight gradients (no mask), and the
/// input gradient of a padded or strided convolution (the transposed
/// convolution, zero where no output read the position). Where the product
/// sits, which loops index which input and the op's shapes are the
/// caller's to check.
struct ProductSum {
  /// Whether input 0 / input 1 is widened by arith.extf before the multiply.
  bool extend[2] = {false, false};
  /// The selects around the product, outermost first (empty: no mask).
  SmallVector<arith::SelectOp> masks;
};

/// The ProductSum `op`'s body computes, or nullopt (tensor or buffer
/// semantics alike). Other ops in the body (dead ones, the masks' index
/// arithmetic) are allowed.
std::optional<ProductSum> matchProductSum(linalg::GenericOp op);

/// Whether `v`, computed in `body`, depends only on `linalg.index` values
/// and constants through pure non-float ops (a window mask: `i - k` in
/// range).
bool isIndexMask(Value v, Block *body);

/// Whether `op` (a generic or a named op such as linalg.matmul, on tensors or
/// buffers) has a reduction loop and reads two or more operands that are not
/// scalars: a contraction, or something shaped like one. The fusions on
/// tensors of both lowerings (amp-cpu-fuse-elementwise,
/// amp-gpu-fuse-elementwise) change no such op, so that after bufferization
/// matchBufferContraction finds the loops and the `out + x * y` body it
/// recognizes.
bool isContractionLike(linalg::LinalgOp op);

} // namespace mlir::amp

#endif // AMP_ANALYSIS_CONTRACTION_H
