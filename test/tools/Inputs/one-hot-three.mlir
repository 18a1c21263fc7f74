// A hand-written step without amp.classes on its label and without an eval
// step: its loss reads the label as a one-hot index into 3 classes
// (label == linalg.index 1 over a 16 x 3 tensor). The "model" is trivial:
// loss = W[0, 0] + onehot[0, 0], dW = seed everywhere.
#rows = affine_map<(d0, d1) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @train_step(%w: tensor<784x3xf32> {amp.role = "param"},
                      %x: tensor<16x784xf32> {amp.role = "input"},
                      %y: tensor<16xi32> {amp.role = "label"})
    -> (tensor<f32> {amp.role = "loss"}, tensor<784x3xf32> {amp.updates = 0 : i64})
    attributes {amp.train_step} {
  %e = tensor.empty() : tensor<16x3xf32>
  %onehot = linalg.generic {indexing_maps = [#rows, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%y : tensor<16xi32>) outs(%e : tensor<16x3xf32>) {
  ^bb0(%l: i32, %o: f32):
    %j = linalg.index 1 : index
    %li = arith.index_cast %l : i32 to index
    %eq = arith.cmpi eq, %j, %li : index
    %one = arith.constant 1.0 : f32
    %zero = arith.constant 0.0 : f32
    %v = arith.select %eq, %one, %zero : f32
    linalg.yield %v : f32
  } -> tensor<16x3xf32>
  %w00 = tensor.extract_slice %w[0, 0] [1, 1] [1, 1] : tensor<784x3xf32> to tensor<f32>
  %h00 = tensor.extract_slice %onehot[0, 0] [1, 1] [1, 1] : tensor<16x3xf32> to tensor<f32>
  %loss = arith.addf %w00, %h00 : tensor<f32>
  %seed = amp.loss_grad %loss : tensor<f32>
  %s = tensor.extract %seed[] : tensor<f32>
  %dw = tensor.splat %s : tensor<784x3xf32>
  %g = amp.grad %dw, %w : tensor<784x3xf32>
  %w1 = arith.subf %w, %g : tensor<784x3xf32>
  return %loss, %w1 : tensor<f32>, tensor<784x3xf32>
}
