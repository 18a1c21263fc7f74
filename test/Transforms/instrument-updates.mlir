// RUN: amp-opt %s -split-input-file -amp-instrument-updates | FileCheck %s
// RUN: amp-opt %s -split-input-file -amp-master-weights=mode=bf16 -amp-instrument-updates | FileCheck %s --check-prefix=BF16
// RUN: not amp-opt %s -split-input-file -amp-instrument-updates -amp-instrument-updates 2>&1 | FileCheck %s --check-prefix=TWICE
// TWICE: error: training step 'step' is already instrumented (it has an "update_stats" result); run amp-instrument-updates once
// (Exact numbers on a hand-computed case: unittests/Runtime/
// MasterWeightsExecutionTest.cpp, UpdateStats.)

// Five f64 sums per parameter over its elements (||w'-w||^2, ||w||^2,
// changed, lost, bf16_lost), one row per parameter, as a new result.
// CHECK-LABEL: func.func @step
// CHECK-SAME: -> (tensor<f32> {amp.role = "loss"}, tensor<4xf32> {amp.updates = 0 : i64}, tensor<3xf32> {amp.updates = 1 : i64}, tensor<2x5xf64> {amp.role = "update_stats"})
// CHECK-COUNT-10: linalg.generic {{.*}} iterator_types = ["reduction"]
// CHECK: %[[S:.*]] = tensor.from_elements {{.*}} : tensor<2x5xf64>
// CHECK: return {{.*}}, %[[S]]
// With bf16 storage the intended value is the one amp.rounds_update rounds:
// BF16-LABEL: func.func @step
// BF16: %[[V:.*]] = arith.subf
// BF16: %[[R:.*]] = arith.truncf %[[V]] {amp.rounds_update}
// BF16: %[[S:.*]] = arith.extf %[[R]] : tensor<4xbf16> to tensor<4xf32>
// BF16: linalg.generic {{.*}} ins(%{{.*}}, %[[V]], %[[S]] : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>)
func.func @step(%w: tensor<4xf32> {amp.role = "param"},
                %b: tensor<3xf32> {amp.role = "param"},
                %x: tensor<2x4xf32> {amp.role = "input"},
                %y: tensor<2xi32> {amp.role = "label"})
    -> (tensor<f32> {amp.role = "loss"}, tensor<4xf32> {amp.updates = 0 : i64},
        tensor<3xf32> {amp.updates = 1 : i64})
    attributes {amp.train_step} {
  %fwd = arith.mulf %w, %w : tensor<4xf32>
  %loss = tensor.extract_slice %fwd[0] [1] [1] : tensor<4xf32> to tensor<f32>
  %seed = amp.loss_grad %loss : tensor<f32>
  %s = tensor.extract %seed[] : tensor<f32>
  %d = tensor.splat %s : tensor<4xf32>
  %dw = arith.mulf %d, %w : tensor<4xf32>
  %g = amp.grad %dw, %w : tensor<4xf32>
  %db = tensor.splat %s : tensor<3xf32>
  %gb = amp.grad %db, %b : tensor<3xf32>
  %w1 = arith.subf %w, %g : tensor<4xf32>
  %b1 = arith.subf %b, %gb : tensor<3xf32>
  return %loss, %w1, %b1 : tensor<f32>, tensor<4xf32>, tensor<3xf32>
}
