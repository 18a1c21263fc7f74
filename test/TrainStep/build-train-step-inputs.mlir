// RUN: amp-opt %s --split-input-file --amp-build-train-step | FileCheck %s
// RUN: amp-opt %s --split-input-file --amp-build-train-step --amp-verify-training-step -o /dev/null
// The same steps with the inputs named.
// RUN: amp-opt %s --split-input-file --amp-build-train-step="inputs=0,1" -o /dev/null

// Several inputs: by default every argument that is not a parameter is an
// input (a PyTorch module's forward(q, kv)); the step and the eval step
// take them in the model's order, after the state, before the label.
module {
func.func @two(%q: tensor<4x3xf32>, %kv: tensor<4x5xf32>) -> tensor<4x2xf32> {
  %wq = arith.constant dense<[[0.1, -0.2], [0.4, 0.5], [0.3, -0.6]]> : tensor<3x2xf32>
  %wk = arith.constant dense<[[0.1, 0.2], [-0.4, 0.5], [0.3, 0.6], [0.7, -0.1], [0.2, 0.2]]> : tensor<5x2xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x2xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x2xf32>) -> tensor<4x2xf32>
  %a = linalg.matmul ins(%q, %wq : tensor<4x3xf32>, tensor<3x2xf32>) outs(%f : tensor<4x2xf32>) -> tensor<4x2xf32>
  %b = linalg.matmul ins(%kv, %wk : tensor<4x5xf32>, tensor<5x2xf32>) outs(%a : tensor<4x2xf32>) -> tensor<4x2xf32>
  return %b : tensor<4x2xf32>
}
}
// CHECK-LABEL: func.func @train_step(
// CHECK-SAME: %{{.*}}: tensor<3x2xf32> {{{.*}}amp.role = "param"}, %{{.*}}: tensor<5x2xf32> {{{.*}}amp.role = "param"},
// CHECK-SAME: %{{.*}}: tensor<3x2xf32> {amp.role = "opt_state"}, %{{.*}}: tensor<5x2xf32> {amp.role = "opt_state"},
// CHECK-SAME: %[[Q:[a-z0-9]+]]: tensor<4x3xf32> {amp.role = "input"}, %[[KV:[a-z0-9]+]]: tensor<4x5xf32> {amp.role = "input"},
// CHECK-SAME: %{{.*}}: tensor<4xi32> {amp.classes = 2 : i64, amp.role = "label"})
// CHECK: linalg.matmul ins(%[[Q]],
// CHECK: linalg.matmul ins(%[[KV]],
// CHECK-LABEL: func.func @eval_step(
// CHECK-SAME: %{{.*}}: tensor<3x2xf32> {amp.role = "param"}, %{{.*}}: tensor<5x2xf32> {amp.role = "param"},
// CHECK-SAME: %{{.*}}: tensor<4x3xf32> {amp.role = "input"}, %{{.*}}: tensor<4x5xf32> {amp.role = "input"})
// CHECK-SAME: -> (tensor<4x2xf32> {amp.role = "logits"})

// -----

// An integer input (token ids) beside a float one: the ids feed a lookup
// in a constant integer table and a sitofp; neither is differentiated (no
// parameter flows through them).
module {
func.func @ids(%ids: tensor<4x3xi64>, %x: tensor<4x2xf32>) -> tensor<4x2xf32> {
  %table = arith.constant dense<[[1, 2], [3, -4], [5, 6]]> : tensor<3x2xi32>
  %w = arith.constant dense<[[1.0, -1.0], [0.5, 2.0]]> : tensor<2x2xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x2xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x2xf32>) -> tensor<4x2xf32>
  %emb = linalg.generic {indexing_maps = [affine_map<(b, t, k) -> (b, t)>, affine_map<(b, t, k) -> (b, k)>], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%ids : tensor<4x3xi64>) outs(%f : tensor<4x2xf32>) {
  ^bb0(%id: i64, %acc: f32):
    %k = linalg.index 2 : index
    %row = arith.index_cast %id : i64 to index
    %v = tensor.extract %table[%row, %k] : tensor<3x2xi32>
    %vf = arith.sitofp %v : i32 to f32
    %s = arith.sitofp %id : i64 to f32
    %vs = arith.mulf %vf, %s : f32
    %r = arith.addf %acc, %vs : f32
    linalg.yield %r : f32
  } -> tensor<4x2xf32>
  %h = linalg.add ins(%emb, %x : tensor<4x2xf32>, tensor<4x2xf32>) outs(%e : tensor<4x2xf32>) -> tensor<4x2xf32>
  %y = linalg.matmul ins(%h, %w : tensor<4x2xf32>, tensor<2x2xf32>) outs(%f : tensor<4x2xf32>) -> tensor<4x2xf32>
  return %y : tensor<4x2xf32>
}
}
// CHECK-LABEL: func.func @train_step(
// CHECK-SAME: tensor<4x3xi64> {amp.role = "input"}, %{{.*}}: tensor<4x2xf32> {amp.role = "input"}, %{{.*}}: tensor<4xi32> {amp.classes = 2 : i64, amp.role = "label"})
// CHECK-LABEL: func.func @eval_step(
// CHECK-SAME: tensor<4x3xi64> {amp.role = "input"}, %{{.*}}: tensor<4x2xf32> {amp.role = "input"})
