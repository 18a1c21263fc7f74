// amp-cpu-outline-loop-nests: every outermost loop nest of a function with
// two or more becomes a private function of its own (internal linkage,
// noinline), called in its place. Constants it uses are cloned into it,
// other outside values become arguments, an scf.for's results the
// function's results; a nest inside an scf.if counts, one inside another
// loop does not. A function of one nest and a declaration are left alone.
// RUN: amp-opt %s --amp-cpu-outline-loop-nests | FileCheck %s
// Bits: the whole lowering with and without the pass gives the same
// output (a sum carried across a nest, a nest in an scf.if, a vector
// constant).
// RUN: amp-opt %s --amp-lower-to-llvm="threads=1" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so > %t.outlined
// RUN: amp-opt %s --amp-lower-to-llvm="threads=1 outline-loops=false" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so > %t.inline
// RUN: diff %t.outlined %t.inline
// RUN: FileCheck %s --check-prefix=VALUES < %t.outlined
// The same with OpenMP threads (the nests' scf.parallel loops become
// omp.parallel inside the new functions).
// RUN: amp-opt %s --amp-lower-to-llvm="threads=2" | FileCheck %s --check-prefix=OMP

// CHECK-LABEL: func.func @step(
// CHECK-SAME:    %[[A:.*]]: memref<64xf32>, %[[B:.*]]: memref<64xf32>, %[[FLAG:.*]]: i1
// CHECK:         call @step_nest0(%[[A]], %[[B]]) : (memref<64xf32>, memref<64xf32>) -> ()
// CHECK:         %[[SUM:.*]] = call @step_nest1(%[[B]]) : (memref<64xf32>) -> f32
// CHECK:         scf.if %[[FLAG]] {
// CHECK:           call @step_nest2(%[[A]], %[[SUM]]) : (memref<64xf32>, f32) -> ()
// CHECK-NEXT:    }
// CHECK-NOT:     scf.for
// CHECK:         return %[[SUM]] : f32

// CHECK-LABEL: func.func private @step_nest0(
// CHECK-SAME:    attributes {llvm.linkage = #llvm.linkage<internal>, passthrough = ["noinline"]}
// CHECK-DAG:     arith.constant 64 : index
// CHECK-DAG:     arith.constant 2.000000e+00 : f32
// CHECK:         scf.parallel
// CHECK:           scf.for
// CHECK:         return
// CHECK-LABEL: func.func private @step_nest1(
// CHECK:         %[[R:.*]] = scf.for {{.*}} iter_args
// CHECK:         return %[[R]] : f32
// CHECK-LABEL: func.func private @step_nest2(

// CHECK-LABEL: func.func @one_nest(
// CHECK:         scf.for
// CHECK-NOT:     call
// CHECK-LABEL: func.func private @printMemrefF32
// CHECK-NOT:     @one_nest_nest

// a = 1, 3, 5, ...: the sum of b = 2a is 8192, and a[1] becomes 3 + 8192.
// VALUES:      8192
// VALUES-NEXT: 8195

// OMP-LABEL: llvm.func @step(
// OMP:         llvm.call @step_nest0(
// OMP-LABEL: llvm.func internal @step_nest0(
// OMP:         omp.parallel

func.func @step(%a: memref<64xf32>, %b: memref<64xf32>, %flag: i1) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %two = arith.constant 2.0 : f32
  %zero = arith.constant 0.0 : f32
  // b[i] = 2 a[i], in a nest of two loops (parallel rows).
  scf.parallel (%i) = (%c0) to (%c64) step (%c16) {
    scf.for %j = %c0 to %c16 step %c1 {
      %k = arith.addi %i, %j : index
      %x = memref.load %a[%k] : memref<64xf32>
      %y = arith.mulf %x, %two : f32
      memref.store %y, %b[%k] : memref<64xf32>
    }
    scf.reduce
  }
  // The sum of b, carried in iter_args.
  %sum = scf.for %i = %c0 to %c64 step %c1 iter_args(%acc = %zero) -> f32 {
    %x = memref.load %b[%i] : memref<64xf32>
    %s = arith.addf %acc, %x : f32
    scf.yield %s : f32
  }
  // In a region like loss scaling's skip-update: a[i] += sum, four lanes
  // at a time with a vector constant.
  scf.if %flag {
    %ones = arith.constant dense<1.0> : vector<4xf32>
    scf.for %i = %c0 to %c64 step %c4 {
      %v = vector.load %a[%i] : memref<64xf32>, vector<4xf32>
      %s = vector.broadcast %sum : f32 to vector<4xf32>
      %w = arith.addf %v, %s : vector<4xf32>
      %u = arith.mulf %w, %ones : vector<4xf32>
      vector.store %u, %a[%i] : memref<64xf32>, vector<4xf32>
    }
  }
  return %sum : f32
}

func.func @one_nest(%a: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %one = arith.constant 1.0 : f32
  scf.for %i = %c0 to %c64 step %c1 {
    memref.store %one, %a[%i] : memref<64xf32>
  }
  return
}

func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %a = memref.alloc() : memref<64xf32>
  %b = memref.alloc() : memref<64xf32>
  scf.for %i = %c0 to %c64 step %c1 {
    %i32 = arith.index_cast %i : index to i32
    %f = arith.sitofp %i32 : i32 to f32
    %f1 = arith.addf %f, %f : f32
    %one = arith.constant 1.0 : f32
    %v = arith.addf %f1, %one : f32
    memref.store %v, %a[%i] : memref<64xf32>
  }
  %true = arith.constant true
  %s = func.call @step(%a, %b, %true) : (memref<64xf32>, memref<64xf32>, i1) -> f32
  vector.print %s : f32
  %x = memref.load %a[%c1] : memref<64xf32>
  vector.print %x : f32
  return
}
