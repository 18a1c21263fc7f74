// MLP forward, 64-128-32-10 with GELU (tanh form) and ReLU, softmax output,
// batch 8, in the form torch-mlir emits for torch.nn.Sequential(Linear,
// GELU(approximate="tanh"), Linear, ReLU, Linear, Softmax): linalg on
// tensors, weights as function arguments (W stored in x W layout).
#id2  = affine_map<(d0, d1) -> (d0, d1)>
#cols = affine_map<(d0, d1) -> (d1)>
module {
func.func @forward(%x: tensor<8x64xf32>,
                   %w1: tensor<64x128xf32>, %b1: tensor<128xf32>,
                   %w2: tensor<128x32xf32>, %b2: tensor<32xf32>,
                   %w3: tensor<32x10xf32>, %b3: tensor<10xf32>)
    -> tensor<8x10xf32> {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<8x128xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<8x128xf32>) -> tensor<8x128xf32>
  %mm1 = linalg.matmul ins(%x, %w1 : tensor<8x64xf32>, tensor<64x128xf32>)
                       outs(%f1 : tensor<8x128xf32>) -> tensor<8x128xf32>
  %z1 = linalg.generic {indexing_maps = [#id2, #cols, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%mm1, %b1 : tensor<8x128xf32>, tensor<128xf32>) outs(%e1 : tensor<8x128xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<8x128xf32>
  // GELU, tanh approximation: 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))).
  %h1 = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%z1 : tensor<8x128xf32>) outs(%e1 : tensor<8x128xf32>) {
  ^bb0(%a: f32, %o: f32):
    %half = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %c = arith.constant 0.797884583 : f32
    %k = arith.constant 0.044715 : f32
    %a2 = arith.mulf %a, %a : f32
    %a3 = arith.mulf %a2, %a : f32
    %ka3 = arith.mulf %k, %a3 : f32
    %in = arith.addf %a, %ka3 : f32
    %s = arith.mulf %c, %in : f32
    %t = math.tanh %s : f32
    %tp = arith.addf %one, %t : f32
    %ha = arith.mulf %half, %a : f32
    %r = arith.mulf %ha, %tp : f32
    linalg.yield %r : f32
  } -> tensor<8x128xf32>
  %e2 = tensor.empty() : tensor<8x32xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<8x32xf32>) -> tensor<8x32xf32>
  %mm2 = linalg.matmul ins(%h1, %w2 : tensor<8x128xf32>, tensor<128x32xf32>)
                       outs(%f2 : tensor<8x32xf32>) -> tensor<8x32xf32>
  %z2 = linalg.generic {indexing_maps = [#id2, #cols, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%mm2, %b2 : tensor<8x32xf32>, tensor<32xf32>) outs(%e2 : tensor<8x32xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<8x32xf32>
  %h2 = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%z2 : tensor<8x32xf32>) outs(%e2 : tensor<8x32xf32>) {
  ^bb0(%a: f32, %o: f32):
    %c0 = arith.constant 0.0 : f32
    %r = arith.maximumf %a, %c0 : f32
    linalg.yield %r : f32
  } -> tensor<8x32xf32>
  %e3 = tensor.empty() : tensor<8x10xf32>
  %f3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<8x10xf32>) -> tensor<8x10xf32>
  %mm3 = linalg.matmul ins(%h2, %w3 : tensor<8x32xf32>, tensor<32x10xf32>)
                       outs(%f3 : tensor<8x10xf32>) -> tensor<8x10xf32>
  %z3 = linalg.generic {indexing_maps = [#id2, #cols, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%mm3, %b3 : tensor<8x10xf32>, tensor<10xf32>) outs(%e3 : tensor<8x10xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<8x10xf32>
  %p = linalg.softmax dimension(1) ins(%z3 : tensor<8x10xf32>) outs(%e3 : tensor<8x10xf32>) -> tensor<8x10xf32>
  return %p : tensor<8x10xf32>
}
}
