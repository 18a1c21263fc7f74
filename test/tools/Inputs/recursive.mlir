// A step whose loss comes from a function that calls itself: amp-run
// refuses it before loading anything (it used to overflow the JIT's stack).
func.func @sum_down(%w: tensor<f32>, %n: index) -> tensor<f32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %done = arith.cmpi eq, %n, %c0 : index
  %r = scf.if %done -> (tensor<f32>) {
    scf.yield %w : tensor<f32>
  } else {
    %m = arith.subi %n, %c1 : index
    %inner = func.call @sum_down(%w, %m) : (tensor<f32>, index) -> tensor<f32>
    scf.yield %inner : tensor<f32>
  }
  return %r : tensor<f32>
}

func.func @train_step(%w: tensor<f32> {amp.role = "param"},
                      %x: tensor<16x784xf32> {amp.role = "input"},
                      %y: tensor<16xi32> {amp.role = "label"})
    -> (tensor<f32> {amp.role = "loss"}, tensor<f32> {amp.updates = 0 : i64})
    attributes {amp.train_step} {
  %c3 = arith.constant 3 : index
  %loss = func.call @sum_down(%w, %c3) : (tensor<f32>, index) -> tensor<f32>
  %seed = amp.loss_grad %loss : tensor<f32>
  %g = amp.grad %seed, %w : tensor<f32>
  %w1 = arith.subf %w, %g : tensor<f32>
  return %loss, %w1 : tensor<f32>, tensor<f32>
}
