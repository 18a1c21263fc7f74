// RUN: amp-opt %s --split-input-file --amp-build-train-step="loss=mse optimizer=sgd" | FileCheck %s
// RUN: amp-opt %s --split-input-file --amp-build-train-step="loss=mse" --amp-verify-training-step -o /dev/null

// loss=mse: a "target" argument of the output's type (in place of the label)
// and the mean of (y - t)^2 over all 8 elements. A batch x classes output
// also gets the eval step (amp-run scores it and feeds the target the
// one-hot labels).
module {
func.func @regress(%x: tensor<4x3xf32>) -> tensor<4x2xf32> {
  %w = arith.constant dense<[[0.1, -0.2], [0.4, 0.5], [0.3, -0.6]]> : tensor<3x2xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x2xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x2xf32>) -> tensor<4x2xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<4x3xf32>, tensor<3x2xf32>) outs(%f : tensor<4x2xf32>) -> tensor<4x2xf32>
  return %mm : tensor<4x2xf32>
}
}
// CHECK-LABEL: func.func @train_step(
// CHECK-SAME: %[[W:[a-z0-9]+]]: tensor<3x2xf32> {{{.*}}amp.role = "param"}, %{{.*}}: tensor<4x3xf32> {amp.role = "input"}, %[[T:[a-z0-9]+]]: tensor<4x2xf32> {amp.role = "target"})
// CHECK: %[[Y:.*]] = linalg.matmul
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}, #{{.*}}], iterator_types = ["reduction", "reduction"]} ins(%[[Y]], %[[T]] : tensor<4x2xf32>, tensor<4x2xf32>) outs(%{{.*}} : tensor<f32>)
// CHECK-NEXT: ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32, %[[ACC:.*]]: f32):
// CHECK-NEXT: %[[D:.*]] = arith.subf %[[A]], %[[B]] : f32
// CHECK-NEXT: %[[D2:.*]] = arith.mulf %[[D]], %[[D]] : f32
// CHECK-NEXT: %[[N:.*]] = arith.constant 1.250000e-01 : f32
// CHECK-NEXT: %[[M:.*]] = arith.mulf %[[D2]], %[[N]] : f32
// CHECK-NEXT: arith.addf %[[M]], %[[ACC]] : f32
// CHECK: amp.loss_grad
// CHECK: amp.grad %{{.*}}, %[[W]]
// CHECK-LABEL: func.func @eval_step(
// CHECK-SAME: -> (tensor<4x2xf32> {amp.role = "logits"})

// -----

// A rank-3 output: no eval step (the contract's logits are batch x classes).
module {
func.func @image(%x: tensor<2x3x3xf32>) -> tensor<2x3x3xf32> {
  %s = arith.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %e = tensor.empty() : tensor<2x3x3xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %s : tensor<2x3x3xf32>, tensor<3xf32>) outs(%e : tensor<2x3x3xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.mulf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<2x3x3xf32>
  return %y : tensor<2x3x3xf32>
}
}
// CHECK-LABEL: func.func @train_step(
// CHECK-SAME: %{{.*}}: tensor<2x3x3xf32> {amp.role = "target"})
// CHECK: arith.constant 0.055555556 : f32
// CHECK-NOT: @eval_step
