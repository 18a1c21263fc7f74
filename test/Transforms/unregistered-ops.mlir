// Ops the policy does not know stay f32 and are never crashed on.
// RUN: amp-opt %s --allow-unregistered-dialect -amp-autocast -amp-lower-to-standard | FileCheck %s
// CHECK-LABEL: func @unknown
// CHECK: %[[R:.*]] = "foo.bar"(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NOT: amp.grad
// CHECK: return %[[R]]
func.func @unknown(%a: tensor<4xf32>, %w: tensor<4xf32>) -> tensor<4xf32> {
  %r = "foo.bar"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  %g = amp.grad %r, %w : tensor<4xf32>
  return %g : tensor<4xf32>
}
