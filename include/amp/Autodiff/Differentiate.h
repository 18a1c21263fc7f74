//===- Differentiate.h - reverse-mode automatic differentiation -*- C++ -*-===//
//
// Entry points of amp's reverse-mode autodiff (docs/autodiff.md): the
// backward of a tensor program built inline after its forward, from the
// adjoint rules of the ops (ReverseModeOpInterface, external models per
// dialect registered by registerAutodiffExternalModels). The forward values
// the backward reads stay live (nothing of the forward is recomputed,
// except the scalar bodies of linalg ops inside the generics of their
// adjoints); every value gets one cotangent, summed once over its uses.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_AUTODIFF_DIFFERENTIATE_H
#define AMP_AUTODIFF_DIFFERENTIATE_H

#include "amp/Autodiff/AdjointState.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"

namespace mlir::amp::autodiff {

/// Builds the reverse-mode derivative of `loss` at `builder`'s insertion
/// point and returns d loss / d w for every `w` in `wrt`, in order, each of
/// `w`'s type (zeros when the loss does not depend on `w`); the insertion
/// point ends after the backward.
///
/// The insertion point lies in a block B (normally the body of a
/// func.func); the forward is every op of B before it. `loss` is a 0-d
/// float tensor (tensor<f32>, tensor<f64>), `seed` its cotangent, of the
/// same type (1.0 for a plain gradient; the `amp.loss_grad` result in a
/// training step, so that loss scaling can replace it), and every `wrt`
/// value is a float scalar or a ranked float tensor; all are block
/// arguments of B or results of forward ops (a constant that becomes a
/// parameter, for instance). Active forward ops that differentiate by
/// rewriting the forward are rewritten in B first (calls to functions of
/// the module are inlined, constant-trip-count scf.for loops unrolled);
/// loss, seed and wrt follow such rewrites.
///
/// Errors, reported as located diagnostics (and failure returned): a loss
/// that is not a 0-d float tensor, a seed of another type, a value that is
/// not in B before the insertion point, a wrt value that is not a float
/// scalar or tensor, an active op without an adjoint rule (the message names
/// the op and what to do), and the unsupported cases of the rules.
FailureOr<SmallVector<Value>> differentiate(OpBuilder &builder, Value loss,
                                            Value seed, ValueRange wrt);

/// Builds, at `builder`'s insertion point and in reverse order, the adjoint
/// of every op of `ops` (program order, one block, all before the insertion
/// point or in a block that dominates it) that has an active operand and an
/// active result with a cotangent. The driver runs it on the forward; rules
/// of ops with regions run it on clones of their region's ops (the scalar
/// body of a linalg.generic, a branch of scf.if). An active op without a
/// rule is a located error.
LogicalResult buildAdjoints(OpBuilder &builder, ArrayRef<Operation *> ops,
                            AdjointState &state);

/// What `amp-differentiate` does for one function: adds a copy of `fn`
/// named `gradName` right after it whose results are fn's loss followed by
/// d loss / d arg_i for every i in `wrtArgs` (in that order, each of arg
/// i's type); `fn` is not changed. Errors (located on `fn`): a declaration
/// or a body of more than one block, a result list that is not one 0-d
/// float tensor, a wrt index out of range or listed twice, an argument that
/// is not a float tensor or scalar, an existing symbol `gradName`, and the
/// errors of `differentiate`; the copy is removed then.
FailureOr<func::FuncOp> buildGradientFunction(func::FuncOp fn,
                                              ArrayRef<unsigned> wrtArgs,
                                              StringRef gradName);

} // namespace mlir::amp::autodiff

#endif // AMP_AUTODIFF_DIFFERENTIATE_H
