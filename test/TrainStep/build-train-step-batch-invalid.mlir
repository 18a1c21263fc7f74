// RUN: amp-opt %s --split-input-file --amp-build-train-step="batch=8 loss=mse" -verify-diagnostics

// A model that mixes examples cannot be re-batched: a located error naming
// the op (attention over dimension 0, as in
// gpt3_layernorm_linear_mha_1head.mlir). The module is unchanged.
func.func @attention(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<0.5> : tensor<4x4xf32>
  %e = tensor.empty() : tensor<4x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  // expected-error @+1 {{amp-build-train-step: batch=8: 'linalg.matmul' contracts over the batch dimension (dimension 0 of the input, argument #0, loop d2 of the op), so the model mixes examples; it cannot be re-batched}}
  %s = linalg.matmul ins(%x, %x : tensor<4x4xf32>, tensor<4x4xf32>) outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
  %y = linalg.matmul ins(%s, %w : tensor<4x4xf32>, tensor<4x4xf32>) outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %y : tensor<4x4xf32>
}

// -----

// A model whose output does not keep the batch in dimension 0.
func.func @transposed(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %w = arith.constant dense<0.5> : tensor<3x3xf32>
  %e = tensor.empty() : tensor<3x2xf32>
  %t = linalg.transpose ins(%x : tensor<2x3xf32>) outs(%e : tensor<3x2xf32>) permutation = [1, 0]
  %y = linalg.matmul ins(%w, %t : tensor<3x3xf32>, tensor<3x2xf32>) outs(%e : tensor<3x2xf32>) -> tensor<3x2xf32>
  // expected-error @+1 {{amp-build-train-step: batch=8: result #0 of @transposed ('tensor<3x2xf32>') does not have the batch}}
  return %y : tensor<3x2xf32>
}
