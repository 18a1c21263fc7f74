// RUN: amp-opt %s --split-input-file --amp-build-train-step="params=arguments" -verify-diagnostics
// params=arguments on a model whose weights are constants: the hint names
// what to use instead (before, it suggested params=arguments itself).

// expected-error @+1 {{amp-build-train-step: @constants has no trainable parameter: params=arguments found no weight argument (every argument is an input); for weights held as constants use params=constants (the default) or name their dense_resource keys}}
func.func @constants(%x: tensor<2x4xf32>) -> tensor<2x3xf32> {
  %w = arith.constant dense_resource<lin.weight> : tensor<4x3xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x3xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<2x4xf32>, tensor<4x3xf32>) outs(%f : tensor<2x3xf32>) -> tensor<2x3xf32>
  return %mm : tensor<2x3xf32>
}

// -----

// expected-error @+1 {{amp-build-train-step: @no_weights has no trainable parameter: params=arguments found no weight argument (every argument is an input); @no_weights has no f32 tensor constant either}}
func.func @no_weights(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  return %x : tensor<2x3xf32>
}
