// A tosa.clamp that autocast runs in f16 takes f16 bounds. A bound that
// flushes to zero (min_val 1e-9 guarding a log) or overflows (max_val 1e5)
// changes the op, so each gets a located warning naming the attribute; the
// +-FLT_MAX of a TOSA ReLU ("no bound") becomes +-inf silently. Found by a
// new user's break-it pass: the bounds were narrowed without a word.
// RUN: amp-opt %s -amp-autocast -verify-diagnostics | FileCheck %s
// RUN: amp-opt %s -amp-autocast -o /dev/null 2>&1 | FileCheck %s --check-prefix=SHORT
// SHORT-NOT: see current operation

// CHECK-LABEL: func @clamp_bounds
// CHECK: tosa.clamp %{{.*}} {max_val = 0x7C00 : f16, min_val = 0.000000e+00 : f16}
// CHECK: tosa.clamp %{{.*}} {max_val = 0x7C00 : f16, min_val = 0.000000e+00 : f16}
// CHECK: tosa.clamp %{{.*}} {max_val = 6.000000e+00 : f16, min_val = 0.000000e+00 : f16}
// CHECK: tosa.clamp %{{.*}} {max_val = 6.000000e+00 : f16, min_val = 0xFC00 : f16}
func.func @clamp_bounds(%a: tensor<1x4x8xf32>, %b: tensor<1x8x4xf32>, %w2: tensor<1x4x4xf32>) -> tensor<1x4x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %m = tosa.matmul %a, %b, %zp, %zp : (tensor<1x4x8xf32>, tensor<1x8x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4xf32>
  // expected-warning @+2 {{amp-autocast: attribute 'max_val' of 'tosa.clamp', value 1.000000e+05 overflows 'f16' and becomes inf (largest finite f16: 65504)}}
  // expected-warning @+1 {{amp-autocast: attribute 'min_val' of 'tosa.clamp', value 1.000000e-09 flushes to zero in 'f16'}}
  %c = tosa.clamp %m {min_val = 1.0e-9 : f32, max_val = 1.0e5 : f32} : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  %r = tosa.clamp %c {min_val = 0.0 : f32, max_val = 3.4028235e38 : f32} : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  %r6 = tosa.clamp %r {min_val = 0.0 : f32, max_val = 6.0 : f32} : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  // expected-warning @+1 {{amp-autocast: attribute 'min_val' of 'tosa.clamp', value -1.000000e+05 overflows 'f16' and becomes -inf}}
  %n = tosa.clamp %r6 {min_val = -1.0e5 : f32, max_val = 6.0 : f32} : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  %m2 = tosa.matmul %n, %w2, %zp, %zp : (tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4xf32>
  return %m2 : tensor<1x4x4xf32>
}
