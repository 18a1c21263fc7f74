// Two parameters starting from dense_resource blobs (w0, w1); the loss is
// W0[0, 0] + W1[0]. amp-run-initial-values.mlir renames w1 to a key the file does
// not define: with w0's blob present that is an error, not a random start.
func.func @train_step(%w: tensor<2x3xf32> {amp.role = "param", amp.initial_value = dense_resource<w0> : tensor<2x3xf32>},
                      %v: tensor<3xf32> {amp.role = "param", amp.initial_value = dense_resource<w1> : tensor<3xf32>},
                      %x: tensor<16x784xf32> {amp.role = "input"},
                      %y: tensor<16xi32> {amp.role = "label"})
    -> (tensor<f32> {amp.role = "loss"}, tensor<2x3xf32> {amp.updates = 0 : i64}, tensor<3xf32> {amp.updates = 1 : i64})
    attributes {amp.train_step} {
  %lw = tensor.extract_slice %w[0, 0] [1, 1] [1, 1] : tensor<2x3xf32> to tensor<f32>
  %lv = tensor.extract_slice %v[0] [1] [1] : tensor<3xf32> to tensor<f32>
  %loss = arith.addf %lw, %lv : tensor<f32>
  %seed = amp.loss_grad %loss : tensor<f32>
  %s = tensor.extract %seed[] : tensor<f32>
  %dw = tensor.splat %s : tensor<2x3xf32>
  %g = amp.grad %dw, %w : tensor<2x3xf32>
  %w1 = arith.subf %w, %g : tensor<2x3xf32>
  %dv = tensor.splat %s : tensor<3xf32>
  %gv = amp.grad %dv, %v : tensor<3xf32>
  %v1 = arith.subf %v, %gv : tensor<3xf32>
  return %loss, %w1, %v1 : tensor<f32>, tensor<2x3xf32>, tensor<3xf32>
}
{-#
  dialect_resources: {
    builtin: {
      w0: "0x040000000000803E0000C0BF0000004000004040000080400000A040",
      w1: "0x040000000000803F0000004000004040"
    }
  }
#-}
