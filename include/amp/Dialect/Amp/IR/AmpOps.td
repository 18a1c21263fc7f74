//===- AmpOps.td - amp dialect ops -------------------------*- tablegen -*-===//

#ifndef AMP_DIALECT_AMP_IR_AMPOPS_TD
#define AMP_DIALECT_AMP_IR_AMPOPS_TD

include "amp/Dialect/Amp/IR/AmpDialect.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Amp_ScalarF32Tensor : 0DTensorOf<[F32]>, BuildableType<
    "::mlir::RankedTensorType::get({}, $_builder.getF32Type())">;
def Amp_ScalarI32Tensor : 0DTensorOf<[I32]>, BuildableType<
    "::mlir::RankedTensorType::get({}, $_builder.getI32Type())">;
def Amp_ScalarI1Tensor : 0DTensorOf<[I1]>, BuildableType<
    "::mlir::RankedTensorType::get({}, $_builder.getI1Type())">;
def Amp_FloatTensor : RankedTensorOf<[AnyFloat]>;

//===----------------------------------------------------------------------===//
// amp.loss_grad
//===----------------------------------------------------------------------===//

def Amp_LossGradOp : Amp_Op<"loss_grad", [Pure,
    AllTypesMatch<["loss", "result"]>]> {
  let summary = "backward seed d(loss)/d(loss)";
  let description = [{
    The seed of a hand-written or generated backward pass: the derivative of
    the scalar loss with respect to itself. Its value is 1.0 in an unscaled
    step; `amp-loss-scaling` replaces it with the loss scale S, so that every
    backward value is S times larger (chain rule: grad(S*L) = S*grad(L),
    Micikevicius et al. 2018, section 3.2).

    Operand: the loss, a 0-d `tensor<f32>`. Result: same type.
    A training step holds exactly one `amp.loss_grad` (docs/training-step.md);
    the contract checker reports a second one or a missing one.

    ```mlir
    %seed = amp.loss_grad %loss : tensor<f32>
    ```
  }];
  let arguments = (ins Amp_ScalarF32Tensor:$loss);
  let results = (outs Amp_ScalarF32Tensor:$result);
  let assemblyFormat = "$loss attr-dict `:` type($loss)";
}

//===----------------------------------------------------------------------===//
// amp.grad
//===----------------------------------------------------------------------===//

def Amp_GradOp : Amp_Op<"grad", [Pure]> {
  let summary = "marks the gradient of one parameter";
  let description = [{
    Marks `raw` as the gradient of the parameter `param` (an fp32 master
    weight, a `func.func` argument with `amp.role = "param"`). Semantically
    the identity on `raw`. `amp-loss-scaling` routes every `amp.grad` through
    one `amp.unscale_and_check`, so the optimizer update that uses the result
    sees unscaled gradients (unscale before clipping and before the optimizer,
    as PyTorch's `GradScaler.unscale_`).

    Operands: `raw` and `param` are ranked float tensors of the same type;
    the result has that type. The verifier rejects differing types, e.g.
    "amp.grad operand type tensor<4xf16> differs from parameter type
    tensor<4xf32>; gradients of fp32 master weights must be fp32".

    ```mlir
    %g = amp.grad %dw, %w : tensor<784x256xf32>
    ```
  }];
  let arguments = (ins Amp_FloatTensor:$raw, Amp_FloatTensor:$param);
  let results = (outs Amp_FloatTensor:$result);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let builders = [
    OpBuilder<(ins "::mlir::Value":$raw, "::mlir::Value":$param), [{
      build($_builder, $_state, param.getType(), raw, param);
    }]>
  ];
}

//===----------------------------------------------------------------------===//
// amp.unscale_and_check
//===----------------------------------------------------------------------===//

def Amp_UnscaleAndCheckOp : Amp_Op<"unscale_and_check", [Pure,
    DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "fused unscale of all gradients and one non-finite check";
  let description = [{
    Multiplies every gradient by `inv_scale` (= 1/S, fp32) and returns the
    unscaled gradients plus one flag `found_inf`, true iff any element of any
    input gradient is +inf, -inf or NaN. One fused pass over the data: each
    gradient is read once and written once (PyTorch
    `_amp_foreach_non_finite_check_and_unscale_`). The check covers every
    gradient of the step at once, after the whole backward and before any
    update, clipping or optimizer math.

    Operands: one or more ranked float tensors `grads` (any shapes) and a 0-d
    `tensor<f32>` `inv_scale`. Results: `unscaled`, one per gradient with its
    type, and `found_inf : tensor<i1>`. When S is a power of two the unscale
    is exact (shared REFERENCE.md, number formats).

    ```mlir
    %u:2, %found_inf = amp.unscale_and_check %g0, %g1 inv_scale %inv
        : tensor<784x256xf32>, tensor<256xf32>
    ```
  }];
  let arguments = (ins Variadic<Amp_FloatTensor>:$grads,
                       Amp_ScalarF32Tensor:$inv_scale);
  let results = (outs Variadic<Amp_FloatTensor>:$unscaled,
                      Amp_ScalarI1Tensor:$found_inf);
  let assemblyFormat = [{
    $grads `inv_scale` $inv_scale attr-dict `:` type($grads)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// amp.update_scale
//===----------------------------------------------------------------------===//

def Amp_UpdateScaleOp : Amp_Op<"update_scale", [Pure,
    AllTypesMatch<["scale", "new_scale"]>,
    AllTypesMatch<["growth_tracker", "new_growth_tracker"]>]> {
  let summary = "dynamic loss-scale update (PyTorch's rule)";
  let description = [{
    Computes the next loss-scale state from the current one and the step's
    `found_inf` flag, with PyTorch's `_amp_update_scale_` rule
    (shared REFERENCE.md, "Dynamic scale update"):

    - found_inf: new_scale = scale * backoff_factor; new_growth_tracker = 0.
    - otherwise: t = growth_tracker + 1; if t == growth_interval then
      (candidate = scale * growth_factor; new_scale = candidate if it is
      finite, else scale; new_growth_tracker = 0); else new_scale = scale,
      new_growth_tracker = t.

    Operands: `scale : tensor<f32>` (the loss scale S, always fp32),
    `growth_tracker : tensor<i32>` (consecutive clean steps),
    `found_inf : tensor<i1>`. Results: the new scale and growth tracker, same
    types. Attributes: `growth_factor` (> 1, default 2.0), `backoff_factor`
    (in (0, 1), default 0.5), `growth_interval` (>= 1 steps, default 2000).

    ```mlir
    %s1, %t1 = amp.update_scale %s, %t, %found_inf
        {growth_factor = 2.0 : f32, backoff_factor = 0.5 : f32,
         growth_interval = 2000 : i32} : tensor<f32>, tensor<i32>, tensor<i1>
    ```
  }];
  let arguments = (ins Amp_ScalarF32Tensor:$scale,
                       Amp_ScalarI32Tensor:$growth_tracker,
                       Amp_ScalarI1Tensor:$found_inf,
                       DefaultValuedAttr<F32Attr, "2.0">:$growth_factor,
                       DefaultValuedAttr<F32Attr, "0.5">:$backoff_factor,
                       DefaultValuedAttr<I32Attr, "2000">:$growth_interval);
  let results = (outs Amp_ScalarF32Tensor:$new_scale,
                      Amp_ScalarI32Tensor:$new_growth_tracker);
  let assemblyFormat = [{
    $scale `,` $growth_tracker `,` $found_inf attr-dict `:`
    type($scale) `,` type($growth_tracker) `,` type($found_inf)
  }];
  let hasVerifier = 1;
}

#endif // AMP_DIALECT_AMP_IR_AMPOPS_TD
