// A parameter of 784 x 3e9 f32 values (8.6 TiB): amp-run must refuse it
// before allocating anything, with the memory it would need, instead of
// aborting in the allocator.
func.func @train_step(%w: tensor<784x3000000000xf32> {amp.role = "param"},
                      %x: tensor<16x784xf32> {amp.role = "input"},
                      %y: tensor<16xi32> {amp.role = "label"})
    -> (tensor<f32> {amp.role = "loss"}, tensor<784x3000000000xf32> {amp.updates = 0 : i64})
    attributes {amp.train_step} {
  %loss = tensor.extract_slice %w[0, 0] [1, 1] [1, 1] : tensor<784x3000000000xf32> to tensor<f32>
  %seed = amp.loss_grad %loss : tensor<f32>
  %s = tensor.extract %seed[] : tensor<f32>
  %dw = tensor.splat %s : tensor<784x3000000000xf32>
  %g = amp.grad %dw, %w : tensor<784x3000000000xf32>
  %w1 = arith.subf %w, %g : tensor<784x3000000000xf32>
  return %loss, %w1 : tensor<f32>, tensor<784x3000000000xf32>
}
