// Regression (found by amp-robustness, test/GPU/fuse-unscale-and-check.mlir
// case 3): amp.unscale_and_check of an f64 gradient lowered to
// `arith.extf f64 to f32`, which does not verify. As in PyTorch (opmath
// type of double is double), an f64 gradient is unscaled and checked in f64:
// the f32 inverse scale is extended, nothing is truncated.
// RUN: amp-opt %s -amp-lower-to-standard | FileCheck %s

// CHECK-LABEL: func.func @f64_gradient
// CHECK: ^bb0(%[[G:.*]]: f64, %[[INV:.*]]: f32, %{{.*}}: f64, %[[FLAG:.*]]: i1):
// CHECK-NEXT: %[[INV64:.*]] = arith.extf %[[INV]] : f32 to f64
// CHECK-NEXT: %[[U:.*]] = arith.mulf %[[G]], %[[INV64]] : f64
// CHECK-NEXT: %[[ABS:.*]] = math.absf %[[G]] : f64
// CHECK-NEXT: %[[INF:.*]] = arith.constant 0x7FF0000000000000 : f64
// CHECK-NEXT: %[[BAD:.*]] = arith.cmpf uge, %[[ABS]], %[[INF]] : f64
// CHECK-NEXT: %[[ANY:.*]] = arith.ori %[[FLAG]], %[[BAD]] : i1
// CHECK-NEXT: linalg.yield %[[U]], %[[ANY]] : f64, i1
// CHECK-NOT: arith.truncf
func.func @f64_gradient(%g: tensor<4xf64>, %inv: tensor<f32>)
    -> (tensor<4xf64>, tensor<i1>) {
  %u, %found = amp.unscale_and_check %g inv_scale %inv : tensor<4xf64>
  return %u, %found : tensor<4xf64>, tensor<i1>
}
