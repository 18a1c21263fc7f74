// A loss of about 1 whose gradients are about 1e-6: L = 1 + 1e-6 *
// sum_b sum_i x_bi w_i^2, dL/dw_i = 2e-6 w_i sum_b x_bi. The backward's
// factor 2.0 is what amp-run-check-gradients.mlir replaces to break it.
#x_map = affine_map<(b, i) -> (b, i)>
#w_map = affine_map<(b, i) -> (i)>
#s_map = affine_map<(b, i) -> ()>
func.func @train_step(%w: tensor<64xf32> {amp.role = "param", amp.initial_value = dense<0.25> : tensor<64xf32>},
                      %x: tensor<16x64xf32> {amp.role = "input"},
                      %y: tensor<16xi32> {amp.role = "label"})
    -> (tensor<f32> {amp.role = "loss"}, tensor<64xf32> {amp.updates = 0 : i64})
    attributes {amp.train_step} {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %e0 = tensor.empty() : tensor<f32>
  %l0 = linalg.fill ins(%one : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %loss = linalg.generic {indexing_maps = [#x_map, #w_map, #s_map],
                          iterator_types = ["reduction", "reduction"]}
      ins(%x, %w : tensor<16x64xf32>, tensor<64xf32>) outs(%l0 : tensor<f32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %c = arith.constant 1.0e-6 : f32
    %p = arith.mulf %a, %b : f32
    %q = arith.mulf %p, %b : f32
    %s = arith.mulf %q, %c : f32
    %r = arith.addf %s, %acc : f32
    linalg.yield %r : f32
  } -> tensor<f32>
  %seed = amp.loss_grad %loss : tensor<f32>
  %e = tensor.empty() : tensor<64xf32>
  %g0 = linalg.fill ins(%zero : f32) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  %dw = linalg.generic {indexing_maps = [#x_map, #w_map, #s_map, #w_map],
                        iterator_types = ["reduction", "parallel"]}
      ins(%x, %w, %seed : tensor<16x64xf32>, tensor<64xf32>, tensor<f32>)
      outs(%g0 : tensor<64xf32>) {
  ^bb0(%a: f32, %b: f32, %s: f32, %acc: f32):
    %factor = arith.constant 2.0 : f32
    %c = arith.constant 1.0e-6 : f32
    %p = arith.mulf %a, %b : f32
    %q = arith.mulf %p, %factor : f32
    %t = arith.mulf %q, %c : f32
    %u = arith.mulf %t, %s : f32
    %r = arith.addf %u, %acc : f32
    linalg.yield %r : f32
  } -> tensor<64xf32>
  %g = amp.grad %dw, %w : tensor<64xf32>
  %w1 = arith.subf %w, %g : tensor<64xf32>
  return %loss, %w1 : tensor<f32>, tensor<64xf32>
}
