// amp-cpu-accumulate-in-registers, executed: every op it lowers gives the
// same bits as upstream's convert-linalg-to-loops (the order in which each
// output element is accumulated is unchanged). The inputs are inexact
// (multiples of 0.0137), so any change in the order of the additions would
// change bits. Each case prints its outputs as i32 bit patterns; the two
// lowerings' outputs must be identical (all but the buffers' addresses).
// RUN: amp-opt %s --amp-cpu-accumulate-in-registers --convert-linalg-to-loops \
// RUN:   --convert-scf-to-cf --expand-strided-metadata --lower-affine \
// RUN:   --finalize-memref-to-llvm --convert-func-to-llvm --convert-arith-to-llvm \
// RUN:   --convert-index-to-llvm --convert-cf-to-llvm --reconcile-unrealized-casts \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so,%mlir_lib_dir/libmlir_runner_utils.so > %t.ours
// RUN: amp-opt %s --convert-linalg-to-loops \
// RUN:   --convert-scf-to-cf --expand-strided-metadata --lower-affine \
// RUN:   --finalize-memref-to-llvm --convert-func-to-llvm --convert-arith-to-llvm \
// RUN:   --convert-index-to-llvm --convert-cf-to-llvm --reconcile-unrealized-casts \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so,%mlir_lib_dir/libmlir_runner_utils.so > %t.ref
// RUN: grep -v base@ %t.ours > %t.ours.data
// RUN: grep -v base@ %t.ref > %t.ref.data
// RUN: diff %t.ours.data %t.ref.data
// RUN: FileCheck %s < %t.ours
// The pass did lower them (no linalg op with a reduction is left).
// RUN: amp-opt %s --amp-cpu-accumulate-in-registers | FileCheck %s --check-prefix=IR
// IR-NOT: linalg.conv
// IR-NOT: "reduction"

// CHECK-COUNT-7: Unranked Memref base@ = {{.*}} rank = {{[0-9]}}

#x = affine_map<(n, c, h, w) -> (n, c, h, w)>
#ch = affine_map<(n, c, h, w) -> (c)>
#wg_x = affine_map<(n, f, oh, ow, c, kh, kw) -> (n, c, oh + kh, ow + kw)>
#wg_dy = affine_map<(n, f, oh, ow, c, kh, kw) -> (n, f, oh, ow)>
#wg_w = affine_map<(n, f, oh, ow, c, kh, kw) -> (f, c, kh, kw)>
#rc = affine_map<(i, j) -> (i, j)>
#r = affine_map<(i, j) -> (i)>
#c = affine_map<(i, j) -> (j)>
#s1 = affine_map<(i) -> (i)>
#s0 = affine_map<(i) -> ()>

func.func private @printMemrefI32(memref<*xi32>)

// v[i] = ((i * 37) mod 101) * 0.0137 - 0.6: inexact, both signs.
func.func @fill(%v: memref<?xf32>) {
  linalg.generic {indexing_maps = [#s1], iterator_types = ["parallel"]}
      outs(%v : memref<?xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %c37 = arith.constant 37 : index
    %c101 = arith.constant 101 : index
    %m = arith.muli %i, %c37 : index
    %k = arith.remui %m, %c101 : index
    %ki = arith.index_cast %k : index to i32
    %kf = arith.sitofp %ki : i32 to f32
    %s = arith.constant 0.0137 : f32
    %b = arith.constant -0.6 : f32
    %p = arith.mulf %kf, %s : f32
    %r = arith.addf %p, %b : f32
    linalg.yield %r : f32
  }
  return
}

func.func @print(%v: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %n = memref.dim %v, %c0 : memref<?xf32>
  %bits = memref.alloc(%n) : memref<?xi32>
  linalg.generic {indexing_maps = [#s1, #s1], iterator_types = ["parallel"]}
      ins(%v : memref<?xf32>) outs(%bits : memref<?xi32>) {
  ^bb0(%x: f32, %o: i32):
    %b = arith.bitcast %x : f32 to i32
    linalg.yield %b : i32
  }
  %u = memref.cast %bits : memref<?xi32> to memref<*xi32>
  call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  memref.dealloc %bits : memref<?xi32>
  return
}

func.func @main() {
  // conv_2d_nchw_fchw: reductions innermost, ow in tiles of 7.
  %xf = memref.alloc() : memref<5400xf32>
  %ff = memref.alloc() : memref<108xf32>
  %yf = memref.alloc() : memref<6272xf32>
  %xd = memref.cast %xf : memref<5400xf32> to memref<?xf32>
  %fd = memref.cast %ff : memref<108xf32> to memref<?xf32>
  %yd = memref.cast %yf : memref<6272xf32> to memref<?xf32>
  call @fill(%xd) : (memref<?xf32>) -> ()
  call @fill(%fd) : (memref<?xf32>) -> ()
  call @fill(%yd) : (memref<?xf32>) -> ()
  %x = memref.expand_shape %xf [[0, 1, 2, 3]] output_shape [2, 3, 30, 30] : memref<5400xf32> into memref<2x3x30x30xf32>
  %f = memref.expand_shape %ff [[0, 1, 2, 3]] output_shape [4, 3, 3, 3] : memref<108xf32> into memref<4x3x3x3xf32>
  %y = memref.expand_shape %yf [[0, 1, 2, 3]] output_shape [2, 4, 28, 28] : memref<6272xf32> into memref<2x4x28x28xf32>
  linalg.conv_2d_nchw_fchw ins(%x, %f : memref<2x3x30x30xf32>, memref<4x3x3x3xf32>)
      outs(%y : memref<2x4x28x28xf32>)
  call @print(%yd) : (memref<?xf32>) -> ()

  // A sum per channel (n, h, w reduced): 8 channels in registers.
  %bf = memref.alloc() : memref<1120xf32>
  %sf = memref.alloc() : memref<16xf32>
  %bd = memref.cast %bf : memref<1120xf32> to memref<?xf32>
  %sd = memref.cast %sf : memref<16xf32> to memref<?xf32>
  call @fill(%bd) : (memref<?xf32>) -> ()
  call @fill(%sd) : (memref<?xf32>) -> ()
  %b4 = memref.expand_shape %bf [[0, 1, 2, 3]] output_shape [2, 16, 5, 7] : memref<1120xf32> into memref<2x16x5x7xf32>
  linalg.generic {indexing_maps = [#x, #ch],
                  iterator_types = ["reduction", "parallel", "reduction", "reduction"]}
      ins(%b4 : memref<2x16x5x7xf32>) outs(%sf : memref<16xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %r = arith.addf %acc, %in : f32
    linalg.yield %r : f32
  }
  call @print(%sd) : (memref<?xf32>) -> ()

  // A conv weight gradient with f16 operands: its 3 kw points unrolled
  // inside the reduction loops.
  %gxf = memref.alloc() : memref<384xf32>
  %gdf = memref.alloc() : memref<288xf32>
  %gwf = memref.alloc() : memref<108xf32>
  %gxd = memref.cast %gxf : memref<384xf32> to memref<?xf32>
  %gdd = memref.cast %gdf : memref<288xf32> to memref<?xf32>
  %gwd = memref.cast %gwf : memref<108xf32> to memref<?xf32>
  call @fill(%gxd) : (memref<?xf32>) -> ()
  call @fill(%gdd) : (memref<?xf32>) -> ()
  call @fill(%gwd) : (memref<?xf32>) -> ()
  %gxh = memref.alloc() : memref<384xf16>
  %gdh = memref.alloc() : memref<288xf16>
  linalg.generic {indexing_maps = [#s1, #s1], iterator_types = ["parallel"]}
      ins(%gxf : memref<384xf32>) outs(%gxh : memref<384xf16>) {
  ^bb0(%a: f32, %o: f16):
    %t = arith.truncf %a : f32 to f16
    linalg.yield %t : f16
  }
  linalg.generic {indexing_maps = [#s1, #s1], iterator_types = ["parallel"]}
      ins(%gdf : memref<288xf32>) outs(%gdh : memref<288xf16>) {
  ^bb0(%a: f32, %o: f16):
    %t = arith.truncf %a : f32 to f16
    linalg.yield %t : f16
  }
  %gx = memref.expand_shape %gxh [[0, 1, 2, 3]] output_shape [2, 3, 8, 8] : memref<384xf16> into memref<2x3x8x8xf16>
  %gdy = memref.expand_shape %gdh [[0, 1, 2, 3]] output_shape [2, 4, 6, 6] : memref<288xf16> into memref<2x4x6x6xf16>
  %gw = memref.expand_shape %gwf [[0, 1, 2, 3]] output_shape [4, 3, 3, 3] : memref<108xf32> into memref<4x3x3x3xf32>
  linalg.generic {indexing_maps = [#wg_x, #wg_dy, #wg_w],
                  iterator_types = ["reduction", "parallel", "reduction", "reduction",
                                    "parallel", "parallel", "parallel"]}
      ins(%gx, %gdy : memref<2x3x8x8xf16>, memref<2x4x6x6xf16>)
      outs(%gw : memref<4x3x3x3xf32>) {
  ^bb0(%a: f16, %b: f16, %acc: f32):
    %ea = arith.extf %a : f16 to f32
    %eb = arith.extf %b : f16 to f32
    %p = arith.mulf %ea, %eb : f32
    %r = arith.addf %acc, %p : f32
    linalg.yield %r : f32
  }
  call @print(%gwd) : (memref<?xf32>) -> ()

  // Row max and row sum in one op (two outputs), with linalg.index in the
  // body, dynamic sizes (13 x 9): no tile, one accumulator pair per row.
  %c13 = arith.constant 13 : index
  %c9 = arith.constant 9 : index
  %mfs = memref.alloc() : memref<117xf32>
  %mf = memref.cast %mfs : memref<117xf32> to memref<?xf32>
  %mx = memref.alloc(%c13) : memref<?xf32>
  %ms = memref.alloc(%c13) : memref<?xf32>
  call @fill(%mf) : (memref<?xf32>) -> ()
  call @fill(%mx) : (memref<?xf32>) -> ()
  call @fill(%ms) : (memref<?xf32>) -> ()
  %m2s = memref.expand_shape %mfs [[0, 1]] output_shape [13, 9] : memref<117xf32> into memref<13x9xf32>
  %m2 = memref.cast %m2s : memref<13x9xf32> to memref<?x?xf32>
  linalg.generic {indexing_maps = [#rc, #r, #r], iterator_types = ["parallel", "reduction"]}
      ins(%m2 : memref<?x?xf32>) outs(%mx, %ms : memref<?xf32>, memref<?xf32>) {
  ^bb0(%in: f32, %accm: f32, %accs: f32):
    %j = linalg.index 1 : index
    %ji = arith.index_cast %j : index to i32
    %jf = arith.sitofp %ji : i32 to f32
    %w = arith.mulf %in, %jf : f32
    %m = arith.maximumf %accm, %w : f32
    %s = arith.addf %accs, %w : f32
    linalg.yield %m, %s : f32, f32
  }
  call @print(%mx) : (memref<?xf32>) -> ()
  call @print(%ms) : (memref<?xf32>) -> ()

  // A column sum of a 33 x 6 matrix (the bias gradient): the reduction is
  // outer, the 6 columns fit in registers.
  %cf = memref.alloc() : memref<198xf32>
  %cs = memref.alloc() : memref<6xf32>
  %cfd = memref.cast %cf : memref<198xf32> to memref<?xf32>
  %csd = memref.cast %cs : memref<6xf32> to memref<?xf32>
  call @fill(%cfd) : (memref<?xf32>) -> ()
  call @fill(%csd) : (memref<?xf32>) -> ()
  %c2d = memref.expand_shape %cf [[0, 1]] output_shape [33, 6] : memref<198xf32> into memref<33x6xf32>
  linalg.generic {indexing_maps = [#rc, #c], iterator_types = ["reduction", "parallel"]}
      ins(%c2d : memref<33x6xf32>) outs(%cs : memref<6xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %r = arith.addf %acc, %in : f32
    linalg.yield %r : f32
  }
  call @print(%csd) : (memref<?xf32>) -> ()

  // A full reduction to a scalar (the loss, the found-inf flag).
  %tf = memref.alloc() : memref<97xf32>
  %tt = memref.alloc() : memref<f32>
  %tfd = memref.cast %tf : memref<97xf32> to memref<?xf32>
  call @fill(%tfd) : (memref<?xf32>) -> ()
  %z = arith.constant 0.25 : f32
  memref.store %z, %tt[] : memref<f32>
  linalg.generic {indexing_maps = [#s1, #s0], iterator_types = ["reduction"]}
      ins(%tf : memref<97xf32>) outs(%tt : memref<f32>) {
  ^bb0(%in: f32, %acc: f32):
    %sq = arith.mulf %in, %in : f32
    %r = arith.addf %acc, %sq : f32
    linalg.yield %r : f32
  }
  %tv = memref.alloc() : memref<1xf32>
  %tsum = memref.load %tt[] : memref<f32>
  %c0 = arith.constant 0 : index
  memref.store %tsum, %tv[%c0] : memref<1xf32>
  %tvd = memref.cast %tv : memref<1xf32> to memref<?xf32>
  call @print(%tvd) : (memref<?xf32>) -> ()
  return
}
