// The loop nests amp-cpu-outline-loop-nests leaves where they are:
// - an scf.for whose result is a memref.alloca made in its body (the
//   outlined function's stack frame would be gone when the call returns:
//   the caller read freed stack);
// - a nest in the region of an op other than scf control flow (a
//   memref.generic_atomic_rmw body, which must stay free of side effects,
//   and an unknown op, which may be a symbol table).
// Found by a break-it run (2026-12-07). The other nests of each function
// still move (each into a function of its own: `share=false`, since the
// functions' nests are alike).
// RUN: amp-opt %s --allow-unregistered-dialect --amp-cpu-outline-loop-nests="share=false" | FileCheck %s

// CHECK-LABEL: func.func @alloca_result(
// CHECK:         %[[R:.*]] = scf.for
// CHECK:           memref.alloca
// CHECK:           scf.yield
// CHECK:         call @alloca_result_nest0(
// CHECK:         call @alloca_result_nest1(
// CHECK:         return %[[R]]
func.func @alloca_result(%out: memref<4xf32>) -> memref<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %v = arith.constant 42.0 : f32
  %init = memref.alloca() : memref<4xf32>
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%m = %init) -> memref<4xf32> {
    %a = memref.alloca() : memref<4xf32>
    scf.for %j = %c0 to %c4 step %c1 {
      memref.store %v, %a[%j] : memref<4xf32>
    }
    scf.yield %a : memref<4xf32>
  }
  scf.for %j = %c0 to %c4 step %c1 {
    memref.store %v, %out[%j] : memref<4xf32>
  }
  scf.for %j = %c0 to %c4 step %c1 {
    memref.store %v, %out[%j] : memref<4xf32>
  }
  return %r : memref<4xf32>
}

// CHECK-LABEL: func.func @atomic_body(
// CHECK:         memref.generic_atomic_rmw
// CHECK:           scf.for
// CHECK:         call @atomic_body_nest0(
// CHECK:         call @atomic_body_nest1(
// CHECK-LABEL: func.func @unknown_region(
// CHECK:         "test.region"() ({
// CHECK:           scf.for
// CHECK:         call @unknown_region_nest0(
// CHECK:         call @unknown_region_nest1(
func.func @atomic_body(%m: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %one = arith.constant 1.0 : f32
  %r = memref.generic_atomic_rmw %m[%c0] : memref<8xf32> {
  ^bb0(%cur: f32):
    %s = scf.for %i = %c0 to %c8 step %c1 iter_args(%a = %cur) -> f32 {
      %b = arith.addf %a, %one : f32
      scf.yield %b : f32
    }
    memref.atomic_yield %s : f32
  }
  scf.for %i = %c0 to %c8 step %c1 {
    memref.store %one, %m[%i] : memref<8xf32>
  }
  scf.for %i = %c0 to %c8 step %c1 {
    memref.store %one, %m[%i] : memref<8xf32>
  }
  return
}

func.func @unknown_region(%m: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %one = arith.constant 1.0 : f32
  "test.region"() ({
    scf.for %i = %c0 to %c8 step %c1 {
      memref.store %one, %m[%i] : memref<8xf32>
    }
    "test.terminator"() : () -> ()
  }) : () -> ()
  scf.for %i = %c0 to %c8 step %c1 {
    memref.store %one, %m[%i] : memref<8xf32>
  }
  scf.for %i = %c0 to %c8 step %c1 {
    memref.store %one, %m[%i] : memref<8xf32>
  }
  return
}
