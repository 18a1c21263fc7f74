// The micro-kernels of amp-cpu-tile-contractions, executed: every form of a
// training step's contractions matches a plain scf.for triple loop exactly,
// with full 6 x 16 tiles, partial rows (M mod 6), masked columns
// (N mod 16, and N < 16), static and dynamic sizes, loops in (i, j, k) and
// (i, k, j) order, inputs in either order, f32, f16 and mixed operands
// (and bf16 through the second RUN line). C starts non-zero, so the kernel
// must accumulate into it. Operands are small integers, so every product
// and sum is exact and fusing the multiply-add cannot change a bit: the
// largest difference must be 0.
// Per case: sum of the kernel's result, sum of the reference, max |diff|.
// RUN: amp-opt %s --amp-cpu-tile-contractions --convert-linalg-to-loops \
// RUN:   --convert-scf-to-cf --convert-vector-to-llvm --convert-math-to-llvm \
// RUN:   --expand-strided-metadata --lower-affine --finalize-memref-to-llvm \
// RUN:   --convert-func-to-llvm --convert-arith-to-llvm --convert-index-to-llvm \
// RUN:   --convert-cf-to-llvm --convert-ub-to-llvm --reconcile-unrealized-casts \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so | FileCheck %s
// The same with AVX-512's FMA tile (6 x 32: two 16-lane vectors per row,
// what amp-run picks on a host with AVX-512F; any x86-64 CPU runs it).
// RUN: amp-opt %s --amp-cpu-tile-contractions=tile-cols=32 --convert-linalg-to-loops \
// RUN:   --convert-scf-to-cf --convert-vector-to-llvm --convert-math-to-llvm \
// RUN:   --expand-strided-metadata --lower-affine --finalize-memref-to-llvm \
// RUN:   --convert-func-to-llvm --convert-arith-to-llvm --convert-index-to-llvm \
// RUN:   --convert-cf-to-llvm --convert-ub-to-llvm --reconcile-unrealized-casts \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so | FileCheck %s
// The same with bf16 operands (the f16 of this file spelled bf16).
// RUN: sed 's/f16/bf16/g' %s | amp-opt --amp-cpu-tile-contractions \
// RUN:   --convert-linalg-to-loops --convert-scf-to-cf --convert-vector-to-llvm \
// RUN:   --convert-math-to-llvm --expand-strided-metadata --lower-affine \
// RUN:   --finalize-memref-to-llvm --convert-func-to-llvm --convert-arith-to-llvm \
// RUN:   --convert-index-to-llvm --convert-cf-to-llvm --convert-ub-to-llvm \
// RUN:   --reconcile-unrealized-casts \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so | FileCheck %s
// The bf16 operands on the AVX512_BF16 kernel (bf16-dot: vdpbf16ps on pair
// packs of every layout, odd k, the masked right edge), with its default
// 8 x 32 tile and with small blocks, k slices of 2 pairs and 1 x 16 and
// 5 x 48 tiles; only where the CPU has the instruction.
// RUN: %if avx512bf16 %{ sed 's/f16/bf16/g' %s | amp-opt --amp-cpu-tile-contractions=bf16-dot=true \
// RUN:   --convert-linalg-to-loops --convert-scf-to-cf --convert-vector-to-llvm=enable-x86vector \
// RUN:   --convert-math-to-llvm --expand-strided-metadata --lower-affine \
// RUN:   --finalize-memref-to-llvm --convert-func-to-llvm --convert-arith-to-llvm \
// RUN:   --convert-index-to-llvm --convert-cf-to-llvm --convert-ub-to-llvm \
// RUN:   --reconcile-unrealized-casts \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so | FileCheck %s %}
// RUN: %if avx512bf16 %{ sed 's/f16/bf16/g' %s | amp-opt --amp-cpu-tile-contractions="bf16-dot=true dot-tile-rows=1 dot-tile-cols=16 tile-depth=4 block-rows=7 block-cols=17" \
// RUN:   --convert-linalg-to-loops --convert-scf-to-cf --convert-vector-to-llvm=enable-x86vector \
// RUN:   --convert-math-to-llvm --expand-strided-metadata --lower-affine \
// RUN:   --finalize-memref-to-llvm --convert-func-to-llvm --convert-arith-to-llvm \
// RUN:   --convert-index-to-llvm --convert-cf-to-llvm --convert-ub-to-llvm \
// RUN:   --reconcile-unrealized-casts \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so | FileCheck %s %}
// RUN: %if avx512bf16 %{ sed 's/f16/bf16/g' %s | amp-opt --amp-cpu-tile-contractions="bf16-dot=true dot-tile-rows=5 dot-tile-cols=48 tile-depth=3" \
// RUN:   --convert-linalg-to-loops --convert-scf-to-cf --convert-vector-to-llvm=enable-x86vector \
// RUN:   --convert-math-to-llvm --expand-strided-metadata --lower-affine \
// RUN:   --finalize-memref-to-llvm --convert-func-to-llvm --convert-arith-to-llvm \
// RUN:   --convert-index-to-llvm --convert-cf-to-llvm --convert-ub-to-llvm \
// RUN:   --reconcile-unrealized-casts \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so | FileCheck %s %}
// Every contraction of two bf16 operands went to the dot kernel, the
// others (f32, bf16 x f32) to the FMA kernel (IR only: any CPU).
// RUN: sed 's/f16/bf16/g' %s | amp-opt --amp-cpu-tile-contractions=bf16-dot=true | FileCheck %s --check-prefix=DOT
// DOT-LABEL: func.func @nn16
// DOT:       x86vector.avx512.dot
// DOT-LABEL: func.func @tn16
// DOT:       x86vector.avx512.dot
// DOT-LABEL: func.func @nt16_swapped
// DOT:       x86vector.avx512.dot
// DOT-LABEL: func.func @nn32
// DOT-NOT:   x86vector.avx512.dot
// DOT:       vector.fma
// DOT-LABEL: func.func @mixed
// DOT-NOT:   x86vector.avx512.dot
// DOT:       vector.fma
// DOT-LABEL: func.func @from_copied_fill
// DOT:       x86vector.avx512.dot
// DOT-LABEL: func.func @from_fill
// DOT-NOT:   x86vector.avx512.dot
// DOT-LABEL: func.func @main
// Many small blocks (12 x 32 after rounding to the 6 x 16 micro-tile) and
// k slices of 3: several blocks per contraction, a block's last rows and
// masked edge, slices that stop short of k.
// RUN: amp-opt %s --amp-cpu-tile-contractions="tile-depth=3 block-rows=7 block-cols=17" \
// RUN:   --convert-linalg-to-loops --convert-scf-to-cf --convert-vector-to-llvm \
// RUN:   --convert-math-to-llvm --expand-strided-metadata --lower-affine \
// RUN:   --finalize-memref-to-llvm --convert-func-to-llvm --convert-arith-to-llvm \
// RUN:   --convert-index-to-llvm --convert-cf-to-llvm --convert-ub-to-llvm \
// RUN:   --reconcile-unrealized-casts \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so | FileCheck %s
// The blocks on two OpenMP threads (every contraction parallel, one
// micro-tile per block), as amp-lower-to-llvm runs them.
// RUN: %if libomp %{ amp-opt %s --amp-cpu-tile-contractions="tile-depth=4 block-rows=1 block-cols=1 min-parallel-work=1" \
// RUN:   --convert-linalg-to-loops --convert-scf-to-openmp=num-threads=2 --canonicalize \
// RUN:   --convert-scf-to-cf --convert-vector-to-llvm \
// RUN:   --convert-math-to-llvm --expand-strided-metadata --lower-affine \
// RUN:   --finalize-memref-to-llvm --convert-openmp-to-llvm --convert-func-to-llvm \
// RUN:   --convert-arith-to-llvm --convert-index-to-llvm --convert-cf-to-llvm \
// RUN:   --convert-ub-to-llvm --reconcile-unrealized-casts \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so,%libomp | FileCheck %s %}
// The pass rewrote all eight contractions (no 3-loop generic is left before
// @main, the last function).
// RUN: amp-opt %s --amp-cpu-tile-contractions | FileCheck %s --check-prefix=TILED
// TILED-NOT: iterator_types = ["parallel", "parallel", "reduction"]
// TILED-NOT: iterator_types = ["parallel", "reduction", "parallel"]
// TILED:     func.func @main

// CHECK:      {{^}}[[S1:-?[0-9]+]]{{$}}
// CHECK-NEXT: {{^}}[[S1]]{{$}}
// CHECK-NEXT: {{^}}0{{$}}
// CHECK-NEXT: {{^}}[[S2:-?[0-9]+]]{{$}}
// CHECK-NEXT: {{^}}[[S2]]{{$}}
// CHECK-NEXT: {{^}}0{{$}}
// CHECK-NEXT: {{^}}[[S3:-?[0-9]+]]{{$}}
// CHECK-NEXT: {{^}}[[S3]]{{$}}
// CHECK-NEXT: {{^}}0{{$}}
// CHECK-NEXT: {{^}}[[S4:-?[0-9]+]]{{$}}
// CHECK-NEXT: {{^}}[[S4]]{{$}}
// CHECK-NEXT: {{^}}0{{$}}
// CHECK-NEXT: {{^}}[[S5:-?[0-9]+]]{{$}}
// CHECK-NEXT: {{^}}[[S5]]{{$}}
// CHECK-NEXT: {{^}}0{{$}}
// CHECK-NEXT: {{^}}[[S6:-?[0-9]+]]{{$}}
// CHECK-NEXT: {{^}}[[S6]]{{$}}
// CHECK-NEXT: {{^}}0{{$}}
// CHECK-NEXT: {{^}}[[S7:-?[0-9]+]]{{$}}
// CHECK-NEXT: {{^}}[[S7]]{{$}}
// CHECK-NEXT: {{^}}0{{$}}
// CHECK-NEXT: {{^}}[[S8:-?[0-9]+]]{{$}}
// CHECK-NEXT: {{^}}[[S8]]{{$}}
// CHECK-NEXT: {{^}}0{{$}}
// CHECK-NEXT: {{^}}[[S9:-?[0-9]+]]{{$}}
// CHECK-NEXT: {{^}}[[S9]]{{$}}
// CHECK-NEXT: {{^}}0{{$}}
// CHECK-NEXT: {{^}}[[S10:-?[0-9]+]]{{$}}
// CHECK-NEXT: {{^}}[[S10]]{{$}}
// CHECK-NEXT: {{^}}0{{$}}
// CHECK-NEXT: done

#id = affine_map<(i, j) -> (i, j)>
// (i, j, k) loop order.
#nn_a = affine_map<(i, j, k) -> (i, k)>
#nn_b = affine_map<(i, j, k) -> (k, j)>
#tn_a = affine_map<(i, j, k) -> (k, i)>
#nt_b = affine_map<(i, j, k) -> (j, k)>
#c = affine_map<(i, j, k) -> (i, j)>
// (i, k, j) loop order, as amp-interchange-contraction-loops leaves it.
#ikj_tn_a = affine_map<(i, k, j) -> (k, i)>
#ikj_nn_b = affine_map<(i, k, j) -> (k, j)>
#ikj_c = affine_map<(i, k, j) -> (i, j)>

// Small integers ((3i + 7j + seed) mod 11) - 5.
func.func @fill(%m: memref<?x?xf32>, %seed: index) {
  %c11 = arith.constant 11 : index
  %c5 = arith.constant 5 : index
  %c3 = arith.constant 3 : index
  %c7 = arith.constant 7 : index
  linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]} outs(%m : memref<?x?xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %a = arith.muli %i, %c3 : index
    %b = arith.muli %j, %c7 : index
    %s = arith.addi %a, %b : index
    %t = arith.addi %s, %seed : index
    %r = arith.remui %t, %c11 : index
    %v = arith.subi %r, %c5 : index
    %vi = arith.index_cast %v : index to i32
    %vf = arith.sitofp %vi : i32 to f32
    linalg.yield %vf : f32
  }
  return
}

// A 16-bit copy (exact for small integers).
func.func @to16(%src: memref<?x?xf32>) -> memref<?x?xf16> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %src, %c0 : memref<?x?xf32>
  %n = memref.dim %src, %c1 : memref<?x?xf32>
  %dst = memref.alloc(%m, %n) : memref<?x?xf16>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%src : memref<?x?xf32>) outs(%dst : memref<?x?xf16>) {
  ^bb0(%x: f32, %o: f16):
    %t = arith.truncf %x : f32 to f16
    linalg.yield %t : f16
  }
  return %dst : memref<?x?xf16>
}

// C[i, j] += sum_k A[i, k] * B[k, j] with scf.for, A read as A[k, i] when
// %ta and B as B[j, k] when %tb (the pass does not touch scf loops).
func.func @reference(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %cm: memref<?x?xf32>, %ta: i1, %tb: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %cm, %c0 : memref<?x?xf32>
  %n = memref.dim %cm, %c1 : memref<?x?xf32>
  %kd = arith.select %ta, %c0, %c1 : index
  %k = memref.dim %a, %kd : memref<?x?xf32>
  scf.for %i = %c0 to %m step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      %init = memref.load %cm[%i, %j] : memref<?x?xf32>
      %sum = scf.for %p = %c0 to %k step %c1 iter_args(%acc = %init) -> f32 {
        %ar = arith.select %ta, %p, %i : index
        %ac = arith.select %ta, %i, %p : index
        %br = arith.select %tb, %j, %p : index
        %bc = arith.select %tb, %p, %j : index
        %x = memref.load %a[%ar, %ac] : memref<?x?xf32>
        %y = memref.load %b[%br, %bc] : memref<?x?xf32>
        %xy = arith.mulf %x, %y : f32
        %s = arith.addf %acc, %xy : f32
        scf.yield %s : f32
      }
      memref.store %sum, %cm[%i, %j] : memref<?x?xf32>
    }
  }
  return
}

// Prints the sum of the kernel's result, the sum of the reference and the
// largest |kernel - reference|.
func.func @report(%got: memref<?x?xf32>, %want: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %m = memref.dim %got, %c0 : memref<?x?xf32>
  %n = memref.dim %got, %c1 : memref<?x?xf32>
  %r:3 = scf.for %i = %c0 to %m step %c1 iter_args(%s0 = %zero, %s1 = %zero, %d0 = %zero) -> (f32, f32, f32) {
    %q:3 = scf.for %j = %c0 to %n step %c1 iter_args(%t0 = %s0, %t1 = %s1, %e0 = %d0) -> (f32, f32, f32) {
      %g = memref.load %got[%i, %j] : memref<?x?xf32>
      %w = memref.load %want[%i, %j] : memref<?x?xf32>
      %u0 = arith.addf %t0, %g : f32
      %u1 = arith.addf %t1, %w : f32
      %df = arith.subf %g, %w : f32
      %ad = math.absf %df : f32
      %e1 = arith.maximumf %e0, %ad : f32
      scf.yield %u0, %u1, %e1 : f32, f32, f32
    }
    scf.yield %q#0, %q#1, %q#2 : f32, f32, f32
  }
  vector.print %r#0 : f32
  vector.print %r#1 : f32
  vector.print %r#2 : f32
  return
}

// 1. Forward X * W, f16, static, 13 x 21 (one partial row panel, a masked
// edge of 5 columns), K = 7.
func.func @nn16(%a: memref<13x7xf16>, %b: memref<7x21xf16>, %cm: memref<13x21xf32>) {
  linalg.generic {indexing_maps = [#nn_a, #nn_b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%a, %b : memref<13x7xf16>, memref<7x21xf16>) outs(%cm : memref<13x21xf32>) {
  ^bb0(%x: f16, %y: f16, %o: f32):
    %0 = arith.extf %y : f16 to f32
    %1 = arith.extf %x : f16 to f32
    %2 = arith.mulf %1, %0 : f32
    %3 = arith.addf %o, %2 : f32
    linalg.yield %3 : f32
  }
  return
}

// 2. Weight gradient X^T * dY, f16, dynamic sizes, (i, k, j) loop order;
// M = 20, N = 37, K = 9.
func.func @tn16(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %cm: memref<?x?xf32>) {
  linalg.generic {indexing_maps = [#ikj_tn_a, #ikj_nn_b, #ikj_c], iterator_types = ["parallel", "reduction", "parallel"]}
    ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%cm : memref<?x?xf32>) {
  ^bb0(%x: f16, %y: f16, %o: f32):
    %0 = arith.extf %x : f16 to f32
    %1 = arith.extf %y : f16 to f32
    %2 = arith.mulf %0, %1 : f32
    %3 = arith.addf %2, %o : f32
    linalg.yield %3 : f32
  }
  return
}

// 3. Input gradient dY * W^T, f16, the W operand first (roles swapped):
// exact 6 x 16 tiles, M = 12, N = 32, K = 5.
func.func @nt16_swapped(%bt: memref<32x5xf16>, %a: memref<12x5xf16>, %cm: memref<12x32xf32>) {
  linalg.generic {indexing_maps = [#nt_b, #nn_a, #c], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%bt, %a : memref<32x5xf16>, memref<12x5xf16>) outs(%cm : memref<12x32xf32>) {
  ^bb0(%y: f16, %x: f16, %o: f32):
    %0 = arith.extf %x : f16 to f32
    %1 = arith.extf %y : f16 to f32
    %2 = arith.mulf %1, %0 : f32
    %3 = arith.addf %o, %2 : f32
    linalg.yield %3 : f32
  }
  return
}

// 9. f16 operands, B read as B[j, k], dynamic: M = 9, N = 21, K = 37
//    (the FMA kernel: B transposed into its pack in 16 x 16 blocks of
//    every kind: whole, past N only (rows of B past N zeros, unmasked
//    loads), past K only, past both; bf16-dot: B's pairs packed in 16 x 16
//    blocks, two blocks of pairs along k with an odd K's last pair, two
//    along j with an edge of 5).
func.func @nt16_dyn(%a: memref<?x?xf16>, %bt: memref<?x?xf16>, %cm: memref<?x?xf32>) {
  linalg.generic {indexing_maps = [#nn_a, #nt_b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%a, %bt : memref<?x?xf16>, memref<?x?xf16>) outs(%cm : memref<?x?xf32>) {
  ^bb0(%x: f16, %y: f16, %o: f32):
    %0 = arith.extf %x : f16 to f32
    %1 = arith.extf %y : f16 to f32
    %2 = arith.mulf %0, %1 : f32
    %3 = arith.addf %o, %2 : f32
    linalg.yield %3 : f32
  }
  return
}

// 4. f32 operands, dynamic: M = 25, N = 33, K = 40 (no packing of A).
func.func @nn32(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %cm: memref<?x?xf32>) {
  linalg.generic {indexing_maps = [#nn_a, #nn_b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%cm : memref<?x?xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %2 = arith.mulf %x, %y : f32
    %3 = arith.addf %o, %2 : f32
    linalg.yield %3 : f32
  }
  return
}

// 5. f32 A^T * B^T, static: M = 7, N = 8 (one masked tile per row, N < 16),
// K = 3.
func.func @tt32(%a: memref<3x7xf32>, %b: memref<8x3xf32>, %cm: memref<7x8xf32>) {
  linalg.generic {indexing_maps = [#tn_a, #nt_b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%a, %b : memref<3x7xf32>, memref<8x3xf32>) outs(%cm : memref<7x8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %2 = arith.mulf %x, %y : f32
    %3 = arith.addf %2, %o : f32
    linalg.yield %3 : f32
  }
  return
}

// 6. Mixed: A f16 (widened), B f32; M = 31, N = 17, K = 11.
func.func @mixed(%a: memref<?x?xf16>, %b: memref<?x?xf32>, %cm: memref<?x?xf32>) {
  linalg.generic {indexing_maps = [#nn_a, #nn_b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%a, %b : memref<?x?xf16>, memref<?x?xf32>) outs(%cm : memref<?x?xf32>) {
  ^bb0(%x: f16, %y: f32, %o: f32):
    %0 = arith.extf %x : f16 to f32
    %2 = arith.mulf %0, %y : f32
    %3 = arith.addf %o, %2 : f32
    linalg.yield %3 : f32
  }
  return
}

// 7. C starts from a constant (3, a fill of a fresh buffer copied into C, as
// bufferization leaves a zero init two contractions share): the kernel
// starts its first depth slice from the constant and the copy goes. f16,
// static: M = 25, N = 33, K = 40 (several slices in the tile-depth=3 run).
func.func @from_copied_fill(%a: memref<25x40xf16>, %b: memref<40x33xf16>, %cm: memref<25x33xf32>) {
  %three = arith.constant 3.0 : f32
  %z = memref.alloc() : memref<25x33xf32>
  linalg.fill ins(%three : f32) outs(%z : memref<25x33xf32>)
  memref.copy %z, %cm : memref<25x33xf32> to memref<25x33xf32>
  memref.dealloc %z : memref<25x33xf32>
  linalg.generic {indexing_maps = [#nn_a, #nn_b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%a, %b : memref<25x40xf16>, memref<40x33xf16>) outs(%cm : memref<25x33xf32>) {
  ^bb0(%x: f16, %y: f16, %o: f32):
    %0 = arith.extf %y : f16 to f32
    %1 = arith.extf %x : f16 to f32
    %2 = arith.mulf %1, %0 : f32
    %3 = arith.addf %o, %2 : f32
    linalg.yield %3 : f32
  }
  return
}

// 8. C filled with -2 in place, f32, static A^T * B: M = 13, N = 21, K = 9.
func.func @from_fill(%a: memref<9x13xf32>, %b: memref<9x21xf32>, %cm: memref<13x21xf32>) {
  %v = arith.constant -2.0 : f32
  linalg.fill ins(%v : f32) outs(%cm : memref<13x21xf32>)
  linalg.generic {indexing_maps = [#tn_a, #nn_b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%a, %b : memref<9x13xf32>, memref<9x21xf32>) outs(%cm : memref<13x21xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %2 = arith.mulf %x, %y : f32
    %3 = arith.addf %o, %2 : f32
    linalg.yield %3 : f32
  }
  return
}

// f32 operands A (ra x ca), B (rb x cb) and C (m x n) filled, C copied to
// the reference output.
func.func @operands(%ra: index, %ca: index, %rb: index, %cb: index, %m: index, %n: index)
    -> (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>) {
  %s1 = arith.constant 1 : index
  %s2 = arith.constant 4 : index
  %s3 = arith.constant 9 : index
  %a = memref.alloc(%ra, %ca) : memref<?x?xf32>
  %b = memref.alloc(%rb, %cb) : memref<?x?xf32>
  %cm = memref.alloc(%m, %n) : memref<?x?xf32>
  %want = memref.alloc(%m, %n) : memref<?x?xf32>
  func.call @fill(%a, %s1) : (memref<?x?xf32>, index) -> ()
  func.call @fill(%b, %s2) : (memref<?x?xf32>, index) -> ()
  func.call @fill(%cm, %s3) : (memref<?x?xf32>, index) -> ()
  memref.copy %cm, %want : memref<?x?xf32> to memref<?x?xf32>
  return %a, %b, %cm, %want : memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>
}

func.func @main() {
  %t = arith.constant true
  %f = arith.constant false
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %c8 = arith.constant 8 : index
  %c9 = arith.constant 9 : index
  %c11 = arith.constant 11 : index
  %c12 = arith.constant 12 : index
  %c13 = arith.constant 13 : index
  %c17 = arith.constant 17 : index
  %c20 = arith.constant 20 : index
  %c21 = arith.constant 21 : index
  %c25 = arith.constant 25 : index
  %c31 = arith.constant 31 : index
  %c32 = arith.constant 32 : index
  %c33 = arith.constant 33 : index
  %c37 = arith.constant 37 : index
  %c40 = arith.constant 40 : index

  %a1, %b1, %g1, %w1 = func.call @operands(%c13, %c7, %c7, %c21, %c13, %c21)
      : (index, index, index, index, index, index) -> (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>)
  %a1h = func.call @to16(%a1) : (memref<?x?xf32>) -> memref<?x?xf16>
  %b1h = func.call @to16(%b1) : (memref<?x?xf32>) -> memref<?x?xf16>
  %a1s = memref.cast %a1h : memref<?x?xf16> to memref<13x7xf16>
  %b1s = memref.cast %b1h : memref<?x?xf16> to memref<7x21xf16>
  %g1s = memref.cast %g1 : memref<?x?xf32> to memref<13x21xf32>
  func.call @nn16(%a1s, %b1s, %g1s) : (memref<13x7xf16>, memref<7x21xf16>, memref<13x21xf32>) -> ()
  func.call @reference(%a1, %b1, %w1, %f, %f) : (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, i1, i1) -> ()
  func.call @report(%g1, %w1) : (memref<?x?xf32>, memref<?x?xf32>) -> ()

  %a2, %b2, %g2, %w2 = func.call @operands(%c9, %c20, %c9, %c37, %c20, %c37)
      : (index, index, index, index, index, index) -> (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>)
  %a2h = func.call @to16(%a2) : (memref<?x?xf32>) -> memref<?x?xf16>
  %b2h = func.call @to16(%b2) : (memref<?x?xf32>) -> memref<?x?xf16>
  func.call @tn16(%a2h, %b2h, %g2) : (memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>) -> ()
  func.call @reference(%a2, %b2, %w2, %t, %f) : (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, i1, i1) -> ()
  func.call @report(%g2, %w2) : (memref<?x?xf32>, memref<?x?xf32>) -> ()

  %a3, %b3, %g3, %w3 = func.call @operands(%c12, %c5, %c32, %c5, %c12, %c32)
      : (index, index, index, index, index, index) -> (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>)
  %a3h = func.call @to16(%a3) : (memref<?x?xf32>) -> memref<?x?xf16>
  %b3h = func.call @to16(%b3) : (memref<?x?xf32>) -> memref<?x?xf16>
  %a3s = memref.cast %a3h : memref<?x?xf16> to memref<12x5xf16>
  %b3s = memref.cast %b3h : memref<?x?xf16> to memref<32x5xf16>
  %g3s = memref.cast %g3 : memref<?x?xf32> to memref<12x32xf32>
  func.call @nt16_swapped(%b3s, %a3s, %g3s) : (memref<32x5xf16>, memref<12x5xf16>, memref<12x32xf32>) -> ()
  func.call @reference(%a3, %b3, %w3, %f, %t) : (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, i1, i1) -> ()
  func.call @report(%g3, %w3) : (memref<?x?xf32>, memref<?x?xf32>) -> ()

  %a4, %b4, %g4, %w4 = func.call @operands(%c25, %c40, %c40, %c33, %c25, %c33)
      : (index, index, index, index, index, index) -> (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>)
  func.call @nn32(%a4, %b4, %g4) : (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>) -> ()
  func.call @reference(%a4, %b4, %w4, %f, %f) : (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, i1, i1) -> ()
  func.call @report(%g4, %w4) : (memref<?x?xf32>, memref<?x?xf32>) -> ()

  %a5, %b5, %g5, %w5 = func.call @operands(%c3, %c7, %c8, %c3, %c7, %c8)
      : (index, index, index, index, index, index) -> (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>)
  %a5s = memref.cast %a5 : memref<?x?xf32> to memref<3x7xf32>
  %b5s = memref.cast %b5 : memref<?x?xf32> to memref<8x3xf32>
  %g5s = memref.cast %g5 : memref<?x?xf32> to memref<7x8xf32>
  func.call @tt32(%a5s, %b5s, %g5s) : (memref<3x7xf32>, memref<8x3xf32>, memref<7x8xf32>) -> ()
  func.call @reference(%a5, %b5, %w5, %t, %t) : (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, i1, i1) -> ()
  func.call @report(%g5, %w5) : (memref<?x?xf32>, memref<?x?xf32>) -> ()

  %a6, %b6, %g6, %w6 = func.call @operands(%c31, %c11, %c11, %c17, %c31, %c17)
      : (index, index, index, index, index, index) -> (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>)
  %a6h = func.call @to16(%a6) : (memref<?x?xf32>) -> memref<?x?xf16>
  func.call @mixed(%a6h, %b6, %g6) : (memref<?x?xf16>, memref<?x?xf32>, memref<?x?xf32>) -> ()
  func.call @reference(%a6, %b6, %w6, %f, %f) : (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, i1, i1) -> ()
  func.call @report(%g6, %w6) : (memref<?x?xf32>, memref<?x?xf32>) -> ()

  %a7, %b7, %g7, %w7 = func.call @operands(%c25, %c40, %c40, %c33, %c25, %c33)
      : (index, index, index, index, index, index) -> (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>)
  %three = arith.constant 3.0 : f32
  linalg.fill ins(%three : f32) outs(%w7 : memref<?x?xf32>)
  %a7h = func.call @to16(%a7) : (memref<?x?xf32>) -> memref<?x?xf16>
  %b7h = func.call @to16(%b7) : (memref<?x?xf32>) -> memref<?x?xf16>
  %a7s = memref.cast %a7h : memref<?x?xf16> to memref<25x40xf16>
  %b7s = memref.cast %b7h : memref<?x?xf16> to memref<40x33xf16>
  %g7s = memref.cast %g7 : memref<?x?xf32> to memref<25x33xf32>
  func.call @from_copied_fill(%a7s, %b7s, %g7s) : (memref<25x40xf16>, memref<40x33xf16>, memref<25x33xf32>) -> ()
  func.call @reference(%a7, %b7, %w7, %f, %f) : (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, i1, i1) -> ()
  func.call @report(%g7, %w7) : (memref<?x?xf32>, memref<?x?xf32>) -> ()

  %a8, %b8, %g8, %w8 = func.call @operands(%c9, %c13, %c9, %c21, %c13, %c21)
      : (index, index, index, index, index, index) -> (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>)
  %minus2 = arith.constant -2.0 : f32
  linalg.fill ins(%minus2 : f32) outs(%w8 : memref<?x?xf32>)
  %a8s = memref.cast %a8 : memref<?x?xf32> to memref<9x13xf32>
  %b8s = memref.cast %b8 : memref<?x?xf32> to memref<9x21xf32>
  %g8s = memref.cast %g8 : memref<?x?xf32> to memref<13x21xf32>
  func.call @from_fill(%a8s, %b8s, %g8s) : (memref<9x13xf32>, memref<9x21xf32>, memref<13x21xf32>) -> ()
  func.call @reference(%a8, %b8, %w8, %t, %f) : (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, i1, i1) -> ()
  func.call @report(%g8, %w8) : (memref<?x?xf32>, memref<?x?xf32>) -> ()

  %a9, %b9, %g9, %w9 = func.call @operands(%c9, %c37, %c21, %c37, %c9, %c21)
      : (index, index, index, index, index, index) -> (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>)
  %a9h = func.call @to16(%a9) : (memref<?x?xf32>) -> memref<?x?xf16>
  %b9h = func.call @to16(%b9) : (memref<?x?xf32>) -> memref<?x?xf16>
  func.call @nt16_dyn(%a9h, %b9h, %g9) : (memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>) -> ()
  func.call @reference(%a9, %b9, %w9, %f, %t) : (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, i1, i1) -> ()
  func.call @report(%g9, %w9) : (memref<?x?xf32>, memref<?x?xf32>) -> ()

  // 10. Case 4's contraction at M = 29, N = 19, K = 23: the 5 rows left of
  //     the 6-row panels run as a panel of 4 rows and one of 1 (the size
  //     is dynamic).
  %c19 = arith.constant 19 : index
  %c23 = arith.constant 23 : index
  %c29 = arith.constant 29 : index
  %a10, %b10, %g10, %w10 = func.call @operands(%c29, %c23, %c23, %c19, %c29, %c19)
      : (index, index, index, index, index, index) -> (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>)
  func.call @nn32(%a10, %b10, %g10) : (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>) -> ()
  func.call @reference(%a10, %b10, %w10, %f, %f) : (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, i1, i1) -> ()
  func.call @report(%g10, %w10) : (memref<?x?xf32>, memref<?x?xf32>) -> ()

  vector.print str "done\n"
  return
}
