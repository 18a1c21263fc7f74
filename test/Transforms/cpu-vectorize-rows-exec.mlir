// amp-cpu-vectorize-rows, executed: every op it lowers gives the same bits
// as upstream's convert-linalg-to-loops (each element is computed by the
// same ops from the same operands). The inputs are inexact (multiples of
// 0.0137, rounded to f16 where f16). Each case prints its outputs as i32
// bit patterns; the two lowerings' outputs must be identical (all but the
// buffers' addresses).
// RUN: amp-opt %s --amp-cpu-vectorize-rows --convert-linalg-to-loops \
// RUN:   --convert-scf-to-cf --expand-strided-metadata --lower-affine \
// RUN:   --convert-vector-to-llvm --finalize-memref-to-llvm --convert-func-to-llvm \
// RUN:   --convert-arith-to-llvm --convert-index-to-llvm --convert-cf-to-llvm \
// RUN:   --reconcile-unrealized-casts \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so,%mlir_lib_dir/libmlir_runner_utils.so > %t.ours
// RUN: amp-opt %s --convert-linalg-to-loops \
// RUN:   --convert-scf-to-cf --expand-strided-metadata --lower-affine \
// RUN:   --convert-vector-to-llvm --finalize-memref-to-llvm --convert-func-to-llvm \
// RUN:   --convert-arith-to-llvm --convert-index-to-llvm --convert-cf-to-llvm \
// RUN:   --reconcile-unrealized-casts \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so,%mlir_lib_dir/libmlir_runner_utils.so > %t.ref
// RUN: grep -v base@ %t.ours > %t.ours.data
// RUN: grep -v base@ %t.ref > %t.ref.data
// RUN: diff %t.ours.data %t.ref.data
// RUN: FileCheck %s < %t.ours
// The pass did lower cases 1-4 and 6-9 and left case 5 to LLVM.
// RUN: amp-opt %s --amp-cpu-vectorize-rows | FileCheck %s --check-prefix=IR
// IR-LABEL: func.func @main
// IR:       vector.load {{.*}} : memref<2x9x9xf16>, vector<7xf16>
// IR:       arith.extf {{.*}} : vector<7xf16> to vector<7xf32>
// IR:       vector.store {{.*}} : memref<2x3x3x7x7xf32>, vector<7xf32>
// IR:       vector.from_elements {{.*}} : vector<16xi1>
// IR:       vector.store {{.*}} : memref<3x28xf32>, vector<16xf32>
// IR:       vector.from_elements {{.*}} : vector<12xi1>
// IR:       vector.store {{.*}} : memref<3x28xf32>, vector<12xf32>
// IR:       arith.remui
// IR:       scf.for
// IR:       vector.store {{.*}} : memref<?xf16>, vector<16xf16>
// IR:       scf.for
// IR:       vector.store {{.*}} : memref<?xf16>, vector<1xf16>
// IR:       vector.store {{.*}} : memref<1x9x11xf16>, vector<11xf16>
// IR:       vector.load {{.*}} vector<7xf16>
// IR:       vector.store {{.*}} vector<7xf16>
// IR:       linalg.generic
// IR:       linalg.yield
// IR:       vector.step : vector<9xindex>
// IR:       vector.store {{.*}} : memref<2x3x7x9xf32>, vector<9xf32>
// IR:       vector.load {{.*}} : memref<1x2x8x8xf16>, vector<4xf16>
// IR:       vector.load {{.*}} : memref<1x2x8x8xf16>, vector<4xf16>
// IR:       vector.shuffle {{.*}} [0, 2, 5, 7] : vector<4xf16>, vector<4xf16>
// IR:       arith.maximumf {{.*}} : vector<4xf16>
// IR:       vector.store {{.*}} : memref<1x2x4x4xf16>, vector<4xf16>
// IR:       arith.minsi {{.*}} : vector<4xi8>
// IR:       vector.store {{.*}} : memref<1x2x4x4xi8>, vector<4xi8>
// IR:       vector.shuffle {{.*}} [0, 0, 1, 1, 2, 2, 3, 3] : vector<4xf16>, vector<4xf16>
// IR:       arith.constant dense<[0, 1, 0, 1, 0, 1, 0, 1]> : vector<8xindex>
// IR:       vector.store {{.*}} : memref<1x2x4x2x4x2xf16>, vector<8xf16>
// IR-NOT:   linalg.

// CHECK-COUNT-9: Unranked Memref base@ = {{.*}} rank = {{[0-9]}}

#s1 = affine_map<(i) -> (i)>
#im2col_in = affine_map<(c, kh, kw, oh, ow) -> (c, oh + kh, ow + kw)>
#im2col_out = affine_map<(c, kh, kw, oh, ow) -> (c, kh, kw, oh, ow)>
#x3 = affine_map<(n, c, l) -> (n, c, l)>
#c3 = affine_map<(n, c, l) -> (c)>
#cl3 = affine_map<(n, c, l) -> (c, l)>
#l3 = affine_map<(n, c, l) -> (l)>
#pool_in = affine_map<(n, c, oh, ow, kh, kw) -> (n, c, oh * 2 + kh, ow * 2 + kw)>
#pool_win = affine_map<(n, c, oh, ow, kh, kw) -> (kh, kw)>
#pool_out = affine_map<(n, c, oh, ow, kh, kw) -> (n, c, oh, ow)>
#bw_in = affine_map<(n, c, oh, ow, kh, kw) -> (n, c, oh, ow)>
#bw_out = affine_map<(n, c, oh, ow, kh, kw) -> (n, c, oh, kh, ow, kw)>
#winmap = affine_map<(c, kh, oh, ow) -> (c, oh - kh + 2, ow)>
#colmap = affine_map<(c, kh, oh, ow) -> (c, kh, oh, ow)>

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
// The same values in f16.
func.func @fill16(%h: memref<?xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %h, %c0 : memref<?xf16>
  %f = memref.alloc(%n) : memref<?xf32>
  call @fill(%f) : (memref<?xf32>) -> ()
  scf.for %i = %c0 to %n step %c1 {
    %x = memref.load %f[%i] : memref<?xf32>
    %t = arith.truncf %x : f32 to f16
    memref.store %t, %h[%i] : memref<?xf16>
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
  return
}
// f16 printed through f32 (exact).
func.func @print16(%v: memref<?xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %v, %c0 : memref<?xf16>
  %w = memref.alloc(%n) : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {
    %x = memref.load %v[%i] : memref<?xf16>
    %e = arith.extf %x : f16 to f32
    memref.store %e, %w[%i] : memref<?xf32>
  }
  call @print(%w) : (memref<?xf32>) -> ()
  return
}

// i8 printed through i32.
func.func @print8(%v: memref<?xi8>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %v, %c0 : memref<?xi8>
  %w = memref.alloc(%n) : memref<?xi32>
  scf.for %i = %c0 to %n step %c1 {
    %x = memref.load %v[%i] : memref<?xi8>
    %e = arith.extsi %x : i8 to i32
    memref.store %e, %w[%i] : memref<?xi32>
  }
  %u = memref.cast %w : memref<?xi32> to memref<*xi32>
  call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  // 1. im2col of an f16 image, widened: rows of 7 read at `ow + kw`.
  %x = memref.alloc() : memref<2x9x9xf16>
  %xflat = memref.collapse_shape %x [[0, 1, 2]] : memref<2x9x9xf16> into memref<162xf16>
  %xh = memref.cast %xflat : memref<162xf16> to memref<?xf16>
  call @fill16(%xh) : (memref<?xf16>) -> ()
  %colf = memref.alloc() : memref<882xf32>
  %col = memref.expand_shape %colf [[0, 1, 2, 3, 4]] output_shape [2, 3, 3, 7, 7] : memref<882xf32> into memref<2x3x3x7x7xf32>
  linalg.generic {indexing_maps = [#im2col_in, #im2col_out],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%x : memref<2x9x9xf16>) outs(%col : memref<2x3x3x7x7xf32>) {
  ^bb0(%a: f16, %o: f32):
    %e = arith.extf %a : f16 to f32
    linalg.yield %e : f32
  }
  %cold = memref.cast %colf : memref<882xf32> to memref<?xf32>
  call @print(%cold) : (memref<?xf32>) -> ()

  // 2. A per-(c, l) sum over n of f16 terms times a channel scale, masked
  //    by an i1 per l: rows of 28 (16 + 12) inside the reduction over n.
  %s = memref.alloc() : memref<2x3x28xf16>
  %sflat = memref.collapse_shape %s [[0, 1, 2]] : memref<2x3x28xf16> into memref<168xf16>
  %sh = memref.cast %sflat : memref<168xf16> to memref<?xf16>
  call @fill16(%sh) : (memref<?xf16>) -> ()
  %scf = memref.alloc() : memref<3xf32>
  %scd = memref.cast %scf : memref<3xf32> to memref<?xf32>
  call @fill(%scd) : (memref<?xf32>) -> ()
  %mask = memref.alloc() : memref<28xi1>
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c28 = arith.constant 28 : index
  scf.for %i = %c0 to %c28 step %c1 {
    %r = arith.remui %i, %c3 : index
    %keep = arith.cmpi ne, %r, %c0 : index
    memref.store %keep, %mask[%i] : memref<28xi1>
  }
  %accf = memref.alloc() : memref<84xf32>
  %accd = memref.cast %accf : memref<84xf32> to memref<?xf32>
  call @fill(%accd) : (memref<?xf32>) -> ()
  %acc = memref.expand_shape %accf [[0, 1]] output_shape [3, 28] : memref<84xf32> into memref<3x28xf32>
  %zero = arith.constant 0.0 : f32
  linalg.generic {indexing_maps = [#x3, #c3, #l3, #cl3],
                  iterator_types = ["reduction", "parallel", "parallel"]}
      ins(%s, %scf, %mask : memref<2x3x28xf16>, memref<3xf32>, memref<28xi1>)
      outs(%acc : memref<3x28xf32>) {
  ^bb0(%a: f16, %k: f32, %m: i1, %o: f32):
    %e = arith.extf %a : f16 to f32
    %p = arith.mulf %e, %k : f32
    %q = arith.select %m, %p, %zero : f32
    %r = arith.addf %o, %q : f32
    linalg.yield %r : f32
  }
  call @print(%accd) : (memref<?xf32>) -> ()

  // 3. ReLU of a dynamic f16 row of 37 (16 + 16 + 5 one at a time), in
  //    f32 and rounded back.
  %c37 = arith.constant 37 : index
  %rh = memref.alloc(%c37) : memref<?xf16>
  call @fill16(%rh) : (memref<?xf16>) -> ()
  %ro = memref.alloc(%c37) : memref<?xf16>
  linalg.generic {indexing_maps = [#s1, #s1], iterator_types = ["parallel"]}
      ins(%rh : memref<?xf16>) outs(%ro : memref<?xf16>) {
  ^bb0(%a: f16, %o: f16):
    %e = arith.extf %a : f16 to f32
    %z = arith.constant 0.0 : f32
    %gt = arith.cmpf ugt, %e, %z : f32
    %m = arith.select %gt, %e, %z : f32
    %t = arith.truncf %m : f32 to f16
    linalg.yield %t : f16
  }
  call @print16(%ro) : (memref<?xf16>) -> ()

  // 4. A padding copy of an f16 image into the middle of a larger one,
  //    after a fill of it: rows of 7 and of 9.
  %p = memref.alloc() : memref<1x9x11xf16>
  %half = arith.constant 0.25 : f16
  linalg.fill ins(%half : f16) outs(%p : memref<1x9x11xf16>)
  %src = memref.subview %x[1, 1, 1] [1, 7, 7] [1, 1, 1] : memref<2x9x9xf16> to memref<1x7x7xf16, strided<[81, 9, 1], offset: 91>>
  %dst = memref.subview %p[0, 1, 2] [1, 7, 7] [1, 1, 1] : memref<1x9x11xf16> to memref<1x7x7xf16, strided<[99, 11, 1], offset: 13>>
  linalg.copy ins(%src : memref<1x7x7xf16, strided<[81, 9, 1], offset: 91>>) outs(%dst : memref<1x7x7xf16, strided<[99, 11, 1], offset: 13>>)
  %pflat = memref.collapse_shape %p [[0, 1, 2]] : memref<1x9x11xf16> into memref<99xf16>
  %ph = memref.cast %pflat : memref<99xf16> to memref<?xf16>
  call @print16(%ph) : (memref<?xf16>) -> ()

  // 5. A row of 64 f32 values scaled: long and not f16, left to LLVM.
  %c64 = arith.constant 64 : index
  %lf = memref.alloc(%c64) : memref<?xf32>
  call @fill(%lf) : (memref<?xf32>) -> ()
  %two = arith.constant 2.0 : f32
  linalg.generic {indexing_maps = [#s1], iterator_types = ["parallel"]}
      outs(%lf : memref<?xf32>) {
  ^bb0(%o: f32):
    %m = arith.mulf %o, %two : f32
    linalg.yield %m : f32
  }
  call @print(%lf) : (memref<?xf32>) -> ()

  // 6. An input-gradient window of the f16 image: zero where the window's
  //    row leaves the image (a scalar test per vector), plus a term of the
  //    column's index (linalg.index of the row: start + step).
  %wf = memref.alloc() : memref<2x3x7x9xf32>
  %c2 = arith.constant 2 : index
  %c5 = arith.constant 5 : index
  %zero6 = arith.constant 0.0 : f32
  %eighth = arith.constant 0.125 : f32
  %win = memref.subview %x[0, 0, 0] [2, 9, 9] [1, 1, 1] : memref<2x9x9xf16> to memref<2x9x9xf16, strided<[81, 9, 1]>>
  linalg.generic {indexing_maps = [#winmap, #colmap],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%win : memref<2x9x9xf16, strided<[81, 9, 1]>>) outs(%wf : memref<2x3x7x9xf32>) {
  ^bb0(%a: f16, %o: f32):
    %e = arith.extf %a : f16 to f32
    %oh = linalg.index 2 : index
    %kh = linalg.index 1 : index
    %r = arith.subi %oh, %kh : index
    %in = arith.cmpi ult, %r, %c5 : index
    %m = arith.select %in, %e, %zero6 : f32
    %ow = linalg.index 3 : index
    %odd = arith.remui %ow, %c2 : index
    %oi = arith.index_cast %odd : index to i32
    %of = arith.sitofp %oi : i32 to f32
    %t = arith.mulf %of, %eighth : f32
    %v = arith.addf %m, %t : f32
    linalg.yield %v : f32
  }
  %wflat = memref.collapse_shape %wf [[0, 1, 2, 3]] : memref<2x3x7x9xf32> into memref<378xf32>
  %wd = memref.cast %wflat : memref<378xf32> to memref<?xf32>
  call @print(%wd) : (memref<?xf32>) -> ()

  // 7. A 2 x 2, stride 2 max pooling of an f16 image (the named op,
  //    generalized): rows of 4 window maxima, each lane's element 2 apart
  //    (two overlapping loads of 4 and a shuffle), the window's (kh, kw) inside.
  %pin = memref.alloc() : memref<1x2x8x8xf16>
  %pinflat = memref.collapse_shape %pin [[0, 1, 2, 3]] : memref<1x2x8x8xf16> into memref<128xf16>
  %pind = memref.cast %pinflat : memref<128xf16> to memref<?xf16>
  call @fill16(%pind) : (memref<?xf16>) -> ()
  %pwin = memref.alloc() : memref<2x2xf16>
  %pout = memref.alloc() : memref<1x2x4x4xf16>
  %ninf = arith.constant 0xFC00 : f16
  linalg.fill ins(%ninf : f16) outs(%pout : memref<1x2x4x4xf16>)
  linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
      ins(%pin, %pwin : memref<1x2x8x8xf16>, memref<2x2xf16>)
      outs(%pout : memref<1x2x4x4xf16>)
  %poutflat = memref.collapse_shape %pout [[0, 1, 2, 3]] : memref<1x2x4x4xf16> into memref<32xf16>
  %poutd = memref.cast %poutflat : memref<32xf16> to memref<?xf16>
  call @print16(%poutd) : (memref<?xf16>) -> ()

  // 8. Each window's first position of its maximum (i8, the lowest kh * 2
  //    + kw that ties): the index from the inner loops' indices.
  %tie = memref.alloc() : memref<1x2x4x4xi8>
  %big = arith.constant 127 : i8
  linalg.fill ins(%big : i8) outs(%tie : memref<1x2x4x4xi8>)
  linalg.generic {indexing_maps = [#pool_in, #pool_win, #pool_out, #pool_out],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%pin, %pwin, %pout : memref<1x2x8x8xf16>, memref<2x2xf16>, memref<1x2x4x4xf16>)
      outs(%tie : memref<1x2x4x4xi8>) {
  ^bb0(%a: f16, %w: f16, %m: f16, %o: i8):
    %am = arith.extf %a : f16 to f32
    %mm = arith.extf %m : f16 to f32
    %eq = arith.cmpf oeq, %am, %mm : f32
    %kh = linalg.index 4 : index
    %kw = linalg.index 5 : index
    %c2i = arith.constant 2 : index
    %k2 = arith.muli %kh, %c2i : index
    %k = arith.addi %k2, %kw : index
    %k8 = arith.index_cast %k : index to i8
    %lo = arith.minsi %o, %k8 : i8
    %r = arith.select %eq, %lo, %o : i8
    linalg.yield %r : i8
  }
  %tieflat = memref.collapse_shape %tie [[0, 1, 2, 3]] : memref<1x2x4x4xi8> into memref<32xi8>
  %tied = memref.cast %tieflat : memref<32xi8> to memref<?xi8>
  call @print8(%tied) : (memref<?xi8>) -> ()

  // 9. The pooling's gradient: each window position gets the gradient
  //    where it is the window's tie index, else 0. Rows of (ow, kw) = 8
  //    lanes: the gradient and the tie index repeat every lane twice.
  %gin = memref.alloc() : memref<1x2x4x4xf16>
  %ginflat = memref.collapse_shape %gin [[0, 1, 2, 3]] : memref<1x2x4x4xf16> into memref<32xf16>
  %gind = memref.cast %ginflat : memref<32xf16> to memref<?xf16>
  call @fill16(%gind) : (memref<?xf16>) -> ()
  %gout = memref.alloc() : memref<1x2x4x2x4x2xf16>
  linalg.generic {indexing_maps = [#bw_in, #bw_in, #bw_out],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%gin, %tie : memref<1x2x4x4xf16>, memref<1x2x4x4xi8>)
      outs(%gout : memref<1x2x4x2x4x2xf16>) {
  ^bb0(%g: f16, %t: i8, %o: f16):
    %ge = arith.extf %g : f16 to f32
    %kh = linalg.index 4 : index
    %kw = linalg.index 5 : index
    %c2i = arith.constant 2 : index
    %k2 = arith.muli %kh, %c2i : index
    %k = arith.addi %k2, %kw : index
    %k8 = arith.index_cast %k : index to i8
    %hit = arith.cmpi eq, %k8, %t : i8
    %z = arith.constant 0.0 : f32
    %v = arith.select %hit, %ge, %z : f32
    %vt = arith.truncf %v : f32 to f16
    linalg.yield %vt : f16
  }
  %goutflat = memref.collapse_shape %gout [[0, 1, 2, 3, 4, 5]] : memref<1x2x4x2x4x2xf16> into memref<128xf16>
  %goutd = memref.cast %goutflat : memref<128xf16> to memref<?xf16>
  call @print16(%goutd) : (memref<?xf16>) -> ()
  return
}
