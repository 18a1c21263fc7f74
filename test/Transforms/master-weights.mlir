// RUN: amp-opt %s -split-input-file -amp-master-weights=mode=bf16 | FileCheck %s
// RUN: amp-opt %s -split-input-file -amp-master-weights=mode=bf16-kahan | FileCheck %s --check-prefix=KAHAN
// RUN: amp-opt %s -split-input-file -amp-master-weights="mode=bf16-stochastic seed=3" | FileCheck %s --check-prefix=SR
// RUN: amp-opt %s -split-input-file -amp-loss-scaling=mode=dynamic -amp-master-weights=mode=bf16-kahan | FileCheck %s --check-prefix=SKIP
// RUN: amp-opt %s -split-input-file -amp-master-weights=mode=f32 | FileCheck %s --check-prefix=F32
// RUN: amp-opt %s -split-input-file -amp-master-weights=mode=bf16 -amp-verify-training-step | FileCheck %s --check-prefix=VERIFY
// RUN: not amp-opt %s -split-input-file -amp-master-weights=mode=bf16 -amp-master-weights=mode=bf16 2>&1 | FileCheck %s --check-prefix=TWICE
// RUN: not amp-opt %s -amp-master-weights=mode=bf17 2>&1 | FileCheck %s --check-prefix=BADMODE
// TWICE: error: parameter argument #0 is stored as 'tensor<4xbf16>', not f32; amp-master-weights rewrites fp32 master weights (run it once)
// BADMODE: 'bf17' is not a master-weights mode (f32, bf16, bf16-kahan or bf16-stochastic)

// The parameter is stored in bf16 and read once through arith.extf; the
// forward, backward (amp.grad marks the extf) and update stay f32; the new
// value is rounded to nearest even, marked amp.rounds_update. The eval
// step reads the same bf16 parameter; initial values are rounded
// (1.00390625 = 1 + 2^-8 is a tie: to even, 1.0).
// CHECK-LABEL: func.func @step
// CHECK-SAME: %[[W:.*]]: tensor<4xbf16> {amp.initial_value = dense<[1.000000e+00, 1.000000e+00, 2.000000e+00, 3.000000e+00]> : tensor<4xbf16>, amp.role = "param"}
// CHECK-SAME: -> (tensor<f32> {amp.role = "loss"}, tensor<4xbf16> {amp.updates = 0 : i64})
// CHECK: %[[W32:.*]] = arith.extf %[[W]] : tensor<4xbf16> to tensor<4xf32>
// CHECK: amp.grad %{{.*}}, %[[W32]] : tensor<4xf32>
// CHECK: %[[NEW:.*]] = arith.subf %[[W32]], %{{.*}} : tensor<4xf32>
// CHECK: %[[R:.*]] = arith.truncf %[[NEW]] {amp.rounds_update} : tensor<4xf32> to tensor<4xbf16>
// CHECK: return %{{.*}}, %[[R]] : tensor<f32>, tensor<4xbf16>
// CHECK-LABEL: func.func @eval
// CHECK-SAME: %[[EW:.*]]: tensor<4xbf16> {amp.role = "param"}
// CHECK: arith.extf %[[EW]] : tensor<4xbf16> to tensor<4xf32>
// Kahan: a bf16 compensation buffer, an opt_state that starts at 0, and
// its new value.
// KAHAN-LABEL: func.func @step
// KAHAN-SAME: %[[W:[^:]*]]: tensor<4xbf16>
// KAHAN-SAME: %[[C:[^:]*]]: tensor<4xbf16> {amp.role = "opt_state", amp.state = "kahan_compensation"}
// KAHAN-SAME: -> (tensor<f32> {amp.role = "loss"}, tensor<4xbf16> {amp.updates = 0 : i64}, tensor<4xbf16> {amp.updates = 3 : i64})
// KAHAN: %[[K:.*]]:2 = linalg.generic {{.*}} ins(%{{.*}}, %[[W]], %[[C]] : tensor<4xf32>, tensor<4xbf16>, tensor<4xbf16>) {{.*}} attrs = {amp.rounds_update}
// KAHAN: arith.subf
// KAHAN: arith.addf
// KAHAN: arith.addf
// KAHAN: arith.truncf
// KAHAN: arith.subf
// KAHAN: arith.truncf
// KAHAN: return %{{.*}}, %[[K]]#0, %[[K]]#1
// Stochastic rounding: a step counter (opt_state, +1 per step) keys the
// random stream; the rounding adds 16 random bits and truncates.
// SR-LABEL: func.func @step
// SR-SAME: %{{[^:]*}}: tensor<i32> {amp.role = "opt_state", amp.state = "rounding_counter"}
// SR-SAME: tensor<i32> {amp.updates = 3 : i64}
// SR: linalg.generic {{.*}} attrs = {amp.rounds_update}
// SR: linalg.index 0
// SR: arith.bitcast {{.*}} : f32 to i32
// SR: arith.andi {{.*}}, %c-65536_i32
// SR: arith.cmpf uno
// After loss scaling a skipped step keeps w and c: found_inf is an input
// of the Kahan update.
// SKIP-LABEL: func.func @step
// SKIP: %[[IF:.*]] = scf.if
// SKIP: linalg.generic {{.*}} ins(%[[IF]], {{.*}} : tensor<4xf32>, tensor<4xbf16>, tensor<4xbf16>, tensor<i1>)
// SKIP: arith.select
// SKIP: arith.select
// F32-LABEL: func.func @step
// F32-SAME: tensor<4xf32> {amp.initial_value = dense<[1.000000e+00, 1.00390625, 2.000000e+00, 3.000000e+00]> : tensor<4xf32>, amp.role = "param"}
// F32-NOT: bf16
// VERIFY-LABEL: func.func @step
func.func @step(%w: tensor<4xf32> {amp.role = "param", amp.initial_value = dense<[1.0, 1.00390625, 2.0, 3.0]> : tensor<4xf32>},
                %x: tensor<2x4xf32> {amp.role = "input"},
                %y: tensor<2xi32> {amp.role = "label"})
    -> (tensor<f32> {amp.role = "loss"}, tensor<4xf32> {amp.updates = 0 : i64})
    attributes {amp.train_step} {
  %fwd = arith.mulf %w, %w : tensor<4xf32>
  %loss = tensor.extract_slice %fwd[0] [1] [1] : tensor<4xf32> to tensor<f32>
  %seed = amp.loss_grad %loss : tensor<f32>
  %s = tensor.extract %seed[] : tensor<f32>
  %d = tensor.splat %s : tensor<4xf32>
  %dw = arith.mulf %d, %w : tensor<4xf32>
  %g = amp.grad %dw, %w : tensor<4xf32>
  %w1 = arith.subf %w, %g : tensor<4xf32>
  return %loss, %w1 : tensor<f32>, tensor<4xf32>
}
func.func @eval(%w: tensor<4xf32> {amp.role = "param"},
                %x: tensor<2x4xf32> {amp.role = "input"})
    -> (tensor<2x4xf32> {amp.role = "logits"}) attributes {amp.eval_step} {
  %l = arith.mulf %x, %x : tensor<2x4xf32>
  return %l : tensor<2x4xf32>
}
