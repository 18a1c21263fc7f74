// A step whose loss is +inf whatever the weights: the forward overflowed,
// which no loss scale can fix; amp-run must stop and say so
// (amp-run-collapse.mlir).
#x_map = affine_map<(b, i) -> (b, i)>
#w_map = affine_map<(b, i) -> (i)>
#s_map = affine_map<(b, i) -> ()>
func.func @train_step(%w: tensor<784xf32> {amp.role = "param"},
                      %x: tensor<16x784xf32> {amp.role = "input"},
                      %y: tensor<16xi32> {amp.role = "label"})
    -> (tensor<f32> {amp.role = "loss"}, tensor<784xf32> {amp.updates = 0 : i64})
    attributes {amp.train_step} {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<f32>
  %l0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %loss = linalg.generic {indexing_maps = [#x_map, #w_map, #s_map],
                          iterator_types = ["reduction", "reduction"]}
      ins(%x, %w : tensor<16x784xf32>, tensor<784xf32>) outs(%l0 : tensor<f32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %r = arith.addf %p, %acc : f32
    linalg.yield %r : f32
  } -> tensor<f32>
  %inf = arith.constant dense<0x7F800000> : tensor<f32>
  %loss_inf = arith.addf %loss, %inf : tensor<f32>
  %seed = amp.loss_grad %loss_inf : tensor<f32>
  %e = tensor.empty() : tensor<784xf32>
  %g0 = linalg.fill ins(%zero : f32) outs(%e : tensor<784xf32>) -> tensor<784xf32>
  %dw = linalg.generic {indexing_maps = [#x_map, #s_map, #w_map],
                        iterator_types = ["reduction", "parallel"]}
      ins(%x, %seed : tensor<16x784xf32>, tensor<f32>) outs(%g0 : tensor<784xf32>) {
  ^bb0(%a: f32, %s: f32, %acc: f32):
    %huge = arith.constant 1.0 : f32
    %p = arith.mulf %a, %s : f32
    %q = arith.mulf %p, %huge : f32
    %r = arith.addf %q, %acc : f32
    linalg.yield %r : f32
  } -> tensor<784xf32>
  %g = amp.grad %dw, %w : tensor<784xf32>
  %w1 = arith.subf %w, %g : tensor<784xf32>
  return %loss_inf, %w1 : tensor<f32>, tensor<784xf32>
}
