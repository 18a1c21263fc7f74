// A step that starts from its model's weights: amp.initial_value on the
// parameter (what amp-build-train-step writes for a torch-mlir export), here
// one of the wrong shape, an error. The loss is W[0, 0] and the update w -
// seed, so step 1's loss is the first weight and step 2's one less.
func.func @train_step(%w: tensor<2x3xf32> {amp.role = "param", amp.initial_value = dense<1.0> : tensor<3x2xf32>},
                      %x: tensor<16x784xf32> {amp.role = "input"},
                      %y: tensor<16xi32> {amp.role = "label"})
    -> (tensor<f32> {amp.role = "loss"}, tensor<2x3xf32> {amp.updates = 0 : i64})
    attributes {amp.train_step} {
  %loss = tensor.extract_slice %w[0, 0] [1, 1] [1, 1] : tensor<2x3xf32> to tensor<f32>
  %seed = amp.loss_grad %loss : tensor<f32>
  %s = tensor.extract %seed[] : tensor<f32>
  %dw = tensor.splat %s : tensor<2x3xf32>
  %g = amp.grad %dw, %w : tensor<2x3xf32>
  %w1 = arith.subf %w, %g : tensor<2x3xf32>
  return %loss, %w1 : tensor<f32>, tensor<2x3xf32>
}
