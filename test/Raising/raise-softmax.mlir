// RUN: amp-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(amp-raise-softmax))' | FileCheck %s

// amp-raise-softmax: a decomposed softmax (row max, exp of the shifted
// scores, row sum, divide) becomes linalg.softmax; what it was computed
// from is erased.

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

// The form torch-mlir exports for torch.softmax(x, -1): maximumf into
// -inf, subtract and exp in one generic, sum into zero, divide.
// CHECK-LABEL: func.func @fused_shift
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xf32>)
// CHECK: %[[Y:.*]] = linalg.softmax dimension(1) ins(%[[X]] : tensor<4x8xf32>)
// CHECK-NOT: math.exp
// CHECK: return %[[Y]]
func.func @fused_shift(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e4 = tensor.empty() : tensor<4xf32>
  %e48 = tensor.empty() : tensor<4x8xf32>
  %minit = linalg.fill ins(%ninf : f32) outs(%e4 : tensor<4xf32>) -> tensor<4xf32>
  %m = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x8xf32>) outs(%minit : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.maximumf %a, %o : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %e = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %m : tensor<4x8xf32>, tensor<4xf32>) outs(%e48 : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %d = arith.subf %a, %b : f32
    %r = math.exp %d : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %sinit = linalg.fill ins(%zero : f32) outs(%e4 : tensor<4xf32>) -> tensor<4xf32>
  %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%e : tensor<4x8xf32>) outs(%sinit : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.addf %a, %o : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %y = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%e, %s : tensor<4x8xf32>, tensor<4xf32>) outs(%e48 : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.divf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#keep = affine_map<(d0, d1) -> (d0, 0)>

// torch.max with its index (unread) and keepdim shapes, the subtraction
// and the exp in generics of their own (an attention export).
// CHECK-LABEL: func.func @keepdim_separate_shift
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xf32>)
// CHECK: %[[Y:.*]] = linalg.softmax dimension(1) ins(%[[X]] : tensor<4x8xf32>)
// CHECK-NOT: linalg.generic
// CHECK: return %[[Y]]
func.func @keepdim_separate_shift(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : i64
  %e41 = tensor.empty() : tensor<4x1xf32>
  %i41 = tensor.empty() : tensor<4x1xi64>
  %e48 = tensor.empty() : tensor<4x8xf32>
  %minit = linalg.fill ins(%ninf : f32) outs(%e41 : tensor<4x1xf32>) -> tensor<4x1xf32>
  %iinit = linalg.fill ins(%c0 : i64) outs(%i41 : tensor<4x1xi64>) -> tensor<4x1xi64>
  %m:2 = linalg.generic {indexing_maps = [#id, #keep, #keep], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x8xf32>) outs(%minit, %iinit : tensor<4x1xf32>, tensor<4x1xi64>) {
  ^bb0(%a: f32, %o: f32, %oi: i64):
    %j = linalg.index 1 : index
    %ji = arith.index_cast %j : index to i64
    %r = arith.maximumf %a, %o : f32
    %gt = arith.cmpf ogt, %a, %o : f32
    %ri = arith.select %gt, %ji, %oi : i64
    linalg.yield %r, %ri : f32, i64
  } -> (tensor<4x1xf32>, tensor<4x1xi64>)
  %z = linalg.generic {indexing_maps = [#id, #keep, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %m#0 : tensor<4x8xf32>, tensor<4x1xf32>) outs(%e48 : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %d = arith.subf %a, %b : f32
    linalg.yield %d : f32
  } -> tensor<4x8xf32>
  %e = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%z : tensor<4x8xf32>) outs(%e48 : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = math.exp %a : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %sinit = linalg.fill ins(%zero : f32) outs(%e41 : tensor<4x1xf32>) -> tensor<4x1xf32>
  %s = linalg.generic {indexing_maps = [#id, #keep], iterator_types = ["parallel", "reduction"]} ins(%e : tensor<4x8xf32>) outs(%sinit : tensor<4x1xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.addf %a, %o : f32
    linalg.yield %r : f32
  } -> tensor<4x1xf32>
  %y = linalg.generic {indexing_maps = [#id, #keep, #id], iterator_types = ["parallel", "parallel"]} ins(%e, %s : tensor<4x8xf32>, tensor<4x1xf32>) outs(%e48 : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.divf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// -----

#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#row = affine_map<(d0, d1, d2) -> (d0, d1)>

// Scaled scores, exp((s - max s) * c), as an attention computes
// softmax(q k^T / sqrt(d)): softmax of s * c, the product a generic of its
// own. maxnumf into NaN (upstream's own decomposition) is a row max too.
// CHECK-LABEL: func.func @scaled
// CHECK-SAME: (%[[X:.*]]: tensor<2x4x8xbf16>)
// CHECK: %[[S:.*]] = linalg.generic
// CHECK-SAME: ins(%[[X]] : tensor<2x4x8xbf16>)
// CHECK: %[[C:.*]] = arith.constant 2.500000e-01 : bf16
// CHECK: arith.mulf %{{.*}}, %[[C]] : bf16
// CHECK: %[[Y:.*]] = linalg.softmax dimension(2) ins(%[[S]] : tensor<2x4x8xbf16>)
// CHECK: return %[[Y]]
func.func @scaled(%x: tensor<2x4x8xbf16>) -> tensor<2x4x8xbf16> {
  %nan = arith.constant 0xFFC0 : bf16
  %zero = arith.constant 0.0 : bf16
  %e4 = tensor.empty() : tensor<2x4xbf16>
  %e48 = tensor.empty() : tensor<2x4x8xbf16>
  %minit = linalg.fill ins(%nan : bf16) outs(%e4 : tensor<2x4xbf16>) -> tensor<2x4xbf16>
  %m = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : tensor<2x4x8xbf16>) outs(%minit : tensor<2x4xbf16>) {
  ^bb0(%a: bf16, %o: bf16):
    %r = arith.maxnumf %o, %a : bf16
    linalg.yield %r : bf16
  } -> tensor<2x4xbf16>
  %e = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %m : tensor<2x4x8xbf16>, tensor<2x4xbf16>) outs(%e48 : tensor<2x4x8xbf16>) {
  ^bb0(%a: bf16, %b: bf16, %o: bf16):
    %c = arith.constant 0.25 : bf16
    %d = arith.subf %a, %b : bf16
    %ds = arith.mulf %c, %d : bf16
    %r = math.exp %ds : bf16
    linalg.yield %r : bf16
  } -> tensor<2x4x8xbf16>
  %sinit = linalg.fill ins(%zero : bf16) outs(%e4 : tensor<2x4xbf16>) -> tensor<2x4xbf16>
  %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%e : tensor<2x4x8xbf16>) outs(%sinit : tensor<2x4xbf16>) {
  ^bb0(%a: bf16, %o: bf16):
    %r = arith.addf %o, %a : bf16
    linalg.yield %r : bf16
  } -> tensor<2x4xbf16>
  %y = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%e, %s : tensor<2x4x8xbf16>, tensor<2x4xbf16>) outs(%e48 : tensor<2x4x8xbf16>) {
  ^bb0(%a: bf16, %b: bf16, %o: bf16):
    %r = arith.divf %a, %b : bf16
    linalg.yield %r : bf16
  } -> tensor<2x4x8xbf16>
  return %y : tensor<2x4x8xbf16>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>

// Along dimension 0 (torch.softmax(x, 0)), dynamic rows.
// CHECK-LABEL: func.func @dim0_dynamic
// CHECK: linalg.softmax dimension(0) ins(%{{.*}} : tensor<?x8xf32>)
// CHECK-NOT: math.exp
func.func @dim0_dynamic(%x: tensor<?x8xf32>) -> tensor<?x8xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x8xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e8 = tensor.empty() : tensor<8xf32>
  %en8 = tensor.empty(%n) : tensor<?x8xf32>
  %minit = linalg.fill ins(%ninf : f32) outs(%e8 : tensor<8xf32>) -> tensor<8xf32>
  %m = linalg.generic {indexing_maps = [#id, #col], iterator_types = ["reduction", "parallel"]} ins(%x : tensor<?x8xf32>) outs(%minit : tensor<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.maximumf %a, %o : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %e = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %m : tensor<?x8xf32>, tensor<8xf32>) outs(%en8 : tensor<?x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %d = arith.subf %a, %b : f32
    %r = math.exp %d : f32
    linalg.yield %r : f32
  } -> tensor<?x8xf32>
  %sinit = linalg.fill ins(%zero : f32) outs(%e8 : tensor<8xf32>) -> tensor<8xf32>
  %s = linalg.generic {indexing_maps = [#id, #col], iterator_types = ["reduction", "parallel"]} ins(%e : tensor<?x8xf32>) outs(%sinit : tensor<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.addf %a, %o : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %y = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]} ins(%e, %s : tensor<?x8xf32>, tensor<8xf32>) outs(%en8 : tensor<?x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.divf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<?x8xf32>
  return %y : tensor<?x8xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

// Left alone: the exponentials are also returned (they would have to be
// kept), and the sum's init is not zero.
// CHECK-LABEL: func.func @negative_exp_read_elsewhere
// CHECK-NOT: linalg.softmax
// CHECK: math.exp
// CHECK-LABEL: func.func @negative_sum_init_not_zero
// CHECK-NOT: linalg.softmax
// CHECK: math.exp
func.func @negative_exp_read_elsewhere(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e4 = tensor.empty() : tensor<4xf32>
  %e48 = tensor.empty() : tensor<4x8xf32>
  %minit = linalg.fill ins(%ninf : f32) outs(%e4 : tensor<4xf32>) -> tensor<4xf32>
  %m = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x8xf32>) outs(%minit : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.maximumf %a, %o : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %e = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %m : tensor<4x8xf32>, tensor<4xf32>) outs(%e48 : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %d = arith.subf %a, %b : f32
    %r = math.exp %d : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %sinit = linalg.fill ins(%zero : f32) outs(%e4 : tensor<4xf32>) -> tensor<4xf32>
  %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%e : tensor<4x8xf32>) outs(%sinit : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.addf %a, %o : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %y = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%e, %s : tensor<4x8xf32>, tensor<4xf32>) outs(%e48 : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.divf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  return %y, %e : tensor<4x8xf32>, tensor<4x8xf32>
}

func.func @negative_sum_init_not_zero(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %one = arith.constant 1.0 : f32
  %e4 = tensor.empty() : tensor<4xf32>
  %e48 = tensor.empty() : tensor<4x8xf32>
  %minit = linalg.fill ins(%ninf : f32) outs(%e4 : tensor<4xf32>) -> tensor<4xf32>
  %m = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x8xf32>) outs(%minit : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.maximumf %a, %o : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %e = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %m : tensor<4x8xf32>, tensor<4xf32>) outs(%e48 : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %d = arith.subf %a, %b : f32
    %r = math.exp %d : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %sinit = linalg.fill ins(%one : f32) outs(%e4 : tensor<4xf32>) -> tensor<4xf32>
  %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%e : tensor<4x8xf32>) outs(%sinit : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.addf %a, %o : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %y = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%e, %s : tensor<4x8xf32>, tensor<4xf32>) outs(%e48 : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.divf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>

// Left alone: the max is taken along another dimension than the sum (not
// a softmax), and the row values subtracted are not a max.
// CHECK-LABEL: func.func @negative_max_other_dim
// CHECK-NOT: linalg.softmax
// CHECK-LABEL: func.func @negative_shift_not_max
// CHECK-NOT: linalg.softmax
// CHECK: math.exp
func.func @negative_max_other_dim(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e8 = tensor.empty() : tensor<8xf32>
  %e88 = tensor.empty() : tensor<8x8xf32>
  %minit = linalg.fill ins(%ninf : f32) outs(%e8 : tensor<8xf32>) -> tensor<8xf32>
  %m = linalg.generic {indexing_maps = [#id, #col], iterator_types = ["reduction", "parallel"]} ins(%x : tensor<8x8xf32>) outs(%minit : tensor<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.maximumf %a, %o : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %e = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %m : tensor<8x8xf32>, tensor<8xf32>) outs(%e88 : tensor<8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %d = arith.subf %a, %b : f32
    %r = math.exp %d : f32
    linalg.yield %r : f32
  } -> tensor<8x8xf32>
  %sinit = linalg.fill ins(%zero : f32) outs(%e8 : tensor<8xf32>) -> tensor<8xf32>
  %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%e : tensor<8x8xf32>) outs(%sinit : tensor<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.addf %a, %o : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %y = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%e, %s : tensor<8x8xf32>, tensor<8xf32>) outs(%e88 : tensor<8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.divf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<8x8xf32>
  return %y : tensor<8x8xf32>
}

func.func @negative_shift_not_max(%x: tensor<4x8xf32>, %m: tensor<4xf32>) -> tensor<4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e4 = tensor.empty() : tensor<4xf32>
  %e48 = tensor.empty() : tensor<4x8xf32>
  %e = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %m : tensor<4x8xf32>, tensor<4xf32>) outs(%e48 : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %d = arith.subf %a, %b : f32
    %r = math.exp %d : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %sinit = linalg.fill ins(%zero : f32) outs(%e4 : tensor<4xf32>) -> tensor<4xf32>
  %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%e : tensor<4x8xf32>) outs(%sinit : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.addf %a, %o : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %y = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%e, %s : tensor<4x8xf32>, tensor<4xf32>) outs(%e48 : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.divf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

// Left alone: a scale above 1 (a temperature of 1/16): x * 16 may
// overflow where (x - max x) * 16 does not (f16 scores of 5000: 80000 is
// past f16's 65504; found by a break-it run).
// CHECK-LABEL: func.func @negative_scale_above_one
// CHECK-NOT: linalg.softmax
// CHECK: math.exp
func.func @negative_scale_above_one(%x: tensor<4x8xf16>) -> tensor<4x8xf16> {
  %ninf = arith.constant 0xFC00 : f16
  %zero = arith.constant 0.0 : f16
  %e4 = tensor.empty() : tensor<4xf16>
  %e48 = tensor.empty() : tensor<4x8xf16>
  %minit = linalg.fill ins(%ninf : f16) outs(%e4 : tensor<4xf16>) -> tensor<4xf16>
  %m = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x8xf16>) outs(%minit : tensor<4xf16>) {
  ^bb0(%a: f16, %o: f16):
    %r = arith.maximumf %a, %o : f16
    linalg.yield %r : f16
  } -> tensor<4xf16>
  %e = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %m : tensor<4x8xf16>, tensor<4xf16>) outs(%e48 : tensor<4x8xf16>) {
  ^bb0(%a: f16, %b: f16, %o: f16):
    %c = arith.constant 16.0 : f16
    %d = arith.subf %a, %b : f16
    %ds = arith.mulf %d, %c : f16
    %r = math.exp %ds : f16
    linalg.yield %r : f16
  } -> tensor<4x8xf16>
  %sinit = linalg.fill ins(%zero : f16) outs(%e4 : tensor<4xf16>) -> tensor<4xf16>
  %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%e : tensor<4x8xf16>) outs(%sinit : tensor<4xf16>) {
  ^bb0(%a: f16, %o: f16):
    %r = arith.addf %a, %o : f16
    linalg.yield %r : f16
  } -> tensor<4xf16>
  %y = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%e, %s : tensor<4x8xf16>, tensor<4xf16>) outs(%e48 : tensor<4x8xf16>) {
  ^bb0(%a: f16, %b: f16, %o: f16):
    %r = arith.divf %a, %b : f16
    linalg.yield %r : f16
  } -> tensor<4x8xf16>
  return %y : tensor<4x8xf16>
}
