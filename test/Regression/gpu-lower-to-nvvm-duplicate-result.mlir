// Regression (found by amp-robustness, random function seed 445): a function
// returning the same static buffer twice crashed upstream
// buffer-results-to-out-params{hoist-static-allocs} inside
// amp-lower-to-nvvm (as it did in amp-lower-to-llvm,
// lower-to-llvm-duplicate-result.mlir). The pipeline now copies the
// duplicate into its own buffer before that stage: both out-params receive
// the sum, the second through a device-to-device gpu.memcpy.
// REQUIRES: ptxas
// RUN: amp-opt %s --amp-lower-to-nvvm --mlir-print-ir-after=amp-gpu-launch-host-compute -o /dev/null 2>&1 | FileCheck %s

// CHECK-LABEL: func.func @twice
// CHECK-SAME: (%{{.*}}: memref<4xf32>, %[[OUT0:.*]]: memref<f32>, %[[OUT1:.*]]: memref<f32>)
// CHECK: gpu.launch
// CHECK: memref.store %{{.*}}, %[[OUT0]][]
// CHECK: gpu.terminator
// CHECK-NEXT: }
// CHECK-NEXT: gpu.memcpy %[[OUT1]], %[[OUT0]] : memref<f32>, memref<f32>
// CHECK: return
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
