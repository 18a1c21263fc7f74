// RUN: amp-opt %s --split-input-file --amp-build-train-step="loss=none" -verify-diagnostics

// loss=none needs a scalar loss.
func.func @logits(%x: tensor<4x2xf32>) -> tensor<4x2xf32> {
  %w = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %e = tensor.empty() : tensor<4x2xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %w : tensor<4x2xf32>, tensor<2xf32>) outs(%e : tensor<4x2xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.mulf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<4x2xf32>
  // expected-error @+1 {{amp-build-train-step: loss=none needs the model to return its loss as one tensor<f32>, got 'tensor<4x2xf32>'; for logits use loss=softmax-cross-entropy, for a regression output loss=mse}}
  return %y : tensor<4x2xf32>
}

// -----

// A named parameter (params= is a list; here an f64 argument) must be an
// fp32 master weight. The f64 loss is refused first, on the return.
func.func @f64_loss(%x: tensor<4xf32>, %w: tensor<4xf64>) -> tensor<f64> {
  %zero = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<f64>
  %f = linalg.fill ins(%zero : f64) outs(%e : tensor<f64>) -> tensor<f64>
  %l = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]}
      ins(%w : tensor<4xf64>) outs(%f : tensor<f64>) {
  ^bb0(%a: f64, %acc: f64):
    %r = arith.addf %a, %acc : f64
    linalg.yield %r : f64
  } -> tensor<f64>
  // expected-error @+1 {{amp-build-train-step: loss=none needs the model to return its loss as one tensor<f32>, got 'tensor<f64>'}}
  return %l : tensor<f64>
}
