// Errors about the function and the wrt= arguments, located on the function
// (or the module when the function is missing).
// RUN: amp-opt %s -split-input-file -amp-differentiate="function=f wrt=1" -verify-diagnostics

// expected-error @below {{amp-differentiate: wrt index 1 is out of range: @f has 1 arguments}}
func.func @f(%x: tensor<2xf32>) -> tensor<f32> {
  %c = arith.constant dense<1.0> : tensor<f32>
  return %c : tensor<f32>
}

// -----

// expected-error @below {{amp-differentiate: argument #1 of @f has type 'tensor<2xi32>'; only float tensors and float scalars have gradients}}
func.func @f(%x: tensor<2xf32>, %labels: tensor<2xi32>) -> tensor<f32> {
  %c = arith.constant dense<1.0> : tensor<f32>
  return %c : tensor<f32>
}

// -----

// expected-error @below {{amp-differentiate: cannot create @f_grad for the gradient of @f: the symbol exists}}
func.func @f(%x: tensor<2xf32>, %w: tensor<2xf32>) -> tensor<f32> {
  %c = arith.constant dense<1.0> : tensor<f32>
  return %c : tensor<f32>
}
func.func @f_grad() {
  return
}

// -----

// expected-error @below {{amp-differentiate: @f is a declaration; there is no body to differentiate}}
func.func private @f(%x: tensor<2xf32>, %w: tensor<2xf32>) -> tensor<f32>

// -----

// expected-error @below {{amp-differentiate: the body of @f has 2 blocks; only single-block bodies (structured control flow: scf.if, scf.for) are differentiated}}
func.func @f(%x: tensor<2xf32>, %w: tensor<2xf32>) -> tensor<f32> {
  %c = arith.constant dense<1.0> : tensor<f32>
  cf.br ^exit
^exit:
  return %c : tensor<f32>
}

// -----

// expected-error @below {{amp-differentiate: @f returns 'tensor<2xf32>'; it must return one scalar float tensor (the loss: tensor<f32> or tensor<f64>)}}
func.func @f(%x: tensor<2xf32>, %w: tensor<2xf32>) -> tensor<2xf32> {
  return %w : tensor<2xf32>
}

// -----

// expected-error @below {{amp-differentiate: no func.func @f in the module}}
module {
  func.func @g(%x: tensor<2xf32>, %w: tensor<2xf32>) -> tensor<f32> {
    %c = arith.constant dense<1.0> : tensor<f32>
    return %c : tensor<f32>
  }
}
