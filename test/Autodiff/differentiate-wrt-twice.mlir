// RUN: amp-opt %s -amp-differentiate="function=f wrt=0,0" -verify-diagnostics

// expected-error @below {{amp-differentiate: wrt index 0 is listed twice}}
func.func @f(%x: tensor<2xf32>) -> tensor<f32> {
  %c = arith.constant dense<1.0> : tensor<f32>
  return %c : tensor<f32>
}
