// Token ids (an i64 input) beside a float input: the ids index a constant
// integer table (3 rows, so amp-run draws synthetic ids from [0, 3)) and
// are converted with sitofp; no parameter flows through either.
func.func @ids(%ids: tensor<4x3xi64>, %x: tensor<4x2xf32>) -> tensor<4x2xf32> {
  %table = arith.constant dense<[[1, 2], [3, -4], [5, 6]]> : tensor<3x2xi32>
  %w = arith.constant dense<[[1.0, -1.0], [0.5, 2.0]]> : tensor<2x2xf32>
  %zero = arith.constant 0.0 : f32
  %tenth = arith.constant 0.1 : f32
  %e = tensor.empty() : tensor<4x2xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x2xf32>) -> tensor<4x2xf32>
  %emb = linalg.generic {indexing_maps = [affine_map<(b, t, k) -> (b, t)>, affine_map<(b, t, k) -> (b, k)>], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%ids : tensor<4x3xi64>) outs(%f : tensor<4x2xf32>) {
  ^bb0(%id: i64, %acc: f32):
    %k = linalg.index 2 : index
    %row = arith.index_cast %id : i64 to index
    %v = tensor.extract %table[%row, %k] : tensor<3x2xi32>
    %vf = arith.sitofp %v : i32 to f32
    %s = arith.sitofp %id : i64 to f32
    %vs = arith.addf %vf, %s : f32
    %sc = arith.mulf %vs, %tenth : f32
    %r = arith.addf %acc, %sc : f32
    linalg.yield %r : f32
  } -> tensor<4x2xf32>
  %h = linalg.add ins(%emb, %x : tensor<4x2xf32>, tensor<4x2xf32>) outs(%e : tensor<4x2xf32>) -> tensor<4x2xf32>
  %y = linalg.matmul ins(%h, %w : tensor<4x2xf32>, tensor<2x2xf32>) outs(%f : tensor<4x2xf32>) -> tensor<4x2xf32>
  return %y : tensor<4x2xf32>
}
