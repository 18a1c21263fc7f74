// RUN: amp-opt %s -split-input-file -amp-data-parallel-to-mpi | FileCheck %s
// RUN: amp-opt %s -split-input-file -amp-data-parallel-to-mpi -one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" | FileCheck %s --check-prefix=BUF

// An all-reduce over the whole grid is MPI_COMM_WORLD: one handle per
// function, the input's buffer sent, a module-level buffer (allocated once,
// reused by every call, one per all-reduce) received; the grid goes.
// CHECK-NOT: shard.grid
// CHECK-DAG: memref.global "private" @amp_dp_recv_0 : memref<2xi32> = uninitialized {alignment = 64 : i64}
// CHECK-DAG: memref.global "private" @amp_dp_recv : memref<6xf32> = uninitialized {alignment = 64 : i64}
// CHECK-LABEL: func.func @sum
// CHECK-SAME: %[[A:[^:]*]]: tensor<6xf32>, %[[B:[^:]*]]: tensor<2xi32>
// CHECK-NEXT: %[[COMM:.*]] = mpi.comm_world : !mpi.comm
// CHECK-NEXT: %[[SEND:.*]] = bufferization.to_buffer %[[A]] read_only : tensor<6xf32> to memref<6xf32>
// CHECK-NEXT: %[[RECV:.*]] = memref.get_global @amp_dp_recv : memref<6xf32>
// CHECK-NEXT: mpi.allreduce(%[[SEND]], %[[RECV]], MPI_SUM, %[[COMM]]) : memref<6xf32>, memref<6xf32>
// CHECK-NEXT: %[[SUM:.*]] = bufferization.to_tensor %[[RECV]] restrict writable : memref<6xf32> to tensor<6xf32>
// CHECK: memref.get_global @amp_dp_recv_0 : memref<2xi32>
// CHECK: mpi.allreduce(%{{.*}}, %{{.*}}, MPI_MAX, %[[COMM]]) : memref<2xi32>, memref<2xi32>
// CHECK-NOT: mpi.comm_world
// CHECK: return %[[SUM]],
// After bufferization (identity layouts at function boundaries, as in
// amp-lower-to-llvm) the send buffer is the argument itself: no copy.
// BUF-LABEL: func.func @sum
// BUF-SAME: %[[A:[^:]*]]: memref<6xf32>
// BUF: %[[RECV:.*]] = memref.get_global @amp_dp_recv : memref<6xf32>
// BUF: mpi.allreduce(%[[A]], %[[RECV]], MPI_SUM,
shard.grid @amp_data_parallel(shape = 2)
func.func @sum(%a: tensor<6xf32>, %b: tensor<2xi32>) -> (tensor<6xf32>, tensor<2xi32>) {
  %s = shard.all_reduce %a on @amp_data_parallel grid_axes = [0] : tensor<6xf32> -> tensor<6xf32>
  %m = shard.all_reduce %b on @amp_data_parallel grid_axes = [0] reduction = max : tensor<2xi32> -> tensor<2xi32>
  return %s, %m : tensor<6xf32>, tensor<2xi32>
}

// -----

// Nothing to lower: a module without all-reduces is unchanged.
// CHECK-LABEL: func.func @plain
// CHECK-NOT: mpi.
func.func @plain(%a: tensor<6xf32>) -> tensor<6xf32> {
  return %a : tensor<6xf32>
}

// -----

// An input built in a tensor.empty of its type (amp-data-parallel's bucket,
// or a gradient's share) is built in a module-level send buffer instead:
// the share's generic writes into it, and after bufferization it is sent
// as it is, with no allocation per call.
// CHECK-DAG: memref.global "private" @amp_dp_send : memref<4xf32> = uninitialized {alignment = 64 : i64}
// CHECK-DAG: memref.global "private" @amp_dp_recv : memref<4xf32> = uninitialized {alignment = 64 : i64}
// CHECK-LABEL: func.func @share
// CHECK-NOT: tensor.empty
// CHECK: %[[SB:.*]] = memref.get_global @amp_dp_send : memref<4xf32>
// CHECK: %[[INIT:.*]] = bufferization.to_tensor %[[SB]] restrict writable : memref<4xf32> to tensor<4xf32>
// CHECK: %[[PART:.*]] = linalg.generic {{.*}} outs(%[[INIT]] : tensor<4xf32>)
// CHECK: %[[IN:.*]] = bufferization.to_buffer %[[PART]] read_only
// CHECK: %[[OUT:.*]] = memref.get_global @amp_dp_recv : memref<4xf32>
// CHECK: mpi.allreduce(%[[IN]], %[[OUT]], MPI_SUM,
// BUF-LABEL: func.func @share
// BUF-NOT: memref.alloc
// BUF: %[[S:.*]] = memref.get_global @amp_dp_send : memref<4xf32>
// BUF: linalg.generic {{.*}} outs(%[[S]] : memref<4xf32>)
// BUF: %[[R:.*]] = memref.get_global @amp_dp_recv : memref<4xf32>
// BUF: mpi.allreduce(%[[S]], %[[R]], MPI_SUM,
#id = affine_map<(i) -> (i)>
shard.grid @amp_data_parallel(shape = 2)
func.func @share(%g: tensor<4xf32>) -> tensor<4xf32> {
  %half = arith.constant 2.0 : f32
  %init = tensor.empty() : tensor<4xf32>
  %part = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%g : tensor<4xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %d = arith.divf %x, %half : f32
    linalg.yield %d : f32
  } -> tensor<4xf32>
  %s = shard.all_reduce %part on @amp_data_parallel grid_axes = [0] : tensor<4xf32> -> tensor<4xf32>
  return %s : tensor<4xf32>
}
