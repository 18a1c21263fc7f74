// Without function=, a module with no public function returning one scalar
// float tensor from float tensor arguments gets a warning and no change.
// RUN: amp-opt %s -amp-differentiate -verify-diagnostics | FileCheck %s

// CHECK-NOT: _grad
// expected-warning @below {{amp-differentiate: no public function returns one scalar float tensor from float tensor arguments; nothing to differentiate (name one with function=<name>)}}
module {
  func.func @vector(%x: tensor<4xf64>) -> tensor<4xf64> {
    return %x : tensor<4xf64>
  }
  func.func @labels_only(%y: tensor<4xi32>) -> tensor<f32> {
    %c = arith.constant dense<1.0> : tensor<f32>
    return %c : tensor<f32>
  }
}
