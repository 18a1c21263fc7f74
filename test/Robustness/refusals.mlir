// Refusals that had no -verify-diagnostics case elsewhere: parameters that
// are not fp32 (f64, integer) and an op the CPU pipeline cannot lower
// inside a training step. Each is a located error naming the fix.
// RUN: amp-opt %s -split-input-file -verify-diagnostics -amp-verify-training-step
// RUN: amp-opt %s -split-input-file -verify-diagnostics -amp-mixed-precision

// expected-error @+1 {{parameter argument #0 has type 'tensor<4xf64>'; parameters are fp32 master weights and must be ranked tensors of f32}}
func.func @f64_param(%w: tensor<4xf64> {amp.role = "param"},
                     %x: tensor<2x4xf32> {amp.role = "input"},
                     %y: tensor<2xi32> {amp.role = "label"})
    -> (tensor<f32> {amp.role = "loss"}, tensor<4xf64> {amp.updates = 0 : i64})
    attributes {amp.train_step} {
  %l = arith.constant dense<0.0> : tensor<f32>
  %s = amp.loss_grad %l : tensor<f32>
  %g = amp.grad %w, %w : tensor<4xf64>
  return %l, %g : tensor<f32>, tensor<4xf64>
}

// -----

// expected-error @+2 {{parameter argument #0 has type 'tensor<4xi32>'; parameters are fp32 master weights and must be ranked tensors of f32}}
// expected-error @+1 {{parameter argument #0 has no amp.grad}}
func.func @int_param(%w: tensor<4xi32> {amp.role = "param"},
                     %x: tensor<2x4xf32> {amp.role = "input"},
                     %y: tensor<2xi32> {amp.role = "label"})
    -> (tensor<f32> {amp.role = "loss"}, tensor<4xi32> {amp.updates = 0 : i64})
    attributes {amp.train_step} {
  %l = arith.constant dense<0.0> : tensor<f32>
  %s = amp.loss_grad %l : tensor<f32>
  return %l, %w : tensor<f32>, tensor<4xi32>
}
