// A model with a rank-3 output (batch x tokens x features, like a
// transformer sublayer): y = tanh(x) W + b, trained with loss=mse against
// a target of the output's shape.
func.func @sublayer(%x: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %w = arith.constant dense<[[0.5, -0.25, 0.1, 0.0], [0.2, 0.3, -0.4, 0.1], [-0.1, 0.6, 0.2, -0.3], [0.3, 0.1, 0.0, 0.4]]> : tensor<4x4xf32>
  %bias = arith.constant dense<[0.1, -0.1, 0.2, 0.0]> : tensor<4xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x3x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(b, i, d) -> (b, i, d)>, affine_map<(b, i, d) -> (b, i, d)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : tensor<2x3x4xf32>) outs(%e : tensor<2x3x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = math.tanh %a : f32
    linalg.yield %r : f32
  } -> tensor<2x3x4xf32>
  %mm = linalg.generic {indexing_maps = [affine_map<(b, i, j, d) -> (b, i, d)>, affine_map<(b, i, j, d) -> (d, j)>, affine_map<(b, i, j, d) -> (b, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%t, %w : tensor<2x3x4xf32>, tensor<4x4xf32>) outs(%f : tensor<2x3x4xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %p = arith.mulf %a, %c : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<2x3x4xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (j)>, affine_map<(b, i, j) -> (b, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%mm, %bias : tensor<2x3x4xf32>, tensor<4xf32>) outs(%e : tensor<2x3x4xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %r = arith.addf %a, %c : f32
    linalg.yield %r : f32
  } -> tensor<2x3x4xf32>
  return %y : tensor<2x3x4xf32>
}
