// amp-differentiate: @f_grad next to @f, the loss and one gradient per
// float tensor argument, the backward inline after the forward from a seed
// of 1.0, one summed cotangent per value, the original left alone.
// RUN: amp-opt %s -split-input-file -amp-differentiate | FileCheck %s

// CHECK-LABEL: func.func @square(
// CHECK-SAME:      %[[X:.*]]: tensor<3xf64>) -> (tensor<f64> {test.loss})
// CHECK-NOT:     dense<1.000000e+00>
// CHECK:         return
// CHECK-LABEL: func.func @square_grad(
// CHECK-SAME:      %[[X:.*]]: tensor<3xf64>) -> (tensor<f64> {test.loss}, tensor<3xf64>)
// CHECK:         %[[Y:.*]] = arith.mulf %[[X]], %[[X]] : tensor<3xf64>
// CHECK:         %[[L:.*]] = linalg.generic {{.*}} ins(%[[Y]] : tensor<3xf64>)
// CHECK:         %[[SEED:.*]] = arith.constant dense<1.000000e+00> : tensor<f64>
// The loss's reduction sends the seed to every element of %y.
// CHECK:         %[[DY:.*]] = linalg.generic {{.*}}iterator_types = ["parallel"]{{.*}} ins(%[[SEED]] : tensor<f64>)
// x * x: two contributions to %x, summed once (one generic, two inputs).
// CHECK:         %[[A:.*]] = arith.mulf %[[DY]], %[[X]] : tensor<3xf64>
// CHECK:         %[[B:.*]] = arith.mulf %[[X]], %[[DY]] : tensor<3xf64>
// CHECK:         %[[DX:.*]] = linalg.generic {{.*}} ins(%[[A]], %[[B]] : tensor<3xf64>, tensor<3xf64>)
// CHECK:           arith.addf
// CHECK:         return %[[L]], %[[DX]] : tensor<f64>, tensor<3xf64>
func.func @square(%x: tensor<3xf64>) -> (tensor<f64> {test.loss}) {
  %y = arith.mulf %x, %x : tensor<3xf64>
  %zero = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<f64>
  %i = linalg.fill ins(%zero : f64) outs(%e : tensor<f64>) -> tensor<f64>
  %l = linalg.generic {indexing_maps = [affine_map<(d) -> (d)>, affine_map<(d) -> ()>], iterator_types = ["reduction"]}
      ins(%y : tensor<3xf64>) outs(%i : tensor<f64>) {
  ^bb0(%a: f64, %acc: f64):
    %s = arith.addf %acc, %a : f64
    linalg.yield %s : f64
  } -> tensor<f64>
  return %l : tensor<f64>
}

// -----

// Only float tensor arguments are differentiated by default.
// CHECK-LABEL: func.func @two_args_grad(
// CHECK-SAME:      %{{.*}}: tensor<2xf32>, %{{.*}}: tensor<2xf32>, %{{.*}}: tensor<2xi32>) -> (tensor<f32>, tensor<2xf32>, tensor<2xf32>)
func.func @two_args(%x: tensor<2xf32>, %w: tensor<2xf32>, %labels: tensor<2xi32>) -> tensor<f32> {
  %p = arith.mulf %x, %w : tensor<2xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %l = linalg.reduce { arith.addf } ins(%p : tensor<2xf32>) outs(%i : tensor<f32>) dimensions = [0]
  return %l : tensor<f32>
}

// -----

// A loss that does not depend on an argument: its gradient is zeros; a
// private function and one with a non-scalar result are not candidates.
// CHECK-LABEL: func.func @constant_loss_grad(
// CHECK-NOT:     dense<1.000000e+00>
// CHECK:         %[[Z:.*]] = linalg.fill ins(%{{.*}} : f64) outs(%{{.*}} : tensor<4xf64>)
// CHECK:         return %{{.*}}, %[[Z]] : tensor<f64>, tensor<4xf64>
// CHECK-NOT:   func.func @helper_grad
// CHECK-NOT:   func.func @vector_grad
func.func @constant_loss(%x: tensor<4xf64>) -> tensor<f64> {
  %c = arith.constant dense<2.5> : tensor<f64>
  return %c : tensor<f64>
}
func.func private @helper(%x: tensor<4xf64>) -> tensor<f64> {
  %c = arith.constant dense<2.5> : tensor<f64>
  return %c : tensor<f64>
}
func.func @vector(%x: tensor<4xf64>) -> tensor<4xf64> {
  return %x : tensor<4xf64>
}

// -----

// The gradient of a + b is the seed itself, for both arguments.
// CHECK-LABEL: func.func @sum_grad(
// CHECK:         %[[L:.*]] = arith.addf
// CHECK:         %[[SEED:.*]] = arith.constant dense<1.000000e+00> : tensor<f32>
// CHECK:         return %[[L]], %[[SEED]], %[[SEED]] : tensor<f32>, tensor<f32>, tensor<f32>
func.func @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %l = arith.addf %a, %b : tensor<f32>
  return %l : tensor<f32>
}
