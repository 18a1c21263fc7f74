// batch= with loss=none: the model's own loss is a reduction over the batch
// it was traced at (here a mean that divides by 2 x 3), which re-batching
// cannot follow; refused up front, saying what to do (the refusal named an
// operand "that does not derive from the input" before).
// RUN: amp-opt %s --amp-build-train-step="loss=none batch=8" -verify-diagnostics -o /dev/null

// expected-error @+1 {{amp-build-train-step: batch= with loss=none: @forward returns its own loss, a reduction over the batch it was traced at, and re-batching follows the batch only to an output that keeps it in dimension 0; build the step at the exported batch, or export the model without its loss and use loss=mse or loss=softmax-cross-entropy}}
func.func @forward(%x: tensor<2x3xf32>, %t: tensor<2x3xf32>) -> tensor<f32> {
  %w = arith.constant dense<[0.5, -0.25, 0.75]> : tensor<3xf32>
  %six = arith.constant 6.0 : f32
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %l = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%x, %w, %t : tensor<2x3xf32>, tensor<3xf32>, tensor<2x3xf32>) outs(%z : tensor<f32>) {
  ^bb0(%a: f32, %b: f32, %c: f32, %o: f32):
    %p = arith.mulf %a, %b : f32
    %d = arith.subf %p, %c : f32
    %s = arith.mulf %d, %d : f32
    %q = arith.divf %s, %six : f32
    %r = arith.addf %o, %q : f32
    linalg.yield %r : f32
  } -> tensor<f32>
  return %l : tensor<f32>
}
