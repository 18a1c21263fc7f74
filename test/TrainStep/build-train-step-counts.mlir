// RUN: amp-opt %s --amp-build-train-step="loss=mse" | FileCheck %s
// Element counts saturate (amp/Support/Counts.h): a weight of 784 x 2^62
// elements (more than int64_t counts) has at least min-elements elements
// and is a parameter. Before, its count wrapped to 0: "fewer than
// min-elements=2 elements" and "no trainable parameter".
module {
func.func @forward(%x: tensor<1x784xf32>) -> tensor<1x4611686018427387904xf32> {
  %w = arith.constant dense_resource<__elided__> : tensor<784x4611686018427387904xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4611686018427387904xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4611686018427387904xf32>) -> tensor<1x4611686018427387904xf32>
  %y = linalg.matmul ins(%x, %w : tensor<1x784xf32>, tensor<784x4611686018427387904xf32>) outs(%f : tensor<1x4611686018427387904xf32>) -> tensor<1x4611686018427387904xf32>
  return %y : tensor<1x4611686018427387904xf32>
}
}
// CHECK-LABEL: func.func @train_step(
// CHECK-SAME: %{{.*}}: tensor<784x4611686018427387904xf32> {amp.elided_at = {{loc\("[^"]*":[0-9]+:[0-9]+\)}}, amp.initial_value = dense_resource<__elided__> : tensor<784x4611686018427387904xf32>, amp.role = "param"}
