// Found by amp-robustness: TOSA ops reached one-shot bufferization and
// stopped with upstream's bare "op was not bufferized". amp-lower-to-llvm
// now lowers TOSA through tosa-to-linalg(-named)/arith/tensor first.
// RUN: amp-opt %s --amp-lower-to-llvm | FileCheck %s

// CHECK-LABEL: llvm.func @tosa_ops
// CHECK-NOT: tosa.
// The exp, as amp-cpu-polynomial-exp's polynomial:
// CHECK: llvm.intr.fma
func.func @tosa_ops(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %s = tosa.sub %a, %b : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %e = tosa.exp %s : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %m = tosa.maximum %e, %a : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %m : tensor<2x3xf32>
}

// tosa.reshape: tosa-to-tensor turns it into tensor.collapse_shape /
// expand_shape and leaves its tosa.const_shape dead, which the pipeline
// refused as an op it cannot lower ("could not lower 'tosa.const_shape'");
// dead TOSA ops are now erased first. Static and dynamic shapes.
// CHECK-LABEL: llvm.func @tosa_reshape
// CHECK-NOT: tosa.
func.func @tosa_reshape(%a: tensor<2x6xf32>) -> tensor<3x4xf32> {
  %s = tosa.const_shape {values = dense<[3, 4]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %r = tosa.reshape %a, %s : (tensor<2x6xf32>, !tosa.shape<2>) -> tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}
// CHECK-LABEL: llvm.func @tosa_reshape_dynamic
// CHECK-NOT: tosa.
func.func @tosa_reshape_dynamic(%a: tensor<?xf32>) -> tensor<?x2xf32> {
  %s = tosa.const_shape {values = dense<[-1, 2]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %r = tosa.reshape %a, %s : (tensor<?xf32>, !tosa.shape<2>) -> tensor<?x2xf32>
  return %r : tensor<?x2xf32>
}
