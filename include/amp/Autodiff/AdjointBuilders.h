//===- AdjointBuilders.h - IR shared by adjoint rules -----------*- C++ -*-===//
//
// Small builders of the IR that backward passes are made of: constants and
// zeros shaped like a value (static or dynamic), the one n-ary sum of a
// value's cotangent contributions, full reductions, and the tidy-up of the
// linalg.generic ops the rules build. Every builder works at the builder's
// insertion point and takes sizes from `tensor.dim` where they are dynamic.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_AUTODIFF_ADJOINTBUILDERS_H
#define AMP_AUTODIFF_ADJOINTBUILDERS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Builders.h"

namespace mlir::amp::autodiff {

/// A float scalar or a float tensor of `like`'s type, every element `c`:
/// `arith.constant` for scalars and static shapes (a splat), `tensor.empty`
/// + `linalg.fill` when a dimension is dynamic. For operands of elementwise
/// ops (the 0.5 of d sqrt(x) = 0.5 / sqrt(x)).
Value buildConstantLike(OpBuilder &b, Location loc, Value like, double c);

/// `like`'s shape and element type (any element type), every element
/// `value` (a scalar of the element type): `tensor.empty` + `linalg.fill`.
/// For destinations of generics that accumulate.
Value buildFilledLike(OpBuilder &b, Location loc, Value like, Value value);

/// As buildFilledLike, of type `type` with the sizes `sizes` (one per
/// dimension, static or a value).
Value buildFilled(OpBuilder &b, Location loc, RankedTensorType type,
                  ArrayRef<OpFoldResult> sizes, Value value);

/// Float zeros of `like`'s type: an `arith.constant` for a scalar, a
/// buildFilledLike tensor otherwise.
Value buildZerosLike(OpBuilder &b, Location loc, Value like);

/// `tensor.empty` of `like`'s type and sizes.
Value buildEmptyLike(OpBuilder &b, Location loc, Value like);

/// One elementwise linalg.generic over `inputs` (ranked tensors of one
/// shape, identity maps) with a result of that shape and element type
/// `elementType`; `body` returns the scalar to yield from the elements.
Value buildElementwise(
    OpBuilder &b, Location loc, ValueRange inputs, Type elementType,
    function_ref<Value(OpBuilder &, Location, ValueRange)> body);

/// The sum of `terms` (at least one; all of one type): the term itself, an
/// `arith.addf` chain for scalars, one elementwise `linalg.generic` with one
/// input per term for tensors (no intermediate tensors).
Value buildSum(OpBuilder &b, Location loc, ArrayRef<Value> terms);

/// The sum of all elements of a ranked float tensor, as a scalar (one
/// reduction generic into a 0-d tensor, then `tensor.extract`).
Value buildReduceAll(OpBuilder &b, Location loc, Value tensor);

/// Replaces `op` by a generic without the inputs its body does not read
/// (rules build bodies from clones of a forward body, of which they often
/// use a part) and returns it; `op` itself when every input is read.
linalg::GenericOp dropUnusedInputs(OpBuilder &b, linalg::GenericOp op);

/// Erases the op defining `value` when nothing uses it and it has no side
/// effects, then the ops defining its operands the same way (the zeros a
/// rule built for a generic it dropped).
void eraseUnusedChain(Value value);

/// Erases the ops of `block` (not its terminator) whose results are unused
/// and that have no side effects, last first.
void eraseDeadOps(Block &block);

} // namespace mlir::amp::autodiff

#endif // AMP_AUTODIFF_ADJOINTBUILDERS_H
