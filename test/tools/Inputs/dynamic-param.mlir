// A parameter with a dynamic size: amp-run cannot know how big it is and
// must refuse it (before loading data or allocating anything) instead of
// giving it the batch size.
func.func @train_step(%w: tensor<?x10xf32> {amp.role = "param"},
                      %x: tensor<16x784xf32> {amp.role = "input"},
                      %y: tensor<16xi32> {amp.role = "label"})
    -> (tensor<f32> {amp.role = "loss"}, tensor<?x10xf32> {amp.updates = 0 : i64})
    attributes {amp.train_step} {
  %loss = tensor.extract_slice %w[0, 0] [1, 1] [1, 1] : tensor<?x10xf32> to tensor<f32>
  %seed = amp.loss_grad %loss : tensor<f32>
  %s = tensor.extract %seed[] : tensor<f32>
  %c0 = arith.constant 0 : index
  %n = tensor.dim %w, %c0 : tensor<?x10xf32>
  %dw = tensor.splat %s[%n] : tensor<?x10xf32>
  %g = amp.grad %dw, %w : tensor<?x10xf32>
  %w1 = arith.subf %w, %g : tensor<?x10xf32>
  return %loss, %w1 : tensor<f32>, tensor<?x10xf32>
}
