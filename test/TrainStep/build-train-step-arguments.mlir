// RUN: amp-opt %s --split-input-file --amp-build-train-step="params=1 optimizer=sgd" | FileCheck %s
// RUN: amp-opt %s --split-input-file --amp-build-train-step="params=arguments optimizer=sgd" | FileCheck %s
// RUN: amp-opt %s --split-input-file --amp-build-train-step="params=arguments" --amp-verify-training-step -o /dev/null
// Weights as arguments (params=arguments elsewhere; here argument 1 named by
// index) and a dynamic batch: the label is tensor<?xi32> and 1/B is read
// from tensor.dim.
module {
func.func @dyn(%x: tensor<?x3xf32>, %w: tensor<3x2xf32>) -> tensor<?x2xf32> {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x3xf32>
  %e = tensor.empty(%n) : tensor<?x2xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x2xf32>) -> tensor<?x2xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<?x3xf32>, tensor<3x2xf32>) outs(%f : tensor<?x2xf32>) -> tensor<?x2xf32>
  return %mm : tensor<?x2xf32>
}
}
// CHECK-LABEL: func.func @train_step(
// CHECK-SAME: %[[W:[a-z0-9]+]]: tensor<3x2xf32> {amp.role = "param"}, %[[X:[a-z0-9]+]]: tensor<?x3xf32> {amp.role = "input"}, %{{.*}}: tensor<?xi32> {amp.classes = {{[0-9]+}} : i64, amp.role = "label"})
// CHECK: %[[N:.*]] = tensor.dim %{{.*}}, %{{.*}} : tensor<?x2xf32>
// CHECK: %[[NI:.*]] = arith.index_cast %{{.*}} : index to i64
// CHECK: %[[NF:.*]] = arith.sitofp %[[NI]] : i64 to f32
// CHECK: %[[INV:.*]] = arith.divf %{{.*}}, %[[NF]] : f32
// CHECK: arith.mulf %{{.*}}, %[[INV]] : f32
// CHECK: amp.loss_grad
// CHECK: amp.grad %{{.*}}, %[[W]] : tensor<3x2xf32>
// CHECK-LABEL: func.func @eval_step(
// CHECK-SAME: tensor<3x2xf32> {amp.role = "param"}, %{{.*}}: tensor<?x3xf32> {amp.role = "input"}) -> (tensor<?x2xf32> {amp.role = "logits"})
