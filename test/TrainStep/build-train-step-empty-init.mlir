// RUN: amp-opt %s --amp-build-train-step --verify-diagnostics | FileCheck %s
// The warning names the op by its location only; the op itself is not
// printed after it (MLIR's default would dump it, a whole model for a
// warning on a function).
// RUN: amp-opt %s --amp-build-train-step -o /dev/null 2>&1 | FileCheck %s --check-prefix=SHORT
// SHORT: warning: amp-build-train-step: init #0 is a tensor.empty
// SHORT-NOT: see current operation
// An accumulator that is a bare tensor.empty (some exports write
// `linalg.matmul ... outs(%empty)` where PyTorch's matmul starts from zeros)
// holds undefined values: the step fills it with zeros first, with a
// warning on the model's op; the eval step does the same silently.

// CHECK-LABEL: func.func @train_step
// CHECK:       %[[Z:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<2x3xf32>)
// CHECK:       linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<2x4xf32>, tensor<4x3xf32>) outs(%[[Z]] : tensor<2x3xf32>)
// CHECK-LABEL: func.func @eval_step
// CHECK:       linalg.fill
// CHECK:       linalg.matmul
func.func @forward(%x: tensor<2x4xf32>) -> tensor<2x3xf32> {
  %w = arith.constant dense<0.5> : tensor<4x3xf32>
  %e = tensor.empty() : tensor<2x3xf32>
  // expected-warning @below {{amp-build-train-step: init #0 is a tensor.empty that the op reads (its values are undefined); the step starts it from zeros, as PyTorch's op does}}
  %mm = linalg.matmul ins(%x, %w : tensor<2x4xf32>, tensor<4x3xf32>) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  return %mm : tensor<2x3xf32>
}
