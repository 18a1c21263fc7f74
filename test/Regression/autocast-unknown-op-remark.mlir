// Issue 5: ops the precision policy does not know are left in f32
// with a remark (never rejected silently); f64 contractions stay f64
// (found by the robustness work: both used to pass without a word).
// RUN: amp-opt %s --allow-unregistered-dialect -amp-autocast -verify-diagnostics -split-input-file

func.func @unknown(%a: tensor<2x4xf32>) -> tensor<2x4xf32> {
  // expected-remark @+1 {{unknown.op}}
  %u = "unknown.op"(%a) : (tensor<2x4xf32>) -> tensor<2x4xf32>
  return %u : tensor<2x4xf32>
}

// -----

func.func @f64_matmul(%a: tensor<2x4xf64>, %b: tensor<4x3xf64>,
                      %c: tensor<2x3xf64>) -> tensor<2x3xf64> {
  // expected-remark @+1 {{f64}}
  %r = linalg.matmul ins(%a, %b : tensor<2x4xf64>, tensor<4x3xf64>)
                     outs(%c : tensor<2x3xf64>) -> tensor<2x3xf64>
  return %r : tensor<2x3xf64>
}
