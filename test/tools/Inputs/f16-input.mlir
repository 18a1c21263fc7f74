// A contract-valid step whose input is f16: amp-run feeds f32 pixels, so it
// must refuse the step (on every device) rather than reinterpret the bytes.
func.func @train_step(%w: tensor<784x5xf32> {amp.role = "param"},
                      %x: tensor<128x784xf16> {amp.role = "input"},
                      %y: tensor<128xi32> {amp.role = "label"})
    -> (tensor<f32> {amp.role = "loss"}, tensor<784x5xf32> {amp.updates = 0 : i64})
    attributes {amp.train_step} {
  %loss = tensor.extract_slice %w[0, 0] [1, 1] [1, 1] : tensor<784x5xf32> to tensor<f32>
  %seed = amp.loss_grad %loss : tensor<f32>
  %s = tensor.extract %seed[] : tensor<f32>
  %dw = tensor.splat %s : tensor<784x5xf32>
  %g = amp.grad %dw, %w : tensor<784x5xf32>
  %w1 = arith.subf %w, %g : tensor<784x5xf32>
  return %loss, %w1 : tensor<f32>, tensor<784x5xf32>
}
