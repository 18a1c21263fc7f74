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
def Amp_ScalarI64Tensor : 0DTensorOf<[I64]>, BuildableType<
    "::mlir::RankedTensorType::get({}, $_builder.getIntegerType(64))">;
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
    AllTypesMatch<["growth_tracker", "new_growth_tracker"]>,
    AllTypesMatch<["hysteresis_tracker", "new_hysteresis_tracker"]>]> {
  let summary = "dynamic loss-scale update (PyTorch's rule, clamps, hysteresis)";
  let description = [{
    Computes the next loss-scale state from the current one and the step's
    `found_inf` flag: PyTorch's `_amp_update_scale_` rule extended with
    min/max clamps (ONNX Runtime, Apex, DeepSpeed, Megatron) and hysteresis
    (Megatron, DeepSpeed); shared REFERENCE.md, "Dynamic scale update" and
    "Known extensions". With N = `hysteresis`:

    - found_inf: new_hysteresis_tracker = h' = min(h + 1, N);
      new_growth_tracker = 0; if h' == N (N consecutive overflowing steps
      since the scale last grew) new_scale = max(scale * backoff_factor,
      min_scale), else new_scale = scale.
    - otherwise: t = growth_tracker + 1; if t == growth_interval then
      (candidate = scale * growth_factor; new_scale = min(candidate,
      max_scale) if candidate is finite, else scale; new_growth_tracker = 0;
      new_hysteresis_tracker = 0, the hysteresis refills); else new_scale =
      scale, new_growth_tracker = t, hysteresis tracker unchanged.

    With N = 1 and the default clamps this is exactly PyTorch's rule for
    every scale in [2^-24, 2^24]. All state starts at 0 except the scale.

    Operands: `scale : tensor<f32>` (the loss scale S, always fp32),
    `growth_tracker : tensor<i32>` (consecutive clean steps),
    `hysteresis_tracker : tensor<i32>` (overflowing steps since the scale
    last grew, saturating at N), `found_inf : tensor<i1>`. Results: the new
    scale and trackers, same types. Attributes: `growth_factor` (> 1,
    default 2.0), `backoff_factor` (in (0, 1), default 0.5),
    `growth_interval` (>= 1 steps, default 2000), `hysteresis` (>= 1,
    default 1), `min_scale` and `max_scale` (0 < min_scale <= max_scale,
    finite; defaults 2^-24 and 2^24).

    ```mlir
    %s1, %t1, %h1 = amp.update_scale %s, %t, %h, %found_inf
        {growth_interval = 2000 : i32, hysteresis = 2 : i32}
        : tensor<f32>, tensor<i32>, tensor<i32>, tensor<i1>
    ```
  }];
  let arguments = (ins Amp_ScalarF32Tensor:$scale,
                       Amp_ScalarI32Tensor:$growth_tracker,
                       Amp_ScalarI32Tensor:$hysteresis_tracker,
                       Amp_ScalarI1Tensor:$found_inf,
                       DefaultValuedAttr<F32Attr, "2.0">:$growth_factor,
                       DefaultValuedAttr<F32Attr, "0.5">:$backoff_factor,
                       DefaultValuedAttr<I32Attr, "2000">:$growth_interval,
                       DefaultValuedAttr<I32Attr, "1">:$hysteresis,
                       DefaultValuedAttr<F32Attr, "5.9604644775390625e-08">:$min_scale,
                       DefaultValuedAttr<F32Attr, "16777216.0">:$max_scale);
  let results = (outs Amp_ScalarF32Tensor:$new_scale,
                      Amp_ScalarI32Tensor:$new_growth_tracker,
                      Amp_ScalarI32Tensor:$new_hysteresis_tracker);
  let assemblyFormat = [{
    $scale `,` $growth_tracker `,` $hysteresis_tracker `,` $found_inf
    attr-dict `:` type($scale) `,` type($growth_tracker) `,`
    type($hysteresis_tracker) `,` type($found_inf)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// amp.count_underflow
//===----------------------------------------------------------------------===//

def Amp_CountUnderflowOp : Amp_Op<"count_underflow", [Pure]> {
  let summary = "count fp32 values that flush to zero/subnormal in f16/bf16";
  let description = [{
    Statistics for loss scaling (Micikevicius et al. 2018, figure 3: the
    histogram of activation gradients, much of it below fp16's smallest
    normal): `flushed` is the number of elements x of `value` (an f32
    tensor) with x != 0 and finite whose rounding to `precision` (f16 or
    bf16, round to nearest even) is zero or subnormal, i.e.
    |round(x)| < smallest normal (2^-14 for f16, 2^-126 for bf16; shared
    REFERENCE.md, number formats); `nonzero` is the number of finite
    non-zero elements. Both are `tensor<i64>`. Inserted by
    `amp-instrument-underflow`; an observer that the contract check accepts
    as a use of backward values.

    ```mlir
    %flushed, %nonzero = amp.count_underflow %dz {precision = f16}
        : tensor<128x10xf32>
    ```
  }];
  let arguments = (ins RankedTensorOf<[F32]>:$value, TypeAttr:$precision);
  let results = (outs Amp_ScalarI64Tensor:$flushed,
                      Amp_ScalarI64Tensor:$nonzero);
  let assemblyFormat = "$value attr-dict `:` type($value)";
  let hasVerifier = 1;
  let builders = [
    OpBuilder<(ins "::mlir::Value":$value, "::mlir::Type":$precision), [{
      auto i64 = ::mlir::RankedTensorType::get({}, $_builder.getI64Type());
      build($_builder, $_state, i64, i64, value,
            ::mlir::TypeAttr::get(precision));
    }]>
  ];
}

#endif // AMP_DIALECT_AMP_IR_AMPOPS_TD
