// A parameter of 2^32 x 2^32 f32 values: its size in bytes (2^66) wraps
// to 0 in 64 bits; amp-run must refuse it instead of training "successfully"
// on an empty buffer.
func.func @train_step(%w: tensor<4294967296x4294967296xf32> {amp.role = "param"},
                      %x: tensor<16x784xf32> {amp.role = "input"},
                      %y: tensor<16xi32> {amp.role = "label"})
    -> (tensor<f32> {amp.role = "loss"}, tensor<4294967296x4294967296xf32> {amp.updates = 0 : i64})
    attributes {amp.train_step} {
  %loss = tensor.extract_slice %w[0, 0] [1, 1] [1, 1] : tensor<4294967296x4294967296xf32> to tensor<f32>
  %seed = amp.loss_grad %loss : tensor<f32>
  %s = tensor.extract %seed[] : tensor<f32>
  %dw = tensor.splat %s : tensor<4294967296x4294967296xf32>
  %g = amp.grad %dw, %w : tensor<4294967296x4294967296xf32>
  %w1 = arith.subf %w, %g : tensor<4294967296x4294967296xf32>
  return %loss, %w1 : tensor<f32>, tensor<4294967296x4294967296xf32>
}
