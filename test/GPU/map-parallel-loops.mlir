// amp-gpu-map-parallel-loops: block loop x thread loop, innermost dim -> x.
// RUN: amp-opt %s --amp-gpu-map-parallel-loops | FileCheck %s
// RUN: amp-opt %s --amp-gpu-map-parallel-loops=block-size=128 | FileCheck %s --check-prefix=B128
// RUN: not amp-opt %s --amp-gpu-map-parallel-loops=block-size=2048 2>&1 | FileCheck %s --check-prefix=BAD

// CHECK-LABEL: func.func @two_d(
// CHECK: %[[T8:.*]] = arith.muli %c1, %c8
// CHECK: %[[T32:.*]] = arith.muli %c1, %c32
// CHECK: scf.parallel (%{{.*}}, %{{.*}}) = {{.*}} step (%[[T8]], %[[T32]])
// CHECK: scf.parallel
// CHECK: scf.if
// CHECK: memref.store
// Thread loop: dim 1 (unit stride) -> thread_x, dim 0 -> thread_y.
// CHECK: mapping = [#gpu.loop_dim_map<processor = thread_y, map = (d0) -> (d0), bound = (d0) -> (d0)>, #gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]
// CHECK: mapping = [#gpu.loop_dim_map<processor = block_y, map = (d0) -> (d0), bound = (d0) -> (d0)>, #gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]
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
