// RUN: amp-opt %s -split-input-file -amp-instrument-underflow | FileCheck %s
// RUN: amp-opt %s -split-input-file -amp-instrument-underflow=precision=bf16 | FileCheck %s --check-prefix=BF16
// RUN: amp-opt %s -split-input-file -amp-instrument-underflow -amp-loss-scaling | FileCheck %s --check-prefix=SCALED
// RUN: not amp-opt %s -split-input-file -amp-instrument-underflow=precision=f32 2>&1 | FileCheck %s --check-prefix=PREC
// RUN: not amp-opt %s -split-input-file -amp-instrument-underflow -amp-instrument-underflow 2>&1 | FileCheck %s --check-prefix=TWICE
// PREC: error: amp-instrument-underflow: precision=f32: the pass counts values that flush to zero or subnormal in f16 or bf16; choose one of them
// TWICE: error: training step 'step' is already instrumented

// Every f32 tensor of the backward (from the seed to amp.grad) is counted
// once; the seed itself, forward values (%fwd) and the update are not. The two sums become
// the results "underflow_count" and "underflow_total".
// CHECK-LABEL: func.func @step
// CHECK-SAME: -> (tensor<f32> {amp.role = "loss"}, tensor<4xf32> {amp.updates = 0 : i64}, tensor<i64> {amp.role = "underflow_count"}, tensor<i64> {amp.role = "underflow_total"})
// CHECK-NOT: amp.count_underflow
// CHECK: %[[D:.*]] = tensor.splat
// CHECK-NEXT: %[[C1:.*]], %[[T1:.*]] = amp.count_underflow %[[D]] {precision = f16} : tensor<4xf32>
// CHECK: %[[DW:.*]] = arith.mulf %[[D]], %{{.*}} : tensor<4xf32>
// CHECK-NEXT: %[[C2:.*]], %[[T2:.*]] = amp.count_underflow %[[DW]] {precision = f16} : tensor<4xf32>
// CHECK-NOT: amp.count_underflow
// CHECK: %[[S1:.*]] = arith.addi %{{.*}}, %[[C1]] : tensor<i64>
// CHECK: %[[N1:.*]] = arith.addi %{{.*}}, %[[T1]] : tensor<i64>
// CHECK: %[[S2:.*]] = arith.addi %[[S1]], %[[C2]] : tensor<i64>
// CHECK: %[[N2:.*]] = arith.addi %[[N1]], %[[T2]] : tensor<i64>
// CHECK: return %{{.*}}, %{{.*}}, %[[S2]], %[[N2]]
// BF16: amp.count_underflow {{.*}} {precision = bf16}
// After loss scaling the counters stay outside the skip region and see the
// scaled backward (the seed is S there).
// SCALED-LABEL: func.func @step
// SCALED: amp.count_underflow
// SCALED: amp.count_underflow
// SCALED: amp.unscale_and_check
// SCALED: scf.if
// SCALED-NOT: amp.count_underflow
// SCALED: return
func.func @step(%w: tensor<4xf32> {amp.role = "param"},
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
