// RUN: amp-opt %s --split-input-file --amp-recompute-for-backward | FileCheck %s
// After the rewrite the clones survive CSE (their amp.recomputed differs
// from the forward's ops), and the memory report no longer counts them.
// RUN: amp-opt %s --split-input-file --amp-recompute-for-backward --cse | FileCheck %s --check-prefix=CSE
// RUN: amp-opt %s --split-input-file --amp-memory-report=kept=true -o /dev/null 2>&1 | FileCheck %s --check-prefix=BEFORE
// RUN: amp-opt %s --split-input-file --amp-recompute-for-backward --amp-memory-report=kept=true -o /dev/null 2>&1 | FileCheck %s --check-prefix=AFTER
// RUN: amp-opt %s --split-input-file --amp-recompute-for-backward=elementwise=false --amp-memory-report=kept=true -o /dev/null 2>&1 | FileCheck %s --check-prefix=LAYOUT

// A linear layer as torch-mlir and autocast leave it: the f16 copy of the
// weight, its transpose (what the forward matmul reads) and the f16 copy of
// the input. The backward reads the transposed weight copy (for the
// gradient of the layer's input) and the input copy (for the weight's
// gradient): both are recomputed from the arguments after the seed, the
// truncf of the weight with its transpose.
// CHECK-LABEL: func.func @weight_and_input_copies
// CHECK-SAME: (%[[W:.*]]: tensor<3x4xf32> {{.*}}, %[[X:.*]]: tensor<2x4xf32>
// CHECK: %[[WL:.*]] = arith.truncf %[[W]] : tensor<3x4xf32> to tensor<3x4xf16>
// CHECK-NOT: amp.recomputed
// CHECK: %[[WT:.*]] = linalg.transpose ins(%[[WL]]
// CHECK: %[[XL:.*]] = arith.truncf %[[X]]
// CHECK: linalg.matmul ins(%[[XL]], %[[WT]]
// CHECK: amp.loss_grad
// CHECK: %[[WL2:.*]] = arith.truncf %[[W]] {amp.recomputed}
// CHECK-NEXT: %[[WT2:.*]] = linalg.transpose ins(%[[WL2]] : {{.*}}) {{.*}} {amp.recomputed}
// CHECK-NEXT: linalg.matmul ins(%{{.*}}, %[[WT2]]
// CHECK: %[[XL2:.*]] = arith.truncf %[[X]] {amp.recomputed}
// CHECK: linalg.transpose ins(%[[XL2]]
// CHECK-NOT: amp.recomputed
// CHECK: return
// CSE-LABEL: func.func @weight_and_input_copies
// CSE-COUNT-3: amp.recomputed
// BEFORE-LABEL: amp-memory-report: @weight_and_input_copies
// BEFORE: kept for the backward {{ *}}40 B, 2 values
// BEFORE-NEXT: 24  tensor<4x3xf16> from linalg.transpose
// BEFORE-NEXT: 16  tensor<2x4xf16> from arith.truncf
// BEFORE-NEXT: peak live
// AFTER-LABEL: amp-memory-report: @weight_and_input_copies
// AFTER: kept for the backward {{ *}}0 B, 0 values
func.func @weight_and_input_copies(
    %w: tensor<3x4xf32> {amp.role = "param"},
    %x: tensor<2x4xf32> {amp.role = "input"},
    %y: tensor<2xi32> {amp.role = "label"})
    -> (tensor<f32> {amp.role = "loss"}, tensor<3x4xf32> {amp.updates = 0 : i64})
    attributes {amp.train_step} {
  %zero = arith.constant 0.0 : f32
  %wl = arith.truncf %w : tensor<3x4xf32> to tensor<3x4xf16>
  %et = tensor.empty() : tensor<4x3xf16>
  %wt = linalg.transpose ins(%wl : tensor<3x4xf16>) outs(%et : tensor<4x3xf16>) permutation = [1, 0]
  %xl = arith.truncf %x : tensor<2x4xf32> to tensor<2x4xf16>
  %e = tensor.empty() : tensor<2x3xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  %xw = linalg.matmul ins(%xl, %wt : tensor<2x4xf16>, tensor<4x3xf16>) outs(%f : tensor<2x3xf32>) -> tensor<2x3xf32>
  %loss = tensor.extract_slice %xw[0, 0] [1, 1] [1, 1] : tensor<2x3xf32> to tensor<f32>
  %seed = amp.loss_grad %loss : tensor<f32>
  %s = tensor.extract %seed[] : tensor<f32>
  %d = tensor.splat %s : tensor<2x4xf32>
  %dl = arith.truncf %d : tensor<2x4xf32> to tensor<2x4xf16>
  // The gradient of the layer's input (unused here, as for a first layer
  // whose input needs none: kept to show the read of the weight copy).
  %ex = tensor.empty() : tensor<2x3xf32>
  %fx = linalg.fill ins(%zero : f32) outs(%ex : tensor<2x3xf32>) -> tensor<2x3xf32>
  %dx = linalg.matmul ins(%dl, %wt : tensor<2x4xf16>, tensor<4x3xf16>) outs(%fx : tensor<2x3xf32>) -> tensor<2x3xf32>
  %ext = tensor.empty() : tensor<4x2xf16>
  %xt = linalg.transpose ins(%xl : tensor<2x4xf16>) outs(%ext : tensor<4x2xf16>) permutation = [1, 0]
  %dt = tensor.extract_slice %dx[0, 0] [2, 3] [1, 1] : tensor<2x3xf32> to tensor<2x3xf32>
  %dtl = arith.truncf %dt : tensor<2x3xf32> to tensor<2x3xf16>
  %eg = tensor.empty() : tensor<4x3xf32>
  %fg = linalg.fill ins(%zero : f32) outs(%eg : tensor<4x3xf32>) -> tensor<4x3xf32>
  %gwt = linalg.matmul ins(%xt, %dtl : tensor<4x2xf16>, tensor<2x3xf16>) outs(%fg : tensor<4x3xf32>) -> tensor<4x3xf32>
  %egt = tensor.empty() : tensor<3x4xf32>
  %gw = linalg.transpose ins(%gwt : tensor<4x3xf32>) outs(%egt : tensor<3x4xf32>) permutation = [1, 0]
  %g = amp.grad %gw, %w : tensor<3x4xf32>
  %w1 = arith.subf %w, %g : tensor<3x4xf32>
  return %loss, %w1 : tensor<f32>, tensor<3x4xf32>
}

// -----

// The softmax output P in f32 (its backward reads it in f32) and its f16
// copy (a batch_matmul's operand, whose backward reads it too): P is kept
// anyway, so the copy is recomputed from it; one copy of P is kept, in f32.
// CHECK-LABEL: func.func @f32_and_f16_copy
// CHECK: %[[P:.*]] = math.exp
// CHECK: %[[PL:.*]] = arith.truncf %[[P]] : tensor<4xf32> to tensor<4xf16>
// CHECK: amp.loss_grad
// CHECK: %[[PL2:.*]] = arith.truncf %[[P]] {amp.recomputed}
// CHECK-NEXT: arith.extf %[[PL2]]
// AFTER-LABEL: amp-memory-report: @f32_and_f16_copy
// AFTER: kept for the backward {{ *}}16 B, 1 values
// AFTER: 16  tensor<4xf32> from math.exp
func.func @f32_and_f16_copy(%w: tensor<4xf32> {amp.role = "param"},
                            %x: tensor<2x4xf32> {amp.role = "input"},
                            %y: tensor<2xi32> {amp.role = "label"})
    -> (tensor<f32> {amp.role = "loss"}, tensor<4xf32> {amp.updates = 0 : i64})
    attributes {amp.train_step} {
  %p = math.exp %w : tensor<4xf32>
  %pl = arith.truncf %p : tensor<4xf32> to tensor<4xf16>
  %q = arith.mulf %pl, %pl : tensor<4xf16>
  %qf = arith.extf %q : tensor<4xf16> to tensor<4xf32>
  %loss = tensor.extract_slice %qf[0] [1] [1] : tensor<4xf32> to tensor<f32>
  %seed = amp.loss_grad %loss : tensor<f32>
  %s = tensor.extract %seed[] : tensor<f32>
  %d = tensor.splat %s : tensor<4xf32>
  %plf = arith.extf %pl : tensor<4xf16> to tensor<4xf32>
  %a = arith.mulf %d, %plf : tensor<4xf32>
  %b = arith.mulf %a, %p : tensor<4xf32>
  %g = amp.grad %b, %w : tensor<4xf32>
  %w1 = arith.subf %w, %g : tensor<4xf32>
  return %loss, %w1 : tensor<f32>, tensor<4xf32>
}

// -----

// A low-precision activation computed from a value the backward does not
// read: recomputing it would keep that (larger) value instead, so the copy
// stays kept. The forward's mulf is not cheap: never recomputed.
// CHECK-LABEL: func.func @negative_copy_of_unkept_value
// CHECK-NOT: amp.recomputed
// CHECK: return
func.func @negative_copy_of_unkept_value(
    %w: tensor<4xf32> {amp.role = "param"},
    %x: tensor<2x4xf32> {amp.role = "input"},
    %y: tensor<2xi32> {amp.role = "label"})
    -> (tensor<f32> {amp.role = "loss"}, tensor<4xf32> {amp.updates = 0 : i64})
    attributes {amp.train_step} {
  %h = arith.mulf %w, %w : tensor<4xf32>
  %hl = arith.truncf %h : tensor<4xf32> to tensor<4xf16>
  %hf = arith.extf %hl : tensor<4xf16> to tensor<4xf32>
  %loss = tensor.extract_slice %hf[0] [1] [1] : tensor<4xf32> to tensor<f32>
  %seed = amp.loss_grad %loss : tensor<f32>
  %s = tensor.extract %seed[] : tensor<f32>
  %sl = arith.truncf %s : f32 to f16
  %d = tensor.splat %sl : tensor<4xf16>
  %a = arith.mulf %d, %hl : tensor<4xf16>
  %af = arith.extf %a : tensor<4xf16> to tensor<4xf32>
  %g = amp.grad %af, %w : tensor<4xf32>
  %w1 = arith.subf %w, %g : tensor<4xf32>
  return %loss, %w1 : tensor<f32>, tensor<4xf32>
}

// -----

// After loss scaling the seed is gone: there is no point where the
// backward starts, and the step is left as it is.
// CHECK-LABEL: func.func @negative_no_seed
// CHECK-NOT: amp.recomputed
// CHECK: return
func.func @negative_no_seed(%w: tensor<4xf32> {amp.role = "param"},
                            %x: tensor<2x4xf32> {amp.role = "input"},
                            %y: tensor<2xi32> {amp.role = "label"})
    -> (tensor<f32> {amp.role = "loss"}, tensor<4xf32> {amp.updates = 0 : i64})
    attributes {amp.train_step} {
  %wl = arith.truncf %w : tensor<4xf32> to tensor<4xf16>
  %wf = arith.extf %wl : tensor<4xf16> to tensor<4xf32>
  %loss = tensor.extract_slice %wf[0] [1] [1] : tensor<4xf32> to tensor<f32>
  %a = arith.mulf %wl, %wl : tensor<4xf16>
  %af = arith.extf %a : tensor<4xf16> to tensor<4xf32>
  %w1 = arith.subf %w, %af : tensor<4xf32>
  return %loss, %w1 : tensor<f32>, tensor<4xf32>
}

// -----

// An f32 view (extf) of a low-precision value the backward reads is
// recomputed from its input whatever that input is (here an f16 negf, not
// cheap), so the input is kept instead (16 B, not 32); and a pad of that
// input, which the backward reads too, is then recomputed from it.
// CHECK-LABEL: func.func @pad_of_extf_input
// CHECK: amp.loss_grad
// CHECK: arith.extf %{{.*}} {amp.recomputed} : tensor<2x4xf16> to tensor<2x4xf32>
// CHECK: } {amp.recomputed} : tensor<2x4xf16> to tensor<2x6xf16>
// BEFORE-LABEL: amp-memory-report: @pad_of_extf_input
// BEFORE: kept for the backward {{ *}}56 B, 2 values
// BEFORE: 32  tensor<2x4xf32> from arith.extf
// BEFORE-NEXT: 24  tensor<2x6xf16> from tensor.pad
// AFTER-LABEL: amp-memory-report: @pad_of_extf_input
// AFTER: kept for the backward {{ *}}16 B, 1 values
// AFTER-NEXT: 16  tensor<2x4xf16> from arith.negf
// AFTER-NEXT: peak live
func.func @pad_of_extf_input(
    %w: tensor<2x4xf32> {amp.role = "param"},
    %x: tensor<2x4xf32> {amp.role = "input"},
    %y: tensor<2xi32> {amp.role = "label"})
    -> (tensor<f32> {amp.role = "loss"}, tensor<2x4xf32> {amp.updates = 0 : i64})
    attributes {amp.train_step} {
  %zero = arith.constant 0.0 : f16
  %xw = arith.mulf %x, %w : tensor<2x4xf32>
  %xl = arith.truncf %xw : tensor<2x4xf32> to tensor<2x4xf16>
  %r = arith.negf %xl : tensor<2x4xf16>
  %re = arith.extf %r : tensor<2x4xf16> to tensor<2x4xf32>
  %p = tensor.pad %r low[0, 1] high[0, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f16
  } : tensor<2x4xf16> to tensor<2x6xf16>
  %loss = tensor.extract_slice %re[0, 0] [1, 1] [1, 1] : tensor<2x4xf32> to tensor<f32>
  %seed = amp.loss_grad %loss : tensor<f32>
  %s = tensor.extract %seed[] : tensor<f32>
  %d = tensor.splat %s : tensor<2x4xf32>
  %g1 = arith.mulf %d, %re : tensor<2x4xf32>
  %ps = tensor.extract_slice %p[0, 2] [2, 4] [1, 1] : tensor<2x6xf16> to tensor<2x4xf16>
  %pe = arith.extf %ps : tensor<2x4xf16> to tensor<2x4xf32>
  %g2 = arith.mulf %g1, %pe : tensor<2x4xf32>
  %g = amp.grad %g2, %w : tensor<2x4xf32>
  %w1 = arith.subf %w, %g : tensor<2x4xf32>
  return %loss, %w1 : tensor<f32>, tensor<2x4xf32>
}

// -----

// Ops whose work is one pass over their bytes (linalg ops whose iteration
// domain is no larger than their largest operand: elementwise ops, fills,
// row reductions) are recomputed too: a softmax over scores that
// amp-keep-accumulators-low stored in f16 (%t) is recomputed from them
// after the seed (the f32 view, the row max, the exponentials, the row sum
// and the quotient), so the backward's reads of the exponentials and of
// the softmax keep only %t (12 B instead of 48). A contraction iterates
// over more points than any operand and is not recomputed, although its
// operands are at hand: %mm2 stays kept.
// CHECK-LABEL: func.func @softmax_of_rounded_scores
// CHECK: amp.loss_grad
// CHECK: arith.extf %{{.*}} {amp.recomputed} : tensor<2x3xf16> to tensor<2x3xf32>
// CHECK: linalg.fill {amp.recomputed}
// CHECK: linalg.generic {{.*}}"reduction"{{.*}} {amp.recomputed}
// CHECK-NEXT: ^bb0
// CHECK-NEXT: arith.maximumf
// CHECK: linalg.generic {{.*}} {amp.recomputed}
// CHECK-NEXT: ^bb0
// CHECK-NEXT: arith.subf
// CHECK-NEXT: math.exp
// CHECK: linalg.fill {amp.recomputed}
// CHECK: linalg.generic {{.*}}"reduction"{{.*}} {amp.recomputed}
// CHECK-NEXT: ^bb0
// CHECK-NEXT: arith.addf
// CHECK: linalg.generic {{.*}} {amp.recomputed}
// CHECK-NEXT: ^bb0
// CHECK-NEXT: arith.divf
// CHECK-NOT: amp.recomputed
// CHECK: return
// BEFORE-LABEL: amp-memory-report: @softmax_of_rounded_scores
// BEFORE: kept for the backward {{ *}}72 B, 3 values
// BEFORE: 24  tensor<2x3xf32> from linalg.matmul
// BEFORE-NEXT: 24  tensor<2x3xf32> from linalg.generic
// BEFORE-NEXT: 24  tensor<2x3xf32> from linalg.generic
// AFTER-LABEL: amp-memory-report: @softmax_of_rounded_scores
// AFTER: kept for the backward {{ *}}36 B, 2 values
// AFTER: 24  tensor<2x3xf32> from linalg.matmul
// AFTER-NEXT: 12  tensor<2x3xf16> from arith.truncf
// With elementwise=false the softmax's ops are not recomputed.
// LAYOUT-LABEL: amp-memory-report: @softmax_of_rounded_scores
// LAYOUT: kept for the backward {{ *}}72 B, 3 values
#rows = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @softmax_of_rounded_scores(
    %w: tensor<4x3xf32> {amp.role = "param"},
    %x: tensor<2x4xf32> {amp.role = "input"},
    %y: tensor<2xi32> {amp.role = "label"})
    -> (tensor<f32> {amp.role = "loss"}, tensor<4x3xf32> {amp.updates = 0 : i64})
    attributes {amp.train_step} {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %wl = arith.truncf %w : tensor<4x3xf32> to tensor<4x3xf16>
  %xl = arith.truncf %x : tensor<2x4xf32> to tensor<2x4xf16>
  %e = tensor.empty() : tensor<2x3xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  %mm = linalg.matmul ins(%xl, %wl : tensor<2x4xf16>, tensor<4x3xf16>) outs(%f : tensor<2x3xf32>) -> tensor<2x3xf32>
  %mm2 = linalg.matmul ins(%xl, %wl : tensor<2x4xf16>, tensor<4x3xf16>) outs(%f : tensor<2x3xf32>) -> tensor<2x3xf32>
  %t = arith.truncf %mm : tensor<2x3xf32> to tensor<2x3xf16>
  %s = arith.extf %t : tensor<2x3xf16> to tensor<2x3xf32>
  %er = tensor.empty() : tensor<2xf32>
  %fmax = linalg.fill ins(%ninf : f32) outs(%er : tensor<2xf32>) -> tensor<2xf32>
  %max = linalg.generic {indexing_maps = [#rows, #row], iterator_types = ["parallel", "reduction"]} ins(%s : tensor<2x3xf32>) outs(%fmax : tensor<2xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.maximumf %a, %o : f32
    linalg.yield %m : f32
  } -> tensor<2xf32>
  %ex = linalg.generic {indexing_maps = [#rows, #row, #rows], iterator_types = ["parallel", "parallel"]} ins(%s, %max : tensor<2x3xf32>, tensor<2xf32>) outs(%e : tensor<2x3xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %d = arith.subf %a, %m : f32
    %r = math.exp %d : f32
    linalg.yield %r : f32
  } -> tensor<2x3xf32>
  %fsum = linalg.fill ins(%zero : f32) outs(%er : tensor<2xf32>) -> tensor<2xf32>
  %sum = linalg.generic {indexing_maps = [#rows, #row], iterator_types = ["parallel", "reduction"]} ins(%ex : tensor<2x3xf32>) outs(%fsum : tensor<2xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.addf %a, %o : f32
    linalg.yield %r : f32
  } -> tensor<2xf32>
  %p = linalg.generic {indexing_maps = [#rows, #row, #rows], iterator_types = ["parallel", "parallel"]} ins(%ex, %sum : tensor<2x3xf32>, tensor<2xf32>) outs(%e : tensor<2x3xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.divf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<2x3xf32>
  %loss = tensor.extract_slice %p[0, 0] [1, 1] [1, 1] : tensor<2x3xf32> to tensor<f32>
  %seed = amp.loss_grad %loss : tensor<f32>
  %sd = tensor.extract %seed[] : tensor<f32>
  %d = tensor.splat %sd : tensor<2x3xf32>
  %g1 = arith.mulf %d, %p : tensor<2x3xf32>
  %g2 = arith.mulf %g1, %ex : tensor<2x3xf32>
  %g3 = arith.mulf %g2, %mm2 : tensor<2x3xf32>
  %gs = tensor.extract_slice %g3[0, 0] [2, 2] [1, 1] : tensor<2x3xf32> to tensor<2x2xf32>
  %gp = tensor.pad %gs low[0, 0] high[2, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f32
  } : tensor<2x2xf32> to tensor<4x3xf32>
  %g = amp.grad %gp, %w : tensor<4x3xf32>
  %w1 = arith.subf %w, %g : tensor<4x3xf32>
  return %loss, %w1 : tensor<f32>, tensor<4x3xf32>
}

// -----

// Dynamic shapes: an elementwise op (its result is indexed by all of its
// loops) over a value the backward keeps anyway is recomputed, with the
// tensor.dim and tensor.empty of its dynamic result.
// CHECK-LABEL: func.func @dynamic_elementwise
// CHECK: amp.loss_grad
// CHECK: tensor.dim {amp.recomputed}
// CHECK-NEXT: tensor.empty({{.*}}) {amp.recomputed} : tensor<?x4xf32>
// CHECK-NEXT: linalg.generic {{.*}} {amp.recomputed}
// CHECK-NEXT: ^bb0
// CHECK-NEXT: math.tanh
// AFTER-LABEL: amp-memory-report: @dynamic_elementwise
// AFTER: kept for the backward {{ *}}0 B, 1 values
// AFTER-NEXT: 0  tensor<?x4xf32> from arith.mulf
// AFTER-NEXT: peak live
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @dynamic_elementwise(
    %w: tensor<4xf32> {amp.role = "param"},
    %x: tensor<?x4xf32> {amp.role = "input"},
    %y: tensor<?xi32> {amp.role = "label"})
    -> (tensor<f32> {amp.role = "loss"}, tensor<4xf32> {amp.updates = 0 : i64})
    attributes {amp.train_step} {
  %c0 = arith.constant 0 : index
  %xx = arith.mulf %x, %x : tensor<?x4xf32>
  %n = tensor.dim %xx, %c0 : tensor<?x4xf32>
  %e = tensor.empty(%n) : tensor<?x4xf32>
  %t = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%xx : tensor<?x4xf32>) outs(%e : tensor<?x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = math.tanh %a : f32
    linalg.yield %r : f32
  } -> tensor<?x4xf32>
  %loss = tensor.extract %t[%c0, %c0] : tensor<?x4xf32>
  %l = tensor.from_elements %loss : tensor<f32>
  %seed = amp.loss_grad %l : tensor<f32>
  %s = tensor.extract %seed[] : tensor<f32>
  %g0 = arith.mulf %xx, %t : tensor<?x4xf32>
  %g1 = tensor.extract_slice %g0[0, 0] [1, 4] [1, 1] : tensor<?x4xf32> to tensor<4xf32>
  %d = tensor.splat %s : tensor<4xf32>
  %g2 = arith.mulf %g1, %d : tensor<4xf32>
  %g = amp.grad %g2, %w : tensor<4xf32>
  %w1 = arith.subf %w, %g : tensor<4xf32>
  return %l, %w1 : tensor<f32>, tensor<4xf32>
}

// -----

// A statistic: the row sums of a 2x16 value (2 elements, at most 1/8 of
// their input) are kept rather than recomputed, so the backward does not
// read the 2x16 input again; the normalization that reads them is
// recomputed from the kept input and the kept sums.
// CHECK-LABEL: func.func @row_sums_kept
// CHECK: amp.loss_grad
// CHECK-NOT: "reduction"{{.*}}amp.recomputed
// CHECK: linalg.generic {{.*}} {amp.recomputed}
// CHECK-NEXT: ^bb0
// CHECK-NEXT: arith.divf
// CHECK-NOT: amp.recomputed
// CHECK: return
// AFTER-LABEL: amp-memory-report: @row_sums_kept
// AFTER: kept for the backward {{ *}}136 B, 2 values
// AFTER-NEXT: 128  tensor<2x16xf32> from arith.mulf
// AFTER-NEXT: 8  tensor<2xf32> from linalg.generic
// AFTER-NEXT: peak live
#m2 = affine_map<(d0, d1) -> (d0, d1)>
#r2 = affine_map<(d0, d1) -> (d0)>
func.func @row_sums_kept(
    %w: tensor<16xf32> {amp.role = "param"},
    %x: tensor<2x16xf32> {amp.role = "input"},
    %y: tensor<2xi32> {amp.role = "label"})
    -> (tensor<f32> {amp.role = "loss"}, tensor<16xf32> {amp.updates = 0 : i64})
    attributes {amp.train_step} {
  %zero = arith.constant 0.0 : f32
  %xx = arith.mulf %x, %x : tensor<2x16xf32>
  %er = tensor.empty() : tensor<2xf32>
  %f = linalg.fill ins(%zero : f32) outs(%er : tensor<2xf32>) -> tensor<2xf32>
  %sum = linalg.generic {indexing_maps = [#m2, #r2], iterator_types = ["parallel", "reduction"]} ins(%xx : tensor<2x16xf32>) outs(%f : tensor<2xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.addf %a, %o : f32
    linalg.yield %r : f32
  } -> tensor<2xf32>
  %e = tensor.empty() : tensor<2x16xf32>
  %p = linalg.generic {indexing_maps = [#m2, #r2, #m2], iterator_types = ["parallel", "parallel"]} ins(%xx, %sum : tensor<2x16xf32>, tensor<2xf32>) outs(%e : tensor<2x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.divf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<2x16xf32>
  %loss = tensor.extract_slice %p[0, 0] [1, 1] [1, 1] : tensor<2x16xf32> to tensor<f32>
  %seed = amp.loss_grad %loss : tensor<f32>
  %s = tensor.extract %seed[] : tensor<f32>
  %d = tensor.splat %s : tensor<2x16xf32>
  %g0 = arith.mulf %d, %p : tensor<2x16xf32>
  %g1 = arith.mulf %g0, %xx : tensor<2x16xf32>
  %g2 = tensor.extract_slice %g1[0, 0] [1, 16] [1, 1] : tensor<2x16xf32> to tensor<16xf32>
  %g = amp.grad %g2, %w : tensor<16xf32>
  %w1 = arith.subf %w, %g : tensor<16xf32>
  return %loss, %w1 : tensor<f32>, tensor<16xf32>
}
