//===- ReverseModeOpInterface.td - adjoint rules of ops ----*- tablegen -*-===//
//
// The interface through which an op tells amp-differentiate how to
// propagate cotangents from its results to its operands. Rules are external
// models, one file per dialect under lib/amp/Autodiff/Implementations/
// (upstream's BufferizableOpInterface model; Enzyme-MLIR's Implementations/
// layout), so a new op gets a rule without touching the pass.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_AUTODIFF_REVERSEMODEOPINTERFACE_TD
#define AMP_AUTODIFF_REVERSEMODEOPINTERFACE_TD

include "mlir/IR/OpBase.td"

def ReverseModeOpInterface : OpInterface<"ReverseModeOpInterface"> {
  let description = [{
    The reverse-mode (adjoint) rule of an op. The differentiation driver
    (amp/Autodiff/Differentiate.h) visits the ops of the forward in reverse
    order and calls `buildAdjoint` on every op that has an active operand
    (a float value on a path from a value differentiated with respect to)
    and an active result (a float value on a path to the loss). The rule
    reads the cotangents of the op's results from the `AdjointState` and
    adds one contribution per active operand; the state sums several
    contributions to one value once, when the value's defining op is
    reached. Rules are written for values of any shape where the op is
    elementwise (an `arith.mulf` on `f64` inside a `linalg.generic` body or
    on `tensor<4x?xf64>` at function level), so one rule serves both.

    `expandForward` lets an op that is differentiated by rewriting the
    forward (a call inlines its callee, a loop with a constant trip count
    unrolls) do so before the backward is built; the driver calls it on
    active ops until none expands.
  }];
  let cppNamespace = "::mlir::amp::autodiff";
  let methods = [
    InterfaceMethod<[{
        Adds, at `builder`'s insertion point (after the forward), the
        contribution of this op to the cotangent of each active operand
        (`state.isActive(operand)`), given the cotangents of its results
        (`state.getCotangent(builder, result)`, null when a result has
        none: a zero cotangent). Fails with a diagnostic located on the op
        when a case is not supported (the message says what to do).
      }], "::llvm::LogicalResult", "buildAdjoint",
      (ins "::mlir::OpBuilder &":$builder,
           "::mlir::amp::autodiff::AdjointState &":$state)>,
    InterfaceMethod<[{
        Rewrites the op in the forward, before the backward is built, into
        ops that have rules (through `rewriter`, so that the driver follows
        replaced values). Returns true when it rewrote the op, false when
        the op is differentiated as it is, failure (with a located
        diagnostic) when it cannot be either.
      }], "::llvm::FailureOr<bool>", "expandForward",
      (ins "::mlir::RewriterBase &":$rewriter), [{}], [{
        return false;
      }]>,
  ];
}

#endif // AMP_AUTODIFF_REVERSEMODEOPINTERFACE_TD
