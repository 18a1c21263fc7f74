// A recurrent cell started from a zero state, as torch-mlir exports
// `h0 = torch.zeros(...)` of an RNN/GRU/LSTM: the recurrent weight W is
// used by a matmul with the zero fill (h0 @ W) and by one with the input.
// W's gradient is the sum of x^T dY (scaled by the loss scale S under loss
// scaling) and h0^T dY, a product with a known zero, which is zero at
// every S: the training-step contract holds (the builder used to refuse
// the step as "a term that does not depend on the seed", a builder bug).
// RUN: amp-opt %s --amp-build-train-step="loss=mse" -o %t.mlir
// RUN: amp-opt %t.mlir --amp-verify-training-step -o /dev/null
//
// Against finite differences:
// RUN: amp-run %t.mlir --data=synthetic --check-gradients | FileCheck %s --check-prefix=GRAD
// GRAD: #0{{ +}}4x4xf32
// GRAD: (tolerance 1e-05): passed
//
// It trains in every precision (finite losses, the same to two decimals):
// RUN: amp-run %t.mlir --data=synthetic --run=f32,f16+dynamic,bf16 --max-steps=3 --threads=1 --progress=false 2>&1 | FileCheck %s --check-prefix=TRAIN
// TRAIN: f32{{ +}}[[L:0\.[0-9][0-9]]]
// TRAIN: f16 + dynamic{{ +}}[[L]]
// TRAIN: bf16{{ +}}[[L]]

module {
  func.func @forward(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
    %W = arith.constant dense<[[0.1, 0.2, 0.3, 0.4], [0.5, -0.6, 0.7, 0.8], [-0.1, 0.2, -0.3, 0.4], [0.5, 0.6, 0.7, -0.8]]> : tensor<4x4xf32>
    %zero = arith.constant 0.000000e+00 : f32
    %e = tensor.empty() : tensor<1x4xf32>
    %h0 = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4xf32>) -> tensor<1x4xf32>
    %hw = linalg.matmul ins(%h0, %W : tensor<1x4xf32>, tensor<4x4xf32>) outs(%h0 : tensor<1x4xf32>) -> tensor<1x4xf32>
    %xw = linalg.matmul ins(%x, %W : tensor<1x4xf32>, tensor<4x4xf32>) outs(%h0 : tensor<1x4xf32>) -> tensor<1x4xf32>
    %h1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%hw, %xw : tensor<1x4xf32>, tensor<1x4xf32>) outs(%e : tensor<1x4xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %s = arith.addf %a, %b : f32
      %t = math.tanh %s : f32
      linalg.yield %t : f32
    } -> tensor<1x4xf32>
    return %h1 : tensor<1x4xf32>
  }
}
