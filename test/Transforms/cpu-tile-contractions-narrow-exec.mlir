// amp-cpu-tile-contractions rounding C to 16 bits in the kernel's last
// store (a contraction's f32 accumulator followed by its f16/bf16 cast, as
// on every 16-bit step), executed: the rounded results are the bits of the
// plain lowering (the contraction's loops, then the cast's) for one depth
// slice, for several (tile-depth=4: the last slice rounds, the others store
// f32) and on the AVX512_BF16 kernel (bf16 operands, where the CPU has it).
// Operands are multiples of 2^-6 and 2^-7, so every product and sum is
// exact in f32 however the kernel fuses them; the results need more bits
// than f16 has, so the 16-bit rounding does change them, and a slice that
// rounded early would show in the checksums.
// Per case: a position-weighted sum of the result's bits.
// RUN: amp-opt %s --amp-cpu-tile-contractions --convert-linalg-to-loops \
// RUN:   --convert-scf-to-cf --arith-expand="include-bf16=true" \
// RUN:   --convert-vector-to-llvm --expand-strided-metadata --lower-affine \
// RUN:   --finalize-memref-to-llvm --convert-func-to-llvm --convert-arith-to-llvm \
// RUN:   --convert-index-to-llvm --convert-cf-to-llvm --convert-ub-to-llvm \
// RUN:   --reconcile-unrealized-casts \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so > %t.tiled
// RUN: amp-opt %s --amp-cpu-tile-contractions="tile-depth=4" --convert-linalg-to-loops \
// RUN:   --convert-scf-to-cf --arith-expand="include-bf16=true" \
// RUN:   --convert-vector-to-llvm --expand-strided-metadata --lower-affine \
// RUN:   --finalize-memref-to-llvm --convert-func-to-llvm --convert-arith-to-llvm \
// RUN:   --convert-index-to-llvm --convert-cf-to-llvm --convert-ub-to-llvm \
// RUN:   --reconcile-unrealized-casts \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so > %t.sliced
// RUN: amp-opt %s --convert-linalg-to-loops \
// RUN:   --convert-scf-to-cf --arith-expand="include-bf16=true" \
// RUN:   --convert-vector-to-llvm --expand-strided-metadata --lower-affine \
// RUN:   --finalize-memref-to-llvm --convert-func-to-llvm --convert-arith-to-llvm \
// RUN:   --convert-index-to-llvm --convert-cf-to-llvm --convert-ub-to-llvm \
// RUN:   --reconcile-unrealized-casts \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so > %t.loops
// RUN: FileCheck %s < %t.loops
// RUN: diff %t.loops %t.tiled
// RUN: diff %t.loops %t.sliced
// The casts went into the kernels (IR).
// RUN: amp-opt %s --amp-cpu-tile-contractions | FileCheck %s --check-prefix=IR
// IR-LABEL: func.func @step
// IR-NOT:   : f32 to f16
// IR-NOT:   memref<37x45xf32>
// IR:       arith.truncf %{{.*}} : vector<16xf32> to vector<16xf16>
// IR-NOT:   : f32 to f16
// IR-NOT:   memref<37x45xf32>
// IR-LABEL: func.func @batched
// IR-NOT:   linalg.fill
// IR-NOT:   memref<3x37x45xf32>
// IR:       arith.truncf %{{.*}} : vector<16xf32> to vector<16xf16>
// IR-NOT:   : f32 to f16
// IR-NOT:   memref<3x37x45xf32>
// IR-LABEL: func.func @conv_like
// IR-NOT:   : f32 to f16
// IR:       arith.truncf %{{.*}} : vector<16xf32> to vector<16xf16>
// IR-NOT:   : f32 to f16
// IR-LABEL: func.func @main
// The bf16 operands (the f16 of this file spelled bf16) on the AVX512_BF16
// kernel, one slice and several; against the same file's plain lowering.
// RUN: sed 's/f16/bf16/g' %s | amp-opt --convert-linalg-to-loops \
// RUN:   --convert-scf-to-cf --arith-expand="include-bf16=true" \
// RUN:   --convert-vector-to-llvm --expand-strided-metadata --lower-affine \
// RUN:   --finalize-memref-to-llvm --convert-func-to-llvm --convert-arith-to-llvm \
// RUN:   --convert-index-to-llvm --convert-cf-to-llvm --convert-ub-to-llvm \
// RUN:   --reconcile-unrealized-casts \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so > %t.bf16-loops
// RUN: %if avx512bf16 %{ sed 's/f16/bf16/g' %s | amp-opt --amp-cpu-tile-contractions=bf16-dot=true \
// RUN:   --convert-linalg-to-loops --convert-scf-to-cf --arith-expand="include-bf16=true" \
// RUN:   --convert-vector-to-llvm=enable-x86vector --expand-strided-metadata --lower-affine \
// RUN:   --finalize-memref-to-llvm --convert-func-to-llvm --convert-arith-to-llvm \
// RUN:   --convert-index-to-llvm --convert-cf-to-llvm --convert-ub-to-llvm \
// RUN:   --reconcile-unrealized-casts \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so > %t.bf16-dot %}
// RUN: %if avx512bf16 %{ diff %t.bf16-loops %t.bf16-dot %}
// RUN: %if avx512bf16 %{ sed 's/f16/bf16/g' %s | amp-opt --amp-cpu-tile-contractions="bf16-dot=true tile-depth=4" \
// RUN:   --convert-linalg-to-loops --convert-scf-to-cf --arith-expand="include-bf16=true" \
// RUN:   --convert-vector-to-llvm=enable-x86vector --expand-strided-metadata --lower-affine \
// RUN:   --finalize-memref-to-llvm --convert-func-to-llvm --convert-arith-to-llvm \
// RUN:   --convert-index-to-llvm --convert-cf-to-llvm --convert-ub-to-llvm \
// RUN:   --reconcile-unrealized-casts \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so > %t.bf16-dot-sliced %}
// RUN: %if avx512bf16 %{ diff %t.bf16-loops %t.bf16-dot-sliced %}

// CHECK-COUNT-4: {{^[1-9][0-9]*$}}
// CHECK-NOT: {{.}}

#a = affine_map<(i, j, k) -> (i, k)>
#b = affine_map<(i, j, k) -> (k, j)>
#c = affine_map<(i, j, k) -> (i, j)>
#id1 = affine_map<(i) -> (i)>
#id2 = affine_map<(i, j) -> (i, j)>

// (1) f32 operands, C read back through a collapse_shape and rounded to
// f16; (2) f16 operands, C rounded to f16 as it is. M, N and k are not
// multiples of the micro-tile or of a depth slice.
func.func @step(%x: memref<37x29xf32>, %w: memref<29x45xf32>,
                %x16: memref<37x29xf16>, %w16: memref<29x45xf16>,
                %r1: memref<1665xf16>, %r2: memref<37x45xf16>) {
  %zero = arith.constant 0.0 : f32
  %c1 = memref.alloc() {alignment = 64 : i64} : memref<37x45xf32>
  linalg.fill ins(%zero : f32) outs(%c1 : memref<37x45xf32>)
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%x, %w : memref<37x29xf32>, memref<29x45xf32>) outs(%c1 : memref<37x45xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  }
  %flat = memref.collapse_shape %c1 [[0, 1]] : memref<37x45xf32> into memref<1665xf32>
  %o1 = memref.alloc() {alignment = 64 : i64} : memref<1665xf16>
  linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
    ins(%flat : memref<1665xf32>) outs(%o1 : memref<1665xf16>) {
  ^bb0(%v: f32, %o: f16):
    %t = arith.truncf %v : f32 to f16
    linalg.yield %t : f16
  }
  memref.dealloc %c1 : memref<37x45xf32>
  memref.copy %o1, %r1 : memref<1665xf16> to memref<1665xf16>
  memref.dealloc %o1 : memref<1665xf16>

  %c2 = memref.alloc() {alignment = 64 : i64} : memref<37x45xf32>
  linalg.fill ins(%zero : f32) outs(%c2 : memref<37x45xf32>)
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%x16, %w16 : memref<37x29xf16>, memref<29x45xf16>) outs(%c2 : memref<37x45xf32>) {
  ^bb0(%p: f16, %q: f16, %o: f32):
    %pe = arith.extf %p : f16 to f32
    %qe = arith.extf %q : f16 to f32
    %m = arith.mulf %pe, %qe : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  }
  %o2 = memref.alloc() {alignment = 64 : i64} : memref<37x45xf16>
  linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
    ins(%c2 : memref<37x45xf32>) outs(%o2 : memref<37x45xf16>) {
  ^bb0(%v: f32, %o: f16):
    %t = arith.truncf %v : f32 to f16
    linalg.yield %t : f16
  }
  memref.dealloc %c2 : memref<37x45xf32>
  memref.copy %o2, %r2 : memref<37x45xf16> to memref<37x45xf16>
  memref.dealloc %o2 : memref<37x45xf16>
  return
}

// (3) A batched contraction as CPUSplitBatchContractions leaves it: a
// loop over 3 batches of f16 x f16 into slices of one f32 buffer, filled
// before the loop and rounded to f16 whole after it.
func.func @batched(%x3: memref<3x37x29xf16>, %w16: memref<29x45xf16>,
                   %r3: memref<4995xf16>) {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %whole = memref.alloc() {alignment = 64 : i64} : memref<3x37x45xf32>
  linalg.fill ins(%zero : f32) outs(%whole : memref<3x37x45xf32>)
  %n = memref.dim %whole, %c0 : memref<3x37x45xf32>
  scf.for %b = %c0 to %n step %c1 {
    %xs = memref.subview %x3[%b, 0, 0] [1, 37, 29] [1, 1, 1]
      : memref<3x37x29xf16> to memref<37x29xf16, strided<[29, 1], offset: ?>>
    %cs = memref.subview %whole[%b, 0, 0] [1, 37, 45] [1, 1, 1]
      : memref<3x37x45xf32> to memref<37x45xf32, strided<[45, 1], offset: ?>>
    linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%xs, %w16 : memref<37x29xf16, strided<[29, 1], offset: ?>>, memref<29x45xf16>)
      outs(%cs : memref<37x45xf32, strided<[45, 1], offset: ?>>) {
    ^bb0(%p: f16, %q: f16, %o: f32):
      %pe = arith.extf %p : f16 to f32
      %qe = arith.extf %q : f16 to f32
      %m = arith.mulf %pe, %qe : f32
      %s = arith.addf %o, %m : f32
      linalg.yield %s : f32
    }
  }
  %flat = memref.collapse_shape %whole [[0, 1, 2]] : memref<3x37x45xf32> into memref<4995xf32>
  %o3 = memref.alloc() {alignment = 64 : i64} : memref<4995xf16>
  linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
    ins(%flat : memref<4995xf32>) outs(%o3 : memref<4995xf16>) {
  ^bb0(%v: f32, %o: f16):
    %t = arith.truncf %v : f32 to f16
    linalg.yield %t : f16
  }
  memref.dealloc %whole : memref<3x37x45xf32>
  memref.copy %o3, %r3 : memref<4995xf16> to memref<4995xf16>
  memref.dealloc %o3 : memref<4995xf16>
  return
}

// (4) The same through the views of a convolution's per-image GEMM:
// C = collapse_shape(subview(expand_shape(whole))[b]).
func.func @conv_like(%x3: memref<3x37x29xf16>, %w16: memref<29x45xf16>,
                   %r4: memref<4995xf16>) {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %whole = memref.alloc() {alignment = 64 : i64} : memref<3x37x45xf32>
  linalg.fill ins(%zero : f32) outs(%whole : memref<3x37x45xf32>)
  %n = memref.dim %whole, %c0 : memref<3x37x45xf32>
  %whole4 = memref.expand_shape %whole [[0], [1], [2, 3]] output_shape [3, 37, 5, 9]
    : memref<3x37x45xf32> into memref<3x37x5x9xf32>
  scf.for %b = %c0 to %n step %c1 {
    %xs = memref.subview %x3[%b, 0, 0] [1, 37, 29] [1, 1, 1]
      : memref<3x37x29xf16> to memref<37x29xf16, strided<[29, 1], offset: ?>>
    %cs4 = memref.subview %whole4[%b, 0, 0, 0] [1, 37, 5, 9] [1, 1, 1, 1]
      : memref<3x37x5x9xf32> to memref<37x5x9xf32, strided<[45, 9, 1], offset: ?>>
    %cs = memref.collapse_shape %cs4 [[0], [1, 2]]
      : memref<37x5x9xf32, strided<[45, 9, 1], offset: ?>> into memref<37x45xf32, strided<[45, 1], offset: ?>>
    linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%xs, %w16 : memref<37x29xf16, strided<[29, 1], offset: ?>>, memref<29x45xf16>)
      outs(%cs : memref<37x45xf32, strided<[45, 1], offset: ?>>) {
    ^bb0(%p: f16, %q: f16, %o: f32):
      %pe = arith.extf %p : f16 to f32
      %qe = arith.extf %q : f16 to f32
      %m = arith.mulf %pe, %qe : f32
      %s = arith.addf %o, %m : f32
      linalg.yield %s : f32
    }
  }
  %flat = memref.collapse_shape %whole [[0, 1, 2]] : memref<3x37x45xf32> into memref<4995xf32>
  %o3 = memref.alloc() {alignment = 64 : i64} : memref<4995xf16>
  linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
    ins(%flat : memref<4995xf32>) outs(%o3 : memref<4995xf16>) {
  ^bb0(%v: f32, %o: f16):
    %t = arith.truncf %v : f32 to f16
    linalg.yield %t : f16
  }
  memref.dealloc %whole : memref<3x37x45xf32>
  memref.copy %o3, %r4 : memref<4995xf16> to memref<4995xf16>
  memref.dealloc %o3 : memref<4995xf16>
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c29 = arith.constant 29 : index
  %c37 = arith.constant 37 : index
  %c45 = arith.constant 45 : index
  %c1665 = arith.constant 1665 : index
  %x = memref.alloc() : memref<37x29xf32>
  %w = memref.alloc() : memref<29x45xf32>
  %x16 = memref.alloc() : memref<37x29xf16>
  %w16 = memref.alloc() : memref<29x45xf16>
  // x[i, k] = ((7i + 13k) mod 23 - 11) / 64, w[k, j] = ((5k + 3j) mod
  // 19 - 9) / 128.
  %sx = arith.constant 0.015625 : f32
  %sw = arith.constant 0.0078125 : f32
  %c7 = arith.constant 7 : index
  %c13 = arith.constant 13 : index
  %c23 = arith.constant 23 : index
  %c11 = arith.constant 11 : index
  %c5 = arith.constant 5 : index
  %c3 = arith.constant 3 : index
  %c19 = arith.constant 19 : index
  %c9 = arith.constant 9 : index
  scf.for %i = %c0 to %c37 step %c1 {
    scf.for %k = %c0 to %c29 step %c1 {
      %a = arith.muli %i, %c7 : index
      %b = arith.muli %k, %c13 : index
      %s = arith.addi %a, %b : index
      %r = arith.remui %s, %c23 : index
      %d = arith.subi %r, %c11 : index
      %n = arith.index_cast %d : index to i32
      %f = arith.sitofp %n : i32 to f32
      %v = arith.mulf %f, %sx : f32
      memref.store %v, %x[%i, %k] : memref<37x29xf32>
      %h = arith.truncf %v : f32 to f16
      memref.store %h, %x16[%i, %k] : memref<37x29xf16>
    }
  }
  scf.for %k = %c0 to %c29 step %c1 {
    scf.for %j = %c0 to %c45 step %c1 {
      %a = arith.muli %k, %c5 : index
      %b = arith.muli %j, %c3 : index
      %s = arith.addi %a, %b : index
      %r = arith.remui %s, %c19 : index
      %d = arith.subi %r, %c9 : index
      %n = arith.index_cast %d : index to i32
      %f = arith.sitofp %n : i32 to f32
      %v = arith.mulf %f, %sw : f32
      memref.store %v, %w[%k, %j] : memref<29x45xf32>
      %h = arith.truncf %v : f32 to f16
      memref.store %h, %w16[%k, %j] : memref<29x45xf16>
    }
  }
  // x3[b] = x16 * (b + 1) (exact: small multiples of 2^-6).
  %c2 = arith.constant 2 : index
  %x3 = memref.alloc() : memref<3x37x29xf16>
  scf.for %b = %c0 to %c3 step %c1 {
    %bi = arith.index_cast %b : index to i32
    %bf = arith.sitofp %bi : i32 to f16
    %one = arith.constant 1.0 : f16
    %scale = arith.addf %bf, %one : f16
    scf.for %i = %c0 to %c37 step %c1 {
      scf.for %k = %c0 to %c29 step %c1 {
        %v = memref.load %x16[%i, %k] : memref<37x29xf16>
        %sv = arith.mulf %v, %scale : f16
        memref.store %sv, %x3[%b, %i, %k] : memref<3x37x29xf16>
      }
    }
  }
  %r3 = memref.alloc() : memref<4995xf16>
  call @batched(%x3, %w16, %r3) : (memref<3x37x29xf16>, memref<29x45xf16>, memref<4995xf16>) -> ()
  %r4 = memref.alloc() : memref<4995xf16>
  call @conv_like(%x3, %w16, %r4) : (memref<3x37x29xf16>, memref<29x45xf16>, memref<4995xf16>) -> ()
  %r1 = memref.alloc() : memref<1665xf16>
  %r2 = memref.alloc() : memref<37x45xf16>
  call @step(%x, %w, %x16, %w16, %r1, %r2)
    : (memref<37x29xf32>, memref<29x45xf32>, memref<37x29xf16>, memref<29x45xf16>,
       memref<1665xf16>, memref<37x45xf16>) -> ()
  // sum over elements of bits * (position + 1)
  %z = arith.constant 0 : i64
  %sum1 = scf.for %i = %c0 to %c1665 step %c1 iter_args(%acc = %z) -> (i64) {
    %v = memref.load %r1[%i] : memref<1665xf16>
    %bits = arith.bitcast %v : f16 to i16
    %wide = arith.extui %bits : i16 to i64
    %p = arith.addi %i, %c1 : index
    %pi = arith.index_cast %p : index to i64
    %t = arith.muli %wide, %pi : i64
    %n = arith.addi %acc, %t : i64
    scf.yield %n : i64
  }
  vector.print %sum1 : i64
  %sum2 = scf.for %i = %c0 to %c37 step %c1 iter_args(%acc = %z) -> (i64) {
    %row = scf.for %j = %c0 to %c45 step %c1 iter_args(%racc = %acc) -> (i64) {
      %v = memref.load %r2[%i, %j] : memref<37x45xf16>
      %bits = arith.bitcast %v : f16 to i16
      %wide = arith.extui %bits : i16 to i64
      %q = arith.muli %i, %c45 : index
      %q1 = arith.addi %q, %j : index
      %p = arith.addi %q1, %c1 : index
      %pi = arith.index_cast %p : index to i64
      %t = arith.muli %wide, %pi : i64
      %n = arith.addi %racc, %t : i64
      scf.yield %n : i64
    }
    scf.yield %row : i64
  }
  vector.print %sum2 : i64
  %c4995 = arith.constant 4995 : index
  %sum3 = scf.for %i = %c0 to %c4995 step %c1 iter_args(%acc = %z) -> (i64) {
    %v = memref.load %r3[%i] : memref<4995xf16>
    %bits = arith.bitcast %v : f16 to i16
    %wide = arith.extui %bits : i16 to i64
    %p = arith.addi %i, %c1 : index
    %pi = arith.index_cast %p : index to i64
    %t = arith.muli %wide, %pi : i64
    %n = arith.addi %acc, %t : i64
    scf.yield %n : i64
  }
  vector.print %sum3 : i64
  %sum4 = scf.for %i = %c0 to %c4995 step %c1 iter_args(%acc = %z) -> (i64) {
    %v = memref.load %r4[%i] : memref<4995xf16>
    %bits = arith.bitcast %v : f16 to i16
    %wide = arith.extui %bits : i16 to i64
    %p = arith.addi %i, %c1 : index
    %pi = arith.index_cast %p : index to i64
    %t = arith.muli %wide, %pi : i64
    %n = arith.addi %acc, %t : i64
    scf.yield %n : i64
  }
  vector.print %sum4 : i64
  return
}
