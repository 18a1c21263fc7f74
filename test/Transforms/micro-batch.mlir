// A step that accumulates gradients over 2 micro-batches in an scf.for:
// the seed sits inside the loop, amp.grad after it, and the summed loss
// (which does not depend on the seed) is returned.
// RUN: amp-opt %s -amp-verify-training-step | FileCheck %s --check-prefix=VERIFY
// RUN: amp-opt %s -amp-loss-scaling | FileCheck %s
// Accumulating into a fresh tensor per iteration also lowers.
// RUN: amp-opt %s --amp-mixed-precision --amp-lower-to-llvm | FileCheck %s --check-prefix=LLVM
// With f16 autocast the accumulators stay f32 and the scale state is
// updated once, after the loop (not once per micro-batch).
// RUN: amp-opt %s --amp-mixed-precision=precision=f16 | FileCheck %s --check-prefix=F16
// F16-LABEL: func.func @micro_batches
// F16: scf.for {{.*}} iter_args({{.*}}) -> (tensor<4xf32>, tensor<f32>)
// F16-NOT: amp.update_scale
// F16-NOT: amp.unscale_and_check
// F16: scf.yield {{.*}} : tensor<4xf32>, tensor<f32>
// F16: amp.unscale_and_check
// F16-NOT: amp.unscale_and_check
// F16: scf.if
// F16: amp.update_scale
// F16-NOT: amp.update_scale
// VERIFY-LABEL: func.func @micro_batches
// LLVM: llvm.func @micro_batches

// The seed inside the loop is S (an argument); one unscale_and_check after
// the loop covers the accumulated gradient.
// CHECK-LABEL: func.func @micro_batches
// CHECK-SAME: %[[S:[^:]*]]: tensor<f32> {amp.initial_value = 3.276800e+04 : f32, amp.role = "loss_scale"}
// CHECK: %[[R:.*]]:2 = scf.for
// CHECK: tensor.extract %[[S]][]
// CHECK: scf.yield
// CHECK: amp.unscale_and_check %[[R]]#0 inv_scale
// CHECK: scf.if
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
