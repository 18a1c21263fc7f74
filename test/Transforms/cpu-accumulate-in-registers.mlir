// amp-cpu-accumulate-in-registers: which ops it lowers, and how.
// RUN: amp-opt %s --amp-cpu-accumulate-in-registers --canonicalize | FileCheck %s

#x = affine_map<(n, c, h, w) -> (n, c, h, w)>
#ch = affine_map<(n, c, h, w) -> (c)>

// A conv: its reduction loops (c, kh, kw) are innermost; tiles of 7 of ow
// (the output's last dimension, 28) carry 7 accumulators through them.
// CHECK-LABEL: func.func @conv
// CHECK-NOT: linalg.
// CHECK: scf.for %{{.*}} = %c0 to %c28 step %c7
// CHECK-COUNT-7: memref.load %arg2
// CHECK: scf.for {{.*}} iter_args(
// CHECK: scf.for {{.*}} iter_args(
// CHECK: scf.for {{.*}} iter_args(
// CHECK-COUNT-7: arith.addf
// CHECK-COUNT-7: memref.store {{.*}}, %arg2
func.func @conv(%x: memref<2x3x30x30xf32>, %f: memref<4x3x3x3xf32>,
                %y: memref<2x4x28x28xf32>) {
  linalg.conv_2d_nchw_fchw ins(%x, %f : memref<2x3x30x30xf32>, memref<4x3x3x3xf32>)
      outs(%y : memref<2x4x28x28xf32>)
  return
}

// A batch-norm style sum per channel (n and h, w reduced, c parallel):
// tiles of 8 channels in registers, the reduction loops keep their order
// n, h, w.
// CHECK-LABEL: func.func @channel_sum
// CHECK-NOT: linalg.
// CHECK: scf.for %{{.*}} = %c0 to %c16 step %c8
// CHECK-COUNT-8: memref.load %arg1
// CHECK: scf.for {{.*}} to %c2 {{.*}} iter_args(
// CHECK: scf.for {{.*}} to %c5 {{.*}} iter_args(
// CHECK: scf.for {{.*}} to %c7 {{.*}} iter_args(
// CHECK-COUNT-8: memref.store {{.*}}, %arg1
func.func @channel_sum(%x: memref<2x16x5x7xf32>, %s: memref<16xf32>) {
  linalg.generic {indexing_maps = [#x, #ch],
                  iterator_types = ["reduction", "parallel", "reduction", "reduction"]}
      ins(%x : memref<2x16x5x7xf32>) outs(%s : memref<16xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %e = arith.extf %in : f32 to f64
    %t = arith.truncf %e : f64 to f32
    %r = arith.addf %acc, %t : f32
    linalg.yield %r : f32
  }
  return
}

// A conv weight gradient (windowed, from amp-differentiate): its innermost
// loops (kh, kw) are parallel; the 3 points of kw (kh x kw would be 9,
// more than 8) are unrolled inside the reduction loops (n, oh, ow), which
// move inward.
// CHECK-LABEL: func.func @conv_weight_grad
// CHECK-NOT: linalg.
// CHECK-COUNT-3: memref.load %arg2
// CHECK: scf.for {{.*}} iter_args(
// CHECK: scf.for {{.*}} iter_args(
// CHECK: scf.for {{.*}} iter_args(
// CHECK-COUNT-3: arith.mulf
// CHECK-COUNT-3: memref.store {{.*}}, %arg2
#wg_x = affine_map<(n, f, oh, ow, c, kh, kw) -> (n, c, oh + kh, ow + kw)>
#wg_dy = affine_map<(n, f, oh, ow, c, kh, kw) -> (n, f, oh, ow)>
#wg_w = affine_map<(n, f, oh, ow, c, kh, kw) -> (f, c, kh, kw)>
func.func @conv_weight_grad(%x: memref<2x3x8x8xf16>, %dy: memref<2x4x6x6xf16>,
                            %dw: memref<4x3x3x3xf32>) {
  linalg.generic {indexing_maps = [#wg_x, #wg_dy, #wg_w],
                  iterator_types = ["reduction", "parallel", "reduction", "reduction",
                                    "parallel", "parallel", "parallel"]}
      ins(%x, %dy : memref<2x3x8x8xf16>, memref<2x4x6x6xf16>)
      outs(%dw : memref<4x3x3x3xf32>) {
  ^bb0(%a: f16, %b: f16, %acc: f32):
    %ea = arith.extf %a : f16 to f32
    %eb = arith.extf %b : f16 to f32
    %p = arith.mulf %ea, %eb : f32
    %r = arith.addf %acc, %p : f32
    linalg.yield %r : f32
  }
  return
}

// Left alone: a matmul in (i, k, j) order, whose innermost parallel loop
// (64 columns) does not fit in registers and is what LLVM vectorizes; an
// elementwise op; an op on tensors.
// CHECK-LABEL: func.func @left_alone
// CHECK: linalg.generic
// CHECK: linalg.generic
// CHECK: linalg.generic
#ik = affine_map<(i, k, j) -> (i, k)>
#kj = affine_map<(i, k, j) -> (k, j)>
#ij = affine_map<(i, k, j) -> (i, j)>
#id = affine_map<(i) -> (i)>
func.func @left_alone(%a: memref<8x4xf32>, %b: memref<4x64xf32>, %c: memref<8x64xf32>,
                      %v: memref<5xf32>, %t: tensor<5xf32>) -> tensor<f32> {
  linalg.generic {indexing_maps = [#ik, #kj, #ij],
                  iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%a, %b : memref<8x4xf32>, memref<4x64xf32>) outs(%c : memref<8x64xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %r = arith.addf %acc, %p : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%v : memref<5xf32>) outs(%v : memref<5xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.addf %x, %x : f32
    linalg.yield %r : f32
  }
  %init = tensor.empty() : tensor<f32>
  %s = linalg.generic {indexing_maps = [#id, affine_map<(i) -> ()>],
                       iterator_types = ["reduction"]}
      ins(%t : tensor<5xf32>) outs(%init : tensor<f32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.addf %acc, %x : f32
    linalg.yield %r : f32
  } -> tensor<f32>
  return %s : tensor<f32>
}

// Outputs whose bytes an input also reads stay with convert-linalg-to-loops
// (the accumulator would hide the new value from the reads): a view of the
// same buffer, and overlapping slots of one arena. Disjoint slots of one
// arena (amp-cpu-plan-buffers) are lowered.
// CHECK-LABEL: func.func @aliasing
// CHECK: linalg.generic
// CHECK: linalg.generic
// CHECK-NOT: linalg.generic
// CHECK: return
#rows = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
func.func @aliasing(%m: memref<4x4xf32>) {
  %col = memref.subview %m[0, 0] [4, 1] [1, 1] : memref<4x4xf32> to memref<4xf32, strided<[4]>>
  linalg.generic {indexing_maps = [#rows, #row], iterator_types = ["parallel", "reduction"]}
      ins(%m : memref<4x4xf32>) outs(%col : memref<4xf32, strided<[4]>>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.addf %acc, %x : f32
    linalg.yield %r : f32
  }
  %arena = memref.alloc() : memref<256xi8>
  %c0 = arith.constant 0 : index
  %c48 = arith.constant 48 : index
  %c64 = arith.constant 64 : index
  %a = memref.view %arena[%c0][] : memref<256xi8> to memref<4x4xf32>
  %overlap = memref.view %arena[%c48][] : memref<256xi8> to memref<4xf32>
  %apart = memref.view %arena[%c64][] : memref<256xi8> to memref<4xf32>
  linalg.generic {indexing_maps = [#rows, #row], iterator_types = ["parallel", "reduction"]}
      ins(%a : memref<4x4xf32>) outs(%overlap : memref<4xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.addf %acc, %x : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#rows, #row], iterator_types = ["parallel", "reduction"]}
      ins(%a : memref<4x4xf32>) outs(%apart : memref<4xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.addf %acc, %x : f32
    linalg.yield %r : f32
  }
  return
}

// Also left alone: two outputs on the same buffer; an output through an
// op that is no view (arith.select: its buffer is unknown); a view of a
// slot that reaches past it (reinterpret_cast); a slot of a slot that is
// the input's bytes; a body that loads from the output buffer itself.
// CHECK-LABEL: func.func @aliasing_more
// CHECK-COUNT-5: linalg.generic
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @aliasing_more(%m: memref<4x4xf32>, %o: memref<4xf32>, %p: memref<4xf32>,
                         %flag: i1) {
  linalg.generic {indexing_maps = [#rows, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%m : memref<4x4xf32>) outs(%o, %o : memref<4xf32>, memref<4xf32>) {
  ^bb0(%x: f32, %a: f32, %b: f32):
    %r = arith.addf %a, %x : f32
    %q = arith.mulf %a, %x : f32
    linalg.yield %r, %q : f32, f32
  }
  %sel = arith.select %flag, %o, %p : memref<4xf32>
  linalg.generic {indexing_maps = [#rows, #row], iterator_types = ["parallel", "reduction"]}
      ins(%m : memref<4x4xf32>) outs(%sel : memref<4xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.addf %acc, %x : f32
    linalg.yield %r : f32
  }
  %arena = memref.alloc() : memref<256xi8>
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %a = memref.view %arena[%c0][] : memref<256xi8> to memref<2xf32>
  %far = memref.reinterpret_cast %a to offset: [4], sizes: [4], strides: [1] : memref<2xf32> to memref<4xf32, strided<[1], offset: 4>>
  %out = memref.view %arena[%c16][] : memref<256xi8> to memref<f32>
  linalg.generic {indexing_maps = [#id, affine_map<(i) -> ()>], iterator_types = ["reduction"]}
      ins(%far : memref<4xf32, strided<[1], offset: 4>>) outs(%out : memref<f32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.addf %acc, %x : f32
    linalg.yield %r : f32
  }
  %slot = memref.view %arena[%c32][] : memref<256xi8> to memref<64xi8>
  %in = memref.view %arena[%c32][] : memref<256xi8> to memref<4xf32>
  %inner = memref.view %slot[%c0][] : memref<64xi8> to memref<f32>
  linalg.generic {indexing_maps = [#id, affine_map<(i) -> ()>], iterator_types = ["reduction"]}
      ins(%in : memref<4xf32>) outs(%inner : memref<f32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.addf %acc, %x : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#rows, #row], iterator_types = ["parallel", "reduction"]}
      ins(%m : memref<4x4xf32>) outs(%o : memref<4xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %z = arith.constant 0 : index
    %first = memref.load %o[%z] : memref<4xf32>
    %s = arith.addf %acc, %x : f32
    %r = arith.addf %s, %first : f32
    linalg.yield %r : f32
  }
  return
}

// A global may be an argument's memory (left alone); a global and an
// allocation are apart (lowered).
// CHECK-LABEL: func.func @globals
// CHECK: linalg.generic
// CHECK-NOT: linalg.generic
// CHECK: return
memref.global "private" @table : memref<4x4xf32> = dense<1.0>
func.func @globals(%o: memref<4xf32>) {
  %g = memref.get_global @table : memref<4x4xf32>
  linalg.generic {indexing_maps = [#rows, #row], iterator_types = ["parallel", "reduction"]}
      ins(%g : memref<4x4xf32>) outs(%o : memref<4xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.addf %acc, %x : f32
    linalg.yield %r : f32
  }
  %a = memref.alloc() : memref<4xf32>
  linalg.generic {indexing_maps = [#rows, #row], iterator_types = ["parallel", "reduction"]}
      ins(%g : memref<4x4xf32>) outs(%a : memref<4xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.addf %acc, %x : f32
    linalg.yield %r : f32
  }
  return
}
