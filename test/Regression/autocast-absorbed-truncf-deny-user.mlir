// Regression (found by amp-robustness, random function seeds 658 and 996):
// amp-autocast{precision=bf16} absorbs an existing `arith.truncf x to bf16`
// when x itself becomes bf16. A deny-class user of the truncf (a bf16
// linalg.reduce in the input) then had its operand "restored" to the f32
// version of x, i.e. a bf16 reduce with an f32 input, which does not
// verify. The users of an absorbed truncf keep reading the low value.
// RUN: amp-opt %s -amp-autocast=precision=bf16 | FileCheck %s

// CHECK-LABEL: func.func @absorbed
// CHECK-SAME: (%[[A:.*]]: tensor<4x4xf32>, %[[W:.*]]: tensor<2x2xf32>)
// CHECK: %[[A16:.*]] = arith.truncf %[[A]] : tensor<4x4xf32> to tensor<4x4xbf16>
// CHECK: %[[S:.*]] = tensor.extract_slice %[[A16]][0, 0] [2, 2] [1, 1] : tensor<4x4xbf16> to tensor<2x2xbf16>
// CHECK: linalg.matmul ins(%[[S]], %{{.*}} : tensor<2x2xbf16>, tensor<2x2xbf16>)
// CHECK: linalg.reduce ins(%[[S]] : tensor<2x2xbf16>) outs(%{{.*}} : tensor<2xbf16>)
// CHECK-NOT: arith.truncf %{{.*}} : tensor<2x2xf32> to tensor<2x2xbf16>
func.func @absorbed(%a: tensor<4x4xf32>, %w: tensor<2x2xf32>)
    -> (tensor<2x2xf32>, tensor<2xbf16>) {
  %s = tensor.extract_slice %a[0, 0] [2, 2] [1, 1] : tensor<4x4xf32> to tensor<2x2xf32>
  %e = tensor.empty() : tensor<2x2xf32>
  %z = arith.constant 0.0 : f32
  %init = linalg.fill ins(%z : f32) outs(%e : tensor<2x2xf32>) -> tensor<2x2xf32>
  %m = linalg.matmul ins(%s, %w : tensor<2x2xf32>, tensor<2x2xf32>) outs(%init : tensor<2x2xf32>) -> tensor<2x2xf32>
  %t = arith.truncf %s : tensor<2x2xf32> to tensor<2x2xbf16>
  %re = tensor.empty() : tensor<2xbf16>
  %rz = arith.constant 0.0 : bf16
  %rinit = linalg.fill ins(%rz : bf16) outs(%re : tensor<2xbf16>) -> tensor<2xbf16>
  %r = linalg.reduce ins(%t : tensor<2x2xbf16>) outs(%rinit : tensor<2xbf16>) dimensions = [1]
    (%in: bf16, %acc: bf16) {
      %sum = arith.addf %in, %acc : bf16
      linalg.yield %sum : bf16
    }
  return %m, %r : tensor<2x2xf32>, tensor<2xbf16>
}

// Seed 996: the user of the absorbed truncf is func.return (types kept), which
// returned the f32 version through a bf16 result.
// CHECK-LABEL: func.func @returned
// CHECK: %[[X:.*]] = arith.sitofp %{{.*}} : tensor<1xi32> to tensor<1xbf16>
// CHECK: %[[G:.*]] = linalg.generic
// CHECK: return %[[X]], %[[G]] : tensor<1xbf16>, tensor<1xbf16>
func.func @returned(%a: tensor<1xi32>) -> (tensor<1xbf16>, tensor<1xbf16>) {
  %x = arith.sitofp %a : tensor<1xi32> to tensor<1xf32>
  %t = arith.truncf %x : tensor<1xf32> to tensor<1xbf16>
  %e = tensor.empty() : tensor<1xbf16>
  %g = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%t, %t : tensor<1xbf16>, tensor<1xbf16>) outs(%e : tensor<1xbf16>) {
  ^bb0(%in0: bf16, %in1: bf16, %out: bf16):
    %p = arith.mulf %in0, %in1 : bf16
    %q = math.tanh %p : bf16
    linalg.yield %q : bf16
  } -> tensor<1xbf16>
  return %t, %g : tensor<1xbf16>, tensor<1xbf16>
}
