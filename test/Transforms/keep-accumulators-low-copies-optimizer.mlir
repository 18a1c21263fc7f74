// amp-keep-accumulators-low, copies: only the backward (ops after the seed
// that depend on it) reads the rounded copy of the probabilities; an
// optimizer-state update after the seed that reads them but no gradient
// keeps reading the f32 softmax (found by a break-it run, 2026-12-06).
// RUN: amp-opt %S/Inputs/keep-low-optimizer-reads-activation.mlir --amp-autocast=precision=bf16 --amp-keep-accumulators-low | FileCheck %s
// CHECK-LABEL: func.func @train_step(
// CHECK: %[[P:.*]] = linalg.softmax dimension(2)
// CHECK: %[[T:.*]] = arith.truncf %[[P]] : tensor<4x8x8xf32> to tensor<4x8x8xbf16>
// CHECK-NEXT: %[[E:.*]] = arith.extf %[[T]]
// CHECK: amp.loss_grad
// The softmax backward reads the copy.
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %[[E]] : tensor<4x8x8xf32>, tensor<4x8x8xf32>)
// The state update reads the f32 value.
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %[[P]] : tensor<4x8x8xf32>, tensor<4x8x8xf32>)
// CHECK: return
