//===- Recompute.h - what amp-recompute-for-backward recomputes -*- C++ -*-===//
//
// The one rule, shared by amp-recompute-for-backward (which recomputes such
// ops after the amp.loss_grad seed instead of keeping their results) and
// amp-keep-accumulators-low (which rounds an f32 accumulator to f16/bf16
// when an f32 value computed from it by such ops is kept for the backward).
//
//===----------------------------------------------------------------------===//

#ifndef AMP_LIB_TRANSFORMS_RECOMPUTE_H
#define AMP_LIB_TRANSFORMS_RECOMPUTE_H

namespace mlir {
class Operation;
namespace amp {

/// True for an op with one result and no memory effects whose work is one
/// pass over its bytes: a cast (`arith.truncf`/`extf`), a layout op
/// (`linalg.transpose`, `linalg.broadcast`, `tensor.collapse_shape`,
/// `tensor.expand_shape`, `tensor.extract_slice`, `tensor.pad`; and
/// `tensor.empty`, `tensor.dim`, which a dynamic shape needs), or a linalg
/// op on tensors with an operand or result indexed by all of its loops (a
/// permutation map: the iteration domain is that operand's size, static or
/// dynamic) or with static shapes and a domain no larger than its largest
/// operand, and a body free of memory effects (an elementwise op, a fill,
/// a broadcast, a reduction along some dimensions such as a softmax's row
/// max and row sum or a layer norm's statistics, a max pool whose stride
/// is its window). A contraction or
/// convolution iterates over more points than any of its operands and is
/// not cheap.
/// With `elementwise` false, only the casts and layout ops.
bool isCheapToRecompute(Operation *op, bool elementwise = true);

} // namespace amp
} // namespace mlir

#endif // AMP_LIB_TRANSFORMS_RECOMPUTE_H
