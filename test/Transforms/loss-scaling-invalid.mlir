// RUN: amp-opt %s -split-input-file -amp-loss-scaling -verify-diagnostics

// expected-error @+1 {{training step 'already_scaled' is already loss-scaled (argument #3 has amp.role = "loss_scale"); run amp-loss-scaling once}}
func.func @already_scaled(%w: tensor<4xf32> {amp.role = "param"},
              %x: tensor<2x4xf32> {amp.role = "input"},
              %y: tensor<2xi32> {amp.role = "label"},
              %s: tensor<f32> {amp.role = "loss_scale"})
    -> (tensor<f32> {amp.role = "loss"}, tensor<4xf32> {amp.updates = 0 : i64})
    attributes {amp.train_step} {
  %loss = tensor.extract_slice %w[0] [1] [1] : tensor<4xf32> to tensor<f32>
  return %loss, %w : tensor<f32>, tensor<4xf32>
}

// -----

// A result other than the updated state must not depend on the gradients:
// it could not be skipped on overflow. Here the returned loss does.
// expected-error @+1 {{result #0 depends on the gradients but is not an amp.updates result}}
func.func @grad_escapes(%w: tensor<4xf32> {amp.role = "param"},
              %x: tensor<2x4xf32> {amp.role = "input"},
              %y: tensor<2xi32> {amp.role = "label"})
    -> (tensor<f32> {amp.role = "loss"}, tensor<4xf32> {amp.updates = 0 : i64})
    attributes {amp.train_step} {
  %loss = tensor.extract_slice %w[0] [1] [1] : tensor<4xf32> to tensor<f32>
  %seed = amp.loss_grad %loss : tensor<f32>
  %s = tensor.extract %seed[] : tensor<f32>
  %dw = tensor.splat %s : tensor<4xf32>
  %g = amp.grad %dw, %w : tensor<4xf32>
  %w1 = arith.subf %w, %g : tensor<4xf32>
  %gl = tensor.extract_slice %g[0] [1] [1] : tensor<4xf32> to tensor<f32>
  %loss2 = arith.addf %loss, %gl : tensor<f32>
  return %loss2, %w1 : tensor<f32>, tensor<4xf32>
}

// -----

// The gradient marker must be at the top level so that unscale, check and
// update happen once per step.
func.func @grad_in_loop(%w: tensor<4xf32> {amp.role = "param"},
              %x: tensor<2x4xf32> {amp.role = "input"},
              %y: tensor<2xi32> {amp.role = "label"})
    -> (tensor<f32> {amp.role = "loss"}, tensor<4xf32> {amp.updates = 0 : i64})
    attributes {amp.train_step} {
  %loss = tensor.extract_slice %w[0] [1] [1] : tensor<4xf32> to tensor<f32>
  %seed = amp.loss_grad %loss : tensor<f32>
  %s = tensor.extract %seed[] : tensor<f32>
  %dw = tensor.splat %s : tensor<4xf32>
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %c2 step %c1 iter_args(%acc = %w) -> tensor<4xf32> {
    // expected-error @+1 {{amp.grad must be at the top level of the training step (after any micro-batch loop)}}
    %g = amp.grad %dw, %w : tensor<4xf32>
    %a = arith.subf %acc, %g : tensor<4xf32>
    scf.yield %a : tensor<4xf32>
  }
  return %loss, %r : tensor<f32>, tensor<4xf32>
}

// -----

// A second run on a statically scaled step.
// expected-error @+1 {{training step 'static_scaled' is already loss-scaled (result #2 has amp.role = "found_inf"); run amp-loss-scaling once}}
func.func @static_scaled(%w: tensor<4xf32> {amp.role = "param"},
              %x: tensor<2x4xf32> {amp.role = "input"},
              %y: tensor<2xi32> {amp.role = "label"})
    -> (tensor<f32> {amp.role = "loss"}, tensor<4xf32> {amp.updates = 0 : i64},
        tensor<i1> {amp.role = "found_inf"})
    attributes {amp.train_step} {
  %loss = tensor.extract_slice %w[0] [1] [1] : tensor<4xf32> to tensor<f32>
  %f = arith.constant dense<false> : tensor<i1>
  return %loss, %w, %f : tensor<f32>, tensor<4xf32>, tensor<i1>
}

// -----

// expected-error @+1 {{amp-loss-scaling: no func.func with the amp.train_step attribute}}
module {
  func.func @not_a_step(%a: tensor<4xf32>) -> tensor<4xf32> {
    return %a : tensor<4xf32>
  }
}

// -----

// The contract check at the start of the pass rejects a clip factor
// computed from the raw (scaled) gradient.
func.func @clip_on_raw_gradient(%w: tensor<4xf32> {amp.role = "param"},
              %x: tensor<2x4xf32> {amp.role = "input"},
              %y: tensor<2xi32> {amp.role = "label"})
    -> (tensor<f32> {amp.role = "loss"}, tensor<4xf32> {amp.updates = 0 : i64})
    attributes {amp.train_step} {
  %loss = tensor.extract_slice %w[0] [1] [1] : tensor<4xf32> to tensor<f32>
  // expected-note @+1 {{backward seed here}}
  %seed = amp.loss_grad %loss : tensor<f32>
  %s = tensor.extract %seed[] : tensor<f32>
  %dw = tensor.splat %s : tensor<4xf32>
  %g = amp.grad %dw, %w : tensor<4xf32>
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{this op uses a value derived from the backward seed (multiplied by the loss scale S under loss scaling) outside the backward}}
  %n = tensor.extract %dw[%c0] : tensor<4xf32>
  %ns = tensor.splat %n : tensor<4xf32>
  %cg = arith.divf %g, %ns : tensor<4xf32>
  %w1 = arith.subf %w, %cg : tensor<4xf32>
  return %loss, %w1 : tensor<f32>, tensor<4xf32>
}
