// RUN: amp-opt %s --split-input-file --amp-build-train-step -verify-diagnostics

// Every argument that is not a parameter is an input by default: a weight
// passed as an argument beside constant weights is read as an input whose
// dimension 0 is not the batch; the error says where it belongs.
func.func @weight_as_input(%x: tensor<4x3xf32>,
                           // expected-error @+1 {{amp-build-train-step: the input (argument #1, 'tensor<3x2xf32>') has 3 in dimension 0, the output ('tensor<4x2xf32>') 4; dimension 0 of both is the batch (transpose the input, or name the inputs with inputs=; a weight passed as an argument belongs in params=)}}
                           %w: tensor<3x2xf32>) -> tensor<4x2xf32> {
  %b = arith.constant dense<[0.5, -0.5]> : tensor<2xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x2xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x2xf32>) -> tensor<4x2xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<4x3xf32>, tensor<3x2xf32>) outs(%f : tensor<4x2xf32>) -> tensor<4x2xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %b : tensor<4x2xf32>, tensor<2xf32>) outs(%e : tensor<4x2xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %r = arith.addf %a, %c : f32
    linalg.yield %r : f32
  } -> tensor<4x2xf32>
  return %y : tensor<4x2xf32>
}

// -----

// An input must be a ranked float or integer tensor with a batch dimension.
func.func @scalar_input(%x: tensor<4x2xf32>,
                        // expected-error @+1 {{amp-build-train-step: the input, argument #1 of @scalar_input, has type 'f32'; it must be a ranked float or integer tensor whose dimension 0 is the batch}}
                        %s: f32) -> tensor<4x2xf32> {
  %w = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %e = tensor.empty() : tensor<4x2xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %w : tensor<4x2xf32>, tensor<2xf32>) outs(%e : tensor<4x2xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.mulf %a, %b : f32
    %t = arith.mulf %r, %s : f32
    linalg.yield %t : f32
  } -> tensor<4x2xf32>
  return %y : tensor<4x2xf32>
}

// -----

// Index tensors are not data amp-run can feed.
func.func @index_input(%x: tensor<4x2xf32>,
                       // expected-error @+1 {{amp-build-train-step: the input, argument #1 of @index_input, has type 'tensor<4xindex>'; it must be a ranked float or integer tensor whose dimension 0 is the batch}}
                       %i: tensor<4xindex>) -> tensor<4x2xf32> {
  %w = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %e = tensor.empty() : tensor<4x2xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %w : tensor<4x2xf32>, tensor<2xf32>) outs(%e : tensor<4x2xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.mulf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<4x2xf32>
  return %y : tensor<4x2xf32>
}
