// amp-cpu-split-batch-contractions: batched contractions on buffers become
// an scf.for over the batch of rank-2 contractions that
// amp-cpu-tile-contractions puts on the micro-kernels. Executed against
// upstream's loops: the operands are small integers, so every product and
// sum is exact and the fused multiply-adds cannot change a bit.
// RUN: amp-opt %s --amp-cpu-split-batch-contractions --amp-cpu-tile-contractions \
// RUN:   --convert-linalg-to-loops --convert-scf-to-cf --convert-vector-to-llvm \
// RUN:   --convert-math-to-llvm --expand-strided-metadata --lower-affine \
// RUN:   --finalize-memref-to-llvm --convert-func-to-llvm --convert-arith-to-llvm \
// RUN:   --convert-index-to-llvm --convert-cf-to-llvm --convert-ub-to-llvm \
// RUN:   --reconcile-unrealized-casts \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so,%mlir_lib_dir/libmlir_runner_utils.so > %t.ours
// RUN: amp-opt %s --convert-linalg-to-loops --convert-scf-to-cf \
// RUN:   --expand-strided-metadata --lower-affine --finalize-memref-to-llvm \
// RUN:   --convert-func-to-llvm --convert-arith-to-llvm --convert-index-to-llvm \
// RUN:   --convert-cf-to-llvm --reconcile-unrealized-casts \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so,%mlir_lib_dir/libmlir_runner_utils.so > %t.ref
// RUN: grep -v base@ %t.ours > %t.ours.data
// RUN: grep -v base@ %t.ref > %t.ref.data
// RUN: diff %t.ours.data %t.ref.data
// RUN: FileCheck %s --check-prefix=EXEC < %t.ours
// EXEC-COUNT-3: Unranked Memref base@ = {{.*}} rank = 3
//
// The micro-kernels take all three (no loop nest with a reduction is left
// but @left_alone's):
// RUN: amp-opt %s --amp-cpu-split-batch-contractions --amp-cpu-tile-contractions \
// RUN: | FileCheck %s --check-prefix=TILED
// TILED-LABEL: func.func @nt
// TILED-NOT:     "reduction"]
// TILED-LABEL: func.func @left_alone
// TILED:         "reduction"]
//
// The rewrite itself:
// RUN: amp-opt %s --amp-cpu-split-batch-contractions | FileCheck %s
// CHECK-LABEL: func.func @nt
// CHECK:         scf.for %[[B:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:           %[[Q:.*]] = memref.subview %{{.*}}[%[[B]], 0, 0] [1, 7, 5] [1, 1, 1] : memref<3x7x5xf32> to memref<7x5xf32, strided<[5, 1], offset: ?>>
// CHECK:           %[[K:.*]] = memref.subview %{{.*}}[%[[B]], 0, 0] [1, 9, 5] [1, 1, 1]
// CHECK:           %[[S:.*]] = memref.subview %{{.*}}[%[[B]], 0, 0] [1, 7, 9] [1, 1, 1]
// CHECK:           linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]{{.*}} ins(%[[Q]], %[[K]] : {{.*}}) outs(%[[S]] : {{.*}})
// CHECK-LABEL: func.func @named
// CHECK:         scf.for
// CHECK:           linalg.generic
// CHECK-NOT:     linalg.batch_matmul
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT:     scf.for
// CHECK:         linalg.generic

#q = affine_map<(b, i, j, d) -> (b, i, d)>
#k = affine_map<(b, i, j, d) -> (b, j, d)>
#s = affine_map<(b, i, j, d) -> (b, i, j)>
#p = affine_map<(b, i, d, j) -> (b, i, j)>
#v = affine_map<(b, i, d, j) -> (b, j, d)>
#o = affine_map<(b, i, d, j) -> (b, i, d)>
#kt = affine_map<(b, i, j, d) -> (j, b, d)>

func.func private @printMemrefF32(memref<*xf32>)

// Scores: S[b] = Q[b] K[b]^T, f32.
func.func @nt(%q: memref<3x7x5xf32>, %k: memref<3x9x5xf32>, %s: memref<3x7x9xf32>) {
  linalg.generic {indexing_maps = [#q, #k, #s],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : memref<3x7x5xf32>, memref<3x9x5xf32>) outs(%s : memref<3x7x9xf32>) {
  ^bb0(%a: f32, %c: f32, %acc: f32):
    %m = arith.mulf %a, %c : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  }
  return
}

// The attention's output O[b] = P[b] V[b], f16 operands widened, f32 sums
// (loops in (b, i, d, j) order).
func.func @widened(%pm: memref<3x7x9xf16>, %vm: memref<3x9x18xf16>, %om: memref<3x7x18xf32>) {
  linalg.generic {indexing_maps = [#p, #v, #o],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%pm, %vm : memref<3x7x9xf16>, memref<3x9x18xf16>) outs(%om : memref<3x7x18xf32>) {
  ^bb0(%a: f16, %c: f16, %acc: f32):
    %ea = arith.extf %a : f16 to f32
    %ec = arith.extf %c : f16 to f32
    %m = arith.mulf %ea, %ec : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  }
  return
}

func.func @named(%a: memref<2x13x6xf32>, %b: memref<2x6x17xf32>, %c: memref<2x13x17xf32>) {
  linalg.batch_matmul ins(%a, %b : memref<2x13x6xf32>, memref<2x6x17xf32>)
                      outs(%c : memref<2x13x17xf32>)
  return
}

// The batch is not K's first index: left to the loops.
func.func @left_alone(%q: memref<3x7x5xf32>, %k: memref<9x3x5xf32>, %s: memref<3x7x9xf32>) {
  linalg.generic {indexing_maps = [#q, #kt, #s],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : memref<3x7x5xf32>, memref<9x3x5xf32>) outs(%s : memref<3x7x9xf32>) {
  ^bb0(%a: f32, %c: f32, %acc: f32):
    %m = arith.mulf %a, %c : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  }
  return
}

// v[i] = (i * 7) mod 11 - 5 (small integers, exact in f16), as f32 / f16.
func.func @fill3(%m: memref<?x?x?xf32>) {
  linalg.generic {indexing_maps = [affine_map<(a, b, c) -> (a, b, c)>],
                  iterator_types = ["parallel", "parallel", "parallel"]}
      outs(%m : memref<?x?x?xf32>) {
  ^bb0(%o: f32):
    %a = linalg.index 0 : index
    %b = linalg.index 1 : index
    %c = linalg.index 2 : index
    %c3 = arith.constant 3 : index
    %c7 = arith.constant 7 : index
    %c11 = arith.constant 11 : index
    %t0 = arith.muli %a, %c11 : index
    %t1 = arith.muli %b, %c3 : index
    %t2 = arith.addi %t0, %t1 : index
    %t3 = arith.addi %t2, %c : index
    %t4 = arith.muli %t3, %c7 : index
    %t5 = arith.remui %t4, %c11 : index
    %i = arith.index_cast %t5 : index to i32
    %f = arith.sitofp %i : i32 to f32
    %five = arith.constant 5.0 : f32
    %r = arith.subf %f, %five : f32
    linalg.yield %r : f32
  }
  return
}

func.func @main() {
  %q = memref.alloc() : memref<3x7x5xf32>
  %k = memref.alloc() : memref<3x9x5xf32>
  %s = memref.alloc() : memref<3x7x9xf32>
  %qd = memref.cast %q : memref<3x7x5xf32> to memref<?x?x?xf32>
  %kd = memref.cast %k : memref<3x9x5xf32> to memref<?x?x?xf32>
  %sd = memref.cast %s : memref<3x7x9xf32> to memref<?x?x?xf32>
  call @fill3(%qd) : (memref<?x?x?xf32>) -> ()
  call @fill3(%kd) : (memref<?x?x?xf32>) -> ()
  call @fill3(%sd) : (memref<?x?x?xf32>) -> ()
  call @nt(%q, %k, %s) : (memref<3x7x5xf32>, memref<3x9x5xf32>, memref<3x7x9xf32>) -> ()
  %su = memref.cast %s : memref<3x7x9xf32> to memref<*xf32>
  call @printMemrefF32(%su) : (memref<*xf32>) -> ()

  %pf = memref.alloc() : memref<3x7x9xf32>
  %vf = memref.alloc() : memref<3x9x18xf32>
  %o = memref.alloc() : memref<3x7x18xf32>
  %pfd = memref.cast %pf : memref<3x7x9xf32> to memref<?x?x?xf32>
  %vfd = memref.cast %vf : memref<3x9x18xf32> to memref<?x?x?xf32>
  %od = memref.cast %o : memref<3x7x18xf32> to memref<?x?x?xf32>
  call @fill3(%pfd) : (memref<?x?x?xf32>) -> ()
  call @fill3(%vfd) : (memref<?x?x?xf32>) -> ()
  call @fill3(%od) : (memref<?x?x?xf32>) -> ()
  %ph = memref.alloc() : memref<3x7x9xf16>
  %vh = memref.alloc() : memref<3x9x18xf16>
  linalg.generic {indexing_maps = [affine_map<(a, b, c) -> (a, b, c)>, affine_map<(a, b, c) -> (a, b, c)>],
                  iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%pf : memref<3x7x9xf32>) outs(%ph : memref<3x7x9xf16>) {
  ^bb0(%x: f32, %y: f16):
    %t = arith.truncf %x : f32 to f16
    linalg.yield %t : f16
  }
  linalg.generic {indexing_maps = [affine_map<(a, b, c) -> (a, b, c)>, affine_map<(a, b, c) -> (a, b, c)>],
                  iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%vf : memref<3x9x18xf32>) outs(%vh : memref<3x9x18xf16>) {
  ^bb0(%x: f32, %y: f16):
    %t = arith.truncf %x : f32 to f16
    linalg.yield %t : f16
  }
  call @widened(%ph, %vh, %o) : (memref<3x7x9xf16>, memref<3x9x18xf16>, memref<3x7x18xf32>) -> ()
  %ou = memref.cast %o : memref<3x7x18xf32> to memref<*xf32>
  call @printMemrefF32(%ou) : (memref<*xf32>) -> ()

  %a = memref.alloc() : memref<2x13x6xf32>
  %b = memref.alloc() : memref<2x6x17xf32>
  %c = memref.alloc() : memref<2x13x17xf32>
  %ad = memref.cast %a : memref<2x13x6xf32> to memref<?x?x?xf32>
  %bd = memref.cast %b : memref<2x6x17xf32> to memref<?x?x?xf32>
  %cd = memref.cast %c : memref<2x13x17xf32> to memref<?x?x?xf32>
  call @fill3(%ad) : (memref<?x?x?xf32>) -> ()
  call @fill3(%bd) : (memref<?x?x?xf32>) -> ()
  call @fill3(%cd) : (memref<?x?x?xf32>) -> ()
  call @named(%a, %b, %c) : (memref<2x13x6xf32>, memref<2x6x17xf32>, memref<2x13x17xf32>) -> ()
  %cu = memref.cast %c : memref<2x13x17xf32> to memref<*xf32>
  call @printMemrefF32(%cu) : (memref<*xf32>) -> ()
  return
}
