// Transformer encoder block, pre-norm, one attention head: LayerNorm,
// Q/K/V projections, scores = Q K^T / sqrt(32) + additive mask, softmax,
// P V, output projection, residual; LayerNorm, FFN 32->64->32 with GELU
// (tanh form), residual. Sequence 16, model width 32. The form torch-mlir
// emits (linalg on tensors, weights as function arguments, x W layout).
#id1   = affine_map<(d0) -> (d0)>
#id2   = affine_map<(d0, d1) -> (d0, d1)>
#rows  = affine_map<(d0, d1) -> (d0)>
#cols  = affine_map<(d0, d1) -> (d1)>
#nt_a  = affine_map<(i, j, k) -> (i, k)>
#nt_b  = affine_map<(i, j, k) -> (j, k)>
#c_ij  = affine_map<(i, j, k) -> (i, j)>
module {
func.func @forward(%x: tensor<16x32xf32>, %mask: tensor<16x16xf32>,
                   %g1: tensor<32xf32>, %be1: tensor<32xf32>,
                   %wq: tensor<32x32xf32>, %wk: tensor<32x32xf32>,
                   %wv: tensor<32x32xf32>, %wo: tensor<32x32xf32>,
                   %g2: tensor<32xf32>, %be2: tensor<32xf32>,
                   %w1: tensor<32x64xf32>, %b1: tensor<64xf32>,
                   %w2: tensor<64x32xf32>, %b2: tensor<32xf32>)
    -> tensor<16x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e16 = tensor.empty() : tensor<16xf32>
  %z16 = linalg.fill ins(%zero : f32) outs(%e16 : tensor<16xf32>) -> tensor<16xf32>
  %e1632 = tensor.empty() : tensor<16x32xf32>
  %z1632 = linalg.fill ins(%zero : f32) outs(%e1632 : tensor<16x32xf32>) -> tensor<16x32xf32>
  %e1616 = tensor.empty() : tensor<16x16xf32>
  %z1616 = linalg.fill ins(%zero : f32) outs(%e1616 : tensor<16x16xf32>) -> tensor<16x16xf32>
  %e1664 = tensor.empty() : tensor<16x64xf32>
  %z1664 = linalg.fill ins(%zero : f32) outs(%e1664 : tensor<16x64xf32>) -> tensor<16x64xf32>
  // LayerNorm ln1: mean and variance over the 32 features of each row, in f32.
  %ln1_s = linalg.generic {indexing_maps = [#id2, #rows], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<16x32xf32>) outs(%z16 : tensor<16xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>
  %ln1_mean = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%ln1_s : tensor<16xf32>) outs(%e16 : tensor<16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %n = arith.constant 32.0 : f32
    %r = arith.divf %a, %n : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>
  %ln1_sq = linalg.generic {indexing_maps = [#id2, #rows, #rows], iterator_types = ["parallel", "reduction"]}
      ins(%x, %ln1_mean : tensor<16x32xf32>, tensor<16xf32>) outs(%z16 : tensor<16xf32>) {
  ^bb0(%a: f32, %m: f32, %acc: f32):
    %d = arith.subf %a, %m : f32
    %d2 = arith.mulf %d, %d : f32
    %r = arith.addf %d2, %acc : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>
  %ln1 = linalg.generic {indexing_maps = [#id2, #rows, #rows, #cols, #cols, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %ln1_mean, %ln1_sq, %g1, %be1 : tensor<16x32xf32>, tensor<16xf32>, tensor<16xf32>, tensor<32xf32>, tensor<32xf32>)
      outs(%e1632 : tensor<16x32xf32>) {
  ^bb0(%a: f32, %m: f32, %sq: f32, %gg: f32, %bb: f32, %o: f32):
    %n = arith.constant 32.0 : f32
    %eps = arith.constant 1.0e-5 : f32
    %var = arith.divf %sq, %n : f32
    %ve = arith.addf %var, %eps : f32
    %rs = math.rsqrt %ve : f32
    %d = arith.subf %a, %m : f32
    %nrm = arith.mulf %d, %rs : f32
    %s = arith.mulf %nrm, %gg : f32
    %r = arith.addf %s, %bb : f32
    linalg.yield %r : f32
  } -> tensor<16x32xf32>
  %q = linalg.matmul ins(%ln1, %wq : tensor<16x32xf32>, tensor<32x32xf32>) outs(%z1632 : tensor<16x32xf32>) -> tensor<16x32xf32>
  %k = linalg.matmul ins(%ln1, %wk : tensor<16x32xf32>, tensor<32x32xf32>) outs(%z1632 : tensor<16x32xf32>) -> tensor<16x32xf32>
  %v = linalg.matmul ins(%ln1, %wv : tensor<16x32xf32>, tensor<32x32xf32>) outs(%z1632 : tensor<16x32xf32>) -> tensor<16x32xf32>
  // scores[i, j] = sum_d q[i, d] k[j, d]
  %qk = linalg.generic {indexing_maps = [#nt_a, #nt_b, #c_ij], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<16x32xf32>, tensor<16x32xf32>) outs(%z1616 : tensor<16x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %r = arith.addf %p, %acc : f32
    linalg.yield %r : f32
  } -> tensor<16x16xf32>
  %scores = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%qk, %mask : tensor<16x16xf32>, tensor<16x16xf32>) outs(%e1616 : tensor<16x16xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %scale = arith.constant 0.176776695 : f32
    %s = arith.mulf %a, %scale : f32
    %r = arith.addf %s, %m : f32
    linalg.yield %r : f32
  } -> tensor<16x16xf32>
  %probs = linalg.softmax dimension(1) ins(%scores : tensor<16x16xf32>) outs(%e1616 : tensor<16x16xf32>) -> tensor<16x16xf32>
  %att = linalg.matmul ins(%probs, %v : tensor<16x16xf32>, tensor<16x32xf32>) outs(%z1632 : tensor<16x32xf32>) -> tensor<16x32xf32>
  %proj = linalg.matmul ins(%att, %wo : tensor<16x32xf32>, tensor<32x32xf32>) outs(%z1632 : tensor<16x32xf32>) -> tensor<16x32xf32>
  %res1 = linalg.add ins(%x, %proj : tensor<16x32xf32>, tensor<16x32xf32>) outs(%e1632 : tensor<16x32xf32>) -> tensor<16x32xf32>
  // LayerNorm ln2: mean and variance over the 32 features of each row, in f32.
  %ln2_s = linalg.generic {indexing_maps = [#id2, #rows], iterator_types = ["parallel", "reduction"]}
      ins(%res1 : tensor<16x32xf32>) outs(%z16 : tensor<16xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>
  %ln2_mean = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%ln2_s : tensor<16xf32>) outs(%e16 : tensor<16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %n = arith.constant 32.0 : f32
    %r = arith.divf %a, %n : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>
  %ln2_sq = linalg.generic {indexing_maps = [#id2, #rows, #rows], iterator_types = ["parallel", "reduction"]}
      ins(%res1, %ln2_mean : tensor<16x32xf32>, tensor<16xf32>) outs(%z16 : tensor<16xf32>) {
  ^bb0(%a: f32, %m: f32, %acc: f32):
    %d = arith.subf %a, %m : f32
    %d2 = arith.mulf %d, %d : f32
    %r = arith.addf %d2, %acc : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>
  %ln2 = linalg.generic {indexing_maps = [#id2, #rows, #rows, #cols, #cols, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%res1, %ln2_mean, %ln2_sq, %g2, %be2 : tensor<16x32xf32>, tensor<16xf32>, tensor<16xf32>, tensor<32xf32>, tensor<32xf32>)
      outs(%e1632 : tensor<16x32xf32>) {
  ^bb0(%a: f32, %m: f32, %sq: f32, %gg: f32, %bb: f32, %o: f32):
    %n = arith.constant 32.0 : f32
    %eps = arith.constant 1.0e-5 : f32
    %var = arith.divf %sq, %n : f32
    %ve = arith.addf %var, %eps : f32
    %rs = math.rsqrt %ve : f32
    %d = arith.subf %a, %m : f32
    %nrm = arith.mulf %d, %rs : f32
    %s = arith.mulf %nrm, %gg : f32
    %r = arith.addf %s, %bb : f32
    linalg.yield %r : f32
  } -> tensor<16x32xf32>
  %ff1 = linalg.matmul ins(%ln2, %w1 : tensor<16x32xf32>, tensor<32x64xf32>) outs(%z1664 : tensor<16x64xf32>) -> tensor<16x64xf32>
  %ff1b = linalg.generic {indexing_maps = [#id2, #cols, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%ff1, %b1 : tensor<16x64xf32>, tensor<64xf32>) outs(%e1664 : tensor<16x64xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<16x64xf32>
  %gelu = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%ff1b : tensor<16x64xf32>) outs(%e1664 : tensor<16x64xf32>) {
  ^bb0(%a: f32, %o: f32):
    %half = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %c = arith.constant 0.797884583 : f32
    %kk = arith.constant 0.044715 : f32
    %a2 = arith.mulf %a, %a : f32
    %a3 = arith.mulf %a2, %a : f32
    %ka3 = arith.mulf %kk, %a3 : f32
    %in = arith.addf %a, %ka3 : f32
    %s = arith.mulf %c, %in : f32
    %t = math.tanh %s : f32
    %tp = arith.addf %one, %t : f32
    %ha = arith.mulf %half, %a : f32
    %r = arith.mulf %ha, %tp : f32
    linalg.yield %r : f32
  } -> tensor<16x64xf32>
  %ff2 = linalg.matmul ins(%gelu, %w2 : tensor<16x64xf32>, tensor<64x32xf32>) outs(%z1632 : tensor<16x32xf32>) -> tensor<16x32xf32>
  %ff2b = linalg.generic {indexing_maps = [#id2, #cols, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%ff2, %b2 : tensor<16x32xf32>, tensor<32xf32>) outs(%e1632 : tensor<16x32xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<16x32xf32>
  %out = linalg.add ins(%res1, %ff2b : tensor<16x32xf32>, tensor<16x32xf32>) outs(%e1632 : tensor<16x32xf32>) -> tensor<16x32xf32>
  return %out : tensor<16x32xf32>
}
}
