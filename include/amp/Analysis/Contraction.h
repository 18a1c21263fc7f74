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
