// A model that returns its own loss (loss=none) against a float target of
// 2 values per example: synthetic data has as many classes as the target
// has values (one-hot), where it had 10 and refused the run ("10 classs").
// RUN: amp-opt %s --amp-build-train-step="loss=none optimizer=sgd" -o %t.mlir
// RUN: amp-run %t.mlir --data=synthetic --check-gradients | FileCheck %s
// CHECK: synthetic data, {{[0-9]+}} training examples of 3 values, 2 classes
// CHECK: (tolerance 1e-05): passed
// RUN: not amp-run %t.mlir --data=synthetic --classes=3 --check-gradients 2>&1 | FileCheck %s --check-prefix=THREE
// THREE: integer class labels of 3 classes (the largest label of either split + 1), which amp-run feeds it one-hot: give labels of 2 classes
module {
  func.func @forward(%x: tensor<4x3xf32>, %t: tensor<4x2xf32>) -> tensor<f32> {
    %w = arith.constant dense<[[0.1, -0.2], [0.4, 0.5], [0.3, -0.6]]> : tensor<3x2xf32>
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<4x2xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x2xf32>) -> tensor<4x2xf32>
    %mm = linalg.matmul ins(%x, %w : tensor<4x3xf32>, tensor<3x2xf32>) outs(%f : tensor<4x2xf32>) -> tensor<4x2xf32>
    %es = tensor.empty() : tensor<f32>
    %fs = linalg.fill ins(%zero : f32) outs(%es : tensor<f32>) -> tensor<f32>
    %l = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%mm, %t : tensor<4x2xf32>, tensor<4x2xf32>) outs(%fs : tensor<f32>) {
    ^bb0(%a: f32, %b: f32, %acc: f32):
      %d = arith.subf %a, %b : f32
      %ad = math.absf %d : f32
      %c = arith.constant 0.125 : f32
      %m = arith.mulf %ad, %c : f32
      %r = arith.addf %acc, %m : f32
      linalg.yield %r : f32
    } -> tensor<f32>
    return %l : tensor<f32>
  }
}
