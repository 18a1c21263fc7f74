// A model with two activations (forward(q, kv) of a QKV-style projection):
// logits = q Wq + kv Wk. Both arguments are inputs by default.
func.func @two(%q: tensor<4x3xf32>, %kv: tensor<4x5xf32>) -> tensor<4x2xf32> {
  %wq = arith.constant dense<[[0.1, -0.2], [0.4, 0.5], [0.3, -0.6]]> : tensor<3x2xf32>
  %wk = arith.constant dense<[[0.1, 0.2], [-0.4, 0.5], [0.3, 0.6], [0.7, -0.1], [0.2, 0.2]]> : tensor<5x2xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x2xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x2xf32>) -> tensor<4x2xf32>
  %a = linalg.matmul ins(%q, %wq : tensor<4x3xf32>, tensor<3x2xf32>) outs(%f : tensor<4x2xf32>) -> tensor<4x2xf32>
  %b = linalg.matmul ins(%kv, %wk : tensor<4x5xf32>, tensor<5x2xf32>) outs(%a : tensor<4x2xf32>) -> tensor<4x2xf32>
  return %b : tensor<4x2xf32>
}
