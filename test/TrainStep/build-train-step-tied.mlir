// RUN: amp-opt %s --amp-build-train-step="loss=mse" | FileCheck %s
// RUN: amp-opt %s --amp-build-train-step="loss=mse" --amp-verify-training-step -o /dev/null
// RUN: amp-opt %s --amp-build-train-step="loss=mse params=shared.weight" | FileCheck %s --check-prefix=NAMED
// Tied weights: torch-mlir writes a weight that two modules share (an
// embedding tied to the classifier) as one dense_resource key that several
// constants read. It is one parameter: every use reads the one `param`
// argument, so its gradient is the sum of the gradients of all uses, and it
// starts from the key's blob.
//
// The gradient of the tied weight against finite differences of the loss
// (perturbing the one parameter moves both uses):
// RUN: amp-opt %s --amp-build-train-step="loss=mse" -o %t.mlir
// RUN: amp-run %t.mlir --data=synthetic --check-gradients | FileCheck %s --check-prefix=GRAD
// GRAD: argument{{ +}}parameter
// GRAD-NEXT: #0{{ +}}4x3xf32
// GRAD-NEXT: #1{{ +}}4x4xf32
// GRAD-NEXT: #2{{ +}}4x4xf32
// GRAD-NOT: #3
// GRAD: (tolerance 1e-05): passed

// y = (x W) W^T E1 E2 with W read by two constants of the key
// shared.weight. E1 and E2 are blobs printed without their data: every such
// blob has the key __elided__, and they are distinct weights, not one.
module {
func.func @forward(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %w1 = arith.constant dense_resource<shared.weight> : tensor<4x3xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x3xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  %h = linalg.matmul ins(%x, %w1 : tensor<2x4xf32>, tensor<4x3xf32>) outs(%f : tensor<2x3xf32>) -> tensor<2x3xf32>
  %w2 = arith.constant dense_resource<shared.weight> : tensor<4x3xf32>
  %et = tensor.empty() : tensor<3x4xf32>
  %wt = linalg.transpose ins(%w2 : tensor<4x3xf32>) outs(%et : tensor<3x4xf32>) permutation = [1, 0]
  %e2 = tensor.empty() : tensor<2x4xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<2x4xf32>) -> tensor<2x4xf32>
  %y = linalg.matmul ins(%h, %wt : tensor<2x3xf32>, tensor<3x4xf32>) outs(%f2 : tensor<2x4xf32>) -> tensor<2x4xf32>
  %c1 = arith.constant dense_resource<__elided__> : tensor<4x4xf32>
  %c2 = arith.constant dense_resource<__elided__> : tensor<4x4xf32>
  %y1 = linalg.matmul ins(%y, %c1 : tensor<2x4xf32>, tensor<4x4xf32>) outs(%f2 : tensor<2x4xf32>) -> tensor<2x4xf32>
  %y2 = linalg.matmul ins(%y1, %c2 : tensor<2x4xf32>, tensor<4x4xf32>) outs(%f2 : tensor<2x4xf32>) -> tensor<2x4xf32>
  return %y2 : tensor<2x4xf32>
}
}
{-#
  dialect_resources: {
    builtin: {
      shared.weight: "0x04000000CDCCCC3DCDCC4CBE9A99993ECDCCCCBE0000003F9A9919BF3333333FCDCC4CBF6666663F000080BFCDCC8C3F9A9999BF"
    }
  }
#-}
// CHECK-LABEL: func.func @train_step(
// CHECK-SAME: %[[W:[a-z0-9]+]]: tensor<4x3xf32> {amp.initial_value = dense_resource<shared.weight> : tensor<4x3xf32>, amp.role = "param"},
// CHECK-SAME: %[[E1:[a-z0-9]+]]: tensor<4x4xf32> {amp.elided_at = {{loc\("[^"]*":[0-9]+:[0-9]+\)}}, amp.initial_value = dense_resource<__elided__> : tensor<4x4xf32>, amp.role = "param"}, %[[E2:[a-z0-9]+]]: tensor<4x4xf32> {amp.elided_at = {{loc\("[^"]*":[0-9]+:[0-9]+\)}}, amp.initial_value = dense_resource<__elided__> : tensor<4x4xf32>, amp.role = "param"},
// CHECK-SAME: %{{.*}}: tensor<4x3xf32> {amp.role = "opt_state"}, %{{.*}}: tensor<4x4xf32> {amp.role = "opt_state"}, %{{.*}}: tensor<4x4xf32> {amp.role = "opt_state"}, %[[X:[a-z0-9]+]]: tensor<2x4xf32> {amp.role = "input"}, %{{.*}}: tensor<2x4xf32> {amp.role = "target"})
// CHECK-NOT: dense_resource<shared.weight> : tensor<4x3xf32>, amp.role = "param"
// CHECK-NOT: arith.constant dense_resource<shared.weight>
// CHECK: linalg.matmul ins(%[[X]], %[[W]] :
// CHECK: linalg.transpose ins(%[[W]] :
// CHECK: amp.grad %{{.*}}, %[[W]]
// CHECK: amp.grad %{{.*}}, %[[E1]]
// CHECK: amp.grad %{{.*}}, %[[E2]]
// CHECK-NOT: amp.grad
// CHECK-LABEL: func.func @eval_step(
// CHECK-SAME: %[[EW:[a-z0-9]+]]: tensor<4x3xf32> {amp.role = "param"}, %{{.*}}: tensor<4x4xf32> {amp.role = "param"}, %{{.*}}: tensor<4x4xf32> {amp.role = "param"}, %[[EX:[a-z0-9]+]]: tensor<2x4xf32> {amp.role = "input"})
// CHECK: linalg.matmul ins(%[[EX]], %[[EW]] :
// CHECK: linalg.transpose ins(%[[EW]] :

// Named by its key, it is one parameter too.
// NAMED-LABEL: func.func @train_step(
// NAMED-SAME: dense_resource<shared.weight> : tensor<4x3xf32>, amp.role = "param"},
// NAMED-SAME: {amp.role = "opt_state"}, %{{.*}}: tensor<2x4xf32> {amp.role = "input"}
// NAMED-COUNT-2: arith.constant dense_resource<__elided__>
