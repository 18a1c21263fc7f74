// RUN: amp-opt %s --split-input-file --amp-build-train-step=function=forward --amp-verify-training-step | FileCheck %s
// What torch-mlir's exports carry besides the model: the private
// `ml_program.global @global_seed` (RNG state nothing reads) goes with the
// model, a global the step still reads stays; a bias added through a
// constant index into the size-1 batch dimension, `(d0, d1) -> (0, d1)`,
// is differentiated (its gradient is the column sum of the cotangent).

// CHECK-LABEL: module
// CHECK-NOT:   ml_program.global private mutable @global_seed
// CHECK:       func.func @train_step
// CHECK:       func.func @eval_step
module {
  ml_program.global private mutable @global_seed(dense<0> : tensor<i64>) : tensor<i64>
  func.func @forward(%x: tensor<1x4xf32>) -> tensor<1x3xf32> {
    %w = arith.constant dense<[[0.1, 0.2, 0.3, 0.4], [0.5, 0.6, 0.7, 0.8], [0.9, 1.0, 1.1, 1.2]]> : tensor<3x4xf32>
    %b = arith.constant dense<[0.1, -0.2, 0.3]> : tensor<3xf32>
    %zero = arith.constant 0.0 : f32
    %et = tensor.empty() : tensor<4x3xf32>
    %wt = linalg.transpose ins(%w : tensor<3x4xf32>) outs(%et : tensor<4x3xf32>) permutation = [1, 0]
    %e = tensor.empty() : tensor<1x3xf32>
    %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x3xf32>) -> tensor<1x3xf32>
    %mm = linalg.matmul ins(%x, %wt : tensor<1x4xf32>, tensor<4x3xf32>) outs(%z : tensor<1x3xf32>) -> tensor<1x3xf32>
    %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%mm, %b : tensor<1x3xf32>, tensor<3xf32>) outs(%e : tensor<1x3xf32>) {
    ^bb0(%a: f32, %c: f32, %o: f32):
      %s = arith.addf %a, %c : f32
      linalg.yield %s : f32
    } -> tensor<1x3xf32>
    return %y : tensor<1x3xf32>
  }
}

// -----

// CHECK-LABEL: module
// CHECK:       ml_program.global private @scale
// CHECK:       func.func @train_step
module {
  ml_program.global private @scale(dense<2.0> : tensor<f32>) : tensor<f32>
  func.func @helper() -> tensor<f32> {
    %s = ml_program.global_load_const @scale : tensor<f32>
    return %s : tensor<f32>
  }
  func.func private @unused_decl()
  func.func @forward(%x: tensor<2x4xf32>) -> tensor<2x3xf32> {
    %w = arith.constant dense<0.5> : tensor<4x3xf32>
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<2x3xf32>
    %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
    %mm = linalg.matmul ins(%x, %w : tensor<2x4xf32>, tensor<4x3xf32>) outs(%z : tensor<2x3xf32>) -> tensor<2x3xf32>
    return %mm : tensor<2x3xf32>
  }
}
