// Upstream's MPIToLLVM (LLVM 22) names Open MPI's MPI_SUM `@ompi_mpi_sum`;
// libmpi.so exports `ompi_mpi_op_sum` (mpi.h: MPI_SUM is &ompi_mpi_op_sum).
// RUN: mlir-opt %s -split-input-file --convert-to-llvm | FileCheck %s --check-prefix=UPSTREAM
// RUN: mlir-opt %s -split-input-file --convert-to-llvm | amp-opt -split-input-file --amp-openmpi-op-symbols | FileCheck %s
// An already correct name is merged with, MPICH's integer handles are left
// alone.
// RUN: amp-opt %s -split-input-file --convert-to-llvm --amp-openmpi-op-symbols | FileCheck %s --check-prefix=SPLIT

// UPSTREAM-DAG: llvm.mlir.global external @ompi_mpi_sum() {{.*}} : !llvm.struct<"ompi_predefined_op_t", opaque>
// UPSTREAM-DAG: llvm.mlir.global external @ompi_mpi_max()
// CHECK-DAG: llvm.mlir.global external @ompi_mpi_op_sum() {{.*}} : !llvm.struct<"ompi_predefined_op_t", opaque>
// CHECK-DAG: llvm.mlir.global external @ompi_mpi_op_max() {{.*}} : !llvm.struct<"ompi_predefined_op_t", opaque>
// Datatypes and the communicator are named right upstream.
// CHECK-DAG: llvm.mlir.global external @ompi_mpi_float() {{.*}} : !llvm.struct<"ompi_predefined_datatype_t", opaque>
// CHECK-DAG: llvm.mlir.global external @ompi_mpi_comm_world()
// CHECK-NOT: @ompi_mpi_sum
// CHECK-NOT: @ompi_mpi_max
// CHECK: llvm.mlir.addressof @ompi_mpi_op_sum
// CHECK: llvm.mlir.addressof @ompi_mpi_op_max
module attributes {dlti.map = #dlti.map<"MPI:Implementation" = "OpenMPI">} {
  func.func @reduce(%a: memref<4xf32>, %b: memref<4xf32>) {
    %comm = mpi.comm_world : !mpi.comm
    mpi.allreduce(%a, %b, MPI_SUM, %comm) : memref<4xf32>, memref<4xf32>
    mpi.allreduce(%a, %b, MPI_MAX, %comm) : memref<4xf32>, memref<4xf32>
    return
  }
}

// -----

// SPLIT-LABEL: module
// SPLIT: llvm.mlir.global external @ompi_mpi_op_sum()
// SPLIT-NOT: llvm.mlir.global external @ompi_mpi_op_sum()
// SPLIT-NOT: @ompi_mpi_sum
// SPLIT: llvm.mlir.addressof @ompi_mpi_op_sum
// SPLIT: llvm.mlir.addressof @ompi_mpi_op_sum
module attributes {dlti.map = #dlti.map<"MPI:Implementation" = "OpenMPI">} {
  llvm.mlir.global external @ompi_mpi_op_sum() {addr_space = 0 : i32} : !llvm.struct<"ompi_predefined_op_t", opaque>
  llvm.func @mine() -> !llvm.ptr {
    %p = llvm.mlir.addressof @ompi_mpi_op_sum : !llvm.ptr
    llvm.return %p : !llvm.ptr
  }
  func.func @reduce(%a: memref<4xf32>, %b: memref<4xf32>) {
    %comm = mpi.comm_world : !mpi.comm
    mpi.allreduce(%a, %b, MPI_SUM, %comm) : memref<4xf32>, memref<4xf32>
    return
  }
}

// -----

// SPLIT-LABEL: module attributes {dlti.map = #dlti.map<"MPI:Implementation" = "MPICH">}
// SPLIT-NOT: ompi
// SPLIT: llvm.call @MPI_Allreduce
module attributes {dlti.map = #dlti.map<"MPI:Implementation" = "MPICH">} {
  func.func @reduce(%a: memref<4xf32>, %b: memref<4xf32>) {
    %comm = mpi.comm_world : !mpi.comm
    mpi.allreduce(%a, %b, MPI_SUM, %comm) : memref<4xf32>, memref<4xf32>
    return
  }
}
