// amp-gpu-fuse-elementwise: upstream's elementwise fusion (producers with
// one use), except that no contraction changes: a producer is not fused
// into it and no reshape is folded into it by expanding its loops, so
// that amp-gpu-tensor-core-contractions still finds `out + extf(a) *
// extf(b)` on f16/bf16 operands after bufferization.
// RUN: amp-opt %s --split-input-file --amp-gpu-fuse-elementwise | FileCheck %s
// What upstream's pass (the one amp-lower-to-nvvm ran before) does to the
// first case: the truncf ends up inside the contraction, on the f32 input.
// RUN: amp-opt %s --split-input-file --linalg-fuse-elementwise-ops | FileCheck %s --check-prefix=UPSTREAM
// End to end: the contraction of the first case on buffers is a Tensor
// Core tile, its truncf a kernel of its own.
// RUN: amp-opt %s --split-input-file --amp-lower-to-nvvm="chip=sm_80 format=isa" \
// RUN:   | FileCheck %s --check-prefix=PTX

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#tn_a = affine_map<(i, j, k) -> (k, i)>
#tn_b = affine_map<(i, j, k) -> (k, j)>
#c_ij = affine_map<(i, j, k) -> (i, j)>
// A weight gradient X^T * dY whose f16 copy of X (as
// amp-recompute-for-backward recomputes it: a truncf whose only use is the
// contraction) stays a producer of its own.
// CHECK-LABEL: func.func @recomputed_operand(
// CHECK: %[[X16:.*]] = linalg.generic
// CHECK: arith.truncf %{{.*}} : f32 to f16
// CHECK: linalg.generic {{.*}} ins(%[[X16]], %{{.*}} : tensor<32x64xf16>, tensor<32x16xf16>)
// CHECK-NEXT: ^bb0(%{{.*}}: f16, %{{.*}}: f16, %{{.*}}: f32):
// CHECK-NOT: truncf
// CHECK: linalg.yield
// UPSTREAM-LABEL: func.func @recomputed_operand(
// UPSTREAM: linalg.generic {{.*}} ins(%arg0, %arg1 : tensor<32x64xf32>, tensor<32x16xf16>)
// UPSTREAM: arith.truncf
// 64 x 16 output: 32 x 16 warp tiles, 4 mma.sync per k-step, K = 32.
// PTX-LABEL: llvm.func @recomputed_operand(
// PTX: gpu.binary @recomputed_operand_kernel
// PTX-COUNT-8: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// PTX-NOT: mma.sync
// PTX-LABEL: llvm.func @elementwise(
func.func @recomputed_operand(%x: tensor<32x64xf32>, %dy: tensor<32x16xf16>) -> tensor<64x16xf32> {
  %e16 = tensor.empty() : tensor<32x64xf16>
  %x16 = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<32x64xf32>) outs(%e16 : tensor<32x64xf16>) {
  ^bb0(%a: f32, %o: f16):
    %t = arith.truncf %a {amp.recomputed} : f32 to f16
    linalg.yield %t : f16
  } -> tensor<32x64xf16>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x16xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<64x16xf32>) -> tensor<64x16xf32>
  %dw = linalg.generic {indexing_maps = [#tn_a, #tn_b, #c_ij], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x16, %dy : tensor<32x64xf16>, tensor<32x16xf16>) outs(%acc : tensor<64x16xf32>) {
  ^bb0(%a: f16, %b: f16, %o: f32):
    %a32 = arith.extf %a : f16 to f32
    %b32 = arith.extf %b : f16 to f32
    %p = arith.mulf %a32, %b32 : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<64x16xf32>
  return %dw : tensor<64x16xf32>
}

// -----

#id2 = affine_map<(d0, d1) -> (d0, d1)>
// Everything else is upstream's: a cast with one use fuses into an
// elementwise consumer.
// CHECK-LABEL: func.func @elementwise(
// CHECK: linalg.generic
// CHECK: arith.extf
// CHECK: arith.maximumf
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @elementwise(%x: tensor<16x8xf16>) -> tensor<16x8xf32> {
  %e = tensor.empty() : tensor<16x8xf32>
  %x32 = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<16x8xf16>) outs(%e : tensor<16x8xf32>) {
  ^bb0(%a: f16, %o: f32):
    %w = arith.extf %a : f16 to f32
    linalg.yield %w : f32
  } -> tensor<16x8xf32>
  %r = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x32 : tensor<16x8xf32>) outs(%e : tensor<16x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %c0 = arith.constant 0.0 : f32
    %m = arith.maximumf %a, %c0 : f32
    linalg.yield %m : f32
  } -> tensor<16x8xf32>
  return %r : tensor<16x8xf32>
}

// -----

// A flatten (torch-mlir's view before a linear layer) read by a matmul
// stays a collapse_shape: folded by expansion, the matmul would become a
// 4-loop generic that the Tensor Core rewrite does not take.
// CHECK-LABEL: func.func @flatten_into_matmul(
// CHECK: %[[FLAT:.*]] = tensor.collapse_shape
// CHECK: linalg.matmul ins(%[[FLAT]], %{{.*}} : tensor<16x64xf16>, tensor<64x32xf16>)
// UPSTREAM-LABEL: func.func @flatten_into_matmul(
// UPSTREAM-NOT: tensor.collapse_shape
// UPSTREAM: return
// 16 x 32 output: 16 x 32 warp tiles, 4 mma.sync per k-step.
// PTX-LABEL: llvm.func @flatten_into_matmul(
// PTX: gpu.binary
// PTX-COUNT-4: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
func.func @flatten_into_matmul(%x: tensor<16x4x16xf16>, %w: tensor<64x32xf16>) -> tensor<16x32xf32> {
  %flat = tensor.collapse_shape %x [[0], [1, 2]] : tensor<16x4x16xf16> into tensor<16x64xf16>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x32xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<16x32xf32>) -> tensor<16x32xf32>
  %y = linalg.matmul ins(%flat, %w : tensor<16x64xf16>, tensor<64x32xf16>)
                     outs(%acc : tensor<16x32xf32>) -> tensor<16x32xf32>
  return %y : tensor<16x32xf32>
}
