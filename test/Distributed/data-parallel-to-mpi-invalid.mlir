// RUN: amp-opt %s -split-input-file -verify-diagnostics -amp-data-parallel-to-mpi

shard.grid @g(shape = 2x2)
func.func @grid_2d(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{amp-data-parallel-to-mpi lowers shard.all_reduce over the one axis of a static 1-D grid (all ranks: MPI_COMM_WORLD) of a static 1-D tensor to mpi.allreduce; its grid is not a static 1-D shard.grid}}
  %s = shard.all_reduce %a on @g grid_axes = [0] : tensor<4xf32> -> tensor<4xf32>
  return %s : tensor<4xf32>
}

// -----

shard.grid @g(shape = ?)
func.func @dynamic_grid(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{its grid is not a static 1-D shard.grid}}
  %s = shard.all_reduce %a on @g grid_axes = [0] : tensor<4xf32> -> tensor<4xf32>
  return %s : tensor<4xf32>
}

// -----

shard.grid @g(shape = 2)
func.func @no_axes(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{it reduces over grid axes other than [0]}}
  %s = shard.all_reduce %a on @g : tensor<4xf32> -> tensor<4xf32>
  return %s : tensor<4xf32>
}

// -----

shard.grid @g(shape = 2)
func.func @rank_2(%a: tensor<2x2xf32>) -> tensor<2x2xf32> {
  // expected-error @+1 {{its operand is not a static 1-D tensor}}
  %s = shard.all_reduce %a on @g grid_axes = [0] : tensor<2x2xf32> -> tensor<2x2xf32>
  return %s : tensor<2x2xf32>
}

// -----

shard.grid @g(shape = 2)
func.func @widening(%a: tensor<4xf32>) -> tensor<4xf64> {
  // expected-error @+1 {{its result type differs from its operand's}}
  %s = shard.all_reduce %a on @g grid_axes = [0] : tensor<4xf32> -> tensor<4xf64>
  return %s : tensor<4xf64>
}

// -----

shard.grid @g(shape = 2)
func.func @half(%a: tensor<4xf16>) -> tensor<4xf16> {
  // expected-error @+1 {{upstream's MPI lowering has no datatype for 'f16' (f32, f64, i8 to i64)}}
  %s = shard.all_reduce %a on @g grid_axes = [0] : tensor<4xf16> -> tensor<4xf16>
  return %s : tensor<4xf16>
}

// -----

shard.grid @g(shape = 2)
func.func @product(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{the reduction is not sum, max or min}}
  %s = shard.all_reduce %a on @g grid_axes = [0] reduction = product : tensor<4xf32> -> tensor<4xf32>
  return %s : tensor<4xf32>
}
