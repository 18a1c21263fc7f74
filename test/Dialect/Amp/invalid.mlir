// RUN: amp-opt %s -split-input-file -verify-diagnostics

func.func @grad_type_mismatch(%dw: tensor<4xf16>, %w: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'amp.grad' op operand type 'tensor<4xf16>' differs from parameter type 'tensor<4xf32>'; gradients of fp32 master weights must have the parameter's type}}
  %g = amp.grad %dw, %w : tensor<4xf16>, tensor<4xf32>
  return %g : tensor<4xf32>
}

// -----

func.func @grad_shape_mismatch(%dw: tensor<3xf32>, %w: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{operand type 'tensor<3xf32>' differs from parameter type 'tensor<4xf32>'}}
  %g = amp.grad %dw, %w : tensor<3xf32>, tensor<4xf32>
  return %g : tensor<4xf32>
}

// -----

func.func @grad_not_float(%dw: tensor<4xi32>, %w: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{operand #0 must be ranked tensor of floating-point values}}
  %g = amp.grad %dw, %w : tensor<4xi32>
  return %g : tensor<4xi32>
}

// -----

func.func @loss_grad_not_scalar(%loss: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{operand #0 must be 0D tensor of 32-bit float values}}
  %s = amp.loss_grad %loss : tensor<4xf32>
  return %s : tensor<4xf32>
}

// -----

func.func @loss_grad_f16(%loss: tensor<f16>) -> tensor<f16> {
  // expected-error @+1 {{operand #0 must be 0D tensor of 32-bit float values}}
  %s = amp.loss_grad %loss : tensor<f16>
  return %s : tensor<f16>
}

// -----

func.func @unscale_no_grads(%inv: tensor<f32>) -> tensor<i1> {
  // expected-error @+1 {{expects at least one gradient}}
  %f = "amp.unscale_and_check"(%inv) : (tensor<f32>) -> tensor<i1>
  return %f : tensor<i1>
}

// -----

func.func @unscale_result_type(%g: tensor<4xf32>, %inv: tensor<f32>) -> tensor<i1> {
  // expected-error @+1 {{'amp.unscale_and_check' op unscaled result #0 has type 'tensor<3xf32>' but gradient #0 has type 'tensor<4xf32>'}}
  %u, %f = "amp.unscale_and_check"(%g, %inv) : (tensor<4xf32>, tensor<f32>) -> (tensor<3xf32>, tensor<i1>)
  return %f : tensor<i1>
}

// -----

func.func @unscale_inv_scale_f16(%g: tensor<4xf32>, %inv: tensor<f16>) -> tensor<i1> {
  // expected-error @+1 {{operand #1 must be 0D tensor of 32-bit float values}}
  %u, %f = "amp.unscale_and_check"(%g, %inv) : (tensor<4xf32>, tensor<f16>) -> (tensor<4xf32>, tensor<i1>)
  return %f : tensor<i1>
}

// -----

func.func @update_scale_growth(%s: tensor<f32>, %t: tensor<i32>, %h: tensor<i32>, %f: tensor<i1>) -> tensor<f32> {
  // expected-error @+1 {{growth_factor must be finite and > 1, got 1}}
  %s1, %t1, %h1 = amp.update_scale %s, %t, %h, %f {growth_factor = 1.0 : f32} : tensor<f32>, tensor<i32>, tensor<i32>, tensor<i1>
  return %s1 : tensor<f32>
}

// -----

func.func @update_scale_backoff(%s: tensor<f32>, %t: tensor<i32>, %h: tensor<i32>, %f: tensor<i1>) -> tensor<f32> {
  // expected-error @+1 {{backoff_factor must lie in (0, 1), got 1.5}}
  %s1, %t1, %h1 = amp.update_scale %s, %t, %h, %f {backoff_factor = 1.5 : f32} : tensor<f32>, tensor<i32>, tensor<i32>, tensor<i1>
  return %s1 : tensor<f32>
}

// -----

func.func @update_scale_interval(%s: tensor<f32>, %t: tensor<i32>, %h: tensor<i32>, %f: tensor<i1>) -> tensor<f32> {
  // expected-error @+1 {{growth_interval must be >= 1 step, got 0}}
  %s1, %t1, %h1 = amp.update_scale %s, %t, %h, %f {growth_interval = 0 : i32} : tensor<f32>, tensor<i32>, tensor<i32>, tensor<i1>
  return %s1 : tensor<f32>
}

// -----

func.func @update_scale_f16_scale(%s: tensor<f16>, %t: tensor<i32>, %h: tensor<i32>, %f: tensor<i1>) -> tensor<f16> {
  // expected-error @+1 {{operand #0 must be 0D tensor of 32-bit float values}}
  %s1, %t1, %h1 = amp.update_scale %s, %t, %h, %f : tensor<f16>, tensor<i32>, tensor<i32>, tensor<i1>
  return %s1 : tensor<f16>
}

// -----

func.func @update_scale_hysteresis(%s: tensor<f32>, %t: tensor<i32>, %h: tensor<i32>, %f: tensor<i1>) -> tensor<f32> {
  // expected-error @+1 {{hysteresis must be >= 1 overflowing step, got 0}}
  %s1, %t1, %h1 = amp.update_scale %s, %t, %h, %f {hysteresis = 0 : i32} : tensor<f32>, tensor<i32>, tensor<i32>, tensor<i1>
  return %s1 : tensor<f32>
}

// -----

func.func @update_scale_clamps(%s: tensor<f32>, %t: tensor<i32>, %h: tensor<i32>, %f: tensor<i1>) -> tensor<f32> {
  // expected-error @+1 {{needs 0 < min_scale <= max_scale < inf, got min_scale = 4.000000e+00 and max_scale = 2.000000e+00}}
  %s1, %t1, %h1 = amp.update_scale %s, %t, %h, %f {min_scale = 4.0 : f32, max_scale = 2.0 : f32} : tensor<f32>, tensor<i32>, tensor<i32>, tensor<i1>
  return %s1 : tensor<f32>
}

// -----

func.func @count_underflow_f32(%v: tensor<4xf32>) -> tensor<i64> {
  // expected-error @+1 {{precision must be f16 or bf16, got 'f32'}}
  %n, %t = amp.count_underflow %v {precision = f32} : tensor<4xf32>
  return %n : tensor<i64>
}
