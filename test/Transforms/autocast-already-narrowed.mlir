// A step already autocast to f16 (its contractions read f16 truncf copies of
// f32 values) asked for bf16: autocast would keep those ops f16 ("already
// low") and the pipeline would pick no loss scaling (auto: none for bf16),
// silently. An error located at the cast, with a note at its reader; the
// same precision again is idempotent (no diagnostic, nothing changes).
// RUN: amp-opt %s -split-input-file -amp-autocast=precision=bf16 -verify-diagnostics
// RUN: amp-opt %s -split-input-file -amp-autocast=precision=f16 | FileCheck %s --check-prefix=SAME
// RUN: amp-opt %amp_src_root/examples/fashion-mnist/mlp.mlir -amp-autocast=precision=f16 | not amp-opt -amp-mixed-precision=precision=bf16 2>&1 | FileCheck %s --check-prefix=PIPE
// PIPE: error: amp-autocast: precision=bf16, but the input is already narrowed to f16
// With precision=f32 there is no autocast to refuse it, but loss-scale=auto
// then picks no loss scaling for a step whose contractions are f16: warned.
// RUN: amp-opt %amp_src_root/examples/fashion-mnist/mlp.mlir -amp-autocast=precision=f16 | amp-opt -amp-mixed-precision=precision=f32 -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOSCALE
// NOSCALE: warning: amp-loss-scaling: loss-scale=auto with precision=f32 picks no loss scaling, but this step already feeds '{{linalg.generic|linalg.matmul}}' f16 values (it was autocast to f16): f16 gradients can underflow; use precision=f16 (auto: dynamic) or loss-scale=dynamic
// SAME-LABEL: func.func @autocast_f16
// SAME-COUNT-2: arith.truncf
// SAME-NOT: bf16

func.func @autocast_f16(%x: tensor<4x8xf32>, %w: tensor<8x2xf32>) -> tensor<4x2xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x2xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<4x2xf32>) -> tensor<4x2xf32>
  // expected-error @+1 {{amp-autocast: precision=bf16, but the input is already narrowed to f16 (this cast feeds 'linalg.matmul'); autocast would keep those ops in f16 and loss scaling would not be chosen for them: autocast the fp32 step instead, or use precision=f16}}
  %xl = arith.truncf %x : tensor<4x8xf32> to tensor<4x8xf16>
  %wl = arith.truncf %w : tensor<8x2xf32> to tensor<8x2xf16>
  // expected-note @+1 {{read here}}
  %y = linalg.matmul ins(%xl, %wl : tensor<4x8xf16>, tensor<8x2xf16>) outs(%acc : tensor<4x2xf32>) -> tensor<4x2xf32>
  return %y : tensor<4x2xf32>
}
