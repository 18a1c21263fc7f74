// RUN: amp-opt %s --split-input-file --amp-keep-accumulators-low | FileCheck %s

// The f32 accumulator of an f16 matmul is not read after the seed itself,
// but the bias add computed from it is (as a GELU's backward reads its
// input): the sum is rounded to f16, as PyTorch's linear (addmm) rounds
// once after adding the bias (x W may exceed f16's 65504
// where x W + b does not), and the backward reads its f32 view, which
// amp-recompute-for-backward recomputes after the seed.
// CHECK-LABEL: func.func @bias_add_read_by_backward
// CHECK: %[[MM:.*]] = linalg.matmul {{.*}} -> tensor<2x3xf32>
// CHECK-NOT: arith.truncf %[[MM]]
// CHECK: %[[H:.*]] = linalg.generic {{.*}} ins(%[[MM]], %{{.*}} : tensor<2x3xf32>, tensor<3xf32>)
// CHECK: %[[T:.*]] = arith.truncf %[[H]] : tensor<2x3xf32> to tensor<2x3xf16>
// CHECK-NEXT: %[[E:.*]] = arith.extf %[[T]] : tensor<2x3xf16> to tensor<2x3xf32>
// CHECK: amp.loss_grad
// CHECK: arith.mulf %{{.*}}, %[[E]]
#rows = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @bias_add_read_by_backward(
    %w: tensor<4x3xf32> {amp.role = "param"},
    %b: tensor<3xf32> {amp.role = "param"},
    %x: tensor<2x4xf32> {amp.role = "input"},
    %y: tensor<2xi32> {amp.role = "label"})
    -> (tensor<f32> {amp.role = "loss"}, tensor<4x3xf32> {amp.updates = 0 : i64},
        tensor<3xf32> {amp.updates = 1 : i64})
    attributes {amp.train_step} {
  %zero = arith.constant 0.0 : f32
  %wl = arith.truncf %w : tensor<4x3xf32> to tensor<4x3xf16>
  %xl = arith.truncf %x : tensor<2x4xf32> to tensor<2x4xf16>
  %e = tensor.empty() : tensor<2x3xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  %mm = linalg.matmul ins(%xl, %wl : tensor<2x4xf16>, tensor<4x3xf16>) outs(%f : tensor<2x3xf32>) -> tensor<2x3xf32>
  %h = linalg.generic {indexing_maps = [#rows, #col, #rows], iterator_types = ["parallel", "parallel"]} ins(%mm, %b : tensor<2x3xf32>, tensor<3xf32>) outs(%e : tensor<2x3xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %r = arith.addf %a, %c : f32
    linalg.yield %r : f32
  } -> tensor<2x3xf32>
  %loss = tensor.extract_slice %h[0, 0] [1, 1] [1, 1] : tensor<2x3xf32> to tensor<f32>
  %seed = amp.loss_grad %loss : tensor<f32>
  %sd = tensor.extract %seed[] : tensor<f32>
  %d = tensor.splat %sd : tensor<2x3xf32>
  %g1 = arith.mulf %d, %h : tensor<2x3xf32>
  %gw = tensor.pad %g1 low[0, 0] high[2, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f32
  } : tensor<2x3xf32> to tensor<4x3xf32>
  %gb = tensor.extract_slice %g1[0, 0] [1, 3] [1, 1] : tensor<2x3xf32> to tensor<3xf32>
  %g = amp.grad %gw, %w : tensor<4x3xf32>
  %gb2 = amp.grad %gb, %b : tensor<3xf32>
  %w1 = arith.subf %w, %g : tensor<4x3xf32>
  %b1 = arith.subf %b, %gb2 : tensor<3xf32>
  return %loss, %w1, %b1 : tensor<f32>, tensor<4x3xf32>, tensor<3xf32>
}

// -----

// What the backward reads of the accumulator is already f16 (autocast's
// cast of the bias add for the next f16 layer): nothing of it is kept in
// f32, so the accumulator is not rounded.
// CHECK-LABEL: func.func @only_low_copy_read_by_backward
// CHECK: %[[MM:.*]] = linalg.matmul {{.*}} -> tensor<2x3xf32>
// CHECK-NOT: arith.truncf %[[MM]]
// CHECK: linalg.generic {{.*}} ins(%[[MM]], %{{.*}} : tensor<2x3xf32>, tensor<3xf32>)
#rows = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @only_low_copy_read_by_backward(
    %w: tensor<4x3xf32> {amp.role = "param"},
    %b: tensor<3xf32> {amp.role = "param"},
    %x: tensor<2x4xf32> {amp.role = "input"},
    %y: tensor<2xi32> {amp.role = "label"})
    -> (tensor<f32> {amp.role = "loss"}, tensor<4x3xf32> {amp.updates = 0 : i64},
        tensor<3xf32> {amp.updates = 1 : i64})
    attributes {amp.train_step} {
  %zero = arith.constant 0.0 : f32
  %wl = arith.truncf %w : tensor<4x3xf32> to tensor<4x3xf16>
  %xl = arith.truncf %x : tensor<2x4xf32> to tensor<2x4xf16>
  %e = tensor.empty() : tensor<2x3xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  %mm = linalg.matmul ins(%xl, %wl : tensor<2x4xf16>, tensor<4x3xf16>) outs(%f : tensor<2x3xf32>) -> tensor<2x3xf32>
  %h = linalg.generic {indexing_maps = [#rows, #col, #rows], iterator_types = ["parallel", "parallel"]} ins(%mm, %b : tensor<2x3xf32>, tensor<3xf32>) outs(%e : tensor<2x3xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %r = arith.addf %a, %c : f32
    linalg.yield %r : f32
  } -> tensor<2x3xf32>
  %hl = arith.truncf %h : tensor<2x3xf32> to tensor<2x3xf16>
  %loss = tensor.extract_slice %h[0, 0] [1, 1] [1, 1] : tensor<2x3xf32> to tensor<f32>
  %seed = amp.loss_grad %loss : tensor<f32>
  %sd = tensor.extract %seed[] : tensor<f32>
  %d = tensor.splat %sd : tensor<2x3xf32>
  %he = arith.extf %hl : tensor<2x3xf16> to tensor<2x3xf32>
  %g1 = arith.mulf %d, %he : tensor<2x3xf32>
  %gw = tensor.pad %g1 low[0, 0] high[2, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f32
  } : tensor<2x3xf32> to tensor<4x3xf32>
  %gb = tensor.extract_slice %g1[0, 0] [1, 3] [1, 1] : tensor<2x3xf32> to tensor<3xf32>
  %g = amp.grad %gw, %w : tensor<4x3xf32>
  %gb2 = amp.grad %gb, %b : tensor<3xf32>
  %w1 = arith.subf %w, %g : tensor<4x3xf32>
  %b1 = arith.subf %b, %gb2 : tensor<3xf32>
  return %loss, %w1, %b1 : tensor<f32>, tensor<4x3xf32>, tensor<3xf32>
}

// -----

// No bias add: the matmul's accumulator is scaled (attention scores / 4)
// and the scaled value is what the backward reads: the accumulator is
// rounded (as PyTorch's bmm returns f16) and the scaling reads its view.
// CHECK-LABEL: func.func @scaled_scores_read_by_backward
// CHECK: %[[MM:.*]] = linalg.matmul {{.*}} -> tensor<2x3xf32>
// CHECK-NEXT: %[[T:.*]] = arith.truncf %[[MM]] : tensor<2x3xf32> to tensor<2x3xf16>
// CHECK-NEXT: %[[E:.*]] = arith.extf %[[T]] : tensor<2x3xf16> to tensor<2x3xf32>
// CHECK-NEXT: linalg.generic {{.*}} ins(%[[E]] : tensor<2x3xf32>)
#rows = affine_map<(d0, d1) -> (d0, d1)>
func.func @scaled_scores_read_by_backward(
    %w: tensor<4x3xf32> {amp.role = "param"},
    %x: tensor<2x4xf32> {amp.role = "input"},
    %y: tensor<2xi32> {amp.role = "label"})
    -> (tensor<f32> {amp.role = "loss"}, tensor<4x3xf32> {amp.updates = 0 : i64})
    attributes {amp.train_step} {
  %zero = arith.constant 0.0 : f32
  %wl = arith.truncf %w : tensor<4x3xf32> to tensor<4x3xf16>
  %xl = arith.truncf %x : tensor<2x4xf32> to tensor<2x4xf16>
  %e = tensor.empty() : tensor<2x3xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  %mm = linalg.matmul ins(%xl, %wl : tensor<2x4xf16>, tensor<4x3xf16>) outs(%f : tensor<2x3xf32>) -> tensor<2x3xf32>
  %h = linalg.generic {indexing_maps = [#rows, #rows], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) {
  ^bb0(%a: f32, %o: f32):
    %c = arith.constant 4.0 : f32
    %r = arith.divf %a, %c : f32
    linalg.yield %r : f32
  } -> tensor<2x3xf32>
  %loss = tensor.extract_slice %h[0, 0] [1, 1] [1, 1] : tensor<2x3xf32> to tensor<f32>
  %seed = amp.loss_grad %loss : tensor<f32>
  %sd = tensor.extract %seed[] : tensor<f32>
  %d = tensor.splat %sd : tensor<2x3xf32>
  %g1 = arith.mulf %d, %h : tensor<2x3xf32>
  %gw = tensor.pad %g1 low[0, 0] high[2, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f32
  } : tensor<2x3xf32> to tensor<4x3xf32>
  %g = amp.grad %gw, %w : tensor<4x3xf32>
  %w1 = arith.subf %w, %g : tensor<4x3xf32>
  return %loss, %w1 : tensor<f32>, tensor<4x3xf32>
}
