// Regression (found by amp-robustness, random function seed 445): a function
// returning the same static buffer twice crashed upstream
// buffer-results-to-out-params{hoist-static-allocs} inside amp-lower-to-llvm.
// The pipeline now copies the duplicate into its own buffer: both
// out-params receive the sum.
// RUN: amp-opt %s --amp-lower-to-llvm | FileCheck %s

// CHECK-LABEL: llvm.func @twice
// CHECK: llvm.store
// CHECK: "llvm.intr.memcpy"
// CHECK: llvm.return
func.func @twice(%a: tensor<4xf32>) -> (tensor<f32>, tensor<f32>) {
  %e = tensor.empty() : tensor<f32>
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %sum = linalg.reduce ins(%a : tensor<4xf32>) outs(%init : tensor<f32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return %sum, %sum : tensor<f32>, tensor<f32>
}
