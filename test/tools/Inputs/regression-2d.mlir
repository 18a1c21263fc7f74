// A linear regression head: y = x W + b, 8 features to 4 values per
// example (batch 16), trained with loss=mse against a batch x 4 target.
// W and b start at zero.
#map0 = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d1)>
func.func @head(%x: tensor<16x8xf32>) -> tensor<16x4xf32> {
  %w = arith.constant dense<0.0> : tensor<8x4xf32>
  %b = arith.constant dense<0.0> : tensor<4xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x4xf32>) -> tensor<16x4xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<16x8xf32>, tensor<8x4xf32>) outs(%f : tensor<16x4xf32>) -> tensor<16x4xf32>
  %y = linalg.generic {indexing_maps = [#map0, #map1, #map0], iterator_types = ["parallel", "parallel"]} ins(%mm, %b : tensor<16x4xf32>, tensor<4xf32>) outs(%e : tensor<16x4xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %s = arith.addf %a, %c : f32
    linalg.yield %s : f32
  } -> tensor<16x4xf32>
  return %y : tensor<16x4xf32>
}
