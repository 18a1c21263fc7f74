// RUN: amp-opt %s -split-input-file -amp-autocast | FileCheck %s
// RUN: amp-opt %s -split-input-file -amp-autocast=precision=bf16 | FileCheck %s --check-prefix=BF16
// Idempotent: a second run changes nothing.
// RUN: amp-opt %s -split-input-file -amp-autocast > %t.once.mlir
// RUN: amp-opt %t.once.mlir -split-input-file -amp-autocast > %t.twice.mlir
// RUN: diff %t.once.mlir %t.twice.mlir

// A matmul reads f16 inputs and keeps its f32 accumulator and result.
// CHECK-LABEL: func @matmul
// CHECK-SAME: (%[[A:.*]]: tensor<8x16xf32>, %[[B:.*]]: tensor<16x4xf32>, %[[C:.*]]: tensor<8x4xf32>)
// CHECK-DAG: %[[B16:.*]] = arith.truncf %[[B]] : tensor<16x4xf32> to tensor<16x4xf16>
// CHECK-DAG: %[[A16:.*]] = arith.truncf %[[A]] : tensor<8x16xf32> to tensor<8x16xf16>
// CHECK: %[[R:.*]] = linalg.matmul ins(%[[A16]], %[[B16]] : tensor<8x16xf16>, tensor<16x4xf16>) outs(%[[C]] : tensor<8x4xf32>) -> tensor<8x4xf32>
// CHECK: return %[[R]] : tensor<8x4xf32>
// BF16-LABEL: func @matmul
// BF16: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<8x16xbf16>, tensor<16x4xbf16>) outs(%{{.*}} : tensor<8x4xf32>)
func.func @matmul(%a: tensor<8x16xf32>, %b: tensor<16x4xf32>, %c: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<8x16xf32>, tensor<16x4xf32>) outs(%c : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %r : tensor<8x4xf32>
}

// -----

// A weight used by two matmuls is truncated once; the cast is shared.
// CHECK-LABEL: func @shared_weight
// CHECK-SAME: (%[[W:.*]]: tensor<16x4xf32>
// CHECK-COUNT-1: arith.truncf %[[W]]
// CHECK-NOT: arith.truncf %[[W]]
// CHECK: return
func.func @shared_weight(%w: tensor<16x4xf32>, %x: tensor<8x16xf32>, %y: tensor<8x16xf32>,
                         %c: tensor<8x4xf32>) -> (tensor<8x4xf32>, tensor<8x4xf32>) {
  %r0 = linalg.matmul ins(%x, %w : tensor<8x16xf32>, tensor<16x4xf32>) outs(%c : tensor<8x4xf32>) -> tensor<8x4xf32>
  %r1 = linalg.matmul ins(%y, %w : tensor<8x16xf32>, tensor<16x4xf32>) outs(%c : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %r0, %r1 : tensor<8x4xf32>, tensor<8x4xf32>
}

// -----

// A contraction written as linalg.generic (A^T B): f16 operands, the body
// extends them to f32 before the multiply-add.
#mapA = affine_map<(i, j, k) -> (k, i)>
#mapB = affine_map<(i, j, k) -> (k, j)>
#mapC = affine_map<(i, j, k) -> (i, j)>
// CHECK-LABEL: func @generic_contraction
// CHECK: %[[R:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<8x16xf16>, tensor<8x4xf16>) outs(%{{.*}} : tensor<16x4xf32>)
// CHECK-NEXT: ^bb0(%[[IA:.*]]: f16, %[[IB:.*]]: f16, %[[OUT:.*]]: f32):
// CHECK-DAG: %[[EA:.*]] = arith.extf %[[IA]] : f16 to f32
// CHECK-DAG: %[[EB:.*]] = arith.extf %[[IB]] : f16 to f32
// CHECK: %[[M:.*]] = arith.mulf %[[EA]], %[[EB]] : f32
// CHECK: arith.addf %[[OUT]], %[[M]] : f32
func.func @generic_contraction(%a: tensor<8x16xf32>, %b: tensor<8x4xf32>, %c: tensor<16x4xf32>) -> tensor<16x4xf32> {
  %r = linalg.generic {indexing_maps = [#mapA, #mapB, #mapC],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<8x16xf32>, tensor<8x4xf32>) outs(%c : tensor<16x4xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<16x4xf32>
  return %r : tensor<16x4xf32>
}

// -----

// A value that is already an extension from f16 is used as is (exact fold
// f16 -> f32 -> f16), no new cast.
// CHECK-LABEL: func @absorb_extf
// CHECK-SAME: (%[[H:.*]]: tensor<8x16xf16>, %[[B:.*]]: tensor<16x4xf32>
// CHECK-NOT: arith.truncf %{{.*}} : tensor<8x16xf32>
// CHECK: linalg.matmul ins(%[[H]], %{{.*}} : tensor<8x16xf16>, tensor<16x4xf16>)
func.func @absorb_extf(%h: tensor<8x16xf16>, %b: tensor<16x4xf32>, %c: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %a = arith.extf %h : tensor<8x16xf16> to tensor<8x16xf32>
  %r = linalg.matmul ins(%a, %b : tensor<8x16xf32>, tensor<16x4xf32>) outs(%c : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %r : tensor<8x4xf32>
}

// -----

// Deny ops (exp, reductions) and infer ops on f32 inputs stay f32: nothing
// is cast.
#id = affine_map<(i) -> (i)>
#red = affine_map<(i) -> ()>
// CHECK-LABEL: func @negative_deny_and_infer
// CHECK-NOT: arith.truncf
// CHECK-NOT: f16
// CHECK: return
func.func @negative_deny_and_infer(%x: tensor<16xf32>, %acc: tensor<f32>) -> (tensor<16xf32>, tensor<f32>) {
  %e = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<16xf32>) outs(%x : tensor<16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = math.exp %a : f32
    linalg.yield %v : f32
  } -> tensor<16xf32>
  %s = linalg.generic {indexing_maps = [#id, #red], iterator_types = ["reduction"]}
      ins(%e : tensor<16xf32>) outs(%acc : tensor<f32>) {
  ^bb0(%a: f32, %o: f32):
    %v = arith.addf %a, %o : f32
    linalg.yield %v : f32
  } -> tensor<f32>
  %sum = arith.addf %e, %x : tensor<16xf32>
  return %sum, %s : tensor<16xf32>, tensor<f32>
}

// -----

// A matmul whose accumulator is not f32 (already low precision) is left
// alone.
// CHECK-LABEL: func @negative_f16_matmul
// CHECK-NOT: arith.truncf
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<8x16xf16>, tensor<16x4xf16>) outs(%{{.*}} : tensor<8x4xf16>)
func.func @negative_f16_matmul(%a: tensor<8x16xf16>, %b: tensor<16x4xf16>, %c: tensor<8x4xf16>) -> tensor<8x4xf16> {
  %r = linalg.matmul ins(%a, %b : tensor<8x16xf16>, tensor<16x4xf16>) outs(%c : tensor<8x4xf16>) -> tensor<8x4xf16>
  return %r : tensor<8x4xf16>
}

// -----

// Convolutions are allow ops too.
// CHECK-LABEL: func @conv
// CHECK: linalg.conv_2d_nhwc_hwcf {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x8x8x3xf16>, tensor<3x3x3x4xf16>) outs(%{{.*}} : tensor<1x6x6x4xf32>)
func.func @conv(%x: tensor<1x8x8x3xf32>, %k: tensor<3x3x3x4xf32>, %o: tensor<1x6x6x4xf32>) -> tensor<1x6x6x4xf32> {
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %k : tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>) outs(%o : tensor<1x6x6x4xf32>) -> tensor<1x6x6x4xf32>
  return %r : tensor<1x6x6x4xf32>
}

// -----

// A tensor made from a buffer (clear, next to a matmul) is not retyped: the
// buffer keeps f32 and the matmul reads one cast of the tensor.
// CHECK-LABEL: func @negative_buffer_source
// CHECK: %[[T:.*]] = bufferization.to_tensor %{{.*}} : memref<4x4xf32> to tensor<4x4xf32>
// CHECK: %[[T16:.*]] = arith.truncf %[[T]] : tensor<4x4xf32> to tensor<4x4xf16>
// CHECK: linalg.matmul ins(%[[T16]], %{{.*}} : tensor<4x4xf16>, tensor<4x4xf16>)
func.func @negative_buffer_source(%m: memref<4x4xf32>, %b: tensor<4x4xf32>, %c: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %t = bufferization.to_tensor %m : memref<4x4xf32> to tensor<4x4xf32>
  %r = linalg.matmul ins(%t, %b : tensor<4x4xf32>, tensor<4x4xf32>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}

// -----

// Inside an scf.if, painting works per region; the if's results and
// yields keep f32 (never demoted), a weight from outside is cast once
// outside the region.
// CHECK-LABEL: func @scf_if
// CHECK-SAME: (%{{[a-z0-9]+}}: i1, %[[W:[a-z0-9]+]]: tensor<4x4xf32>
// CHECK: %[[W16:.*]] = arith.truncf %[[W]]
// CHECK: scf.if %{{.*}} -> (tensor<4x4xf32>)
// CHECK: linalg.matmul ins(%{{.*}}, %[[W16]] : tensor<4x4xf16>, tensor<4x4xf16>) outs(%{{.*}} : tensor<4x4xf32>)
// CHECK: scf.yield %{{.*}} : tensor<4x4xf32>
// CHECK: } else {
// CHECK: linalg.matmul ins(%{{.*}}, %[[W16]] : tensor<4x4xf16>, tensor<4x4xf16>) outs(%{{.*}} : tensor<4x4xf32>)
func.func @scf_if(%p: i1, %w: tensor<4x4xf32>, %x: tensor<4x4xf32>, %c: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %r = scf.if %p -> (tensor<4x4xf32>) {
    %a = linalg.matmul ins(%x, %w : tensor<4x4xf32>, tensor<4x4xf32>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
    scf.yield %a : tensor<4x4xf32>
  } else {
    %b = linalg.matmul ins(%c, %w : tensor<4x4xf32>, tensor<4x4xf32>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
    scf.yield %b : tensor<4x4xf32>
  }
  return %r : tensor<4x4xf32>
}
