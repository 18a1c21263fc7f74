// amp-cpu-vectorize-rows on bf16, executed: bf16 vectors are computed on
// as i16 vectors of their bits (selects, shuffles, loop-carried maxima) and
// in f32 (arithmetic, rounded back to nearest even), and must give the same
// bits as upstream's convert-linalg-to-loops, whose scalar bf16 LLVM
// promotes to f32 the same way. Both lowerings expand bf16 casts to integer
// ops (arith-expand include-bf16, as amp-lower-to-llvm does); ours also
// runs amp-cpu-bf16-memory-as-i16. The inputs are inexact (multiples of
// 0.0137 rounded to bf16; the sums and products round again). Each case
// prints its outputs widened to f32, as i32 bit patterns.
// RUN: amp-opt %s --amp-cpu-vectorize-rows --convert-linalg-to-loops \
// RUN:   --convert-scf-to-cf --expand-strided-metadata --lower-affine \
// RUN:   --arith-expand="include-bf16=true" --convert-vector-to-llvm \
// RUN:   --finalize-memref-to-llvm --convert-func-to-llvm \
// RUN:   --convert-arith-to-llvm --convert-index-to-llvm --convert-cf-to-llvm \
// RUN:   --reconcile-unrealized-casts --amp-cpu-bf16-memory-as-i16 \
// RUN: | mlir-runner -O3 -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so,%mlir_lib_dir/libmlir_runner_utils.so > %t.ours
// RUN: amp-opt %s --convert-linalg-to-loops \
// RUN:   --convert-scf-to-cf --expand-strided-metadata --lower-affine \
// RUN:   --arith-expand="include-bf16=true" --convert-vector-to-llvm \
// RUN:   --finalize-memref-to-llvm --convert-func-to-llvm \
// RUN:   --convert-arith-to-llvm --convert-index-to-llvm --convert-cf-to-llvm \
// RUN:   --reconcile-unrealized-casts \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so,%mlir_lib_dir/libmlir_runner_utils.so > %t.ref
// RUN: grep -v base@ %t.ours > %t.ours.data
// RUN: grep -v base@ %t.ref > %t.ref.data
// RUN: diff %t.ours.data %t.ref.data
// RUN: FileCheck %s < %t.ours
// The pass lowered all eight cases (as bits and f32: no bf16 arithmetic).
// RUN: amp-opt %s --amp-cpu-vectorize-rows | FileCheck %s --check-prefix=IR
// IR-LABEL: func.func @main
// IR:       scf.for {{.*}} iter_args({{.*}}) -> (vector<8xf32>)
// IR:       vector.shuffle {{.*}} [0, 2, 4, 6, 9, 11, 13, 15] : vector<8xi16>, vector<8xi16>
// IR:       arith.maximumf {{.*}} : vector<8xf32>
// IR-NOT:   arith.truncf
// IR:       scf.yield {{.*}} : vector<8xf32>
// IR:       arith.truncf {{.*}} : vector<8xf32> to vector<8xbf16>
// IR:       vector.store {{.*}} : memref<1x2x8x8xbf16>, vector<8xbf16>
// IR:       arith.cmpf oeq, {{.*}} : vector<8xf32>
// IR:       vector.store {{.*}} : memref<1x2x8x8xi8>, vector<8xi8>
// IR:       vector.shuffle {{.*}} [0, 0, 1, 1, {{.*}}, 7, 7] : vector<8xi16>, vector<8xi16>
// IR:       arith.truncf {{.*}} : vector<16xf32> to vector<16xbf16>
// IR:       vector.store {{.*}} : memref<1x2x8x2x8x2xbf16>, vector<16xbf16>
// IR:       arith.addf {{.*}} : vector<16xf32>
// IR:       arith.select {{.*}} : vector<9xi1>, vector<9xi16>
// IR:       vector.reduction <maximumf>, {{.*}} : vector<16xf32> into f32
// IR:       vector.reduction <maximumf>, {{.*}} : vector<12xf32> into f32
// IR:       vector.reduction <minimumf>, {{.*}} : vector<16xf32> into f32
// IR:       arith.truncf {{.*}} : vector<16xf32> to vector<16xbf16>
// IR:       vector.store {{.*}} : memref<2x70xbf16>, vector<16xbf16>
// IR-NOT:   linalg.
// IR-NOT:   vector<{{[0-9]+}}xbf16> to vector<{{[0-9]+}}xf32>

// CHECK-COUNT-8: Unranked Memref base@ = {{.*}} rank = {{[0-9]}}

#s1 = affine_map<(i) -> (i)>
#pool_in = affine_map<(n, c, oh, ow, kh, kw) -> (n, c, oh * 2 + kh, ow * 2 + kw)>
#pool_win = affine_map<(n, c, oh, ow, kh, kw) -> (kh, kw)>
#pool_out = affine_map<(n, c, oh, ow, kh, kw) -> (n, c, oh, ow)>
#bw_in = affine_map<(n, c, oh, ow, kh, kw) -> (n, c, oh, ow)>
#bw_out = affine_map<(n, c, oh, ow, kh, kw) -> (n, c, oh, kh, ow, kw)>
#x2 = affine_map<(i, j) -> (i, j)>
#winmap = affine_map<(c, kh, oh, ow) -> (c, oh - kh + 2, ow)>
#red_in = affine_map<(i, j) -> (i, j)>
#red_out = affine_map<(i, j) -> (i)>
#red_scale = affine_map<(i, j) -> (i)>
#colmap = affine_map<(c, kh, oh, ow) -> (c, kh, oh, ow)>

func.func private @printMemrefI32(memref<*xi32>)

// v[i] = ((i * 37) mod 101) * 0.0137 - 0.6, rounded to bf16.
func.func @fill(%v: memref<?xbf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c37 = arith.constant 37 : index
  %c101 = arith.constant 101 : index
  %s = arith.constant 0.0137 : f32
  %b = arith.constant -0.6 : f32
  %n = memref.dim %v, %c0 : memref<?xbf16>
  scf.for %i = %c0 to %n step %c1 {
    %m = arith.muli %i, %c37 : index
    %k = arith.remui %m, %c101 : index
    %ki = arith.index_cast %k : index to i32
    %kf = arith.sitofp %ki : i32 to f32
    %p = arith.mulf %kf, %s : f32
    %r = arith.addf %p, %b : f32
    %t = arith.truncf %r : f32 to bf16
    memref.store %t, %v[%i] : memref<?xbf16>
  }
  return
}
// Widened to f32 (exact), printed as bits.
func.func @print(%v: memref<?xbf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %v, %c0 : memref<?xbf16>
  %w = memref.alloc(%n) : memref<?xi32>
  scf.for %i = %c0 to %n step %c1 {
    %x = memref.load %v[%i] : memref<?xbf16>
    %e = arith.extf %x : bf16 to f32
    %bits = arith.bitcast %e : f32 to i32
    memref.store %bits, %w[%i] : memref<?xi32>
  }
  %u = memref.cast %w : memref<?xi32> to memref<*xi32>
  call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  return
}
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

// f32 printed as bits.
func.func @print32(%v: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %v, %c0 : memref<?xf32>
  %w = memref.alloc(%n) : memref<?xi32>
  scf.for %i = %c0 to %n step %c1 {
    %x = memref.load %v[%i] : memref<?xf32>
    %bits = arith.bitcast %x : f32 to i32
    memref.store %bits, %w[%i] : memref<?xi32>
  }
  %u = memref.cast %w : memref<?xi32> to memref<*xi32>
  call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // 1. A 2 x 2, stride 2 max pooling of a bf16 image (the named op,
  //    generalized): rows of 8 window maxima (a span of 15: two
  //    overlapping loads of 8 and a shuffle), the maximum carried across
  //    the window in f32 (each step's is one of two bf16 values, exact)
  //    and rounded once after it.
  %pin = memref.alloc() : memref<1x2x16x16xbf16>
  %pinflat = memref.collapse_shape %pin [[0, 1, 2, 3]] : memref<1x2x16x16xbf16> into memref<512xbf16>
  %pind = memref.cast %pinflat : memref<512xbf16> to memref<?xbf16>
  call @fill(%pind) : (memref<?xbf16>) -> ()
  %pwin = memref.alloc() : memref<2x2xbf16>
  %pout = memref.alloc() : memref<1x2x8x8xbf16>
  %ninf = arith.constant 0xFF80 : bf16
  linalg.fill ins(%ninf : bf16) outs(%pout : memref<1x2x8x8xbf16>)
  linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
      ins(%pin, %pwin : memref<1x2x16x16xbf16>, memref<2x2xbf16>)
      outs(%pout : memref<1x2x8x8xbf16>)
  %poutflat = memref.collapse_shape %pout [[0, 1, 2, 3]] : memref<1x2x8x8xbf16> into memref<128xbf16>
  %poutd = memref.cast %poutflat : memref<128xbf16> to memref<?xbf16>
  call @print(%poutd) : (memref<?xbf16>) -> ()

  // 2. Each window's first position of its maximum, compared in bf16.
  %tie = memref.alloc() : memref<1x2x8x8xi8>
  %big = arith.constant 127 : i8
  linalg.fill ins(%big : i8) outs(%tie : memref<1x2x8x8xi8>)
  linalg.generic {indexing_maps = [#pool_in, #pool_win, #pool_out, #pool_out],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%pin, %pwin, %pout : memref<1x2x16x16xbf16>, memref<2x2xbf16>, memref<1x2x8x8xbf16>)
      outs(%tie : memref<1x2x8x8xi8>) {
  ^bb0(%a: bf16, %w: bf16, %m: bf16, %o: i8):
    %eq = arith.cmpf oeq, %a, %m : bf16
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
  %tieflat = memref.collapse_shape %tie [[0, 1, 2, 3]] : memref<1x2x8x8xi8> into memref<128xi8>
  %tied = memref.cast %tieflat : memref<128xi8> to memref<?xi8>
  call @print8(%tied) : (memref<?xi8>) -> ()

  // 3. The pooling's gradient, scaled by 1.37 and rounded to bf16: rows of
  //    (ow, kw) = 8 x 2 = 16 lanes, each gradient and tie index read
  //    once and repeated for the window's two positions.
  %gin = memref.alloc() : memref<1x2x8x8xbf16>
  %ginflat = memref.collapse_shape %gin [[0, 1, 2, 3]] : memref<1x2x8x8xbf16> into memref<128xbf16>
  %gind = memref.cast %ginflat : memref<128xbf16> to memref<?xbf16>
  call @fill(%gind) : (memref<?xbf16>) -> ()
  %gout = memref.alloc() : memref<1x2x8x2x8x2xbf16>
  linalg.generic {indexing_maps = [#bw_in, #bw_in, #bw_out],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%gin, %tie : memref<1x2x8x8xbf16>, memref<1x2x8x8xi8>)
      outs(%gout : memref<1x2x8x2x8x2xbf16>) {
  ^bb0(%g: bf16, %t: i8, %o: bf16):
    %ge = arith.extf %g : bf16 to f32
    %sc = arith.constant 1.37 : f32
    %gs = arith.mulf %ge, %sc : f32
    %kh = linalg.index 4 : index
    %kw = linalg.index 5 : index
    %c2i = arith.constant 2 : index
    %k2 = arith.muli %kh, %c2i : index
    %k = arith.addi %k2, %kw : index
    %k8 = arith.index_cast %k : index to i8
    %hit = arith.cmpi eq, %k8, %t : i8
    %z = arith.constant 0.0 : f32
    %v = arith.select %hit, %gs, %z : f32
    %vt = arith.truncf %v : f32 to bf16
    linalg.yield %vt : bf16
  }
  %goutflat = memref.collapse_shape %gout [[0, 1, 2, 3, 4, 5]] : memref<1x2x8x2x8x2xbf16> into memref<512xbf16>
  %goutd = memref.cast %goutflat : memref<512xbf16> to memref<?xbf16>
  call @print(%goutd) : (memref<?xbf16>) -> ()

  // 4. A sum in bf16 arithmetic (each lane promoted to f32, added, rounded
  //    to nearest even), rows of 20: a vector of 16 and one of 4.
  %sa = memref.alloc() : memref<3x20xbf16>
  %saflat = memref.collapse_shape %sa [[0, 1]] : memref<3x20xbf16> into memref<60xbf16>
  %sad = memref.cast %saflat : memref<60xbf16> to memref<?xbf16>
  call @fill(%sad) : (memref<?xbf16>) -> ()
  %sum = memref.alloc() : memref<3x20xbf16>
  %third = arith.constant 0.3359 : bf16
  linalg.generic {indexing_maps = [#x2, #x2], iterator_types = ["parallel", "parallel"]}
      ins(%sa : memref<3x20xbf16>) outs(%sum : memref<3x20xbf16>) {
  ^bb0(%a: bf16, %o: bf16):
    %p = arith.mulf %a, %third : bf16
    %s = arith.addf %p, %a : bf16
    linalg.yield %s : bf16
  }
  %sumflat = memref.collapse_shape %sum [[0, 1]] : memref<3x20xbf16> into memref<60xbf16>
  %sumd = memref.cast %sumflat : memref<60xbf16> to memref<?xbf16>
  call @print(%sumd) : (memref<?xbf16>) -> ()

  // 5. A padded im2col in bf16: rows of 9 read at `oh - kh + 2`, 0 where
  //    that is outside the 7 x 7 image (a select of bf16 under a mask).
  %img = memref.alloc() : memref<1x11x9xbf16>
  %imgflat = memref.collapse_shape %img [[0, 1, 2]] : memref<1x11x9xbf16> into memref<99xbf16>
  %imgd = memref.cast %imgflat : memref<99xbf16> to memref<?xbf16>
  call @fill(%imgd) : (memref<?xbf16>) -> ()
  %col = memref.alloc() : memref<1x3x9x9xbf16>
  linalg.generic {indexing_maps = [#winmap, #colmap],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%img : memref<1x11x9xbf16>) outs(%col : memref<1x3x9x9xbf16>) {
  ^bb0(%x: bf16, %o: bf16):
    %kh = linalg.index 1 : index
    %oh = linalg.index 2 : index
    %ow = linalg.index 3 : index
    %c2 = arith.constant 2 : index
    %c7 = arith.constant 7 : index
    %ih0 = arith.subi %oh, %kh : index
    %ih = arith.addi %ih0, %c2 : index
    %inh = arith.cmpi ult, %ih, %c7 : index
    %inw = arith.cmpi ult, %ow, %c7 : index
    %in = arith.andi %inh, %inw : i1
    %zero = arith.constant 0.0 : bf16
    %r = arith.select %in, %x, %zero : bf16
    linalg.yield %r : bf16
  }
  %colflat = memref.collapse_shape %col [[0, 1, 2, 3]] : memref<1x3x9x9xbf16> into memref<243xbf16>
  %cold = memref.cast %colflat : memref<243xbf16> to memref<?xbf16>
  call @print(%cold) : (memref<?xbf16>) -> ()

  // 6. A softmax's row maximum, along the reduction: rows of 28 bf16
  //    widened to f32 (vectors of 16 and 12, each reduced horizontally)
  //    into an f32 output that starts at -inf, over 5 rows (fewer than 8:
  //    more rows go 16 at a time, cpu-vectorize-rows-transposed-exec.mlir);
  //    and a row minimum of f32 values times a per-row (uniform)
  //    scale, rows of 32, from a first value of 0.25.
  %scores = memref.alloc() : memref<5x28xbf16>
  %scflat = memref.collapse_shape %scores [[0, 1]] : memref<5x28xbf16> into memref<140xbf16>
  %scd = memref.cast %scflat : memref<140xbf16> to memref<?xbf16>
  call @fill(%scd) : (memref<?xbf16>) -> ()
  %rowmax5 = memref.alloc() : memref<5xf32>
  %rowmax = memref.cast %rowmax5 : memref<5xf32> to memref<?xf32>
  %ninf32 = arith.constant 0xFF800000 : f32
  linalg.fill ins(%ninf32 : f32) outs(%rowmax5 : memref<5xf32>)
  linalg.generic {indexing_maps = [#red_in, #red_out], iterator_types = ["parallel", "reduction"]}
      ins(%scores : memref<5x28xbf16>) outs(%rowmax5 : memref<5xf32>) {
  ^bb0(%in: bf16, %o: f32):
    %e = arith.extf %in : bf16 to f32
    %m = arith.maximumf %e, %o : f32
    linalg.yield %m : f32
  }
  call @print32(%rowmax) : (memref<?xf32>) -> ()
  %fv = memref.alloc() : memref<3x32xbf16>
  %fvflat = memref.collapse_shape %fv [[0, 1]] : memref<3x32xbf16> into memref<96xbf16>
  %fvd = memref.cast %fvflat : memref<96xbf16> to memref<?xbf16>
  call @fill(%fvd) : (memref<?xbf16>) -> ()
  %f32v = memref.alloc() : memref<3x32xf32>
  %c3 = arith.constant 3 : index
  %c32 = arith.constant 32 : index
  scf.for %i = %c0 to %c3 step %c1 {
    scf.for %j = %c0 to %c32 step %c1 {
      %x = memref.load %fv[%i, %j] : memref<3x32xbf16>
      %e = arith.extf %x : bf16 to f32
      memref.store %e, %f32v[%i, %j] : memref<3x32xf32>
    }
  }
  %scale = memref.alloc() : memref<3xf32>
  %s0 = arith.constant -1.5 : f32
  linalg.fill ins(%s0 : f32) outs(%scale : memref<3xf32>)
  %rowmin = memref.alloc() : memref<3xf32>
  %quarter = arith.constant 0.25 : f32
  linalg.fill ins(%quarter : f32) outs(%rowmin : memref<3xf32>)
  linalg.generic {indexing_maps = [#red_in, #red_scale, #red_out], iterator_types = ["parallel", "reduction"]}
      ins(%f32v, %scale : memref<3x32xf32>, memref<3xf32>) outs(%rowmin : memref<3xf32>) {
  ^bb0(%in: f32, %sc: f32, %o: f32):
    %p = arith.mulf %in, %sc : f32
    %m = arith.minimumf %o, %p : f32
    linalg.yield %m : f32
  }
  %rmin = memref.cast %rowmin : memref<3xf32> to memref<?xf32>
  call @print32(%rmin) : (memref<?xf32>) -> ()

  // 8. A long bf16 row (70: four vectors of 16 and one of 6), a batch
  //    norm's (x - mean) * scale + shift with per-row f32 parameters,
  //    widened, computed in f32 and rounded: no longer left to LLVM's loop
  //    vectorizer (4 lanes at a time on AVX512_BF16).
  %bn = memref.alloc() : memref<2x70xbf16>
  %bnflat = memref.collapse_shape %bn [[0, 1]] : memref<2x70xbf16> into memref<140xbf16>
  %bnd = memref.cast %bnflat : memref<140xbf16> to memref<?xbf16>
  call @fill(%bnd) : (memref<?xbf16>) -> ()
  %mean = memref.alloc() : memref<2xf32>
  %m0 = arith.constant 0.0831 : f32
  linalg.fill ins(%m0 : f32) outs(%mean : memref<2xf32>)
  %bnout = memref.alloc() : memref<2x70xbf16>
  %gain = arith.constant 1.7311 : f32
  %shift = arith.constant -0.0517 : f32
  linalg.generic {indexing_maps = [#red_in, #red_scale, #red_in], iterator_types = ["parallel", "parallel"]}
      ins(%bn, %mean : memref<2x70xbf16>, memref<2xf32>) outs(%bnout : memref<2x70xbf16>) {
  ^bb0(%x: bf16, %mu: f32, %o: bf16):
    %w = arith.extf %x : bf16 to f32
    %c = arith.subf %w, %mu : f32
    %g = arith.mulf %c, %gain : f32
    %y = arith.addf %g, %shift : f32
    %r = arith.truncf %y : f32 to bf16
    linalg.yield %r : bf16
  }
  %bnoutflat = memref.collapse_shape %bnout [[0, 1]] : memref<2x70xbf16> into memref<140xbf16>
  %bnoutd = memref.cast %bnoutflat : memref<140xbf16> to memref<?xbf16>
  call @print(%bnoutd) : (memref<?xbf16>) -> ()
  return
}
