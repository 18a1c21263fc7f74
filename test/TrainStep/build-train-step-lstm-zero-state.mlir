// An LSTM cell started from h0 = c0 = torch.zeros, as torch-mlir exports
// nn.LSTM: one fused gate matmul for the input and one for h0, the gates as
// tensor.extract_slice of their sum, sigmoid as 1 / (1 + exp(-x)), and
// c1 = sigmoid(f) * c0 + sigmoid(i) * tanh(g). The forget gate's gradient is
// dc1 * c0, a product with a known zero; through the sigmoid's derivative (a
// division) and the insert_slice into the gates' gradient it stays zero at
// every loss scale. The builder used to call the step a builder bug ("a term
// that does not depend on the seed"): its contract check took the quotient
// and the inserted slice of that zero for seed-free terms.
// RUN: amp-opt %s --amp-build-train-step="loss=mse" -o %t.mlir
// RUN: amp-opt %t.mlir --amp-verify-training-step -o /dev/null
// RUN: amp-run %t.mlir --data=synthetic --check-gradients | FileCheck %s --check-prefix=GRAD
// GRAD: #0{{ +}}4x8xf32
// GRAD: #1{{ +}}2x8xf32
// GRAD: (tolerance 1e-05): passed
// RUN: amp-run %t.mlir --data=synthetic --run=f32,f16+dynamic,bf16 --max-steps=3 --threads=1 --progress=false 2>&1 | FileCheck %s --check-prefix=TRAIN
// TRAIN: f32{{ +}}[[L:[0-9]\.[0-9][0-9]]]
// TRAIN: f16 + dynamic{{ +}}[[L]]
// TRAIN: bf16{{ +}}[[L]]

#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @forward(%x: tensor<2x4xf32>) -> tensor<2x2xf32> {
  %wih = arith.constant dense<[[0.1, -0.2, 0.3, 0.4, -0.5, 0.6, 0.2, -0.1], [0.3, 0.1, -0.4, 0.2, 0.5, -0.3, 0.1, 0.4], [-0.2, 0.4, 0.1, -0.3, 0.2, 0.1, -0.5, 0.3], [0.4, -0.1, 0.2, 0.5, -0.2, 0.3, 0.4, -0.4]]> : tensor<4x8xf32>
  %whh = arith.constant dense<[[0.2, 0.1, -0.3, 0.4, 0.1, -0.2, 0.3, 0.5], [-0.4, 0.3, 0.2, -0.1, 0.5, 0.2, -0.3, 0.1]]> : tensor<2x8xf32>
  %zero = arith.constant 0.000000e+00 : f32
  %one = arith.constant 1.000000e+00 : f32
  %e8 = tensor.empty() : tensor<2x8xf32>
  %z8 = linalg.fill ins(%zero : f32) outs(%e8 : tensor<2x8xf32>) -> tensor<2x8xf32>
  %e2 = tensor.empty() : tensor<2x2xf32>
  %h0 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<2x2xf32>) -> tensor<2x2xf32>
  %c0 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<2x2xf32>) -> tensor<2x2xf32>
  %xi = linalg.matmul ins(%x, %wih : tensor<2x4xf32>, tensor<4x8xf32>) outs(%z8 : tensor<2x8xf32>) -> tensor<2x8xf32>
  %hh = linalg.matmul ins(%h0, %whh : tensor<2x2xf32>, tensor<2x8xf32>) outs(%z8 : tensor<2x8xf32>) -> tensor<2x8xf32>
  %gates = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%xi, %hh : tensor<2x8xf32>, tensor<2x8xf32>) outs(%e8 : tensor<2x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<2x8xf32>
  %i = tensor.extract_slice %gates[0, 0] [2, 2] [1, 1] : tensor<2x8xf32> to tensor<2x2xf32>
  %f = tensor.extract_slice %gates[0, 2] [2, 2] [1, 1] : tensor<2x8xf32> to tensor<2x2xf32>
  %g = tensor.extract_slice %gates[0, 4] [2, 2] [1, 1] : tensor<2x8xf32> to tensor<2x2xf32>
  %o = tensor.extract_slice %gates[0, 6] [2, 2] [1, 1] : tensor<2x8xf32> to tensor<2x2xf32>
  // c1 = sigmoid(f) * c0 + sigmoid(i) * tanh(g); h1 = sigmoid(o) * tanh(c1)
  %h1 = linalg.generic {indexing_maps = [#id, #id, #id, #id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%i, %f, %g, %o, %c0 : tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>) outs(%e2 : tensor<2x2xf32>) {
  ^bb0(%vi: f32, %vf: f32, %vg: f32, %vo: f32, %vc: f32, %out: f32):
    %ni = arith.negf %vi : f32
    %ei = math.exp %ni : f32
    %di = arith.addf %ei, %one : f32
    %si = arith.divf %one, %di : f32
    %nf = arith.negf %vf : f32
    %ef = math.exp %nf : f32
    %df = arith.addf %ef, %one : f32
    %sf = arith.divf %one, %df : f32
    %no = arith.negf %vo : f32
    %eo = math.exp %no : f32
    %do = arith.addf %eo, %one : f32
    %so = arith.divf %one, %do : f32
    %tg = math.tanh %vg : f32
    %fc = arith.mulf %sf, %vc : f32
    %ig = arith.mulf %si, %tg : f32
    %c1 = arith.addf %fc, %ig : f32
    %tc = math.tanh %c1 : f32
    %h = arith.mulf %so, %tc : f32
    linalg.yield %h : f32
  } -> tensor<2x2xf32>
  return %h1 : tensor<2x2xf32>
}
