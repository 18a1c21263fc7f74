// amp-cpu-vectorize-rows, reductions computed across their outputs: a
// reduction whose inputs run contiguously along it, with an output that is
// contiguous along a parallel loop, runs 16 outputs at a time, the inputs
// transposed in registers so that each lane carries one output's reduction
// in the loop's order. It must give the same bits as upstream's
// convert-linalg-to-loops (sums included: the order is the loop's). The
// inputs are inexact (multiples of 0.0137, some rounded to bf16 or f16);
// each case prints its output as i32 bit patterns.
// RUN: amp-opt %s --amp-cpu-vectorize-rows --convert-linalg-to-loops \
// RUN:   --convert-scf-to-cf --expand-strided-metadata --lower-affine \
// RUN:   --arith-expand="include-bf16=true" --convert-vector-to-llvm \
// RUN:   --finalize-memref-to-llvm --convert-func-to-llvm \
// RUN:   --convert-math-to-llvm --convert-arith-to-llvm --convert-index-to-llvm \
// RUN:   --convert-cf-to-llvm \
// RUN:   --reconcile-unrealized-casts --amp-cpu-bf16-memory-as-i16 \
// RUN: | mlir-runner -O3 -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so,%mlir_lib_dir/libmlir_runner_utils.so > %t.ours
// RUN: amp-opt %s --convert-linalg-to-loops \
// RUN:   --convert-scf-to-cf --expand-strided-metadata --lower-affine \
// RUN:   --arith-expand="include-bf16=true" --convert-vector-to-llvm \
// RUN:   --finalize-memref-to-llvm --convert-func-to-llvm \
// RUN:   --convert-math-to-llvm --convert-arith-to-llvm --convert-index-to-llvm \
// RUN:   --convert-cf-to-llvm \
// RUN:   --reconcile-unrealized-casts \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so,%mlir_lib_dir/libmlir_runner_utils.so > %t.ref
// RUN: grep -v base@ %t.ours > %t.ours.data
// RUN: grep -v base@ %t.ref > %t.ref.data
// RUN: diff %t.ours.data %t.ref.data
// RUN: FileCheck %s < %t.ours
// The pass took all five cases: 16 x 16 register transposes, no linalg.
// RUN: amp-opt %s --amp-cpu-vectorize-rows | FileCheck %s --check-prefix=IR
// IR-LABEL: func.func @main
// IR:       vector.shuffle {{.*}} : vector<16xf32>, vector<16xf32>
// IR:       arith.addf {{.*}} : vector<16xf32>
// IR:       vector.maskedstore
// IR:       arith.maximumf {{.*}} : vector<16xf32>
// IR-NOT:   linalg.
// IR-NOT:   vector.reduction

// CHECK-COUNT-5: Unranked Memref base@ = {{.*}} rank = 1

#x2 = affine_map<(i, j) -> (i, j)>
#rows = affine_map<(i, j) -> (i)>
#pg = affine_map<(b, j, i) -> (b, i, j)>
#pg_out = affine_map<(b, j, i) -> (b, i)>
#scalar = affine_map<(i, j) -> ()>

func.func private @printMemrefI32(memref<*xi32>)

// v[i] = ((i * 37) mod 101) * 0.0137 - 0.6.
func.func @fill(%v: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c37 = arith.constant 37 : index
  %c101 = arith.constant 101 : index
  %s = arith.constant 0.0137 : f32
  %b = arith.constant -0.6 : f32
  %n = memref.dim %v, %c0 : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {
    %m = arith.muli %i, %c37 : index
    %k = arith.remui %m, %c101 : index
    %ki = arith.index_cast %k : index to i32
    %kf = arith.sitofp %ki : i32 to f32
    %p = arith.mulf %kf, %s : f32
    %r = arith.addf %p, %b : f32
    memref.store %r, %v[%i] : memref<?xf32>
  }
  return
}
// The same values rounded to bf16 and to f16.
func.func @fillbf16(%v: memref<?xbf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %v, %c0 : memref<?xbf16>
  %t = memref.alloc(%n) : memref<?xf32>
  call @fill(%t) : (memref<?xf32>) -> ()
  scf.for %i = %c0 to %n step %c1 {
    %x = memref.load %t[%i] : memref<?xf32>
    %y = arith.truncf %x : f32 to bf16
    memref.store %y, %v[%i] : memref<?xbf16>
  }
  return
}
func.func @fillf16(%v: memref<?xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %v, %c0 : memref<?xf16>
  %t = memref.alloc(%n) : memref<?xf32>
  call @fill(%t) : (memref<?xf32>) -> ()
  scf.for %i = %c0 to %n step %c1 {
    %x = memref.load %t[%i] : memref<?xf32>
    %y = arith.truncf %x : f32 to f16
    memref.store %y, %v[%i] : memref<?xf16>
  }
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
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  // 1. A softmax's row sum: 40 rows of 28 f32 (two blocks of 16 lanes and
  //    one of 8, masked; the reduction in chunks of 16 and 12), as
  //    amp-cpu-parallelize leaves it: a dynamic number of rows.
  %x1 = memref.alloc() : memref<40x28xf32>
  %x1f = memref.collapse_shape %x1 [[0, 1]] : memref<40x28xf32> into memref<1120xf32>
  %x1d = memref.cast %x1f : memref<1120xf32> to memref<?xf32>
  call @fill(%x1d) : (memref<?xf32>) -> ()
  %o1 = memref.alloc() : memref<40xf32>
  linalg.fill ins(%zero : f32) outs(%o1 : memref<40xf32>)
  %x1dyn = memref.cast %x1 : memref<40x28xf32> to memref<?x28xf32>
  %o1dyn = memref.cast %o1 : memref<40xf32> to memref<?xf32>
  linalg.generic {indexing_maps = [#x2, #rows], iterator_types = ["parallel", "reduction"]}
      ins(%x1dyn : memref<?x28xf32>) outs(%o1dyn : memref<?xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %e = math.exp %a : f32
    %s = arith.addf %e, %acc : f32
    linalg.yield %s : f32
  }
  %o1d = memref.cast %o1 : memref<40xf32> to memref<?xf32>
  call @print32(%o1d) : (memref<?xf32>) -> ()

  // 2. A row maximum of bf16 scores, widened (20 rows: 16 and 4 lanes).
  %x2 = memref.alloc() : memref<20x28xbf16>
  %x2f = memref.collapse_shape %x2 [[0, 1]] : memref<20x28xbf16> into memref<560xbf16>
  %x2d = memref.cast %x2f : memref<560xbf16> to memref<?xbf16>
  call @fillbf16(%x2d) : (memref<?xbf16>) -> ()
  %o2 = memref.alloc() : memref<20xf32>
  linalg.fill ins(%ninf : f32) outs(%o2 : memref<20xf32>)
  linalg.generic {indexing_maps = [#x2, #rows], iterator_types = ["parallel", "reduction"]}
      ins(%x2 : memref<20x28xbf16>) outs(%o2 : memref<20xf32>) {
  ^bb0(%a: bf16, %acc: f32):
    %w = arith.extf %a : bf16 to f32
    %m = arith.maximumf %w, %acc : f32
    linalg.yield %m : f32
  }
  %o2d = memref.cast %o2 : memref<20xf32> to memref<?xf32>
  call @print32(%o2d) : (memref<?xf32>) -> ()

  // 3. A softmax gradient's rowsum(dP * P), loops (b, j, i) with the
  //    reduction j in the middle and the lanes i innermost: P in f32, dP
  //    in bf16, 3 images of 28 x 28.
  %p3 = memref.alloc() : memref<3x28x28xf32>
  %p3f = memref.collapse_shape %p3 [[0, 1, 2]] : memref<3x28x28xf32> into memref<2352xf32>
  %p3d = memref.cast %p3f : memref<2352xf32> to memref<?xf32>
  call @fill(%p3d) : (memref<?xf32>) -> ()
  %d3 = memref.alloc() : memref<3x28x28xbf16>
  %d3f = memref.collapse_shape %d3 [[0, 1, 2]] : memref<3x28x28xbf16> into memref<2352xbf16>
  %d3d = memref.cast %d3f : memref<2352xbf16> to memref<?xbf16>
  call @fillbf16(%d3d) : (memref<?xbf16>) -> ()
  %o3 = memref.alloc() : memref<3x28xf32>
  linalg.fill ins(%zero : f32) outs(%o3 : memref<3x28xf32>)
  linalg.generic {indexing_maps = [#pg, #pg, #pg_out], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%p3, %d3 : memref<3x28x28xf32>, memref<3x28x28xbf16>) outs(%o3 : memref<3x28xf32>) {
  ^bb0(%p: f32, %d: bf16, %acc: f32):
    %w = arith.extf %d : bf16 to f32
    %m = arith.mulf %p, %w : f32
    %s = arith.addf %m, %acc : f32
    linalg.yield %s : f32
  }
  %o3f = memref.collapse_shape %o3 [[0, 1]] : memref<3x28xf32> into memref<84xf32>
  %o3d = memref.cast %o3f : memref<84xf32> to memref<?xf32>
  call @print32(%o3d) : (memref<?xf32>) -> ()

  // 4. Inputs that do not run along the reduction: a per-row shift (a
  //    vector along the lanes) and a scalar scale (uniform); f16 values.
  %x4 = memref.alloc() : memref<24x20xf16>
  %x4f = memref.collapse_shape %x4 [[0, 1]] : memref<24x20xf16> into memref<480xf16>
  %x4d = memref.cast %x4f : memref<480xf16> to memref<?xf16>
  call @fillf16(%x4d) : (memref<?xf16>) -> ()
  %m4 = memref.alloc() : memref<24xf32>
  %m4d = memref.cast %m4 : memref<24xf32> to memref<?xf32>
  call @fill(%m4d) : (memref<?xf32>) -> ()
  %k4 = memref.alloc() : memref<f32>
  %k = arith.constant 0.37 : f32
  memref.store %k, %k4[] : memref<f32>
  %o4 = memref.alloc() : memref<24xf32>
  linalg.fill ins(%zero : f32) outs(%o4 : memref<24xf32>)
  linalg.generic {indexing_maps = [#x2, #rows, #scalar, #rows], iterator_types = ["parallel", "reduction"]}
      ins(%x4, %m4, %k4 : memref<24x20xf16>, memref<24xf32>, memref<f32>) outs(%o4 : memref<24xf32>) {
  ^bb0(%a: f16, %m: f32, %c: f32, %acc: f32):
    %w = arith.extf %a : f16 to f32
    %d = arith.subf %w, %m : f32
    %t = arith.mulf %d, %c : f32
    %s = arith.addf %acc, %t : f32
    linalg.yield %s : f32
  }
  %o4d = memref.cast %o4 : memref<24xf32> to memref<?xf32>
  call @print32(%o4d) : (memref<?xf32>) -> ()

  // 5. 16 rows exactly (no masked block), a reduction of 16 (one chunk),
  //    a running minimum started from the output's values.
  %x5 = memref.alloc() : memref<16x16xf32>
  %x5f = memref.collapse_shape %x5 [[0, 1]] : memref<16x16xf32> into memref<256xf32>
  %x5d = memref.cast %x5f : memref<256xf32> to memref<?xf32>
  call @fill(%x5d) : (memref<?xf32>) -> ()
  %o5 = memref.alloc() : memref<16xf32>
  %o5d = memref.cast %o5 : memref<16xf32> to memref<?xf32>
  call @fill(%o5d) : (memref<?xf32>) -> ()
  linalg.generic {indexing_maps = [#x2, #rows], iterator_types = ["parallel", "reduction"]}
      ins(%x5 : memref<16x16xf32>) outs(%o5 : memref<16xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %m = arith.minimumf %acc, %a : f32
    linalg.yield %m : f32
  }
  call @print32(%o5d) : (memref<?xf32>) -> ()
  return
}
