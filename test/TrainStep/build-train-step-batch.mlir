// RUN: amp-opt %s --split-input-file --amp-build-train-step="batch=8" | FileCheck %s
// RUN: amp-opt %s --split-input-file --amp-build-train-step="batch=dynamic" | FileCheck %s --check-prefix=DYN
// RUN: amp-opt %s --split-input-file --amp-build-train-step="batch=8" --amp-verify-training-step -o /dev/null
// batch=: the builder re-batches the model (as amp-rebatch does) before it
// builds the steps: input, label and logits have the new batch, the
// parameters keep their shapes.
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#cols = affine_map<(d0, d1) -> (d1)>
module {
func.func @linear(%x: tensor<1x3xf32>) -> tensor<1x2xf32> {
  %w = arith.constant dense<[[0.1, -0.2, 0.3], [0.4, 0.5, -0.6]]> : tensor<2x3xf32>
  %b = arith.constant dense<[0.01, -0.02]> : tensor<2xf32>
  %zero = arith.constant 0.0 : f32
  %et = tensor.empty() : tensor<3x2xf32>
  %wt = linalg.transpose ins(%w : tensor<2x3xf32>) outs(%et : tensor<3x2xf32>) permutation = [1, 0]
  %e = tensor.empty() : tensor<1x2xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2xf32>) -> tensor<1x2xf32>
  %mm = linalg.matmul ins(%x, %wt : tensor<1x3xf32>, tensor<3x2xf32>) outs(%f : tensor<1x2xf32>) -> tensor<1x2xf32>
  %y = linalg.generic {indexing_maps = [#id2, #cols, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %b : tensor<1x2xf32>, tensor<2xf32>) outs(%e : tensor<1x2xf32>) {
  ^bb0(%a: f32, %bb: f32, %o: f32):
    %r = arith.addf %a, %bb : f32
    linalg.yield %r : f32
  } -> tensor<1x2xf32>
  return %y : tensor<1x2xf32>
}
}
// CHECK-NOT: func.func @linear
// CHECK-LABEL: func.func @train_step(
// CHECK-SAME: tensor<2x3xf32> {{.*}}amp.role = "param"}, %{{.*}}: tensor<2xf32> {{.*}}amp.role = "param"}
// CHECK-SAME: %{{.*}}: tensor<8x3xf32> {amp.role = "input"}, %{{.*}}: tensor<8xi32> {amp.classes = 2 : i64, amp.role = "label"})
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<8x3xf32>, tensor<3x2xf32>) outs(%{{.*}} : tensor<8x2xf32>)
// CHECK-LABEL: func.func @eval_step(
// CHECK-SAME: %{{.*}}: tensor<8x3xf32> {amp.role = "input"}) -> (tensor<8x2xf32> {amp.role = "logits"})

// DYN-LABEL: func.func @train_step(
// DYN-SAME: %{{.*}}: tensor<?x3xf32> {amp.role = "input"}, %{{.*}}: tensor<?xi32> {amp.classes = 2 : i64, amp.role = "label"})
// DYN-LABEL: func.func @eval_step(
// DYN-SAME: -> (tensor<?x2xf32> {amp.role = "logits"})
