// amp-cpu-outline-loop-nests shares a function between identical nests:
// the same loop over other buffers (two "layers"), and the same loop in
// another function (an eval step's copy of the forward), call the first
// function made. A nest that differs (here in a constant) gets its own.
// `share=false` makes one function per nest.
// RUN: amp-opt %s --amp-cpu-outline-loop-nests | FileCheck %s
// RUN: amp-opt %s --amp-cpu-outline-loop-nests="share=false" | FileCheck %s --check-prefix=NOSHARE
// Bits: the whole lowering with and without sharing prints the same values.
// RUN: amp-opt %s --amp-lower-to-llvm="threads=1" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so > %t.shared
// RUN: amp-opt %s --amp-lower-to-llvm="threads=1 outline-loops=false" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so > %t.inline
// RUN: diff %t.shared %t.inline
// RUN: FileCheck %s --check-prefix=VALUES < %t.shared

// CHECK-LABEL: func.func @layers(
// CHECK-SAME:    %[[A:[^:]*]]: memref<64xf32>, %[[B:[^:]*]]: memref<64xf32>, %[[C:[^:]*]]: memref<64xf32>
// CHECK:         call @layers_nest0(%[[A]], %[[B]])
// CHECK-NEXT:    call @layers_nest0(%[[B]], %[[C]])
// CHECK-NEXT:    call @layers_nest2(%[[C]], %[[A]])
// CHECK-NEXT:    %[[S:.*]] = call @layers_nest3(%[[C]]) : (memref<64xf32>) -> f32
// CHECK-NEXT:    return %[[S]]
// CHECK-LABEL: func.func private @layers_nest0(
// CHECK:         arith.constant 2.000000e+00 : f32
// CHECK-NOT:   func.func private @layers_nest1(
// CHECK-LABEL: func.func private @layers_nest2(
// CHECK:         arith.constant 3.000000e+00 : f32
// CHECK-LABEL: func.func private @layers_nest3(
// CHECK-LABEL: func.func @eval(
// CHECK:         call @layers_nest0(
// CHECK-NEXT:    call @layers_nest3(
// CHECK-NOT:   func.func private @eval_nest

// NOSHARE-LABEL: func.func @layers(
// NOSHARE:         call @layers_nest0(
// NOSHARE-NEXT:    call @layers_nest1(
// NOSHARE-NEXT:    call @layers_nest2(
// NOSHARE-NEXT:    call @layers_nest3(
// NOSHARE:       func.func private @layers_nest1(
// NOSHARE:       func.func @eval(
// NOSHARE:         call @eval_nest0(
// NOSHARE-NEXT:    call @eval_nest1(

// a = 1: b = 2, c = 4, a = 12; the sum of c is 256 (twice, from both steps).
// VALUES:      256
// VALUES-NEXT: 12
// VALUES-NEXT: 256

func.func @layers(%a: memref<64xf32>, %b: memref<64xf32>, %c: memref<64xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %two = arith.constant 2.0 : f32
  %three = arith.constant 3.0 : f32
  %zero = arith.constant 0.0 : f32
  // Layer 1 and layer 2: the same op on other buffers.
  scf.for %i = %c0 to %c64 step %c1 {
    %x = memref.load %a[%i] : memref<64xf32>
    %y = arith.mulf %x, %two : f32
    memref.store %y, %b[%i] : memref<64xf32>
  }
  scf.for %i = %c0 to %c64 step %c1 {
    %x = memref.load %b[%i] : memref<64xf32>
    %y = arith.mulf %x, %two : f32
    memref.store %y, %c[%i] : memref<64xf32>
  }
  // Another constant: a function of its own.
  scf.for %i = %c0 to %c64 step %c1 {
    %x = memref.load %c[%i] : memref<64xf32>
    %y = arith.mulf %x, %three : f32
    memref.store %y, %a[%i] : memref<64xf32>
  }
  %sum = scf.for %i = %c0 to %c64 step %c1 iter_args(%acc = %zero) -> f32 {
    %x = memref.load %c[%i] : memref<64xf32>
    %s = arith.addf %acc, %x : f32
    scf.yield %s : f32
  }
  return %sum : f32
}

// The forward again, in another function.
func.func @eval(%a: memref<64xf32>, %b: memref<64xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %two = arith.constant 2.0 : f32
  %zero = arith.constant 0.0 : f32
  scf.for %i = %c0 to %c64 step %c1 {
    %x = memref.load %a[%i] : memref<64xf32>
    %y = arith.mulf %x, %two : f32
    memref.store %y, %b[%i] : memref<64xf32>
  }
  %sum = scf.for %i = %c0 to %c64 step %c1 iter_args(%acc = %zero) -> f32 {
    %x = memref.load %b[%i] : memref<64xf32>
    %s = arith.addf %acc, %x : f32
    scf.yield %s : f32
  }
  return %sum : f32
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %one = arith.constant 1.0 : f32
  %four = arith.constant 4.0 : f32
  %a = memref.alloc() : memref<64xf32>
  %b = memref.alloc() : memref<64xf32>
  %c = memref.alloc() : memref<64xf32>
  %d = memref.alloc() : memref<64xf32>
  %e = memref.alloc() : memref<64xf32>
  linalg.fill ins(%one : f32) outs(%a : memref<64xf32>)
  linalg.fill ins(%four : f32) outs(%d : memref<64xf32>)
  %s = func.call @layers(%a, %b, %c) : (memref<64xf32>, memref<64xf32>, memref<64xf32>) -> f32
  vector.print %s : f32
  %x = memref.load %a[%c1] : memref<64xf32>
  vector.print %x : f32
  %t = func.call @eval(%d, %e) : (memref<64xf32>, memref<64xf32>) -> f32
  %t2 = arith.mulf %t, %one : f32
  %half = arith.constant 0.5 : f32
  %t3 = arith.mulf %t2, %half : f32
  vector.print %t3 : f32
  return
}
