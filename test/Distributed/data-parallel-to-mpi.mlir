// RUN: amp-opt %s -split-input-file -amp-data-parallel-to-mpi | FileCheck %s
// RUN: amp-opt %s -split-input-file -amp-data-parallel-to-mpi -one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" | FileCheck %s --check-prefix=BUF

// An all-reduce over the whole grid is MPI_COMM_WORLD: one handle per
// function, the input's buffer sent, a fresh buffer received; the grid goes.
// CHECK-NOT: shard.grid
// CHECK-LABEL: func.func @sum
// CHECK-SAME: %[[A:[^:]*]]: tensor<6xf32>, %[[B:[^:]*]]: tensor<2xi32>
// CHECK-NEXT: %[[COMM:.*]] = mpi.comm_world : !mpi.comm
// CHECK-NEXT: %[[SEND:.*]] = bufferization.to_buffer %[[A]] read_only : tensor<6xf32> to memref<6xf32>
// CHECK-NEXT: %[[RECV:.*]] = memref.alloc() : memref<6xf32>
// CHECK-NEXT: mpi.allreduce(%[[SEND]], %[[RECV]], MPI_SUM, %[[COMM]]) : memref<6xf32>, memref<6xf32>
// CHECK-NEXT: %[[SUM:.*]] = bufferization.to_tensor %[[RECV]] restrict writable : memref<6xf32> to tensor<6xf32>
// CHECK: mpi.allreduce(%{{.*}}, %{{.*}}, MPI_MAX, %[[COMM]]) : memref<2xi32>, memref<2xi32>
// CHECK-NOT: mpi.comm_world
// CHECK: return %[[SUM]],
// After bufferization (identity layouts at function boundaries, as in
// amp-lower-to-llvm) the send buffer is the argument itself: no copy.
// BUF-LABEL: func.func @sum
// BUF-SAME: %[[A:[^:]*]]: memref<6xf32>
// BUF: %[[RECV:.*]] = memref.alloc() : memref<6xf32>
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
