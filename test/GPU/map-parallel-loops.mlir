// amp-gpu-map-parallel-loops: every nest collapsed to one dimension (the
// last fastest), then a block loop x a thread loop of block-size threads.
// RUN: amp-opt %s --amp-gpu-map-parallel-loops | FileCheck %s
// RUN: amp-opt %s --amp-gpu-map-parallel-loops=block-size=128 | FileCheck %s --check-prefix=B128
// RUN: not amp-opt %s --amp-gpu-map-parallel-loops=block-size=2048 2>&1 | FileCheck %s --check-prefix=BAD

// CHECK-LABEL: func.func @two_d(
// One loop over the 7000 iterations, 256 threads per block; the linear
// index is split back (j = k rem 70, i = k div 70).
// CHECK: %[[N:.*]] = arith.muli %{{.*}}, %c70{{.*}} : index
// CHECK: %[[T256:.*]] = arith.muli %c1{{.*}}, %c256
// CHECK: scf.parallel (%{{.*}}) = (%{{.*}}) to (%[[N]]) step (%[[T256]])
// CHECK: scf.parallel (%{{.*}}) =
// CHECK: scf.if
// CHECK: arith.remsi %{{.*}}, %c70
// CHECK: arith.divsi %{{.*}}, %c70
// CHECK: memref.store
// CHECK: mapping = [#gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]
// CHECK: mapping = [#gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]
func.func @two_d(%m: memref<100x70xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c100 = arith.constant 100 : index
  %c70 = arith.constant 70 : index
  %z = arith.constant 0.0 : f32
  scf.parallel (%i, %j) = (%c0, %c0) to (%c100, %c70) step (%c1, %c1) {
    memref.store %z, %m[%i, %j] : memref<100x70xf32>
    scf.reduce
  }
  return
}

// CHECK-LABEL: func.func @one_d(
// CHECK: arith.muli %c1, %c256
// B128-LABEL: func.func @one_d(
// B128: arith.muli %c1, %c128
// BAD: error: amp-gpu-map-parallel-loops: block-size must be in [1, 1024], got 2048
func.func @one_d(%m: memref<1000xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1000 = arith.constant 1000 : index
  %z = arith.constant 0.0 : f32
  scf.parallel (%i) = (%c0) to (%c1000) step (%c1) {
    memref.store %z, %m[%i] : memref<1000xf32>
    scf.reduce
  }
  return
}

// Five dimensions (a convolution's weight gradient: 16 x 8 x 3 x 3 outputs
// and 4 partial sums each): every iteration gets its own thread, none runs
// sequentially in a thread.
// CHECK-LABEL: func.func @five_d(
// CHECK: scf.parallel (%{{.*}}) = (%{{.*}}) to (%{{.*}}) step
// CHECK-NOT: scf.for
// CHECK: memref.store %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}]
// CHECK: mapping = [#gpu.loop_dim_map<processor = thread_x
// CHECK: mapping = [#gpu.loop_dim_map<processor = block_x
func.func @five_d(%m: memref<4x16x8x3x3xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %z = arith.constant 0.0 : f32
  scf.parallel (%a, %b, %c, %d, %e) = (%c0, %c0, %c0, %c0, %c0) to (%c4, %c16, %c8, %c3, %c3) step (%c1, %c1, %c1, %c1, %c1) {
    memref.store %z, %m[%a, %b, %c, %d, %e] : memref<4x16x8x3x3xf32>
    scf.reduce
  }
  return
}
