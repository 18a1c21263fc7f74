// A step whose seed sits in a micro-batch loop (its memory report is
// approximate) and whose batch is static (test/tools/amp-run-memory.mlir).
#id = affine_map<(i) -> (i)>
#red = affine_map<(i) -> ()>
func.func @micro_batches(%w: tensor<4xf32> {amp.role = "param"},
                         %x: tensor<8x4xf32> {amp.role = "input"},
                         %y: tensor<8xi32> {amp.role = "label"})
    -> (tensor<f32> {amp.role = "loss"}, tensor<4xf32> {amp.updates = 0 : i64})
    attributes {amp.train_step} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant dense<0.0> : tensor<4xf32>
  %lzero = arith.constant dense<0.0> : tensor<f32>
  %r:2 = scf.for %i = %c0 to %c2 step %c1 iter_args(%gacc = %zero, %lacc = %lzero)
      -> (tensor<4xf32>, tensor<f32>) {
    // loss_i = sum(w * w) (a stand-in forward), dW_i = seed * w
    %e = tensor.empty() : tensor<f32>
    %l = linalg.generic {indexing_maps = [#id, #red], iterator_types = ["reduction"]}
        ins(%w : tensor<4xf32>) outs(%lzero : tensor<f32>) {
    ^bb0(%a: f32, %o: f32):
      %m = arith.mulf %a, %a : f32
      %s = arith.addf %o, %m : f32
      linalg.yield %s : f32
    } -> tensor<f32>
    %seed = amp.loss_grad %l : tensor<f32>
    %sv = tensor.extract %seed[] : tensor<f32>
    %ss = tensor.splat %sv : tensor<4xf32>
    %g = arith.mulf %ss, %w : tensor<4xf32>
    %fresh = tensor.empty() : tensor<4xf32>
    %gnext = linalg.add ins(%gacc, %g : tensor<4xf32>, tensor<4xf32>) outs(%fresh : tensor<4xf32>) -> tensor<4xf32>
    %lnext = arith.addf %lacc, %l : tensor<f32>
    scf.yield %gnext, %lnext : tensor<4xf32>, tensor<f32>
  }
  %gw = amp.grad %r#0, %w : tensor<4xf32>
  %w1 = arith.subf %w, %gw : tensor<4xf32>
  return %r#1, %w1 : tensor<f32>, tensor<4xf32>
}
