// amp-cpu-vectorize-rows on bf16 rows that LLVM's x86 backend cannot
// soft-promote when they reach it as bf16 vectors ("LLVM ERROR: Do not
// know how to soft promote this operator's operand", an abort in the JIT):
// AlexNet's stride-4 im2col in bf16 (a shuffled load), ResNet-18's padded
// input-gradient im2col in bf16 (a select of bf16 under a window mask) and
// a copy of rows of 9 bf16. The pass computes on i16 vectors of the bits;
// amp-cpu-bf16-memory-as-i16 types the loads and stores i16 too, so that
// InstCombine finds no bf16 vector to move the selects and shuffles into.
// Compiled at -O3, as amp-run's JIT does, and executed: the copies must
// hold the image's values (small integers, exact in bf16).
// RUN: amp-opt %s --amp-cpu-vectorize-rows --convert-linalg-to-loops \
// RUN:   --convert-scf-to-cf --expand-strided-metadata --lower-affine \
// RUN:   --arith-expand="include-bf16=true" --convert-vector-to-llvm \
// RUN:   --finalize-memref-to-llvm --convert-func-to-llvm --convert-arith-to-llvm \
// RUN:   --convert-index-to-llvm --convert-cf-to-llvm --reconcile-unrealized-casts \
// RUN:   --amp-cpu-bf16-memory-as-i16 > %t.mlir
// RUN: mlir-runner -O3 -e main -entry-point-result=void %t.mlir \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so,%mlir_lib_dir/libmlir_runner_utils.so \
// RUN: | FileCheck %s
// CHECK: [20808]
// CHECK: [3771]
// CHECK: [702]
// No bf16 vector is left in the LLVM dialect.
// RUN: FileCheck %s --check-prefix=LLVM < %t.mlir
// LLVM-NOT: xbf16>
// All three rows are vectors, the shuffle and the select on i16.
// RUN: amp-opt %s --amp-cpu-vectorize-rows | FileCheck %s --check-prefix=IR
// IR-LABEL: func.func @stride4
// IR:         vector.shuffle {{.*}} : vector<32xi16>, vector<32xi16>
// IR:         vector.store {{.*}} vector<16xbf16>
// IR-LABEL: func.func @masked
// IR:         arith.select {{.*}} : vector<9xi1>, vector<9xi16>
// IR:         vector.store {{.*}} vector<9xbf16>
// IR-LABEL: func.func @copy9
// IR:         vector.store {{.*}} vector<9xbf16>

func.func private @printMemrefF32(memref<*xf32>)

// col[kh, kw, oh, ow] = x[oh * 4 + kh, ow * 4 + kw]
func.func @stride4(%x: memref<1x72x72xbf16>, %col: memref<1x3x3x17x17xbf16>) {
  linalg.generic {indexing_maps = [affine_map<(c, kh, kw, oh, ow) -> (c, oh * 4 + kh, ow * 4 + kw)>,
                                   affine_map<(c, kh, kw, oh, ow) -> (c, kh, kw, oh, ow)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%x : memref<1x72x72xbf16>) outs(%col : memref<1x3x3x17x17xbf16>) {
  ^bb0(%in: bf16, %out: bf16):
    linalg.yield %in : bf16
  }
  return
}

// col[kh, kw, oh, ow] = x[oh - kh + 2, ow - kw + 2] where that is inside
// the 7 x 7 image, else 0.
func.func @masked(%x: memref<1x11x11xbf16>, %col: memref<1x3x3x9x9xbf16>) {
  %c0 = arith.constant 0 : index
  %c7 = arith.constant 7 : index
  %z = arith.constant 0.0 : bf16
  linalg.generic {indexing_maps = [affine_map<(c, kh, kw, oh, ow) -> (c, oh - kh + 2, ow - kw + 2)>,
                                   affine_map<(c, kh, kw, oh, ow) -> (c, kh, kw, oh, ow)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%x : memref<1x11x11xbf16>) outs(%col : memref<1x3x3x9x9xbf16>) {
  ^bb0(%in: bf16, %out: bf16):
    %oh = linalg.index 3 : index
    %kh = linalg.index 1 : index
    %r = arith.subi %oh, %kh : index
    %r0 = arith.cmpi sge, %r, %c0 : index
    %r1 = arith.cmpi slt, %r, %c7 : index
    %rin = arith.andi %r0, %r1 : i1
    %ow = linalg.index 4 : index
    %kw = linalg.index 2 : index
    %s = arith.subi %ow, %kw : index
    %s0 = arith.cmpi sge, %s, %c0 : index
    %s1 = arith.cmpi slt, %s, %c7 : index
    %sin = arith.andi %s0, %s1 : i1
    %a = arith.select %sin, %in, %z : bf16
    %b = arith.select %rin, %a, %z : bf16
    linalg.yield %b : bf16
  }
  return
}

func.func @copy9(%x: memref<1x11x11xbf16>, %y: memref<9x9xbf16>) {
  %v = memref.subview %x[0, 1, 1] [1, 9, 9] [1, 1, 1] : memref<1x11x11xbf16> to memref<9x9xbf16, strided<[11, 1], offset: 12>>
  linalg.copy ins(%v : memref<9x9xbf16, strided<[11, 1], offset: 12>>) outs(%y : memref<9x9xbf16>)
  return
}

// Fills `x` (rows of `n`) with x[i, j] = (i * 3 + j) mod 17, sums `col`
// in f32 and prints the sum.
func.func @fillImage(%x: memref<?x?xbf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c17 = arith.constant 17 : index
  %h = memref.dim %x, %c0 : memref<?x?xbf16>
  %w = memref.dim %x, %c1 : memref<?x?xbf16>
  scf.for %i = %c0 to %h step %c1 {
    scf.for %j = %c0 to %w step %c1 {
      %t = arith.muli %i, %c3 : index
      %u = arith.addi %t, %j : index
      %v = arith.remui %u, %c17 : index
      %vi = arith.index_cast %v : index to i32
      %vf = arith.sitofp %vi : i32 to bf16
      memref.store %vf, %x[%i, %j] : memref<?x?xbf16>
    }
  }
  return
}
func.func @sum(%v: memref<?xbf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %v, %c0 : memref<?xbf16>
  %zero = arith.constant 0.0 : f32
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> f32 {
    %x = memref.load %v[%i] : memref<?xbf16>
    %e = arith.extf %x : bf16 to f32
    %a = arith.addf %acc, %e : f32
    scf.yield %a : f32
  }
  %out = memref.alloc() : memref<1xf32>
  memref.store %s, %out[%c0] : memref<1xf32>
  %u = memref.cast %out : memref<1xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}

func.func @main() {
  %x = memref.alloc() : memref<1x72x72xbf16>
  %x2 = memref.collapse_shape %x [[0, 1], [2]] : memref<1x72x72xbf16> into memref<72x72xbf16>
  %xd = memref.cast %x2 : memref<72x72xbf16> to memref<?x?xbf16>
  call @fillImage(%xd) : (memref<?x?xbf16>) -> ()
  %col = memref.alloc() : memref<1x3x3x17x17xbf16>
  call @stride4(%x, %col) : (memref<1x72x72xbf16>, memref<1x3x3x17x17xbf16>) -> ()
  %colf = memref.collapse_shape %col [[0, 1, 2, 3, 4]] : memref<1x3x3x17x17xbf16> into memref<2601xbf16>
  %cold = memref.cast %colf : memref<2601xbf16> to memref<?xbf16>
  call @sum(%cold) : (memref<?xbf16>) -> ()

  %y = memref.alloc() : memref<1x11x11xbf16>
  %y2 = memref.collapse_shape %y [[0, 1], [2]] : memref<1x11x11xbf16> into memref<11x11xbf16>
  %yd = memref.cast %y2 : memref<11x11xbf16> to memref<?x?xbf16>
  call @fillImage(%yd) : (memref<?x?xbf16>) -> ()
  %m = memref.alloc() : memref<1x3x3x9x9xbf16>
  call @masked(%y, %m) : (memref<1x11x11xbf16>, memref<1x3x3x9x9xbf16>) -> ()
  %mf = memref.collapse_shape %m [[0, 1, 2, 3, 4]] : memref<1x3x3x9x9xbf16> into memref<729xbf16>
  %md = memref.cast %mf : memref<729xbf16> to memref<?xbf16>
  call @sum(%md) : (memref<?xbf16>) -> ()

  %c9 = memref.alloc() : memref<9x9xbf16>
  call @copy9(%y, %c9) : (memref<1x11x11xbf16>, memref<9x9xbf16>) -> ()
  %c9f = memref.collapse_shape %c9 [[0, 1]] : memref<9x9xbf16> into memref<81xbf16>
  %c9d = memref.cast %c9f : memref<81xbf16> to memref<?xbf16>
  call @sum(%c9d) : (memref<?xbf16>) -> ()
  return
}
