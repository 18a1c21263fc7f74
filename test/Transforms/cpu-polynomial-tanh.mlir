// amp-cpu-polynomial-tanh: f32 math.tanh, scalar or vector, becomes upstream's
// rational approximation (x clamped to +-7.99881172 by unordered compares,
// so a NaN passes, x P(x^2) / Q(x^2), x itself for |x| < 0.0004); other element types, tensors and scalable
// vectors keep math.tanh. Accuracy: unittests Conversion/TanhAccuracyTest.cpp.
// RUN: amp-opt %s --split-input-file --amp-cpu-polynomial-tanh | FileCheck %s

// CHECK-LABEL: func.func @tanhs(
// CHECK-SAME:    %[[X:.*]]: f32, %[[V:.*]]: vector<16xf32>, %[[H:.*]]: f16, %[[T:.*]]: tensor<4xf32>)
// CHECK:         %[[HI:.*]] = arith.constant 7.99881172 : f32
// CHECK:         %[[BELOW:.*]] = arith.cmpf ult, %[[X]], %[[HI]] : f32
// CHECK:         %[[C0:.*]] = arith.select %[[BELOW]], %[[X]], %[[HI]] : f32
// CHECK:         %[[ABOVE:.*]] = arith.cmpf ugt, %[[C0]]
// CHECK:         %[[C:.*]] = arith.select %[[ABOVE]], %[[C0]]
// CHECK:         arith.constant 4.000000e-04 : f32
// CHECK:         %[[ABS:.*]] = math.absf %[[X]] : f32
// CHECK:         %[[TINY:.*]] = arith.cmpf olt, %[[ABS]]
// CHECK:         %[[Q:.*]] = arith.divf {{.*}} : f32
// CHECK:         %[[R:.*]] = arith.select %[[TINY]], %[[C]], %[[Q]] : f32
// CHECK:         arith.divf {{.*}} : vector<16xf32>
// CHECK-NEXT:    %[[VR:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : vector<16xi1>, vector<16xf32>
// CHECK-NOT:     math.tanh {{.*}} : f32
// CHECK-NOT:     math.tanh {{.*}} : vector<16xf32>
// CHECK:         %[[HR:.*]] = math.tanh %[[H]] : f16
// CHECK:         %[[TR:.*]] = math.tanh %[[T]] : tensor<4xf32>
// CHECK:         return %[[R]], %[[VR]], %[[HR]], %[[TR]]
func.func @tanhs(%x: f32, %v: vector<16xf32>, %h: f16, %t: tensor<4xf32>)
    -> (f32, vector<16xf32>, f16, tensor<4xf32>) {
  %a = math.tanh %x : f32
  %b = math.tanh %v : vector<16xf32>
  %c = math.tanh %h : f16
  %d = math.tanh %t : tensor<4xf32>
  return %a, %b, %c, %d : f32, vector<16xf32>, f16, tensor<4xf32>
}

// -----

// Nothing to do: the function is left as it is.
// CHECK-LABEL: func.func @none
// CHECK-NEXT:    math.erf
func.func @none(%x: f32) -> f32 {
  %a = math.erf %x : f32
  return %a : f32
}
