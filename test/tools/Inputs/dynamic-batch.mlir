// A linear step with a dynamic batch dimension (amp-run --batch-size sets
// it): loss = 1e-3 * sum_{b,i} X[b, i] * W[i], dW = 1e-3 * seed * column
// sums of X, SGD with learning rate 0.01.
#x_map = affine_map<(b, i) -> (b, i)>
#w_map = affine_map<(b, i) -> (i)>
#s_map = affine_map<(b, i) -> ()>
#id = affine_map<(i) -> (i)>
func.func @train_step(%w: tensor<784xf32> {amp.role = "param"},
                      %x: tensor<?x784xf32> {amp.role = "input"},
                      %y: tensor<?xi32> {amp.role = "label"})
    -> (tensor<f32> {amp.role = "loss"}, tensor<784xf32> {amp.updates = 0 : i64})
    attributes {amp.train_step} {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<f32>
  %l0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %loss = linalg.generic {indexing_maps = [#x_map, #w_map, #s_map],
                          iterator_types = ["reduction", "reduction"]}
      ins(%x, %w : tensor<?x784xf32>, tensor<784xf32>) outs(%l0 : tensor<f32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %k = arith.constant 1.0e-3 : f32
    %p = arith.mulf %a, %b : f32
    %q = arith.mulf %p, %k : f32
    %r = arith.addf %q, %acc : f32
    linalg.yield %r : f32
  } -> tensor<f32>
  %seed = amp.loss_grad %loss : tensor<f32>
  %e = tensor.empty() : tensor<784xf32>
  %g0 = linalg.fill ins(%zero : f32) outs(%e : tensor<784xf32>) -> tensor<784xf32>
  %dw = linalg.generic {indexing_maps = [#x_map, #s_map, #w_map],
                        iterator_types = ["reduction", "parallel"]}
      ins(%x, %seed : tensor<?x784xf32>, tensor<f32>) outs(%g0 : tensor<784xf32>) {
  ^bb0(%a: f32, %s: f32, %acc: f32):
    %k = arith.constant 1.0e-3 : f32
    %p = arith.mulf %a, %s : f32
    %q = arith.mulf %p, %k : f32
    %r = arith.addf %q, %acc : f32
    linalg.yield %r : f32
  } -> tensor<784xf32>
  %g = amp.grad %dw, %w : tensor<784xf32>
  %w1 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%w, %g : tensor<784xf32>, tensor<784xf32>) outs(%e : tensor<784xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %lr = arith.constant 0.01 : f32
    %d = arith.mulf %b, %lr : f32
    %n = arith.subf %a, %d : f32
    linalg.yield %n : f32
  } -> tensor<784xf32>
  return %loss, %w1 : tensor<f32>, tensor<784xf32>
}
