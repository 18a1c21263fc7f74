// RUN: amp-opt %s --split-input-file --amp-build-train-step="params=1,w.bias" -verify-diagnostics

// A params entry that names no dense_resource constant.
// expected-error @+1 {{amp-build-train-step: params entry 'w.bias' is neither constants, arguments, an argument index nor the key of a dense_resource constant of @missing_key}}
func.func @missing_key(%x: tensor<4x3xf32>, %w: tensor<3x2xf32>) -> tensor<4x2xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x2xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x2xf32>) -> tensor<4x2xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<4x3xf32>, tensor<3x2xf32>) outs(%f : tensor<4x2xf32>) -> tensor<4x2xf32>
  return %mm : tensor<4x2xf32>
}

// -----

// A named parameter argument the output does not depend on, and one that is
// not an fp32 tensor.
func.func @unused(%x: tensor<4x2xf32>,
                  // expected-error @+1 {{amp-build-train-step: argument #1 of @unused is a parameter, but the output does not depend on it; it would never change (drop it from params=)}}
                  %w: tensor<2xf32>) -> tensor<4x2xf32> {
  %b = arith.constant dense_resource<w.bias> : tensor<2xf32>
  %e = tensor.empty() : tensor<4x2xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %b : tensor<4x2xf32>, tensor<2xf32>) outs(%e : tensor<4x2xf32>) {
  ^bb0(%a: f32, %bb: f32, %o: f32):
    %r = arith.addf %a, %bb : f32
    linalg.yield %r : f32
  } -> tensor<4x2xf32>
  return %y : tensor<4x2xf32>
}

// -----

func.func @f16_weight(%x: tensor<4x2xf32>,
                      // expected-error @+1 {{amp-build-train-step: argument #1 of @f16_weight has type 'tensor<2xf16>' and cannot be a parameter: parameters are fp32 master weights: ranked tensors of f32}}
                      %w: tensor<2xf16>) -> tensor<4x2xf32> {
  %b = arith.constant dense_resource<w.bias> : tensor<2xf32>
  return %x : tensor<4x2xf32>
}
