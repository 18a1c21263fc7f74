// RUN: amp-opt %s --split-input-file --amp-build-train-step | FileCheck %s
// RUN: amp-opt %s --split-input-file --amp-build-train-step="optimizer=adam lr=0.002" | FileCheck %s --check-prefix=ADAM
// RUN: amp-opt %s --split-input-file --amp-build-train-step="optimizer=sgd lr=0.5 weight-decay=0.25" | FileCheck %s --check-prefix=SGD
// RUN: amp-opt %s --split-input-file --amp-build-train-step="optimizer=adamw lr=0.5 weight-decay=0.25" | FileCheck %s --check-prefix=ADAMW
// Every step built here passes the contract (the builder checks it, and so
// does amp-verify-training-step).
// RUN: amp-opt %s --split-input-file --amp-build-train-step --amp-verify-training-step -o /dev/null
// RUN: amp-opt %s --split-input-file --amp-build-train-step="optimizer=adamw weight-decay=0.01" --amp-verify-training-step -o /dev/null

// A linear layer in torch-mlir's form (weight out x in, transposed; bias
// broadcast): both constants become parameters that start from their values,
// the loss is softmax cross-entropy against an i32 label, the optimizer SGD
// with momentum (one buffer per parameter), and the model is replaced by the
// training step and the eval step.
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#cols = affine_map<(d0, d1) -> (d1)>
module {
func.func @linear(%x: tensor<4x3xf32>) -> tensor<4x2xf32> {
  %w = arith.constant dense<[[0.1, -0.2, 0.3], [0.4, 0.5, -0.6]]> : tensor<2x3xf32>
  %b = arith.constant dense<[0.01, -0.02]> : tensor<2xf32>
  %zero = arith.constant 0.0 : f32
  %et = tensor.empty() : tensor<3x2xf32>
  %wt = linalg.transpose ins(%w : tensor<2x3xf32>) outs(%et : tensor<3x2xf32>) permutation = [1, 0]
  %e = tensor.empty() : tensor<4x2xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x2xf32>) -> tensor<4x2xf32>
  %mm = linalg.matmul ins(%x, %wt : tensor<4x3xf32>, tensor<3x2xf32>) outs(%f : tensor<4x2xf32>) -> tensor<4x2xf32>
  %y = linalg.generic {indexing_maps = [#id2, #cols, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %b : tensor<4x2xf32>, tensor<2xf32>) outs(%e : tensor<4x2xf32>) {
  ^bb0(%a: f32, %bb: f32, %o: f32):
    %r = arith.addf %a, %bb : f32
    linalg.yield %r : f32
  } -> tensor<4x2xf32>
  return %y : tensor<4x2xf32>
}
}
// CHECK-NOT: func.func @linear
// CHECK-LABEL: func.func @train_step(
// CHECK-SAME: %[[W:[a-z0-9]+]]: tensor<2x3xf32> {amp.initial_value = dense<{{\[\[}}1.000000e-01, -2.000000e-01, 3.000000e-01], [4.000000e-01, 5.000000e-01, -6.000000e-01]]> : tensor<2x3xf32>, amp.role = "param"},
// CHECK-SAME: %[[B:[a-z0-9]+]]: tensor<2xf32> {amp.initial_value = dense<[0.00999999977, -2.000000e-02]> : tensor<2xf32>, amp.role = "param"},
// CHECK-SAME: %[[VW:[a-z0-9]+]]: tensor<2x3xf32> {amp.role = "opt_state"}, %[[VB:[a-z0-9]+]]: tensor<2xf32> {amp.role = "opt_state"},
// CHECK-SAME: %[[X:[a-z0-9]+]]: tensor<4x3xf32> {amp.role = "input"}, %[[Y:[a-z0-9]+]]: tensor<4xi32> {amp.classes = 2 : i64, amp.role = "label"})
// CHECK-SAME: -> (tensor<f32> {amp.role = "loss"}, tensor<2x3xf32> {amp.updates = 0 : i64}, tensor<2xf32> {amp.updates = 1 : i64}, tensor<2x3xf32> {amp.updates = 2 : i64}, tensor<2xf32> {amp.updates = 3 : i64})
// CHECK-SAME: attributes {amp.train_step}
// The forward reads the parameter where the model read the constant.
// CHECK-NOT: arith.constant dense<
// CHECK: linalg.transpose ins(%[[W]] : tensor<2x3xf32>)
// CHECK: linalg.matmul ins(%[[X]],
// Softmax cross-entropy: row max, sum of exp(z - m), the label's logit by a
// one-hot compare (no gather), mean of m + log s - z_y over the batch of 4.
// CHECK: arith.maximumf
// CHECK: math.exp
// CHECK: ins(%{{.*}}, %[[Y]] : tensor<4x2xf32>, tensor<4xi32>)
// CHECK: linalg.index 1
// CHECK: arith.cmpi eq
// CHECK: arith.select
// CHECK: math.log
// CHECK: arith.constant 2.500000e-01 : f32
// CHECK: %[[SEED:.*]] = amp.loss_grad %[[LOSS:.*]] : tensor<f32>
// CHECK-NOT: amp.loss_grad
// CHECK: %[[GW:.*]] = amp.grad %{{.*}}, %[[W]] : tensor<2x3xf32>
// CHECK: %[[GB:.*]] = amp.grad %{{.*}}, %[[B]] : tensor<2xf32>
// Momentum (mu = 0.9, lr = 0.01): v' = mu v + g; w' = w - lr v'.
// CHECK: %[[VW2:.*]] = linalg.generic {{.*}} ins(%[[VW]], %[[GW]] :
// CHECK: arith.constant 0.899999976 : f32
// CHECK: %[[W2:.*]] = linalg.generic {{.*}} ins(%[[W]], %[[VW2]] :
// CHECK: arith.constant 0.00999999977 : f32
// CHECK: %[[VB2:.*]] = linalg.generic {{.*}} ins(%[[VB]], %[[GB]] :
// CHECK: %[[B2:.*]] = linalg.generic {{.*}} ins(%[[B]], %[[VB2]] :
// CHECK: return %[[LOSS]], %[[W2]], %[[B2]], %[[VW2]], %[[VB2]]
// CHECK-LABEL: func.func @eval_step(
// CHECK-SAME: %[[EW:[a-z0-9]+]]: tensor<2x3xf32> {amp.role = "param"}, %{{.*}}: tensor<2xf32> {amp.role = "param"}, %{{.*}}: tensor<4x3xf32> {amp.role = "input"})
// CHECK-SAME: -> (tensor<4x2xf32> {amp.role = "logits"}) attributes {amp.eval_step}
// CHECK: linalg.transpose ins(%[[EW]]
// CHECK-NOT: amp.
// CHECK: return

// Adam: first moments, second moments, then the i32 step counter; t' = t + 1
// and the bias corrections 1 - beta^t' are scalars every update reads.
// ADAM-LABEL: func.func @train_step(
// ADAM-SAME: %{{.*}}: tensor<2x3xf32> {{{.*}}amp.role = "param"}, %{{.*}}: tensor<2xf32> {{{.*}}amp.role = "param"},
// ADAM-SAME: %[[M0:[a-z0-9]+]]: tensor<2x3xf32> {amp.role = "opt_state"}, %[[M1:[a-z0-9]+]]: tensor<2xf32> {amp.role = "opt_state"},
// ADAM-SAME: %[[V0:[a-z0-9]+]]: tensor<2x3xf32> {amp.role = "opt_state"}, %[[V1:[a-z0-9]+]]: tensor<2xf32> {amp.role = "opt_state"},
// ADAM-SAME: %[[T:[a-z0-9]+]]: tensor<i32> {amp.role = "opt_state"}, %{{.*}}: tensor<4x3xf32> {amp.role = "input"}, %{{.*}}: tensor<4xi32> {amp.classes = {{[0-9]+}} : i64, amp.role = "label"})
// ADAM-SAME: tensor<i32> {amp.updates = 6 : i64})
// ADAM: %[[T2:.*]] = arith.addi %[[T]], %{{.*}} : tensor<i32>
// ADAM: %[[TI:.*]] = tensor.extract %[[T2]][] : tensor<i32>
// The bias corrections in f64 (as PyTorch's Python floats), rounded once.
// ADAM: %[[TF:.*]] = arith.sitofp %[[TI]] : i32 to f64
// ADAM: math.powf %{{.*}}, %[[TF]] : f64
// ADAM: math.powf %{{.*}}, %[[TF]] : f64
// ADAM: arith.truncf %{{.*}} : f64 to f32
// ADAM: math.sqrt %{{.*}} : f64
// ADAM: arith.truncf %{{.*}} : f64 to f32
// ADAM: ins(%[[M0]], %{{.*}} :
// ADAM: arith.constant 0.899999976 : f32
// ADAM: arith.constant 1.000000e-01 : f32
// ADAM: ins(%[[V0]], %{{.*}} :
// ADAM: arith.constant 9.990000e-01 : f32
// ADAM: arith.mulf %{{.*}}, %{{.*}} : f32
// ADAM: math.sqrt
// ADAM: arith.constant 9.99999993E-9 : f32
// ADAM: return {{.*}}, %[[T2]] :

// SGD with weight decay 0.25 on the unscaled gradient g (the amp.grad
// result): w' = w - lr (g + wd w); no optimizer state.
// SGD-LABEL: func.func @train_step(
// SGD-SAME: %[[W:[a-z0-9]+]]: tensor<2x3xf32> {{{.*}}amp.role = "param"}, %{{.*}}: tensor<2xf32> {{{.*}}amp.role = "param"}, %{{.*}}: tensor<4x3xf32> {amp.role = "input"}
// SGD: %[[G:.*]] = amp.grad %{{.*}}, %[[W]]
// SGD: linalg.generic {{.*}} ins(%[[G]], %[[W]] :
// SGD-NEXT: ^bb0(%[[GE:.*]]: f32, %[[WE:.*]]: f32, %{{.*}}: f32):
// SGD-NEXT: %[[WD:.*]] = arith.constant 2.500000e-01 : f32
// SGD-NEXT: %[[DW:.*]] = arith.mulf %[[WD]], %[[WE]] : f32
// SGD-NEXT: %[[D:.*]] = arith.addf %[[GE]], %[[DW]] : f32
// SGD-NEXT: %[[LR:.*]] = arith.constant 5.000000e-01 : f32
// SGD-NEXT: %[[STEP:.*]] = arith.mulf %[[LR]], %[[D]] : f32
// SGD-NEXT: arith.subf %[[WE]], %[[STEP]] : f32

// AdamW: the decay is decoupled, w (1 - lr wd) = 0.875 w; the moments read
// the gradient alone.
// ADAMW-LABEL: func.func @train_step(
// ADAMW-SAME: %{{[a-z0-9]+}}: tensor<2x3xf32> {{{.*}}"param"}, %{{[a-z0-9]+}}: tensor<2xf32> {{{.*}}"param"}, %[[M0:[a-z0-9]+]]: tensor<2x3xf32>
// ADAMW: ins(%[[M0]], %{{[0-9]+}} : tensor<2x3xf32>, tensor<2x3xf32>)
// ADAMW-NEXT: ^bb0(%{{.*}}: f32, %[[G:.*]]: f32, %{{.*}}: f32):
// ADAMW-NEXT: arith.constant 0.899999976 : f32
// ADAMW-NEXT: arith.mulf
// ADAMW-NEXT: arith.constant 1.000000e-01 : f32
// ADAMW-NEXT: arith.mulf %{{.*}}, %[[G]] : f32
// ADAMW: arith.constant 8.750000e-01 : f32
