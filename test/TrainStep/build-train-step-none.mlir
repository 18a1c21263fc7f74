// RUN: amp-opt %s --split-input-file --amp-build-train-step="loss=none" | FileCheck %s
// RUN: amp-opt %s --split-input-file --amp-build-train-step="loss=none" --amp-verify-training-step -o /dev/null

// loss=none: the model returns its loss; its i32 argument is the label; no
// eval step (there are no logits).
module {
func.func @loss(%x: tensor<4x2xf32>, %y: tensor<4xi32>) -> tensor<f32> {
  %w = arith.constant dense<[0.5, -1.5]> : tensor<2xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %l = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]}
      ins(%x, %w, %y : tensor<4x2xf32>, tensor<2xf32>, tensor<4xi32>) outs(%f : tensor<f32>) {
  ^bb0(%a: f32, %b: f32, %lbl: i32, %acc: f32):
    %j = linalg.index 1 : index
    %li = arith.index_cast %lbl : i32 to index
    %hit = arith.cmpi eq, %j, %li : index
    %p = arith.mulf %a, %b : f32
    %q = arith.mulf %p, %p : f32
    %s = arith.select %hit, %q, %p : f32
    %r = arith.addf %s, %acc : f32
    linalg.yield %r : f32
  } -> tensor<f32>
  return %l : tensor<f32>
}
}
// CHECK-LABEL: func.func @train_step(
// CHECK-SAME: %[[W:[a-z0-9]+]]: tensor<2xf32> {amp.initial_value = dense<[5.000000e-01, -1.500000e+00]> : tensor<2xf32>, amp.role = "param"}, %{{.*}}: tensor<2xf32> {amp.role = "opt_state"}, %[[X:[a-z0-9]+]]: tensor<4x2xf32> {amp.role = "input"}, %[[Y:[a-z0-9]+]]: tensor<4xi32> {amp.role = "label"})
// CHECK: %[[L:.*]] = linalg.generic {{.*}} ins(%[[X]], %[[W]], %[[Y]] :
// CHECK: amp.loss_grad %[[L]] : tensor<f32>
// CHECK: return %[[L]],
// CHECK-NOT: @eval_step

// -----

// Without a label argument the step gets an unused one (the contract has
// one; a driver feeds it).
module {
func.func @unsupervised(%x: tensor<3x2xf32>) -> tensor<f32> {
  %w = arith.constant dense<[0.5, -1.5]> : tensor<2xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %l = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]}
      ins(%x, %w : tensor<3x2xf32>, tensor<2xf32>) outs(%f : tensor<f32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %q = arith.mulf %p, %p : f32
    %r = arith.addf %q, %acc : f32
    linalg.yield %r : f32
  } -> tensor<f32>
  return %l : tensor<f32>
}
}
// CHECK-LABEL: func.func @train_step(
// CHECK-SAME: %{{.*}}: tensor<3x2xf32> {amp.role = "input"}, %[[Y:[a-z0-9]+]]: tensor<3xi32> {amp.role = "label"})
// CHECK-NOT: %[[Y]]
// CHECK: return
