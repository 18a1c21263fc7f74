// RUN: amp-opt %s -split-input-file -amp-loss-scaling | FileCheck %s
// RUN: amp-opt %s -split-input-file -amp-loss-scaling="mode=static init-scale=1024" | FileCheck %s --check-prefix=STATIC
// RUN: amp-opt %s -split-input-file -amp-loss-scaling=mode=none | FileCheck %s --check-prefix=NONE
// init-scale is recorded on the loss_scale argument (the caller feeds S), in
// the pass and in the pipeline; it is the only difference in the IR.
// RUN: amp-opt %s -split-input-file -amp-loss-scaling="init-scale=1024" | FileCheck %s --check-prefix=INIT
// RUN: amp-opt %s -split-input-file -amp-mixed-precision="precision=f32 loss-scale=dynamic init-scale=1024" | FileCheck %s --check-prefix=INIT
// INIT-LABEL: func @step
// INIT-SAME: tensor<f32> {amp.initial_value = 1.024000e+03 : f32, amp.role = "loss_scale"}
// RUN: amp-opt %s -split-input-file -amp-loss-scaling="growth-interval=7 growth-factor=4.0 backoff-factor=0.25 hysteresis=3 min-scale=1 max-scale=65536" | FileCheck %s --check-prefix=OPTS
// auto (the default) is dynamic for f16 and none for bf16 and f32.
// RUN: amp-opt %s -split-input-file -amp-loss-scaling=precision=bf16 | FileCheck %s --check-prefix=NONE
// RUN: amp-opt %s -split-input-file -amp-loss-scaling="mode=auto precision=f32" | FileCheck %s --check-prefix=NONE
// RUN: amp-opt %s -split-input-file -amp-loss-scaling="mode=auto precision=f16" | FileCheck %s --check-prefix=AUTO16
// AUTO16-LABEL: func @step
// AUTO16-SAME: {amp.initial_value = 3.276800e+04 : f32, amp.role = "loss_scale"}

// Two parameters, one optimizer state (momentum of %w), SGD with momentum.
// CHECK-LABEL: func @step
// CHECK-SAME: %[[W:[^:]*]]: tensor<4xf32> {amp.role = "param"}
// CHECK-SAME: %[[B:[^:]*]]: tensor<2xf32> {amp.role = "param"}
// CHECK-SAME: %[[V:[^:]*]]: tensor<4xf32> {amp.role = "opt_state"}
// The added state arguments carry the value a driver feeds them at the first
// step (amp.initial_value): S = init-scale (default 2^15), counters 0.
// CHECK-SAME: %[[S:[^:]*]]: tensor<f32> {amp.initial_value = 3.276800e+04 : f32, amp.role = "loss_scale"}
// CHECK-SAME: %[[T:[^:]*]]: tensor<i32> {amp.initial_value = 0 : i32, amp.role = "growth_tracker"}
// CHECK-SAME: %[[H:[^:]*]]: tensor<i32> {amp.initial_value = 0 : i32, amp.role = "hysteresis_tracker"}
// CHECK-SAME: %[[K:[^:]*]]: tensor<i32> {amp.initial_value = 0 : i32, amp.role = "consecutive_skips"})
// CHECK-SAME: -> (tensor<f32> {amp.role = "loss"}, tensor<4xf32> {amp.updates = 0 : i64}, tensor<2xf32> {amp.updates = 1 : i64}, tensor<4xf32> {amp.updates = 2 : i64},
// CHECK-SAME: tensor<f32> {amp.role = "loss_scale", amp.updates = 5 : i64}, tensor<i32> {amp.role = "growth_tracker", amp.updates = 6 : i64}, tensor<i32> {amp.role = "hysteresis_tracker", amp.updates = 7 : i64}, tensor<i32> {amp.role = "consecutive_skips", amp.updates = 8 : i64}, tensor<i1> {amp.role = "found_inf"})
// 1/S in f64, rounded to f32.
// CHECK: %[[SV:.*]] = tensor.extract %[[S]][]
// CHECK: %[[S64:.*]] = arith.extf %[[SV]] : f32 to f64
// CHECK: %[[INV64:.*]] = arith.divf %{{.*}}, %[[S64]] : f64
// CHECK: %[[INV32:.*]] = arith.truncf %[[INV64]] : f64 to f32
// CHECK: %[[INV:.*]] = tensor.from_elements %[[INV32]]
// The seed is S.
// CHECK-NOT: amp.loss_grad
// CHECK: %[[SEED:.*]] = tensor.extract %[[S]][]
// CHECK: %[[GW:.*]] = tensor.splat %[[SEED]]
// One fused unscale + check covers both gradients.
// CHECK: %[[U:.*]]:2, %[[FOUND:.*]] = amp.unscale_and_check %[[GW]], %{{.*}} inv_scale %[[INV]] : tensor<4xf32>, tensor<2xf32>
// CHECK-NOT: amp.unscale_and_check
// CHECK-NOT: amp.grad
// CHECK: %[[F:.*]] = tensor.extract %[[FOUND]][]
// CHECK: %[[NEW:.*]]:3 = scf.if %[[F]] -> (tensor<4xf32>, tensor<2xf32>, tensor<4xf32>) {
// CHECK-NEXT: scf.yield %[[W]], %[[B]], %[[V]]
// CHECK-NEXT: } else {
// CHECK: arith.addf %{{.*}}, %[[U]]#0
// CHECK: arith.subf %[[B]], %{{.*}}
// CHECK: scf.yield
// CHECK: }
// The defaults (PyTorch's rule, hysteresis 1, clamps 2^-24 and 2^24) are
// not printed.
// CHECK: %[[S1:[^,]*]], %[[T1:[^,]*]], %[[H1:[^ ]*]] = amp.update_scale %[[S]], %[[T]], %[[H]], %[[FOUND]] : tensor<f32>, tensor<i32>, tensor<i32>, tensor<i1>
// consecutive_skips' = found_inf ? consecutive_skips + 1 : 0.
// CHECK: %[[KV:.*]] = tensor.extract %[[K]][]
// CHECK: %[[K1:.*]] = arith.addi %[[KV]], %{{.*}} : i32
// CHECK: %[[KS:.*]] = arith.select %[[F]], %[[K1]], %{{.*}} : i32
// CHECK: %[[KT:.*]] = tensor.from_elements %[[KS]] : tensor<i32>
// CHECK: return %{{.*}}, %[[NEW]]#0, %[[NEW]]#1, %[[NEW]]#2, %[[S1]], %[[T1]], %[[H1]], %[[KT]], %[[FOUND]]

// Static: S is a constant, the step still checks and skips, no scale state.
// STATIC-LABEL: func @step
// STATIC-NOT: loss_scale
// STATIC-SAME: tensor<i32> {amp.initial_value = 0 : i32, amp.role = "consecutive_skips"})
// STATIC-SAME: -> (tensor<f32> {amp.role = "loss"}, tensor<4xf32> {amp.updates = 0 : i64}, tensor<2xf32> {amp.updates = 1 : i64}, tensor<4xf32> {amp.updates = 2 : i64}, tensor<i32> {amp.role = "consecutive_skips", amp.updates = 5 : i64}, tensor<i1> {amp.role = "found_inf"})
// STATIC-DAG: arith.constant dense<1.024000e+03> : tensor<f32>
// STATIC-DAG: arith.constant dense<9.765625E-4> : tensor<f32>
// STATIC: amp.unscale_and_check
// STATIC: scf.if
// STATIC-NOT: amp.update_scale

// None: unchanged.
// NONE-LABEL: func @step
// NONE: amp.loss_grad
// NONE-COUNT-2: amp.grad
// NONE-NOT: scf.if

// OPTS: amp.update_scale {{.*}} {backoff_factor = 2.500000e-01 : f32, growth_factor = 4.000000e+00 : f32, growth_interval = 7 : i32, hysteresis = 3 : i32, max_scale = 6.553600e+04 : f32, min_scale = 1.000000e+00 : f32}
func.func @step(%w: tensor<4xf32> {amp.role = "param"},
                %b: tensor<2xf32> {amp.role = "param"},
                %v: tensor<4xf32> {amp.role = "opt_state"},
                %x: tensor<2x4xf32> {amp.role = "input"},
                %y: tensor<2xi32> {amp.role = "label"})
    -> (tensor<f32> {amp.role = "loss"}, tensor<4xf32> {amp.updates = 0 : i64},
        tensor<2xf32> {amp.updates = 1 : i64}, tensor<4xf32> {amp.updates = 2 : i64})
    attributes {amp.train_step} {
  %loss = tensor.extract_slice %w[0] [1] [1] : tensor<4xf32> to tensor<f32>
  %seed = amp.loss_grad %loss : tensor<f32>
  %s = tensor.extract %seed[] : tensor<f32>
  %dw = tensor.splat %s : tensor<4xf32>
  %db = tensor.splat %s : tensor<2xf32>
  %gw = amp.grad %dw, %w : tensor<4xf32>
  %gb = amp.grad %db, %b : tensor<2xf32>
  %mu = arith.constant dense<0.9> : tensor<4xf32>
  %vm = arith.mulf %v, %mu : tensor<4xf32>
  %v1 = arith.addf %vm, %gw : tensor<4xf32>
  %w1 = arith.subf %w, %v1 : tensor<4xf32>
  %b1 = arith.subf %b, %gb : tensor<2xf32>
  return %loss, %w1, %b1, %v1 : tensor<f32>, tensor<4xf32>, tensor<2xf32>, tensor<4xf32>
}

// -----

// A state result that does not depend on the gradients (a step counter)
// still goes through the skip branch: a skipped step leaves it unchanged.
// CHECK-LABEL: func @counter
// CHECK-SAME: %[[W:[^:]*]]: tensor<4xf32> {amp.role = "param"}
// CHECK-SAME: %[[N:[^:]*]]: tensor<i32> {amp.role = "opt_state"}
// CHECK: %[[N1:.*]] = arith.addi %[[N]]
// CHECK: scf.if %{{.*}} -> (tensor<4xf32>, tensor<i32>) {
// CHECK-NEXT: scf.yield %[[W]], %[[N]]
// CHECK: } else {
// CHECK: scf.yield %{{.*}}, %[[N1]]
func.func @counter(%w: tensor<4xf32> {amp.role = "param"},
                   %n: tensor<i32> {amp.role = "opt_state"},
                   %x: tensor<2x4xf32> {amp.role = "input"},
                   %y: tensor<2xi32> {amp.role = "label"})
    -> (tensor<f32> {amp.role = "loss"}, tensor<4xf32> {amp.updates = 0 : i64},
        tensor<i32> {amp.updates = 1 : i64})
    attributes {amp.train_step} {
  %loss = tensor.extract_slice %w[0] [1] [1] : tensor<4xf32> to tensor<f32>
  %seed = amp.loss_grad %loss : tensor<f32>
  %s = tensor.extract %seed[] : tensor<f32>
  %dw = tensor.splat %s : tensor<4xf32>
  %gw = amp.grad %dw, %w : tensor<4xf32>
  %one = arith.constant dense<1> : tensor<i32>
  %n1 = arith.addi %n, %one : tensor<i32>
  %w1 = arith.subf %w, %gw : tensor<4xf32>
  return %loss, %w1, %n1 : tensor<f32>, tensor<4xf32>, tensor<i32>
}
