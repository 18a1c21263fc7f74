// amp-cpu-polynomial-erf: f32 math.erf, scalar or vector, becomes upstream's
// rational approximation (on |x|: three intervals of P(|x|)/Q(|x|) chosen by
// selects, 1 from 3.75 on, the sign restored), then x's sign copied onto
// the result (erf(-0) = -0); other element types, tensors and scalable
// vectors keep math.erf. Accuracy: unittests Conversion/ErfAccuracyTest.cpp.
// RUN: amp-opt %s --split-input-file --amp-cpu-polynomial-erf | FileCheck %s

// CHECK-LABEL: func.func @erfs(
// CHECK-SAME:    %[[X:.*]]: f32, %[[V:.*]]: vector<16xf32>, %[[H:.*]]: f16, %[[T:.*]]: tensor<4xf32>)
// CHECK:         arith.cmpf olt, %[[X]]
// CHECK:         arith.divf {{.*}} : f32
// CHECK:         %[[NEG:.*]] = arith.negf
// CHECK-NEXT:    %[[P:.*]] = arith.select %{{.*}}, %[[NEG]], %{{.*}} : f32
// CHECK-NEXT:    %[[R:.*]] = math.copysign %[[P]], %[[X]] : f32
// CHECK:         arith.divf {{.*}} : vector<16xf32>
// CHECK:         %[[VR:.*]] = math.copysign %{{.*}}, %[[V]] : vector<16xf32>
// CHECK-NOT:     math.erf {{.*}} : f32
// CHECK-NOT:     math.erf {{.*}} : vector<16xf32>
// CHECK:         %[[HR:.*]] = math.erf %[[H]] : f16
// CHECK:         %[[TR:.*]] = math.erf %[[T]] : tensor<4xf32>
// CHECK:         return %[[R]], %[[VR]], %[[HR]], %[[TR]]
func.func @erfs(%x: f32, %v: vector<16xf32>, %h: f16, %t: tensor<4xf32>)
    -> (f32, vector<16xf32>, f16, tensor<4xf32>) {
  %a = math.erf %x : f32
  %b = math.erf %v : vector<16xf32>
  %c = math.erf %h : f16
  %d = math.erf %t : tensor<4xf32>
  return %a, %b, %c, %d : f32, vector<16xf32>, f16, tensor<4xf32>
}

// -----

// Nothing to do: the function is left as it is.
// CHECK-LABEL: func.func @none
// CHECK-NEXT:    math.exp
func.func @none(%x: f32) -> f32 {
  %a = math.exp %x : f32
  return %a : f32
}
