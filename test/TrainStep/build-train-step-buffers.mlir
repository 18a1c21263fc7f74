// RUN: amp-opt %s --amp-build-train-step="loss=mse" -verify-diagnostics | FileCheck %s
// RUN: amp-opt %s --amp-build-train-step="loss=mse params=constants,blk.mask" 2>&1 | FileCheck %s --check-prefix=NAMED
// Buffers are not weights: by default a float constant whose values are
// only 0 and one negative number of magnitude >= 1e4 (an additive attention
// mask: -1e4, -1e9, torch.finfo.min) or that holds +-inf or NaN stays a
// constant, with a remark naming it; params= trains it when named. A
// constant that merely holds zeros and a large value, all zeros (a bias
// initialised to zero) or an elided blob (no values to look at) is trained
// as before.
#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
module {
func.func @forward(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  // expected-remark @+1 {{amp-build-train-step: constant 'blk.mask' stays a constant: its values are only 0 and -1e+09, an additive mask (not trained; name it in params= to train it)}}
  %mask = arith.constant dense_resource<blk.mask> : tensor<4xf32>
  // expected-remark @+1 {{amp-build-train-step: this constant stays a constant: it holds -inf (element 1), which no weight holds (a mask or a sentinel, not trained; name it in params= to train it)}}
  %ninf = arith.constant dense<[0.0, 0xFF800000, 0.0, 0xFF800000]> : tensor<4xf32>
  // expected-remark @+1 {{amp-build-train-step: this constant stays a constant: it holds NaN (element 0)}}
  %nan = arith.constant dense<0x7FC00000> : tensor<4xf32>
  %big = arith.constant dense<[0.0, -2.0e4, 1.0, 0.0]> : tensor<4xf32>
  %zeros = arith.constant dense<0.0> : tensor<4xf32>
  %el = arith.constant dense_resource<__elided__> : tensor<4xf32>
  %e = tensor.empty() : tensor<2x4xf32>
  %y = linalg.generic {indexing_maps = [#id, #col, #col, #col, #col, #col, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %mask, %ninf, %nan, %big, %zeros, %el : tensor<2x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<2x4xf32>) {
  ^bb0(%a: f32, %m: f32, %i: f32, %n: f32, %b: f32, %z: f32, %g: f32, %o: f32):
    %r0 = arith.mulf %a, %g : f32
    %r1 = arith.addf %r0, %m : f32
    %r2 = arith.addf %r1, %i : f32
    %r3 = arith.mulf %r2, %n : f32
    %r4 = arith.addf %r3, %b : f32
    %r5 = arith.addf %r4, %z : f32
    linalg.yield %r5 : f32
  } -> tensor<2x4xf32>
  return %y : tensor<2x4xf32>
}
}
{-#
  dialect_resources: {
    builtin: {
      blk.mask: "0x040000000000000000000000286B6ECE286B6ECE"
    }
  }
#-}
// CHECK-LABEL: func.func @train_step(
// CHECK-SAME: {amp.initial_value = dense<[0.000000e+00, -2.000000e+04, 1.000000e+00, 0.000000e+00]> : tensor<4xf32>, amp.role = "param"},
// CHECK-SAME: {amp.initial_value = dense<0.000000e+00> : tensor<4xf32>, amp.role = "param"},
// CHECK-SAME: {amp.elided_at = {{loc\("[^"]*":[0-9]+:[0-9]+\)}}, amp.initial_value = dense_resource<__elided__> : tensor<4xf32>, amp.role = "param"},
// CHECK-SAME: {amp.role = "opt_state"}
// CHECK-NOT: amp.role = "param"
// CHECK-DAG: arith.constant dense_resource<blk.mask> : tensor<4xf32>
// CHECK-DAG: arith.constant dense<[0.000000e+00, 0xFF800000, 0.000000e+00, 0xFF800000]> : tensor<4xf32>
// CHECK-DAG: arith.constant dense<0x7FC00000> : tensor<4xf32>

// NAMED-NOT: remark: amp-build-train-step: constant 'blk.mask'
// NAMED: remark: amp-build-train-step: this constant stays a constant: it holds -inf
// NAMED-LABEL: func.func @train_step(
// NAMED-SAME: {amp.initial_value = dense_resource<blk.mask> : tensor<4xf32>, amp.role = "param"}
