// RUN: amp-opt %s -split-input-file -amp-verify-training-step -verify-diagnostics
// The training-step contract of docs/training-step.md: every violation is a
// located error. Each case is a minimal step: loss = sum(w), dW = seed.

// A conforming step: no diagnostics.
func.func @ok(%w: tensor<4xf32> {amp.role = "param"},
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
  return %loss, %w1 : tensor<f32>, tensor<4xf32>
}

// -----

// expected-error @+1 {{training step 'missing_loss_grad' has no amp.loss_grad; the backward must start from `amp.loss_grad %loss`}}
func.func @missing_loss_grad(%w: tensor<4xf32> {amp.role = "param"},
              %x: tensor<2x4xf32> {amp.role = "input"},
              %y: tensor<2xi32> {amp.role = "label"})
    -> (tensor<f32> {amp.role = "loss"}, tensor<4xf32> {amp.updates = 0 : i64})
    attributes {amp.train_step} {
  %loss = tensor.extract_slice %w[0] [1] [1] : tensor<4xf32> to tensor<f32>
  %g = amp.grad %w, %w : tensor<4xf32>
  %w1 = arith.subf %w, %g : tensor<4xf32>
  return %loss, %w1 : tensor<f32>, tensor<4xf32>
}

// -----

func.func @two_loss_grads(%w: tensor<4xf32> {amp.role = "param"},
              %x: tensor<2x4xf32> {amp.role = "input"},
              %y: tensor<2xi32> {amp.role = "label"})
    -> (tensor<f32> {amp.role = "loss"}, tensor<4xf32> {amp.updates = 0 : i64})
    attributes {amp.train_step} {
  %loss = tensor.extract_slice %w[0] [1] [1] : tensor<4xf32> to tensor<f32>
  // expected-note @+1 {{first amp.loss_grad here}}
  %seed = amp.loss_grad %loss : tensor<f32>
  // expected-error @+1 {{second amp.loss_grad in training step 'two_loss_grads'; the backward has exactly one seed}}
  %seed2 = amp.loss_grad %loss : tensor<f32>
  %s = tensor.extract %seed2[] : tensor<f32>
  %dw = tensor.splat %s : tensor<4xf32>
  %g = amp.grad %dw, %w : tensor<4xf32>
  %w1 = arith.subf %w, %g : tensor<4xf32>
  return %loss, %w1 : tensor<f32>, tensor<4xf32>
}

// -----

func.func @grad_type_mismatch(%w: tensor<4xf32> {amp.role = "param"},
              %x: tensor<2x4xf32> {amp.role = "input"},
              %y: tensor<2xi32> {amp.role = "label"})
    -> (tensor<f32> {amp.role = "loss"}, tensor<4xf32> {amp.updates = 0 : i64})
    attributes {amp.train_step} {
  %loss = tensor.extract_slice %w[0] [1] [1] : tensor<4xf32> to tensor<f32>
  %seed = amp.loss_grad %loss : tensor<f32>
  %dw = arith.constant dense<1.0> : tensor<4xf16>
  // expected-error @+1 {{'amp.grad' op operand type 'tensor<4xf16>' differs from parameter type 'tensor<4xf32>'}}
  %g = amp.grad %dw, %w : tensor<4xf16>, tensor<4xf32>
  %w1 = arith.subf %w, %g : tensor<4xf32>
  return %loss, %w1 : tensor<f32>, tensor<4xf32>
}

// -----

func.func @param_without_grad(%w: tensor<4xf32> {amp.role = "param"},
              // expected-error @+1 {{parameter argument #1 has no amp.grad; mark its gradient with `amp.grad %g, %arg1`}}
              %b: tensor<4xf32> {amp.role = "param"},
              %x: tensor<2x4xf32> {amp.role = "input"},
              %y: tensor<2xi32> {amp.role = "label"})
    -> (tensor<f32> {amp.role = "loss"}, tensor<4xf32> {amp.updates = 0 : i64},
        tensor<4xf32> {amp.updates = 1 : i64})
    attributes {amp.train_step} {
  %loss = tensor.extract_slice %w[0] [1] [1] : tensor<4xf32> to tensor<f32>
  %seed = amp.loss_grad %loss : tensor<f32>
  %s = tensor.extract %seed[] : tensor<f32>
  %dw = tensor.splat %s : tensor<4xf32>
  %g = amp.grad %dw, %w : tensor<4xf32>
  %w1 = arith.subf %w, %g : tensor<4xf32>
  return %loss, %w1, %b : tensor<f32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// expected-error @+1 {{result #1 has amp.updates = 7, out of range: the function has 3 arguments}}
func.func @updates_out_of_range(
              // expected-error @+1 {{param argument #0 has no result with amp.updates = 0}}
              %w: tensor<4xf32> {amp.role = "param"},
              %x: tensor<2x4xf32> {amp.role = "input"},
              %y: tensor<2xi32> {amp.role = "label"})
    -> (tensor<f32> {amp.role = "loss"}, tensor<4xf32> {amp.updates = 7 : i64})
    attributes {amp.train_step} {
  %loss = tensor.extract_slice %w[0] [1] [1] : tensor<4xf32> to tensor<f32>
  %seed = amp.loss_grad %loss : tensor<f32>
  %s = tensor.extract %seed[] : tensor<f32>
  %dw = tensor.splat %s : tensor<4xf32>
  %g = amp.grad %dw, %w : tensor<4xf32>
  %w1 = arith.subf %w, %g : tensor<4xf32>
  return %loss, %w1 : tensor<f32>, tensor<4xf32>
}

// -----

// expected-error @+1 {{result #1 has amp.updates = 1, but argument #1 is the input}}
func.func @updates_input(
              // expected-error @+1 {{param argument #0 has no result with amp.updates = 0; return its new value}}
              %w: tensor<4xf32> {amp.role = "param"},
              %x: tensor<4xf32> {amp.role = "input"},
              %y: tensor<4xi32> {amp.role = "label"})
    -> (tensor<f32> {amp.role = "loss"}, tensor<4xf32> {amp.updates = 1 : i64})
    attributes {amp.train_step} {
  %loss = tensor.extract_slice %w[0] [1] [1] : tensor<4xf32> to tensor<f32>
  %seed = amp.loss_grad %loss : tensor<f32>
  %s = tensor.extract %seed[] : tensor<f32>
  %dw = tensor.splat %s : tensor<4xf32>
  %g = amp.grad %dw, %w : tensor<4xf32>
  %w1 = arith.subf %w, %g : tensor<4xf32>
  return %loss, %w1 : tensor<f32>, tensor<4xf32>
}

// -----

// expected-error @+1 {{result #1 (amp.updates = 0) has type 'tensor<3xf32>' but argument #0 has type 'tensor<4xf32>'}}
func.func @updates_type(
              // expected-error @+1 {{param argument #0 has no result with amp.updates = 0}}
              %w: tensor<4xf32> {amp.role = "param"},
              %x: tensor<2x4xf32> {amp.role = "input"},
              %y: tensor<2xi32> {amp.role = "label"})
    -> (tensor<f32> {amp.role = "loss"}, tensor<3xf32> {amp.updates = 0 : i64})
    attributes {amp.train_step} {
  %loss = tensor.extract_slice %w[0] [1] [1] : tensor<4xf32> to tensor<f32>
  %seed = amp.loss_grad %loss : tensor<f32>
  %s = tensor.extract %seed[] : tensor<f32>
  %dw = tensor.splat %s : tensor<4xf32>
  %g = amp.grad %dw, %w : tensor<4xf32>
  %w1 = tensor.extract_slice %g[0] [3] [1] : tensor<4xf32> to tensor<3xf32>
  return %loss, %w1 : tensor<f32>, tensor<3xf32>
}

// -----

// expected-error @+2 {{training step 'no_loss' needs one tensor<f32> result with amp.role = "loss"}}
// expected-error @+1 {{result #0 of training step 'no_loss' needs amp.role = "loss" or amp.updates = <argument index>}}
func.func @no_loss(%w: tensor<4xf32> {amp.role = "param"},
              %x: tensor<2x4xf32> {amp.role = "input"},
              %y: tensor<2xi32> {amp.role = "label"})
    -> (tensor<f32>, tensor<4xf32> {amp.updates = 0 : i64})
    attributes {amp.train_step} {
  %loss = tensor.extract_slice %w[0] [1] [1] : tensor<4xf32> to tensor<f32>
  %seed = amp.loss_grad %loss : tensor<f32>
  %s = tensor.extract %seed[] : tensor<f32>
  %dw = tensor.splat %s : tensor<4xf32>
  %g = amp.grad %dw, %w : tensor<4xf32>
  %w1 = arith.subf %w, %g : tensor<4xf32>
  return %loss, %w1 : tensor<f32>, tensor<4xf32>
}

// -----

// expected-error @+1 {{loss result #0 must be tensor<f32> (the loss stays fp32), got 'tensor<f16>'}}
func.func @loss_f16(%w: tensor<4xf32> {amp.role = "param"},
              %x: tensor<2x4xf32> {amp.role = "input"},
              %y: tensor<2xi32> {amp.role = "label"})
    -> (tensor<f16> {amp.role = "loss"}, tensor<4xf32> {amp.updates = 0 : i64})
    attributes {amp.train_step} {
  %l = tensor.extract_slice %w[0] [1] [1] : tensor<4xf32> to tensor<f32>
  %loss = arith.truncf %l : tensor<f32> to tensor<f16>
  %seed = amp.loss_grad %l : tensor<f32>
  %s = tensor.extract %seed[] : tensor<f32>
  %dw = tensor.splat %s : tensor<4xf32>
  %g = amp.grad %dw, %w : tensor<4xf32>
  %w1 = arith.subf %w, %g : tensor<4xf32>
  return %loss, %w1 : tensor<f16>, tensor<4xf32>
}

// -----

// expected-error @+1 {{parameter argument #0 has type 'tensor<4xf16>'; parameters are fp32 master weights and must be ranked tensors of f32}}
func.func @param_f16(%w: tensor<4xf16> {amp.role = "param"},
              %x: tensor<2x4xf32> {amp.role = "input"},
              %y: tensor<2xi32> {amp.role = "label"})
    -> (tensor<f32> {amp.role = "loss"}, tensor<4xf16> {amp.updates = 0 : i64})
    attributes {amp.train_step} {
  %loss = arith.constant dense<0.0> : tensor<f32>
  %seed = amp.loss_grad %loss : tensor<f32>
  %g = amp.grad %w, %w : tensor<4xf16>
  return %loss, %g : tensor<f32>, tensor<4xf16>
}

// -----

func.func @bad_role(%w: tensor<4xf32> {amp.role = "param"},
              // expected-error @+1 {{argument #1 of training step 'bad_role' needs amp.role = "param", "opt_state", "input", "label" or "target", got "weights"}}
              %v: tensor<4xf32> {amp.role = "weights"},
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
  return %loss, %w1 : tensor<f32>, tensor<4xf32>
}

// -----

func.func @label_float(%w: tensor<4xf32> {amp.role = "param"},
              %x: tensor<2x4xf32> {amp.role = "input"},
              // expected-error @+1 {{argument #2 with amp.role = "label" must be a rank-1 tensor of i32 or i64 class indices (one per example), got 'tensor<2xf32>'}}
              %y: tensor<2xf32> {amp.role = "label"})
    -> (tensor<f32> {amp.role = "loss"}, tensor<4xf32> {amp.updates = 0 : i64})
    attributes {amp.train_step} {
  %loss = tensor.extract_slice %w[0] [1] [1] : tensor<4xf32> to tensor<f32>
  %seed = amp.loss_grad %loss : tensor<f32>
  %s = tensor.extract %seed[] : tensor<f32>
  %dw = tensor.splat %s : tensor<4xf32>
  %g = amp.grad %dw, %w : tensor<4xf32>
  %w1 = arith.subf %w, %g : tensor<4xf32>
  return %loss, %w1 : tensor<f32>, tensor<4xf32>
}

// -----

func.func @label_batch(%w: tensor<4xf32> {amp.role = "param"},
              %x: tensor<2x4xf32> {amp.role = "input"},
              // expected-error @+1 {{label batch size 3 differs from input batch size 2}}
              %y: tensor<3xi32> {amp.role = "label"})
    -> (tensor<f32> {amp.role = "loss"}, tensor<4xf32> {amp.updates = 0 : i64})
    attributes {amp.train_step} {
  %loss = tensor.extract_slice %w[0] [1] [1] : tensor<4xf32> to tensor<f32>
  %seed = amp.loss_grad %loss : tensor<f32>
  %s = tensor.extract %seed[] : tensor<f32>
  %dw = tensor.splat %s : tensor<4xf32>
  %g = amp.grad %dw, %w : tensor<4xf32>
  %w1 = arith.subf %w, %g : tensor<4xf32>
  return %loss, %w1 : tensor<f32>, tensor<4xf32>
}

// -----

// Several inputs, an integer one (token ids) among them, and a target of
// any rank: no diagnostics.
func.func @inputs_ok(%w: tensor<4xf32> {amp.role = "param"},
              %q: tensor<2x4xf32> {amp.role = "input"},
              %ids: tensor<2x6xi64> {amp.role = "input"},
              %t: tensor<2x3x4xf32> {amp.role = "target"})
    -> (tensor<f32> {amp.role = "loss"}, tensor<4xf32> {amp.updates = 0 : i64})
    attributes {amp.train_step} {
  %loss = tensor.extract_slice %w[0] [1] [1] : tensor<4xf32> to tensor<f32>
  %seed = amp.loss_grad %loss : tensor<f32>
  %s = tensor.extract %seed[] : tensor<f32>
  %dw = tensor.splat %s : tensor<4xf32>
  %g = amp.grad %dw, %w : tensor<4xf32>
  %w1 = arith.subf %w, %g : tensor<4xf32>
  return %loss, %w1 : tensor<f32>, tensor<4xf32>
}

// -----

func.func @inputs_batch(%w: tensor<4xf32> {amp.role = "param"},
              %q: tensor<2x4xf32> {amp.role = "input"},
              // expected-error @+1 {{input argument #2 has batch size 3, input argument #1 2; dimension 0 of every input is the batch}}
              %kv: tensor<3x4xf32> {amp.role = "input"},
              %y: tensor<2xi32> {amp.role = "label"})
    -> (tensor<f32> {amp.role = "loss"}, tensor<4xf32> {amp.updates = 0 : i64})
    attributes {amp.train_step} {
  %loss = tensor.extract_slice %w[0] [1] [1] : tensor<4xf32> to tensor<f32>
  %seed = amp.loss_grad %loss : tensor<f32>
  %s = tensor.extract %seed[] : tensor<f32>
  %dw = tensor.splat %s : tensor<4xf32>
  %g = amp.grad %dw, %w : tensor<4xf32>
  %w1 = arith.subf %w, %g : tensor<4xf32>
  return %loss, %w1 : tensor<f32>, tensor<4xf32>
}

// -----

func.func @index_input(%w: tensor<4xf32> {amp.role = "param"},
              // expected-error @+1 {{argument #1 with amp.role = "input" must be a ranked float or integer tensor whose leading dimension is the batch, got 'tensor<2xindex>'}}
              %x: tensor<2xindex> {amp.role = "input"},
              %y: tensor<2xi32> {amp.role = "label"})
    -> (tensor<f32> {amp.role = "loss"}, tensor<4xf32> {amp.updates = 0 : i64})
    attributes {amp.train_step} {
  %loss = tensor.extract_slice %w[0] [1] [1] : tensor<4xf32> to tensor<f32>
  %seed = amp.loss_grad %loss : tensor<f32>
  %s = tensor.extract %seed[] : tensor<f32>
  %dw = tensor.splat %s : tensor<4xf32>
  %g = amp.grad %dw, %w : tensor<4xf32>
  %w1 = arith.subf %w, %g : tensor<4xf32>
  return %loss, %w1 : tensor<f32>, tensor<4xf32>
}

// -----

// expected-error @+1 {{training step 'no_input' needs an argument with amp.role = "input"}}
func.func @no_input(%w: tensor<4xf32> {amp.role = "param"},
              %y: tensor<2xi32> {amp.role = "label"})
    -> (tensor<f32> {amp.role = "loss"}, tensor<4xf32> {amp.updates = 0 : i64})
    attributes {amp.train_step} {
  %loss = tensor.extract_slice %w[0] [1] [1] : tensor<4xf32> to tensor<f32>
  %seed = amp.loss_grad %loss : tensor<f32>
  %s = tensor.extract %seed[] : tensor<f32>
  %dw = tensor.splat %s : tensor<4xf32>
  %g = amp.grad %dw, %w : tensor<4xf32>
  %w1 = arith.subf %w, %g : tensor<4xf32>
  return %loss, %w1 : tensor<f32>, tensor<4xf32>
}

// -----

func.func @second_label(%w: tensor<4xf32> {amp.role = "param"},
              %x: tensor<2x4xf32> {amp.role = "input"},
              %y: tensor<2xi32> {amp.role = "label"},
              // expected-error @+1 {{argument #3 is a second amp.role = "target" (first: argument #2); a training step takes one label (or target)}}
              %t: tensor<2x4xf32> {amp.role = "target"})
    -> (tensor<f32> {amp.role = "loss"}, tensor<4xf32> {amp.updates = 0 : i64})
    attributes {amp.train_step} {
  %loss = tensor.extract_slice %w[0] [1] [1] : tensor<4xf32> to tensor<f32>
  %seed = amp.loss_grad %loss : tensor<f32>
  %s = tensor.extract %seed[] : tensor<f32>
  %dw = tensor.splat %s : tensor<4xf32>
  %g = amp.grad %dw, %w : tensor<4xf32>
  %w1 = arith.subf %w, %g : tensor<4xf32>
  return %loss, %w1 : tensor<f32>, tensor<4xf32>
}

// -----

// expected-error @+1 {{training step 'no_label' needs one argument with amp.role = "label"}}
func.func @no_label(%w: tensor<4xf32> {amp.role = "param"},
              %x: tensor<2x4xf32> {amp.role = "input"})
    -> (tensor<f32> {amp.role = "loss"}, tensor<4xf32> {amp.updates = 0 : i64})
    attributes {amp.train_step} {
  %loss = tensor.extract_slice %w[0] [1] [1] : tensor<4xf32> to tensor<f32>
  %seed = amp.loss_grad %loss : tensor<f32>
  %s = tensor.extract %seed[] : tensor<f32>
  %dw = tensor.splat %s : tensor<4xf32>
  %g = amp.grad %dw, %w : tensor<4xf32>
  %w1 = arith.subf %w, %g : tensor<4xf32>
  return %loss, %w1 : tensor<f32>, tensor<4xf32>
}

// -----

func.func @grad_of_non_param(%w: tensor<4xf32> {amp.role = "param"},
              %x: tensor<2x4xf32> {amp.role = "input"},
              %y: tensor<2xi32> {amp.role = "label"})
    -> (tensor<f32> {amp.role = "loss"}, tensor<4xf32> {amp.updates = 0 : i64})
    attributes {amp.train_step} {
  %loss = tensor.extract_slice %w[0] [1] [1] : tensor<4xf32> to tensor<f32>
  %seed = amp.loss_grad %loss : tensor<f32>
  %s = tensor.extract %seed[] : tensor<f32>
  %dw = tensor.splat %s : tensor<4xf32>
  %g = amp.grad %dw, %w : tensor<4xf32>
  // expected-error @+1 {{amp.grad's second operand must be a training-step argument with amp.role = "param"}}
  %g2 = amp.grad %dw, %g : tensor<4xf32>
  %w1 = arith.subf %w, %g2 : tensor<4xf32>
  return %loss, %w1 : tensor<f32>, tensor<4xf32>
}

// -----

func.func @two_grads(%w: tensor<4xf32> {amp.role = "param"},
              %x: tensor<2x4xf32> {amp.role = "input"},
              %y: tensor<2xi32> {amp.role = "label"})
    -> (tensor<f32> {amp.role = "loss"}, tensor<4xf32> {amp.updates = 0 : i64})
    attributes {amp.train_step} {
  %loss = tensor.extract_slice %w[0] [1] [1] : tensor<4xf32> to tensor<f32>
  %seed = amp.loss_grad %loss : tensor<f32>
  %s = tensor.extract %seed[] : tensor<f32>
  %dw = tensor.splat %s : tensor<4xf32>
  // expected-note @+1 {{first amp.grad here}}
  %g = amp.grad %dw, %w : tensor<4xf32>
  // expected-error @+1 {{second amp.grad for parameter argument #0}}
  %g2 = amp.grad %dw, %w : tensor<4xf32>
  %w1 = arith.subf %w, %g2 : tensor<4xf32>
  return %loss, %w1 : tensor<f32>, tensor<4xf32>
}

// -----

// The update uses the raw (still scaled) gradient instead of amp.grad's
// result: loss scaling would hand it a gradient multiplied by S.
func.func @raw_gradient_bypass(%w: tensor<4xf32> {amp.role = "param"},
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
  // expected-error @+1 {{this op uses a value derived from the backward seed (multiplied by the loss scale S under loss scaling) outside the backward that computes the amp.grad gradients}}
  %w1 = arith.subf %w, %dw : tensor<4xf32>
  return %loss, %w1 : tensor<f32>, tensor<4xf32>
}

// -----

// A gradient computed without the seed would not be scaled by loss scaling.
func.func @gradient_without_seed(%w: tensor<4xf32> {amp.role = "param"},
              %b: tensor<4xf32> {amp.role = "param"},
              %x: tensor<2x4xf32> {amp.role = "input"},
              %y: tensor<2xi32> {amp.role = "label"})
    -> (tensor<f32> {amp.role = "loss"}, tensor<4xf32> {amp.updates = 0 : i64},
        tensor<4xf32> {amp.updates = 1 : i64})
    attributes {amp.train_step} {
  %loss = tensor.extract_slice %w[0] [1] [1] : tensor<4xf32> to tensor<f32>
  // expected-note @+1 {{backward seed here}}
  %seed = amp.loss_grad %loss : tensor<f32>
  %s = tensor.extract %seed[] : tensor<f32>
  %dw = tensor.splat %s : tensor<4xf32>
  %g = amp.grad %dw, %w : tensor<4xf32>
  // expected-error @+1 {{the gradient of parameter argument #1 does not depend on the backward seed}}
  %gb = amp.grad %w, %b : tensor<4xf32>
  %w1 = arith.subf %w, %g : tensor<4xf32>
  %b1 = arith.subf %b, %gb : tensor<4xf32>
  return %loss, %w1, %b1 : tensor<f32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// expected-error @+1 {{training step 'two_blocks' has several blocks; write its control flow with scf}}
func.func @two_blocks(%w: tensor<4xf32> {amp.role = "param"},
              %x: tensor<2x4xf32> {amp.role = "input"},
              %y: tensor<2xi32> {amp.role = "label"})
    -> (tensor<f32> {amp.role = "loss"}, tensor<4xf32> {amp.updates = 0 : i64})
    attributes {amp.train_step} {
  %loss = tensor.extract_slice %w[0] [1] [1] : tensor<4xf32> to tensor<f32>
  cf.br ^bb1(%w : tensor<4xf32>)
^bb1(%w1: tensor<4xf32>):
  return %loss, %w1 : tensor<f32>, tensor<4xf32>
}

// -----

// expected-error @+1 {{amp.eval_step function 'eval_decl' has no body}}
func.func private @eval_decl(%w: tensor<4x10xf32> {amp.role = "param"},
                             %x: tensor<128x4xf32> {amp.role = "input"})
    -> (tensor<128x10xf32> {amp.role = "logits"}) attributes {amp.eval_step}

// -----

func.func @empty_batch(%w: tensor<4xf32> {amp.role = "param"},
              // expected-error @+1 {{argument #1 with amp.role = "input" has an empty batch (dimension 0 is 0)}}
              %x: tensor<0x4xf32> {amp.role = "input"},
              %y: tensor<0xi32> {amp.role = "label"})
    -> (tensor<f32> {amp.role = "loss"}, tensor<4xf32> {amp.updates = 0 : i64})
    attributes {amp.train_step} {
  %loss = tensor.extract_slice %w[0] [1] [1] : tensor<4xf32> to tensor<f32>
  %seed = amp.loss_grad %loss : tensor<f32>
  %s = tensor.extract %seed[] : tensor<f32>
  %dw = tensor.splat %s : tensor<4xf32>
  %g = amp.grad %dw, %w : tensor<4xf32>
  %w1 = arith.subf %w, %g : tensor<4xf32>
  return %loss, %w1 : tensor<f32>, tensor<4xf32>
}

// -----

// The accumulated (still scaled) gradient of a micro-batch loop used by the
// update without amp.grad: tracked through the loop's result.
func.func @loop_result_bypass(%w: tensor<4xf32> {amp.role = "param"},
              %x: tensor<2x4xf32> {amp.role = "input"},
              %y: tensor<2xi32> {amp.role = "label"})
    -> (tensor<f32> {amp.role = "loss"}, tensor<4xf32> {amp.updates = 0 : i64})
    attributes {amp.train_step} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %loss = tensor.extract_slice %w[0] [1] [1] : tensor<4xf32> to tensor<f32>
  // expected-error @+1 {{this value is derived from the backward seed and reaches result #1 without passing through amp.grad}}
  %r = scf.for %i = %c0 to %c1 step %c1 iter_args(%acc = %w) -> tensor<4xf32> {
    // expected-note @+1 {{backward seed here}}
    %seed = amp.loss_grad %loss : tensor<f32>
    %s = tensor.extract %seed[] : tensor<f32>
    %dw = tensor.splat %s : tensor<4xf32>
    %a = arith.addf %acc, %dw : tensor<4xf32>
    scf.yield %a : tensor<4xf32>
  }
  %g = amp.grad %r, %w : tensor<4xf32>
  return %loss, %r : tensor<f32>, tensor<4xf32>
}

// -----

// Clip before unscale (shared REFERENCE.md, failure modes): the global norm
// is taken over the raw gradient, still multiplied by S under loss scaling,
// so the threshold would become max_norm / S. Rejected at the norm.
#v = affine_map<(i) -> (i)>
#r = affine_map<(i) -> ()>
func.func @clip_before_unscale(%w: tensor<4xf32> {amp.role = "param"},
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
  %zero = arith.constant dense<0.0> : tensor<f32>
  // expected-error @+1 {{this op uses a value derived from the backward seed (multiplied by the loss scale S under loss scaling) outside the backward that computes the amp.grad gradients; the update, gradient norms and clipping must use the results of `amp.grad`}}
  %n2 = linalg.generic {indexing_maps = [#v, #r], iterator_types = ["reduction"]}
      ins(%dw : tensor<4xf32>) outs(%zero : tensor<f32>) {
  ^bb0(%a: f32, %acc: f32):
    %p = arith.mulf %a, %a : f32
    %q = arith.addf %p, %acc : f32
    linalg.yield %q : f32
  } -> tensor<f32>
  %n2s = tensor.extract %n2[] : tensor<f32>
  %n = math.sqrt %n2s : f32
  %one = arith.constant 1.0 : f32
  %q = arith.divf %one, %n : f32
  %c = arith.minimumf %q, %one : f32
  %cs = tensor.splat %c : tensor<4xf32>
  %cg = arith.mulf %g, %cs : tensor<4xf32>
  %w1 = arith.subf %w, %cg : tensor<4xf32>
  return %loss, %w1 : tensor<f32>, tensor<4xf32>
}

// -----

// The seed itself used outside the backward (here: folded into the loss
// result); under loss scaling it is S.
func.func @seed_outside_backward(%w: tensor<4xf32> {amp.role = "param"},
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
  // expected-error @+1 {{this op uses amp.loss_grad (the backward seed) outside the backward that computes the amp.grad gradients}}
  %l2 = arith.mulf %loss, %seed : tensor<f32>
  %w1 = arith.subf %w, %g : tensor<4xf32>
  return %l2, %w1 : tensor<f32>, tensor<4xf32>
}

// -----

// A micro-batch accumulator of scaled gradients in f16 loses small
// contributions and overflows with S: accumulators must be f32.
func.func @f16_accumulator(%w: tensor<4xf32> {amp.role = "param"},
              %x: tensor<2x4xf32> {amp.role = "input"},
              %y: tensor<2xi32> {amp.role = "label"})
    -> (tensor<f32> {amp.role = "loss"}, tensor<4xf32> {amp.updates = 0 : i64})
    attributes {amp.train_step} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %loss = tensor.extract_slice %w[0] [1] [1] : tensor<4xf32> to tensor<f32>
  %z = arith.constant dense<0.0> : tensor<4xf16>
  // expected-error @+1 {{micro-batch accumulator #0 of scaled gradients has type 'tensor<4xf16>'; accumulate gradients in f32}}
  %r = scf.for %i = %c0 to %c2 step %c1 iter_args(%acc = %z) -> tensor<4xf16> {
    %seed = amp.loss_grad %loss : tensor<f32>
    %s = tensor.extract %seed[] : tensor<f32>
    %dw = tensor.splat %s : tensor<4xf32>
    %dh = arith.truncf %dw : tensor<4xf32> to tensor<4xf16>
    %a = arith.addf %acc, %dh : tensor<4xf16>
    scf.yield %a : tensor<4xf16>
  }
  %r32 = arith.extf %r : tensor<4xf16> to tensor<4xf32>
  %g = amp.grad %r32, %w : tensor<4xf32>
  %w1 = arith.subf %w, %g : tensor<4xf32>
  return %loss, %w1 : tensor<f32>, tensor<4xf32>
}

// -----

// A gradient norm over amp.grad results (clip after unscale) and a second
// use of a backward value inside the backward are fine; so is the
// amp.count_underflow observer.
#v2 = affine_map<(i) -> (i)>
#r2 = affine_map<(i) -> ()>
func.func @clip_after_unscale(%w: tensor<4xf32> {amp.role = "param"},
              %x: tensor<2x4xf32> {amp.role = "input"},
              %y: tensor<2xi32> {amp.role = "label"})
    -> (tensor<f32> {amp.role = "loss"}, tensor<4xf32> {amp.updates = 0 : i64})
    attributes {amp.train_step} {
  %loss = tensor.extract_slice %w[0] [1] [1] : tensor<4xf32> to tensor<f32>
  %seed = amp.loss_grad %loss : tensor<f32>
  %s = tensor.extract %seed[] : tensor<f32>
  %d = tensor.splat %s : tensor<4xf32>
  %dw = arith.addf %d, %d : tensor<4xf32>
  %n0, %n1 = amp.count_underflow %dw {precision = f16} : tensor<4xf32>
  %g = amp.grad %dw, %w : tensor<4xf32>
  %zero = arith.constant dense<0.0> : tensor<f32>
  %n2 = linalg.generic {indexing_maps = [#v2, #r2], iterator_types = ["reduction"]}
      ins(%g : tensor<4xf32>) outs(%zero : tensor<f32>) {
  ^bb0(%a: f32, %acc: f32):
    %p = arith.mulf %a, %a : f32
    %q = arith.addf %p, %acc : f32
    linalg.yield %q : f32
  } -> tensor<f32>
  %n2s = tensor.extract %n2[] : tensor<f32>
  %n = math.sqrt %n2s : f32
  %one = arith.constant 1.0 : f32
  %q = arith.divf %one, %n : f32
  %c = arith.minimumf %q, %one : f32
  %cs = tensor.splat %c : tensor<4xf32>
  %cg = arith.mulf %g, %cs : tensor<4xf32>
  %w1 = arith.subf %w, %cg : tensor<4xf32>
  return %loss, %w1 : tensor<f32>, tensor<4xf32>
}

// -----

// A seed-derived value that nothing uses (an input gradient an autodiff tool
// produced) is dead code, not an escape: accepted.
func.func @dead_input_gradient(%w: tensor<4xf32> {amp.role = "param"},
              %x: tensor<2x4xf32> {amp.role = "input"},
              %y: tensor<2xi32> {amp.role = "label"})
    -> (tensor<f32> {amp.role = "loss"}, tensor<4xf32> {amp.updates = 0 : i64})
    attributes {amp.train_step} {
  %loss = tensor.extract_slice %w[0] [1] [1] : tensor<4xf32> to tensor<f32>
  %seed = amp.loss_grad %loss : tensor<f32>
  %s = tensor.extract %seed[] : tensor<f32>
  %dw = tensor.splat %s : tensor<4xf32>
  %dx = arith.mulf %dw, %w : tensor<4xf32>
  %dx2 = arith.addf %dx, %dx : tensor<4xf32>
  %g = amp.grad %dw, %w : tensor<4xf32>
  %w1 = arith.subf %w, %g : tensor<4xf32>
  return %loss, %w1 : tensor<f32>, tensor<4xf32>
}

// -----

// L2 weight decay added to the raw gradient (dW + 0.5 * w): the decay term
// does not depend on the seed, so unscaling would divide it by S. An error
// on the addition, with the fix.
func.func @weight_decay_on_raw_gradient(%w: tensor<4xf32> {amp.role = "param"},
              %x: tensor<2x4xf32> {amp.role = "input"},
              %y: tensor<2xi32> {amp.role = "label"})
    -> (tensor<f32> {amp.role = "loss"}, tensor<4xf32> {amp.updates = 0 : i64})
    attributes {amp.train_step} {
  %loss = tensor.extract_slice %w[0] [1] [1] : tensor<4xf32> to tensor<f32>
  // expected-note @+1 {{backward seed here}}
  %seed = amp.loss_grad %loss : tensor<f32>
  %s = tensor.extract %seed[] : tensor<f32>
  %dw = tensor.splat %s : tensor<4xf32>
  %half = arith.constant dense<0.5> : tensor<4xf32>
  %decay = arith.mulf %w, %half : tensor<4xf32>
  // expected-error @+1 {{this addition in the backward combines a value derived from the backward seed (multiplied by the loss scale S under loss scaling) with operand #1, a term that does not depend on the seed: unscaling the gradient would divide that term by S (e.g. L2 weight decay added to the raw gradient); apply weight decay in the update on the unscaled gradient (the result of `amp.grad`), or scale the term by the loss scale}}
  %raw = arith.addf %dw, %decay : tensor<4xf32>
  %g = amp.grad %raw, %w : tensor<4xf32>
  %w1 = arith.subf %w, %g : tensor<4xf32>
  return %loss, %w1 : tensor<f32>, tensor<4xf32>
}

// -----

// The same inside a linalg.generic body (the decay term is a block argument
// of a seed-free operand), as a subtraction.
#id = affine_map<(d0) -> (d0)>
func.func @weight_decay_in_generic(%w: tensor<4xf32> {amp.role = "param"},
              %x: tensor<2x4xf32> {amp.role = "input"},
              %y: tensor<2xi32> {amp.role = "label"})
    -> (tensor<f32> {amp.role = "loss"}, tensor<4xf32> {amp.updates = 0 : i64})
    attributes {amp.train_step} {
  %loss = tensor.extract_slice %w[0] [1] [1] : tensor<4xf32> to tensor<f32>
  // expected-note @+1 {{backward seed here}}
  %seed = amp.loss_grad %loss : tensor<f32>
  %s = tensor.extract %seed[] : tensor<f32>
  %dw = tensor.splat %s : tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %raw = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%dw, %w : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%d: f32, %p: f32, %o: f32):
    %c = arith.constant 0.5 : f32
    %t = arith.mulf %p, %c : f32
    // expected-error @+1 {{this subtraction in the backward combines a value derived from the backward seed (multiplied by the loss scale S under loss scaling) with operand #1, a term that does not depend on the seed}}
    %r = arith.subf %d, %t : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %g = amp.grad %raw, %w : tensor<4xf32>
  %w1 = arith.subf %w, %g : tensor<4xf32>
  return %loss, %w1 : tensor<f32>, tensor<4xf32>
}

// -----

// Weight decay in the update, on the unscaled gradient: accepted. So are a
// micro-batch accumulator that starts at zero (acc + g: both seed-derived
// from the first iteration on), a contraction accumulating into a zero fill,
// and adding two seed-derived terms.
#id = affine_map<(d0) -> (d0)>
#red = affine_map<(d0) -> ()>
func.func @weight_decay_in_update(%w: tensor<4xf32> {amp.role = "param"},
              %x: tensor<2x4xf32> {amp.role = "input"},
              %y: tensor<2xi32> {amp.role = "label"})
    -> (tensor<f32> {amp.role = "loss"}, tensor<4xf32> {amp.updates = 0 : i64})
    attributes {amp.train_step} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %loss0 = tensor.extract_slice %w[0] [1] [1] : tensor<4xf32> to tensor<f32>
  %acc:2 = scf.for %i = %c0 to %c2 step %c1 iter_args(%a = %z, %l = %loss0) -> (tensor<4xf32>, tensor<f32>) {
    %seed = amp.loss_grad %loss0 : tensor<f32>
    %s = tensor.extract %seed[] : tensor<f32>
    %dw = tensor.splat %s : tensor<4xf32>
    %twice = arith.addf %dw, %dw : tensor<4xf32>
    %a1 = arith.addf %a, %twice : tensor<4xf32>
    scf.yield %a1, %l : tensor<4xf32>, tensor<f32>
  }
  %e0 = tensor.empty() : tensor<f32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %sum = linalg.generic {indexing_maps = [#id, #red], iterator_types = ["reduction"]}
      ins(%acc#0 : tensor<4xf32>) outs(%z0 : tensor<f32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.addf %v, %o : f32
    linalg.yield %r : f32
  } -> tensor<f32>
  %ss = tensor.extract %sum[] : tensor<f32>
  %sv = tensor.splat %ss : tensor<4xf32>
  %raw = arith.addf %acc#0, %sv : tensor<4xf32>
  %g = amp.grad %raw, %w : tensor<4xf32>
  %half = arith.constant dense<0.5> : tensor<4xf32>
  %decay = arith.mulf %w, %half : tensor<4xf32>
  %gd = arith.addf %g, %decay : tensor<4xf32>
  %w1 = arith.subf %w, %gd : tensor<4xf32>
  return %acc#1, %w1 : tensor<f32>, tensor<4xf32>
}
