// amp-cpu-vectorize-rows: which ops it lowers to row vectors, and which it
// leaves to convert-linalg-to-loops (the executed cases and their bits are
// in cpu-vectorize-rows-exec.mlir).
// RUN: amp-opt %s --split-input-file --amp-cpu-vectorize-rows | FileCheck %s

#id2 = affine_map<(i, j) -> (i, j)>
#tr2 = affine_map<(i, j) -> (j, i)>
#row = affine_map<(i, j) -> (j)>

// A short f32 row (14) with a broadcast per-row scale and a scalar input.
// CHECK-LABEL: func.func @short_row
// CHECK:         scf.for %[[I:.*]] =
// CHECK:           %[[X:.*]] = vector.load %{{.*}}[%[[I]], %{{.*}}] : memref<8x14xf32>, vector<14xf32>
// CHECK:           %[[S:.*]] = vector.load %{{.*}}[%{{.*}}] : memref<14xf32>, vector<14xf32>
// CHECK:           %[[M:.*]] = arith.mulf %[[X]], %[[S]] : vector<14xf32>
// CHECK:           %[[B:.*]] = vector.broadcast %{{.*}} : f32 to vector<14xf32>
// CHECK:           %[[A:.*]] = arith.addf %[[M]], %[[B]] : vector<14xf32>
// CHECK:           vector.store %[[A]], %{{.*}}[%[[I]], %{{.*}}] : memref<8x14xf32>, vector<14xf32>
// CHECK-NOT:     linalg.generic
func.func @short_row(%x: memref<8x14xf32>, %s: memref<14xf32>, %b: f32,
                     %y: memref<8x14xf32>) {
  linalg.generic {indexing_maps = [#id2, #row, affine_map<(i, j) -> ()>, #id2],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x, %s, %b : memref<8x14xf32>, memref<14xf32>, f32)
      outs(%y : memref<8x14xf32>) {
  ^bb0(%a: f32, %k: f32, %c: f32, %o: f32):
    %m = arith.mulf %a, %k : f32
    %r = arith.addf %m, %c : f32
    linalg.yield %r : f32
  }
  return
}

// -----

#win = affine_map<(c, kh, oh, ow) -> (c, oh - kh + 2, ow)>
#col = affine_map<(c, kh, oh, ow) -> (c, kh, oh, ow)>

// An input-gradient im2col: a padded f16 window row, zero where the
// window's row is outside the image. The row test does not depend on the
// row (ow): one scalar compare per vector, and the select takes it as is. linalg.index of the row is the
// row's start plus a step vector.
// CHECK-LABEL: func.func @window_mask
// CHECK:         scf.for %[[C:.*]] =
// CHECK:           scf.for %[[KH:.*]] =
// CHECK:             scf.for %[[OH:.*]] =
// CHECK:               %[[X:.*]] = vector.load {{.*}} : memref<2x18x16xf16, strided<[288, 16, 1], offset: ?>>, vector<16xf16>
// CHECK:               %[[E:.*]] = arith.extf %[[X]] : vector<16xf16> to vector<16xf32>
// CHECK:               %[[R:.*]] = arith.subi %[[OH]], %[[KH]] : index
// CHECK:               %[[IN:.*]] = arith.cmpi slt, %[[R]], %{{.*}} : index
// CHECK:               %[[STEP:.*]] = vector.step : vector<16xindex>
// CHECK:               %[[OW:.*]] = arith.addi %{{.*}}, %[[STEP]] : vector<16xindex>
// CHECK:               %[[ODD:.*]] = arith.remui %[[OW]], %{{.*}} : vector<16xindex>
// CHECK:               arith.select %[[IN]], %[[E]], %{{.*}} : vector<16xf32>
// CHECK:               arith.index_cast %[[ODD]] : vector<16xindex> to vector<16xi32>
// CHECK:               vector.store {{.*}} : memref<2x3x16x16xf32>, vector<16xf32>
func.func @window_mask(%x: memref<2x18x16xf16, strided<[288, 16, 1], offset: ?>>,
                       %col: memref<2x3x16x16xf32>) {
  %c14 = arith.constant 14 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0.0 : f32
  linalg.generic {indexing_maps = [#win, #col],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : memref<2x18x16xf16, strided<[288, 16, 1], offset: ?>>)
      outs(%col : memref<2x3x16x16xf32>) {
  ^bb0(%a: f16, %o: f32):
    %e = arith.extf %a : f16 to f32
    %oh = linalg.index 2 : index
    %kh = linalg.index 1 : index
    %r = arith.subi %oh, %kh : index
    %in = arith.cmpi slt, %r, %c14 : index
    %ow = linalg.index 3 : index
    %odd = arith.remui %ow, %c2 : index
    %m = arith.select %in, %e, %zero : f32
    %z = arith.index_cast %odd : index to i32
    %zf = arith.sitofp %z : i32 to f32
    %v = arith.addf %m, %zf : f32
    linalg.yield %v : f32
  }
  return
}

// -----

#id2 = affine_map<(i, j) -> (i, j)>
#tr2 = affine_map<(i, j) -> (j, i)>

// Left alone: a transposed read (the row is not the input's last index),
// a long f32 row, a row of 3 in rows of 4 (the two loops are not
// contiguous), an i1 output.
// CHECK-LABEL: func.func @left_alone
// CHECK-COUNT-4: linalg.generic
// CHECK-NOT:     vector.
func.func @left_alone(%t: memref<14x8xf32>, %y: memref<8x14xf32>,
                      %long: memref<8x64xf32>, %m: memref<8x14xi1>,
                      %three: memref<8x3xf16, strided<[4, 1]>>) {
  linalg.generic {indexing_maps = [#tr2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%t : memref<14x8xf32>) outs(%y : memref<8x14xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  }
  linalg.generic {indexing_maps = [#id2], iterator_types = ["parallel", "parallel"]}
      outs(%long : memref<8x64xf32>) {
  ^bb0(%o: f32):
    %r = arith.addf %o, %o : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#id2], iterator_types = ["parallel", "parallel"]}
      outs(%three : memref<8x3xf16, strided<[4, 1]>>) {
  ^bb0(%o: f16):
    %r = arith.addf %o, %o : f16
    linalg.yield %r : f16
  }
  linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%y : memref<8x14xf32>) outs(%m : memref<8x14xi1>) {
  ^bb0(%a: f32, %o: i1):
    %z = arith.constant 0.0 : f32
    %p = arith.cmpf ogt, %a, %z : f32
    linalg.yield %p : i1
  }
  return
}

// -----

#id1 = affine_map<(i) -> (i)>
#shift = affine_map<(i) -> (i + 1)>

// Left alone: the output overlaps the input one element later (a vector
// reads all its elements before writing any; the loop reads each after
// the previous one was written). In place (the same elements) is fine.
// CHECK-LABEL: func.func @overlap
// CHECK:         linalg.generic
// CHECK:         vector.load %[[V:.*]][%{{.*}}] : memref<15xf16>, vector<15xf16>
// CHECK:         vector.store %{{.*}}, %[[V]][%{{.*}}] : memref<15xf16>, vector<15xf16>
func.func @overlap(%buf: memref<16xf16>) {
  %a = memref.subview %buf[1] [15] [1] : memref<16xf16> to memref<15xf16, strided<[1], offset: 1>>
  %b = memref.subview %buf[0] [15] [1] : memref<16xf16> to memref<15xf16, strided<[1]>>
  linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%a : memref<15xf16, strided<[1], offset: 1>>)
      outs(%b : memref<15xf16, strided<[1]>>) {
  ^bb0(%x: f16, %o: f16):
    %r = arith.addf %x, %o : f16
    linalg.yield %r : f16
  }
  %v = memref.alloc() : memref<15xf16>
  linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%v : memref<15xf16>) outs(%v : memref<15xf16>) {
  ^bb0(%x: f16, %o: f16):
    %r = arith.mulf %x, %x : f16
    linalg.yield %r : f16
  }
  return
}

// -----

// Left alone (break-it findings): an input that is the output itself with
// a reduction after the row (the output lives in a vector across k while
// the input would be read from memory at its old value), and an input
// whose innermost stride is 2 (vector.load needs a unit stride).
// CHECK-LABEL: func.func @in_place_reduction
// CHECK-COUNT-2: linalg.generic
// CHECK-NOT:     vector.
func.func @in_place_reduction(%a: memref<1x4xf32>, %w: memref<2xf32>,
                              %s: memref<4x8xf16, strided<[37, 2]>>,
                              %y: memref<4x8xf16>) {
  linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, j)>,
                                   affine_map<(i, j, k) -> (k)>,
                                   affine_map<(i, j, k) -> (i, j)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %w : memref<1x4xf32>, memref<2xf32>) outs(%a : memref<1x4xf32>) {
  ^bb0(%x: f32, %k: f32, %o: f32):
    %m = arith.mulf %x, %k : f32
    %r = arith.addf %m, %o : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%s : memref<4x8xf16, strided<[37, 2]>>) outs(%y : memref<4x8xf16>) {
  ^bb0(%x: f16, %o: f16):
    linalg.yield %x : f16
  }
  return
}

// -----

// Left alone: math.fpowi (llvm.powi takes a scalar exponent). A row of
// 2^40 elements is planned without a table per lane (the robustness
// corpus's edge case: the pass once tried to allocate one).
// CHECK-LABEL: func.func @powi_and_huge
// CHECK:         linalg.generic
// CHECK:         scf.for
// CHECK:           vector.load {{.*}} vector<16xf16>
func.func @powi_and_huge(%x: memref<8x16xf32>, %n: i32, %h: memref<1099511627776xf16>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      outs(%x : memref<8x16xf32>) {
  ^bb0(%o: f32):
    %p = math.fpowi %o, %n : f32, i32
    linalg.yield %p : f32
  }
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      outs(%h : memref<1099511627776xf16>) {
  ^bb0(%o: f16):
    %r = arith.addf %o, %o : f16
    linalg.yield %r : f16
  }
  return
}

// -----

// A bf16 rounding keeps its rounding mode (and fast-math flags) on the
// vector: toward zero stays toward zero (arith-expand then refuses it, as
// it refuses the scalar op; nothing rounds it to nearest even silently).
// CHECK-LABEL: func.func @truncf_mode
// CHECK:         arith.truncf %{{.*}} toward_zero : vector<4xf32> to vector<4xbf16>
func.func @truncf_mode(%in: memref<3x4xf32>, %out: memref<3x4xbf16>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%in : memref<3x4xf32>) outs(%out : memref<3x4xbf16>) {
  ^bb0(%a: f32, %o: bf16):
    %r = arith.truncf %a toward_zero : f32 to bf16
    linalg.yield %r : bf16
  }
  return
}

// -----

// A row maximum along the reduction into a keepdim output (d0, 0): vectors
// of the reduction (16 and 4 lanes), each reduced horizontally, combined
// into the output element (the output's map ignores the reduction loop;
// the pass used to crash building its indices).
// CHECK-LABEL: func.func @row_max_keepdim
// CHECK:         scf.for %[[I:.*]] =
// CHECK:           %[[M:.*]] = memref.load %{{.*}}[%[[I]], %{{.*}}] : memref<4x1xf32>
// CHECK:           vector.load {{.*}} : memref<4x20xf32>, vector<16xf32>
// CHECK:           %[[R0:.*]] = vector.reduction <maximumf>, %{{.*}} : vector<16xf32> into f32
// CHECK:           %[[M0:.*]] = arith.maximumf %[[M]], %[[R0]] : f32
// CHECK:           %[[R1:.*]] = vector.reduction <maximumf>, %{{.*}} : vector<4xf32> into f32
// CHECK:           %[[M1:.*]] = arith.maximumf %[[M0]], %[[R1]] : f32
// CHECK:           memref.store %[[M1]], %{{.*}}[%[[I]], %{{.*}}] : memref<4x1xf32>
// CHECK-NOT:     linalg.generic
func.func @row_max_keepdim(%x: memref<4x20xf32>, %m: memref<4x1xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<4x20xf32>) outs(%m : memref<4x1xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.maximumf %a, %o : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// Reductions across their outputs (the transposed form) only where each
// output's terms keep the loop's order: an output that ignores a parallel
// loop (b: it accumulates over b inside j), an output indexed by the
// reduction, an output whose rows overlap (a stride of 16 under rows of
// 20), and an input whose reduction runs along a dimension before a unit
// one (a vector load along the last dimension would read past it) are
// left to the loops. (Found by a break-it run: the first three gave other
// bits.)
// CHECK-LABEL: func.func @transposed_left_alone
// CHECK-NOT:     vector.shuffle
// CHECK-COUNT-4: linalg.generic
// CHECK-NOT:     vector.shuffle
func.func @transposed_left_alone(%x: memref<2x16x4xf32>, %o: memref<16xf32>,
    %y: memref<16x20xf32>, %p: memref<20x16xf32>,
    %z: memref<20x4x17xf32>, %ob: memref<68xf32>,
    %u: memref<20x17x1xf32>, %q: memref<20xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j, b) -> (b, i, j)>, affine_map<(i, j, b) -> (i)>],
                  iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%x : memref<2x16x4xf32>) outs(%o : memref<16xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %acc, %a : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j, i)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%y : memref<16x20xf32>) outs(%p : memref<20x16xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %acc, %a : f32
    linalg.yield %s : f32
  }
  %o2 = memref.reinterpret_cast %ob to offset: [0], sizes: [4, 20], strides: [16, 1]
      : memref<68xf32> to memref<4x20xf32, strided<[16, 1]>>
  linalg.generic {indexing_maps = [affine_map<(i, b, j) -> (i, b, j)>, affine_map<(i, b, j) -> (b, i)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%z : memref<20x4x17xf32>) outs(%o2 : memref<4x20xf32, strided<[16, 1]>>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %acc, %a : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j, 0)>, affine_map<(i, j) -> (i)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%u : memref<20x17x1xf32>) outs(%q : memref<20xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %acc, %a : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A row that runs along a middle dimension before a unit one is contiguous
// in memory, but a vector.load runs along the last dimension and would pass
// its bound of 1: left to the loops.
// CHECK-LABEL: func.func @row_before_unit_dim
// CHECK-NOT:     vector.load
// CHECK:         linalg.generic
func.func @row_before_unit_dim(%x: memref<20x17x1xf32>, %o: memref<20x17xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j, 0)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<20x17x1xf32>) outs(%o : memref<20x17xf32>) {
  ^bb0(%a: f32, %b: f32):
    %s = arith.mulf %a, %a : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A bf16 window maximum whose running value another output also yields
// (passed on as the second output): the yield reads its bits, so neither
// is carried in f32 (a reader the f32 carry would have left dangling).
#pool_in = affine_map<(n, c, oh, ow, kh, kw) -> (n, c, oh * 2 + kh, ow * 2 + kw)>
#pool_win = affine_map<(n, c, oh, ow, kh, kw) -> (kh, kw)>
#pool_out = affine_map<(n, c, oh, ow, kh, kw) -> (n, c, oh, ow)>
// CHECK-LABEL: func.func @max_passed_on
// CHECK:         scf.for {{.*}} iter_args({{.*}}) -> (vector<8xi16>, vector<8xi16>)
// CHECK-NOT:     linalg.generic
func.func @max_passed_on(%x: memref<1x2x16x16xbf16>, %w: memref<2x2xbf16>,
                         %m: memref<1x2x8x8xbf16>, %o: memref<1x2x8x8xbf16>) {
  linalg.generic {indexing_maps = [#pool_in, #pool_win, #pool_out, #pool_out],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %w : memref<1x2x16x16xbf16>, memref<2x2xbf16>)
      outs(%m, %o : memref<1x2x8x8xbf16>, memref<1x2x8x8xbf16>) {
  ^bb0(%a: bf16, %wv: bf16, %acc: bf16, %old: bf16):
    %r = arith.maximumf %a, %acc : bf16
    linalg.yield %r, %acc : bf16, bf16
  }
  return
}
