// Found by amp-robustness: TOSA ops reached one-shot bufferization and
// stopped with upstream's bare "op was not bufferized". amp-lower-to-llvm
// now lowers TOSA through tosa-to-linalg(-named)/arith/tensor first.
// RUN: amp-opt %s --amp-lower-to-llvm | FileCheck %s

// CHECK-LABEL: llvm.func @tosa_ops
// CHECK-NOT: tosa.
// CHECK: llvm.intr.exp
func.func @tosa_ops(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %s = tosa.sub %a, %b : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %e = tosa.exp %s : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %m = tosa.maximum %e, %a : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %m : tensor<2x3xf32>
}
