// Input of rebatch-two-inputs.mlir: argument #1 has 2 rows where argument
// #0 (the batch) has 1; the model sums #1's rows into every example.
module {
  func.func @forward(%a: tensor<1x2xf32>, %b: tensor<2x2xf32>) -> tensor<1x2xf32> {
    %zero = arith.constant 0.0 : f32
    %w = arith.constant dense<[0.5, -0.25]> : tensor<2xf32>
    %e = tensor.empty() : tensor<2xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2xf32>) -> tensor<2xf32>
    %s = linalg.reduce { arith.addf } ins(%b : tensor<2x2xf32>) outs(%f : tensor<2xf32>) dimensions = [0]
    %e2 = tensor.empty() : tensor<1x2xf32>
    %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
        ins(%a, %s, %w : tensor<1x2xf32>, tensor<2xf32>, tensor<2xf32>) outs(%e2 : tensor<1x2xf32>) {
    ^bb0(%x: f32, %t: f32, %v: f32, %o: f32):
      %p = arith.mulf %x, %v : f32
      %r = arith.addf %p, %t : f32
      linalg.yield %r : f32
    } -> tensor<1x2xf32>
    return %y : tensor<1x2xf32>
  }
}
