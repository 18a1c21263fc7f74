// amp-cpu-tile-contractions bf16-dot=true: the AVX512_BF16 micro-kernel's
// IR (any CPU: nothing runs; cpu-tile-contractions-exec.mlir and
// test/tools/amp-run-bf16-dot.mlir run it where the CPU has the
// instruction). The operands become bf16 pair packs whose pairs hold
// k = 2kk + 1 first and k = 2kk second (vdpbf16ps adds the odd slot's
// product first: each accumulator then adds in increasing k):
//   - A read as A[i, k]: each row with its pairs' halves swapped, into
//     memref<M x 2*roundup(ceil(K/2), 16) x bf16>;
//   - B read as B[k, j]: rows 2kk + 1 and 2kk interleaved (the second
//     masked off when K is odd), into memref<ceil(K/2) x 2*roundup(N, 32)>;
//   - B read as B[j, k]: each pair of a row swapped and stored in its
//     column;
// and an 8 x 32 micro-tile of sixteen vector<16xf32> accumulators, one
// broadcast 32-bit A pair and two B loads per pair of k. A bf16 cast of an
// f32 argument is rounded by the pack itself (the cast goes).
// RUN: amp-opt %s --amp-cpu-tile-contractions=bf16-dot=true --canonicalize --cse | FileCheck %s
// RUN: not amp-opt %s --amp-cpu-tile-contractions="bf16-dot=true dot-tile-cols=20" -o /dev/null 2>&1 | FileCheck %s --check-prefix=COLS
// COLS: error: amp-cpu-tile-contractions: dot-tile-rows must be in [1, 32] and dot-tile-cols a multiple of 16 in [16, 128] (16 f32 lanes per accumulator)

#a = affine_map<(i, j, k) -> (i, k)>
#b = affine_map<(i, j, k) -> (k, j)>
#bt = affine_map<(i, j, k) -> (j, k)>
#c = affine_map<(i, j, k) -> (i, j)>
#id = affine_map<(i, j) -> (i, j)>

// CHECK-LABEL: func.func @cast_arg(
// CHECK-SAME:    %[[X:.*]]: memref<13x7xf32>, %[[W:.*]]: memref<7x21xbf16>, %[[OUT:.*]]: memref<13x21xf32>)
// CHECK-NOT:     linalg.generic
// A: the f32 argument, rounded, pairs swapped.
// CHECK:         %[[A:.*]] = memref.alloc() {alignment = 64 : i64} : memref<13x32xbf16>
// CHECK:         vector.maskedload %[[X]]{{.*}} : memref<13x7xf32>, vector<32xi1>, vector<32xf32> into vector<32xf32>
// CHECK:         arith.truncf %{{.*}} : vector<32xf32> to vector<32xbf16>
// CHECK:         vector.shuffle %{{.*}} [1, 0, 3, 2, 5, 4,
// CHECK:         vector.store %{{.*}}, %[[A]]
// B: rows 2kk + 1 (odd, masked off past k = 7) and 2kk interleaved.
// CHECK:         %[[B:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4x64xbf16>
// CHECK:         %[[HAS_ODD:.*]] = arith.cmpi ult
// CHECK:         %[[ODD_ROW:.*]] = arith.select %[[HAS_ODD]]
// CHECK:         %[[EVEN:.*]] = vector.maskedload %[[W]][%[[EVEN_ROW:.*]], %{{.*}}]
// CHECK:         %[[ODD:.*]] = vector.maskedload %[[W]][%[[ODD_ROW]], %{{.*}}]
// CHECK:         vector.interleave %[[ODD]], %[[EVEN]] : vector<16xbf16> -> vector<32xbf16>
// CHECK:         vector.store %{{.*}}, %[[B]]
// The micro-tile: 4 pairs of k, two B loads, a broadcast pair per row.
// CHECK:         scf.for %[[KK:.*]] = %c0 to %c4 step %c1 iter_args({{.*}}) -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>)
// CHECK:           %[[B0:.*]] = vector.load %[[B]][%[[KK]], %c0] : memref<4x64xbf16>, vector<32xbf16>
// CHECK:           %[[B1:.*]] = vector.load %[[B]][%[[KK]], %c32] : memref<4x64xbf16>, vector<32xbf16>
// CHECK:           %[[PAIR:.*]] = vector.load %[[A]][%{{.*}}, %{{.*}}] : memref<13x32xbf16>, vector<2xbf16>
// CHECK:           %[[WORD:.*]] = vector.bitcast %[[PAIR]] : vector<2xbf16> to vector<1xi32>
// CHECK:           %[[SPLAT:.*]] = vector.broadcast %{{.*}} : i32 to vector<16xi32>
// CHECK:           %[[APAIRS:.*]] = vector.bitcast %[[SPLAT]] : vector<16xi32> to vector<32xbf16>
// CHECK:           x86vector.avx512.dot %{{.*}}, %[[APAIRS]], %[[B0]] : vector<32xbf16> -> vector<16xf32>
// CHECK:           x86vector.avx512.dot %{{.*}}, %[[APAIRS]], %[[B1]] : vector<32xbf16> -> vector<16xf32>
// The right edge (21 = 16 + 5 columns): masked C.
// CHECK:         vector.maskedstore %[[OUT]]
// CHECK:         memref.dealloc %[[A]]
// CHECK:         memref.dealloc %[[B]]
func.func @cast_arg(%x: memref<13x7xf32>, %w: memref<7x21xbf16>, %out: memref<13x21xf32>) {
  %x16 = memref.alloc() : memref<13x7xbf16>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<13x7xf32>) outs(%x16 : memref<13x7xbf16>) {
  ^bb0(%in: f32, %o: bf16):
    %t = arith.truncf %in : f32 to bf16
    linalg.yield %t : bf16
  }
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x16, %w : memref<13x7xbf16>, memref<7x21xbf16>) outs(%out : memref<13x21xf32>) {
  ^bb0(%p: bf16, %q: bf16, %acc: f32):
    %pe = arith.extf %p : bf16 to f32
    %qe = arith.extf %q : bf16 to f32
    %m = arith.mulf %pe, %qe : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  }
  memref.dealloc %x16 : memref<13x7xbf16>
  return
}

// B read as B[j, k]: blocks of 16 rows x 16 pairs, each row's pairs as
// i32 lanes with their halves swapped (rotated 16 bits), the block
// transposed by two-source shuffles (4 stages of 16; canonicalization
// drops those of the rows never stored), each pair row stored
// where it exists (K = 8: rows 0 to 3).
// CHECK-LABEL: func.func @transposed_b(
// CHECK:         %[[BT:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4x64xbf16>
// CHECK:         scf.for %[[J:.*]] = %c0 to %c21 step %c16
// CHECK:           %[[P:.*]] = vector.maskedload %{{.*}}[%[[J]], %c0], %{{.*}}, %{{.*}} : memref<21x8xbf16>, vector<32xi1>, vector<32xbf16> into vector<32xbf16>
// CHECK:           %[[PI:.*]] = vector.bitcast %[[P]] : vector<32xbf16> to vector<16xi32>
// CHECK:           %[[HI:.*]] = arith.shli %[[PI]], %{{.*}} : vector<16xi32>
// CHECK:           %[[LO:.*]] = arith.shrui %[[PI]], %{{.*}} : vector<16xi32>
// CHECK:           arith.ori %[[HI]], %[[LO]] : vector<16xi32>
// CHECK-COUNT-16:  vector.shuffle {{.*}} : vector<16xi32>, vector<16xi32>
// CHECK:           %[[R0:.*]] = vector.bitcast %{{.*}} : vector<16xi32> to vector<32xbf16>
// CHECK:           vector.store %[[R0]], %[[BT]][%c0, %{{.*}}] : memref<4x64xbf16>, vector<32xbf16>
// CHECK:           vector.store %{{.*}}, %[[BT]][%c3, %{{.*}}] : memref<4x64xbf16>, vector<32xbf16>
// CHECK-NOT:       vector.store %{{.*}}, %[[BT]]
// CHECK:         x86vector.avx512.dot
func.func @transposed_b(%x: memref<13x8xbf16>, %w: memref<21x8xbf16>, %out: memref<13x21xf32>) {
  linalg.generic {indexing_maps = [#a, #bt, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : memref<13x8xbf16>, memref<21x8xbf16>) outs(%out : memref<13x21xf32>) {
  ^bb0(%p: bf16, %q: bf16, %acc: f32):
    %pe = arith.extf %p : bf16 to f32
    %qe = arith.extf %q : bf16 to f32
    %m = arith.mulf %pe, %qe : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  }
  return
}
