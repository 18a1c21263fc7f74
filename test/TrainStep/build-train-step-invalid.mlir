// RUN: amp-opt %s --split-input-file --amp-build-train-step -verify-diagnostics

// No trainable parameter: no float constant, no parameter argument. The
// note names what was left and why.
// expected-error @+1 {{amp-build-train-step: @no_weights has no trainable parameter: no f32 tensor constant with at least min-elements=2 elements that the output depends on, and no argument named in params= (weights passed as arguments: params=arguments)}}
func.func @no_weights(%x: tensor<4x2xf32>) -> tensor<4x2xf32> {
  // expected-note @+1 {{constant left: fewer than min-elements=2 elements}}
  %s = arith.constant dense<2.0> : tensor<1xf32>
  %e = tensor.empty() : tensor<4x2xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : tensor<4x2xf32>, tensor<1xf32>) outs(%e : tensor<4x2xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.mulf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<4x2xf32>
  return %y : tensor<4x2xf32>
}

// -----

// An output that is not batch x classes logits for softmax cross-entropy,
// located on the return.
func.func @rank3(%x: tensor<4x2x2xf32>) -> tensor<4x2x2xf32> {
  %w = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %e = tensor.empty() : tensor<4x2x2xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %w : tensor<4x2x2xf32>, tensor<2xf32>) outs(%e : tensor<4x2x2xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.mulf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<4x2x2xf32>
  // expected-error @+1 {{amp-build-train-step: loss=softmax-cross-entropy needs the model to return batch x classes logits (a rank-2 f32 tensor with a static number of classes), got 'tensor<4x2x2xf32>'; for a model that returns its loss use loss=none}}
  return %y : tensor<4x2x2xf32>
}

// -----

// Weights passed as an argument need params=: by default every argument
// that is not a parameter is an input, so nothing is trained.
// expected-error @+1 {{amp-build-train-step: @weight_argument has no trainable parameter: no f32 tensor constant with at least min-elements=2 elements that the output depends on, and no argument named in params= (weights passed as arguments: params=arguments)}}
func.func @weight_argument(%x: tensor<4x3xf32>,
                           %w: tensor<3x2xf32>) -> tensor<4x2xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x2xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x2xf32>) -> tensor<4x2xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<4x3xf32>, tensor<3x2xf32>) outs(%f : tensor<4x2xf32>) -> tensor<4x2xf32>
  return %mm : tensor<4x2xf32>
}

// -----

// The batch in dimension 1 of the input: a located error that says what to
// change (it used to be reported as a bug of the builder).
// Dimension 1 holds independent examples: a warning and the error name
// batch-dim=1.
// expected-warning @+2 {{amp-build-train-step: @batch_in_dim1 mixes the elements along dimension 0 of its input, which the step takes as the batch, while dimension 1 holds independent examples: a sequence-first model (PyTorch's batch_first=False, the default of nn.MultiheadAttention, nn.Transformer*, nn.LSTM, nn.GRU) takes batch-dim=1}}
// expected-error @+1 {{amp-build-train-step: the input (argument #0, 'tensor<3x4xf32>') has 3 in dimension 0, the output ('tensor<4x2xf32>') 4; dimension 0 of both is the batch (transpose the input, or name the inputs with inputs=; a weight passed as an argument belongs in params=; a sequence-first model, PyTorch's batch_first=False, takes batch-dim=1)}}
func.func @batch_in_dim1(%x: tensor<3x4xf32>) -> tensor<4x2xf32> {
  %w = arith.constant dense<1.0> : tensor<3x2xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x2xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x2xf32>) -> tensor<4x2xf32>
  %mm = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %w : tensor<3x4xf32>, tensor<3x2xf32>) outs(%f : tensor<4x2xf32>) -> tensor<4x2xf32>
  return %mm : tensor<4x2xf32>
}

// -----

// An op on the path from a parameter to the loss without an adjoint rule:
// amp-differentiate's error, located on the op (in the step being built).
func.func @no_rule(%x: tensor<4x2xf32>) -> tensor<4x2xf32> {
  %w = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %e = tensor.empty() : tensor<4x2xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %w : tensor<4x2xf32>, tensor<2xf32>) outs(%e : tensor<4x2xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %p = arith.mulf %a, %b : f32
    // expected-error @+1 {{'math.atan' has no adjoint rule}}
    %r = math.atan %p : f32
    linalg.yield %r : f32
  } -> tensor<4x2xf32>
  return %y : tensor<4x2xf32>
}

// -----

// Several candidate models.
// expected-error @+1 {{amp-build-train-step: the module has 2 public functions with a body; name the model with function=<name>}}
module {
  // expected-note @+1 {{candidate @a}}
  func.func @a(%x: tensor<2x2xf32>) -> tensor<2x2xf32> {
    return %x : tensor<2x2xf32>
  }
  // expected-note @+1 {{candidate @b}}
  func.func @b(%x: tensor<2x2xf32>) -> tensor<2x2xf32> {
    return %x : tensor<2x2xf32>
  }
}

// -----

// No model: only a declaration and a private function.
// expected-error @+1 {{amp-build-train-step: the module has no public func.func with a body (other than training and eval steps) to build a training step from}}
module {
  func.func private @helper(%x: tensor<2x2xf32>) -> tensor<2x2xf32> {
    return %x : tensor<2x2xf32>
  }
  func.func private @external(%x: tensor<2x2xf32>) -> tensor<2x2xf32>
}

// -----

// Two results.
// expected-error @+1 {{amp-build-train-step: @two returns 2 values; the model returns one (its logits, its regression output or its loss)}}
func.func @two(%x: tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<2x2xf32>) {
  return %x, %x : tensor<2x2xf32>, tensor<2x2xf32>
}

// -----

// The names the builder adds are taken.
func.func @model(%x: tensor<4x2xf32>) -> tensor<4x2xf32> {
  return %x : tensor<4x2xf32>
}
// expected-error @+1 {{amp-build-train-step: cannot add @train_step: the module already has a symbol of that name}}
func.func private @train_step()

// -----

// TOSA has no adjoint rules; the error says how to lower it first.
func.func @tosa_model(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{amp-build-train-step: @tosa_model holds TOSA (tosa.tanh); the builder differentiates linalg on tensors: lower it first, e.g. mlir-opt --pass-pipeline="builtin.module(func.func(tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith,tosa-to-tensor,canonicalize))"}}
  %t = tosa.tanh %a : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %t : tensor<4x8xf32>
}
