// amp-gpu-tensor-core-contractions: f16 x f16 -> f32 contractions become
// warp tiles of nvgpu.mma.sync (m16n8k16); everything else is left alone.
// RUN: amp-opt %s --split-input-file --amp-gpu-tensor-core-contractions --canonicalize --cse | FileCheck %s
// RUN: amp-opt %s --split-input-file --amp-gpu-tensor-core-contractions=launch=false | FileCheck %s --check-prefix=LOOPS

#a = affine_map<(i, j, k) -> (i, k)>
#b = affine_map<(i, j, k) -> (k, j)>
#c = affine_map<(i, j, k) -> (i, j)>
// A forward matmul, 64 x 32 output: 32 x 32 warp tiles, a grid of 1 x 2
// blocks of 32 threads; per k-step 2 A fragments (vector<2xf16> rows), 4 B
// fragments (one f16 per load: B is K-major) and 8 mma.sync.
// CHECK-LABEL: func.func @forward(
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG: %[[C32:.*]] = arith.constant 32 : index
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %[[C1]], {{.*}} = %[[C2]], {{.*}} = %[[C1]]) threads({{.*}}) in ({{.*}} = %[[C32]], {{.*}} = %[[C1]], {{.*}} = %[[C1]])
// CHECK: gpu.lane_id
// CHECK-COUNT-8: vector.load %arg2{{.*}} : memref<64x32xf32>, vector<2xf32>
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args({{.*}}) -> (vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>)
// CHECK-COUNT-8: vector.load %arg0{{.*}} : memref<64x48xf16>, vector<2xf16>
// CHECK-COUNT-4: memref.load %arg1{{.*}} : memref<48x32xf16>
// CHECK: nvgpu.mma.sync({{.*}}) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
// CHECK-COUNT-4: memref.load %arg1{{.*}} : memref<48x32xf16>
// CHECK: nvgpu.mma.sync
// CHECK-COUNT-4: memref.load %arg1{{.*}} : memref<48x32xf16>
// CHECK: nvgpu.mma.sync
// CHECK-COUNT-4: memref.load %arg1{{.*}} : memref<48x32xf16>
// CHECK-COUNT-5: nvgpu.mma.sync
// CHECK-NOT: nvgpu.mma.sync
// CHECK: scf.yield
// CHECK-COUNT-16: vector.store {{.*}}, %arg2{{.*}} : memref<64x32xf32>, vector<2xf32>
// CHECK-NOT: linalg.generic
// CHECK-NOT: vector.contract
// CHECK: return
// LOOPS-LABEL: func.func @forward(
// LOOPS: scf.parallel (%[[I:.*]], %[[J:.*]]) = ({{.*}}) to ({{.*}}) step ({{.*}})
// LOOPS: scf.for
// LOOPS-COUNT-2: vector.transfer_read %arg0{{.*}} : memref<64x48xf16>, vector<16x16xf16>
// LOOPS-COUNT-4: vector.transfer_read %arg1{{.*}} : memref<48x32xf16>, vector<16x8xf16>
// LOOPS-COUNT-8: vector.contract {{.*}} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
// LOOPS-COUNT-8: vector.transfer_write {{.*}} : vector<16x8xf32>, memref<64x32xf32>
// LOOPS-NOT: gpu.launch
func.func @forward(%x: memref<64x48xf16>, %w: memref<48x32xf16>, %y: memref<64x32xf32>) {
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : memref<64x48xf16>, memref<48x32xf16>) outs(%y : memref<64x32xf32>) {
  ^bb0(%p: f16, %q: f16, %o: f32):
    %0 = arith.extf %q : f16 to f32
    %1 = arith.extf %p : f16 to f32
    %2 = arith.mulf %1, %0 : f32
    %3 = arith.addf %o, %2 : f32
    linalg.yield %3 : f32
  }
  return
}

// -----

#ta = affine_map<(i, j, k) -> (k, i)>
#b = affine_map<(i, j, k) -> (k, j)>
#c = affine_map<(i, j, k) -> (i, j)>
// A weight gradient X^T * dY, 48 x 24 output: 16 x 8 warp tiles, a grid of
// 3 x 3 blocks, one mma.sync per k-step; A (K-major) is read one f16 at a
// time.
// CHECK-LABEL: func.func @weight_gradient(
// CHECK-DAG: %[[C3:.*]] = arith.constant 3 : index
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %[[C3]], {{.*}} = %[[C3]],
// CHECK: scf.for
// CHECK-COUNT-8: memref.load %arg0{{.*}} : memref<32x48xf16>
// CHECK-COUNT-4: memref.load %arg1{{.*}} : memref<32x24xf16>
// CHECK: nvgpu.mma.sync
// CHECK-NOT: nvgpu.mma.sync
// CHECK: scf.yield
// LOOPS-LABEL: func.func @weight_gradient(
// LOOPS: vector.transfer_read %arg0{{.*}} {in_bounds = [true, true], permutation_map = #{{.*}}} : memref<32x48xf16>, vector<16x16xf16>
func.func @weight_gradient(%x: memref<32x48xf16>, %dy: memref<32x24xf16>, %dw: memref<48x24xf32>) {
  linalg.generic {indexing_maps = [#ta, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %dy : memref<32x48xf16>, memref<32x24xf16>) outs(%dw : memref<48x24xf32>) {
  ^bb0(%p: f16, %q: f16, %o: f32):
    %0 = arith.extf %p : f16 to f32
    %1 = arith.extf %q : f16 to f32
    %2 = arith.mulf %0, %1 : f32
    %3 = arith.addf %2, %o : f32
    linalg.yield %3 : f32
  }
  return
}

// -----

#a = affine_map<(i, j, k) -> (i, k)>
#tb = affine_map<(i, j, k) -> (j, k)>
#c = affine_map<(i, j, k) -> (i, j)>
// An input gradient dY * W^T: B is read N-major, two f16 per load.
// CHECK-LABEL: func.func @input_gradient(
// CHECK: gpu.launch
// CHECK: scf.for
// CHECK: vector.load %arg1{{.*}} : memref<16x32xf16>, vector<2xf16>
// CHECK: nvgpu.mma.sync
func.func @input_gradient(%dy: memref<32x32xf16>, %w: memref<16x32xf16>, %dx: memref<32x16xf32>) {
  linalg.generic {indexing_maps = [#a, #tb, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%dy, %w : memref<32x32xf16>, memref<16x32xf16>) outs(%dx : memref<32x16xf32>) {
  ^bb0(%p: f16, %q: f16, %o: f32):
    %0 = arith.extf %p : f16 to f32
    %1 = arith.extf %q : f16 to f32
    %2 = arith.mulf %0, %1 : f32
    %3 = arith.addf %o, %2 : f32
    linalg.yield %3 : f32
  }
  return
}

// -----

#a = affine_map<(i, j, k) -> (i, k)>
#b = affine_map<(i, j, k) -> (k, j)>
#c = affine_map<(i, j, k) -> (i, j)>
// bf16: the same fragment loads as f16 (the layout of 16-bit fragments),
// each register of two bf16 passed as an i32 to nvvm.mma.sync (LLVM 22's
// nvgpu.mma.sync lowering has no bf16).
// CHECK-LABEL: func.func @forward_bf16(
// CHECK: gpu.launch
// CHECK: scf.for
// CHECK-COUNT-4: vector.load %arg0{{.*}} : memref<16x32xbf16>, vector<2xbf16>
// CHECK-COUNT-4: memref.load %arg1{{.*}} : memref<32x8xbf16>
// CHECK-COUNT-4: vector.bitcast {{.*}} : vector<2xbf16> to vector<1xi32>
// CHECK: nvvm.mma.sync A[{{.*}}, {{.*}}, {{.*}}, {{.*}}]  B[{{.*}}, {{.*}}]  C[{{.*}}, {{.*}}, {{.*}}, {{.*}}]  {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NOT: nvgpu.mma.sync
// CHECK-NOT: xf16>
// CHECK: return
func.func @forward_bf16(%x: memref<16x32xbf16>, %w: memref<32x8xbf16>, %y: memref<16x8xf32>) {
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : memref<16x32xbf16>, memref<32x8xbf16>) outs(%y : memref<16x8xf32>) {
  ^bb0(%p: bf16, %q: bf16, %o: f32):
    %0 = arith.extf %p : bf16 to f32
    %1 = arith.extf %q : bf16 to f32
    %2 = arith.mulf %0, %1 : f32
    %3 = arith.addf %o, %2 : f32
    linalg.yield %3 : f32
  }
  return
}

// -----

#a = affine_map<(i, j, k) -> (i, k)>
#b = affine_map<(i, j, k) -> (k, j)>
#c = affine_map<(i, j, k) -> (i, j)>
// Left for the SIMT path: N = 10 is not a multiple of 8, K = 10 not one of
// 16, mixed f16 x bf16 operands, f32 operands, f16 accumulation, a body that
// is not a multiply-add, dynamic sizes.
// CHECK-LABEL: func.func @negative_shapes_and_types(
// CHECK-NOT: gpu.launch
// CHECK-NOT: nvgpu.mma.sync
// CHECK-COUNT-7: linalg.generic
// CHECK: return
func.func @negative_shapes_and_types(%a16: memref<128x128xf16>, %b10: memref<128x10xf16>, %c10: memref<128x10xf32>,
    %a10: memref<128x10xf16>, %b10k: memref<10x128xf16>, %c128: memref<128x128xf32>,
    %abf: memref<128x128xbf16>, %bbf: memref<128x128xbf16>,
    %a32: memref<128x128xf32>, %b32: memref<128x128xf32>, %c16: memref<128x128xf16>,
    %ad: memref<?x?xf16>, %bd: memref<?x?xf16>, %cd: memref<?x?xf32>) {
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a16, %b10 : memref<128x128xf16>, memref<128x10xf16>) outs(%c10 : memref<128x10xf32>) {
  ^bb0(%p: f16, %q: f16, %o: f32):
    %0 = arith.extf %p : f16 to f32
    %1 = arith.extf %q : f16 to f32
    %2 = arith.mulf %0, %1 : f32
    %3 = arith.addf %o, %2 : f32
    linalg.yield %3 : f32
  }
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a10, %b10k : memref<128x10xf16>, memref<10x128xf16>) outs(%c128 : memref<128x128xf32>) {
  ^bb0(%p: f16, %q: f16, %o: f32):
    %0 = arith.extf %p : f16 to f32
    %1 = arith.extf %q : f16 to f32
    %2 = arith.mulf %0, %1 : f32
    %3 = arith.addf %o, %2 : f32
    linalg.yield %3 : f32
  }
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a16, %bbf : memref<128x128xf16>, memref<128x128xbf16>) outs(%c128 : memref<128x128xf32>) {
  ^bb0(%p: f16, %q: bf16, %o: f32):
    %0 = arith.extf %p : f16 to f32
    %1 = arith.extf %q : bf16 to f32
    %2 = arith.mulf %0, %1 : f32
    %3 = arith.addf %o, %2 : f32
    linalg.yield %3 : f32
  }
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a32, %b32 : memref<128x128xf32>, memref<128x128xf32>) outs(%c128 : memref<128x128xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %2 = arith.mulf %p, %q : f32
    %3 = arith.addf %o, %2 : f32
    linalg.yield %3 : f32
  }
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a16, %a16 : memref<128x128xf16>, memref<128x128xf16>) outs(%c16 : memref<128x128xf16>) {
  ^bb0(%p: f16, %q: f16, %o: f16):
    %2 = arith.mulf %p, %q : f16
    %3 = arith.addf %o, %2 : f16
    linalg.yield %3 : f16
  }
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a16, %a16 : memref<128x128xf16>, memref<128x128xf16>) outs(%c128 : memref<128x128xf32>) {
  ^bb0(%p: f16, %q: f16, %o: f32):
    %0 = arith.extf %p : f16 to f32
    %1 = arith.extf %q : f16 to f32
    %2 = arith.subf %0, %1 : f32
    %3 = arith.addf %o, %2 : f32
    linalg.yield %3 : f32
  }
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%ad, %bd : memref<?x?xf16>, memref<?x?xf16>) outs(%cd : memref<?x?xf32>) {
  ^bb0(%p: f16, %q: f16, %o: f32):
    %0 = arith.extf %p : f16 to f32
    %1 = arith.extf %q : f16 to f32
    %2 = arith.mulf %0, %1 : f32
    %3 = arith.addf %o, %2 : f32
    linalg.yield %3 : f32
  }
  return
}

// -----

#a = affine_map<(i, j, k) -> (i, k)>
#b = affine_map<(i, j, k) -> (k, j)>
#c = affine_map<(i, j, k) -> (i, j)>
// Tensors (before bufferization) are left alone.
// CHECK-LABEL: func.func @negative_tensors(
// CHECK-NOT: gpu.launch
// CHECK: linalg.generic
func.func @negative_tensors(%x: tensor<32x32xf16>, %w: tensor<32x32xf16>, %y: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %r = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<32x32xf16>, tensor<32x32xf16>) outs(%y : tensor<32x32xf32>) {
  ^bb0(%p: f16, %q: f16, %o: f32):
    %0 = arith.extf %p : f16 to f32
    %1 = arith.extf %q : f16 to f32
    %2 = arith.mulf %0, %1 : f32
    %3 = arith.addf %o, %2 : f32
    linalg.yield %3 : f32
  } -> tensor<32x32xf32>
  return %r : tensor<32x32xf32>
}

// -----

#a = affine_map<(i, j, k) -> (i, k)>
#b = affine_map<(i, j, k) -> (k, j)>
#c = affine_map<(i, j, k) -> (i, j)>
// Also left alone: a contraction in the body of an scf.parallel (mapped to
// blocks and threads itself later: a launch inside would nest launches), an
// output that is a view of the same bytes as an operand (the tile reads its
// accumulators once and writes them at the end), an empty output.
// (--canonicalize erases the empty one.)
// CHECK-LABEL: func.func @negative_nesting_aliasing_empty(
// CHECK-NOT: gpu.launch
// CHECK-COUNT-2: linalg.generic
// CHECK-NOT: gpu.launch
// CHECK: return
// LOOPS-LABEL: func.func @negative_nesting_aliasing_empty(
// LOOPS-COUNT-3: linalg.generic
// LOOPS-NOT: vector.contract
func.func @negative_nesting_aliasing_empty(%x: memref<4x32x32xf16>, %w: memref<32x32xf16>, %y: memref<4x32x32xf32>,
    %bytes: memref<8192xi8>, %e16: memref<0x16xf16>, %e32: memref<0x8xf32>, %w16: memref<16x8xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    %xi = memref.subview %x[%i, 0, 0] [1, 32, 32] [1, 1, 1] : memref<4x32x32xf16> to memref<32x32xf16, strided<[32, 1], offset: ?>>
    %yi = memref.subview %y[%i, 0, 0] [1, 32, 32] [1, 1, 1] : memref<4x32x32xf32> to memref<32x32xf32, strided<[32, 1], offset: ?>>
    %xc = memref.alloc() : memref<32x32xf16>
    %yc = memref.alloc() : memref<32x32xf32>
    linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
        ins(%xc, %w : memref<32x32xf16>, memref<32x32xf16>) outs(%yc : memref<32x32xf32>) {
    ^bb0(%p: f16, %q: f16, %o: f32):
      %0 = arith.extf %p : f16 to f32
      %1 = arith.extf %q : f16 to f32
      %2 = arith.mulf %0, %1 : f32
      %3 = arith.addf %o, %2 : f32
      linalg.yield %3 : f32
    }
    scf.reduce
  }
  %a16 = memref.view %bytes[%c0][] : memref<8192xi8> to memref<32x32xf16>
  %c32 = memref.view %bytes[%c0][] : memref<8192xi8> to memref<32x32xf32>
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a16, %w : memref<32x32xf16>, memref<32x32xf16>) outs(%c32 : memref<32x32xf32>) {
  ^bb0(%p: f16, %q: f16, %o: f32):
    %0 = arith.extf %p : f16 to f32
    %1 = arith.extf %q : f16 to f32
    %2 = arith.mulf %0, %1 : f32
    %3 = arith.addf %o, %2 : f32
    linalg.yield %3 : f32
  }
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%e16, %w16 : memref<0x16xf16>, memref<16x8xf16>) outs(%e32 : memref<0x8xf32>) {
  ^bb0(%p: f16, %q: f16, %o: f32):
    %0 = arith.extf %p : f16 to f32
    %1 = arith.extf %q : f16 to f32
    %2 = arith.mulf %0, %1 : f32
    %3 = arith.addf %o, %2 : f32
    linalg.yield %3 : f32
  }
  return
}
