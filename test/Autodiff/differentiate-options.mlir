// amp-differentiate's options: function= picks one function, wrt= the
// arguments (here argument 1 of a three-argument @f); the errors about them
// are in differentiate-options-invalid.mlir.
// RUN: amp-opt %s -split-input-file -amp-differentiate="function=f wrt=1" -verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @f_grad(
// CHECK-SAME:      %[[X:[^:]+]]: tensor<2xf32>, %[[W:[^:]+]]: tensor<2xf32>, %{{.*}}: tensor<2xi32>) -> (tensor<f32>, tensor<2xf32>)
// CHECK:         %[[L:.*]] = linalg.reduce
// CHECK:         arith.constant dense<1.000000e+00> : tensor<f32>
// CHECK:         %[[DW:.*]] = arith.mulf %[[X]], %{{.*}} : tensor<2xf32>
// CHECK:         return %[[L]], %[[DW]] : tensor<f32>, tensor<2xf32>
// CHECK-NOT:   func.func @other_grad
func.func @f(%x: tensor<2xf32>, %w: tensor<2xf32>, %labels: tensor<2xi32>) -> tensor<f32> {
  %p = arith.mulf %x, %w : tensor<2xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %l = linalg.reduce { arith.addf } ins(%p : tensor<2xf32>) outs(%i : tensor<f32>) dimensions = [0]
  return %l : tensor<f32>
}
func.func @other(%x: tensor<2xf32>) -> tensor<f32> {
  %c = arith.constant dense<1.0> : tensor<f32>
  return %c : tensor<f32>
}
