// amp-cpu-polynomial-exp: f32 math.exp, scalar or vector, becomes upstream's
// polynomial (fma chain, 2^n built in the exponent bits) on an input whose
// NaNs are replaced by 0, and a NaN input is selected through; other element
// types, tensors and scalable vectors keep math.exp. Accuracy: unittests
// Conversion/ExpAccuracyTest.cpp.
// RUN: amp-opt %s --amp-cpu-polynomial-exp | FileCheck %s

// CHECK-LABEL: func.func @exps(
// CHECK-SAME:    %[[X:.*]]: f32, %[[V:.*]]: vector<16xf32>, %[[H:.*]]: f16)
// CHECK:         %[[NAN:.*]] = arith.cmpf uno, %[[X]], %[[X]] : f32
// CHECK:         %[[IN:.*]] = arith.select %[[NAN]], %{{.*}}, %[[X]] : f32
// CHECK:         arith.cmpf uge, %[[IN]]
// CHECK:         math.floor
// CHECK:         math.fma
// CHECK:         arith.fptosi
// CHECK:         arith.shli
// CHECK:         %[[P:.*]] = arith.mulf
// CHECK:         %[[R:.*]] = arith.select %[[NAN]], %[[X]], %[[P]] : f32
// CHECK:         %[[VNAN:.*]] = arith.cmpf uno, %[[V]], %[[V]] : vector<16xf32>
// CHECK:         math.fma {{.*}} : vector<16xf32>
// CHECK:         %[[VR:.*]] = arith.select %[[VNAN]], %[[V]], %{{.*}} : vector<16xi1>, vector<16xf32>
// CHECK-NOT:     math.exp {{.*}} : f32
// CHECK-NOT:     math.exp {{.*}} : vector<16xf32>
// CHECK:         %[[HR:.*]] = math.exp %[[H]] : f16
// CHECK:         return %[[R]], %[[VR]], %[[HR]]
func.func @exps(%x: f32, %v: vector<16xf32>, %h: f16) -> (f32, vector<16xf32>, f16) {
  %a = math.exp %x : f32
  %b = math.exp %v : vector<16xf32>
  %c = math.exp %h : f16
  return %a, %b, %c : f32, vector<16xf32>, f16
}

// Nothing to do (no exp, or one on a tensor, left to other passes): no
// error, no change.
// CHECK-LABEL: func.func @none(
// CHECK:         math.log
// CHECK:         math.exp %{{.*}} : tensor<4xf32>
func.func @none(%x: f32, %t: tensor<4xf32>) -> (f32, tensor<4xf32>) {
  %l = math.log %x : f32
  %e = math.exp %t : tensor<4xf32>
  return %l, %e : f32, tensor<4xf32>
}
