// amp-data-parallel composes with amp-mixed-precision in either order
// (docs/distributed.md): before it on the fp32 step (the reduced values
// become the amp.grad operands, which loss scaling then unscales and
// checks), or after it on the loss-scaled step (the reductions feed
// amp.unscale_and_check). Either way the gradients are reduced in f32 before
// the one fused check, and the step lowers to MPI_Allreduce calls.
// RUN: amp-opt %amp_src_root/examples/fashion-mnist/mlp.mlir --amp-data-parallel=world-size=2 --amp-mixed-precision=precision=f16 2>&1 | FileCheck %s --check-prefixes=CHECK,BEFORE
// RUN: amp-opt %amp_src_root/examples/fashion-mnist/mlp.mlir --amp-mixed-precision=precision=f16 --amp-data-parallel=world-size=2 2>&1 | FileCheck %s
// RUN: amp-opt %amp_src_root/examples/fashion-mnist/mlp.mlir --amp-data-parallel=world-size=2 --amp-mixed-precision=precision=f16 --amp-lower-to-llvm | FileCheck %s --check-prefix=LLVM
// RUN: amp-opt %amp_src_root/examples/fashion-mnist/mlp.mlir --amp-mixed-precision=precision=f16 --amp-data-parallel="world-size=2 bucket=per-gradient" --amp-lower-to-llvm | FileCheck %s --check-prefix=LLVM

// Autocast treats the all-reduces as sums (deny): no remark about an
// unknown op, the bucket stays f32.
// BEFORE-NOT: remark
// CHECK-LABEL: func.func @train_step
// CHECK-SAME: tensor<f32> {amp.initial_value = 3.276800e+04 : f32, amp.role = "loss_scale"}
// CHECK: %[[LOSS:.*]] = shard.all_reduce {{.*}} : tensor<1xf32> -> tensor<1xf32>
// CHECK: %[[SUM:.*]] = shard.all_reduce {{.*}} : tensor<235146xf32> -> tensor<235146xf32>
// CHECK-NOT: shard.all_reduce
// CHECK: %[[W1:.*]] = tensor.expand_shape {{.*}} output_shape [784, 256]
// CHECK: amp.unscale_and_check %[[W1]],
// CHECK: scf.if
// CHECK: amp.update_scale
// The eval step is left alone.
// CHECK-LABEL: func.func @eval_step
// CHECK-NOT: shard.all_reduce

// LLVM-DAG: llvm.mlir.global external @ompi_mpi_comm_world()
// LLVM-DAG: llvm.mlir.global external @ompi_mpi_float()
// LLVM-DAG: llvm.mlir.global external @ompi_mpi_op_sum()
// LLVM-DAG: llvm.func @MPI_Allreduce(!llvm.ptr, !llvm.ptr, i32, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> i32
// LLVM-NOT: @ompi_mpi_sum
// LLVM: llvm.func @train_step
// LLVM: llvm.call @MPI_Allreduce
// LLVM-NOT: shard.
// LLVM-NOT: mpi.
