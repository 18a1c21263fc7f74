// RUN: amp-opt %s --split-input-file --amp-cpu-tile-contractions | FileCheck %s
// RUN: amp-opt %s --split-input-file --amp-cpu-tile-contractions="tile-rows=4 tile-cols=8" | FileCheck %s --check-prefix=SMALL
// RUN: not amp-opt %s --split-input-file --amp-cpu-tile-contractions="tile-rows=0" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD -DROWS=0
// RUN: not amp-opt %s --split-input-file --amp-cpu-tile-contractions="tile-cols=-2" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BADCOLS
// RUN: not amp-opt %s --split-input-file --amp-cpu-tile-contractions="tile-rows=33" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD -DROWS=33

// RUN: not amp-opt %s --split-input-file --amp-cpu-tile-contractions="tile-depth=0" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BADBLOCK
// RUN: not amp-opt %s --split-input-file --amp-cpu-tile-contractions="block-cols=0" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BADBLOCK

// BAD: error: amp-cpu-tile-contractions: tile-rows = [[ROWS]] must be in [1, 32]
// BAD-NOT: see current operation
// BADCOLS: error: amp-cpu-tile-contractions: tile-cols (amp-lower-to-llvm's fma-tile-cols) = -2 must be in [1, 256]
// BADCOLS-NOT: see current operation
// BADBLOCK: error: amp-cpu-tile-contractions: tile-depth, block-rows and block-cols must be at least 1

#a = affine_map<(i, j, k) -> (i, k)>
#b = affine_map<(i, j, k) -> (k, j)>
#bt = affine_map<(i, j, k) -> (j, k)>
#c = affine_map<(i, j, k) -> (i, j)>

// f16 forward X * W with f32 accumulation: A and B are widened once into
// f32 panels, each in its own layout (a contiguous copy), then one block of C (48 x 64 by default: one
// here), plain loops (12 * 40 * 9 multiply-adds are too few for threads),
// k in slices of 256 (one here), and in each slice 6 x 16 register tiles:
// six C rows loaded, a k loop of broadcast * row fmas, six rows stored.
// 12 = 2 * 6 rows, no remainder; 40 = 2 * 16 + a masked edge of 8 columns.
// CHECK-LABEL: func.func @forward_f16
// CHECK-SAME: (%[[A:.*]]: memref<12x9xf16>, %[[B:.*]]: memref<9x40xf16>, %[[C:.*]]: memref<12x40xf32>)
// CHECK:     %[[AP:.*]] = memref.alloc() {alignment = 64 : i64} : memref<12x9xf32>
// CHECK:     linalg.generic {indexing_maps = [#[[ID:.*]], #[[ID]]], {{.*}} ins(%[[A]] : memref<12x9xf16>) outs(%[[AP]] : memref<12x9xf32>)
// CHECK:       arith.extf
// CHECK:     %[[BP:.*]] = memref.alloc() {alignment = 64 : i64} : memref<9x40xf32>
// CHECK:     linalg.generic {{.*}} ins(%[[B]] : memref<9x40xf16>) outs(%[[BP]] : memref<9x40xf32>)
// CHECK-DAG: %[[C16:.*]] = arith.constant 16 : index
// CHECK-DAG: %[[C64:.*]] = arith.constant 64 : index
// CHECK-NOT: scf.parallel
// CHECK:     scf.for %[[IB:.*]] =
// CHECK:       scf.for %[[JB:.*]] =
// CHECK:         %[[J0:.*]] = arith.muli %[[JB]], %[[C64]] : index
// CHECK:         %[[EDGE:.*]] = arith.remui {{.*}}, %[[C16]] : index
// CHECK:         scf.for %[[KC:.*]] = %{{.*}} to %{{.*}} step %[[C256:.*]] {
// CHECK:           %[[KEND:.*]] = arith.minui
// CHECK:           scf.for %[[I:.*]] =
// CHECK:             scf.for %[[J:.*]] = %[[J0]] to
// CHECK-COUNT-6:       vector.load %[[C]]
// CHECK:               scf.for %[[K:.*]] = %[[KC]] to %[[KEND]] {{.*}} iter_args({{.*}}) -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>)
// CHECK:                 %[[ROW:.*]] = vector.load %[[BP]][%[[K]], %[[J]]] : memref<9x40xf32>, vector<16xf32>
// CHECK:                 %[[X:.*]] = memref.load %[[AP]][%[[I]], %[[K]]]
// CHECK:                 %[[XS:.*]] = vector.broadcast %[[X]] : f32 to vector<16xf32>
// CHECK:                 vector.fma %[[XS]], %[[ROW]]
// CHECK-COUNT-6:       vector.store {{.*}}, %[[C]]
// The right edge of the block: 40 mod 16 = 8 columns under a mask.
// CHECK:             scf.if
// CHECK:               vector.create_mask %[[EDGE]] : vector<16xi1>
// CHECK-COUNT-6:       vector.maskedload %[[C]]
// CHECK:               scf.for
// CHECK:                 vector.maskedload %[[BP]]
// CHECK-COUNT-6:       vector.maskedstore %[[C]]
// No loop for leftover rows (12 mod 6 = 0); the panels are freed.
// CHECK-NOT: scf.for
// CHECK:     memref.dealloc %[[AP]]
// CHECK:     memref.dealloc %[[BP]]
// CHECK-NOT: linalg.generic {{.*}}"reduction"
// CHECK:     return
// SMALL-LABEL: func.func @forward_f16
// SMALL:         scf.for {{.*}} -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
func.func @forward_f16(%a: memref<12x9xf16>, %b: memref<9x40xf16>, %cm: memref<12x40xf32>) {
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%a, %b : memref<12x9xf16>, memref<9x40xf16>) outs(%cm : memref<12x40xf32>) {
  ^bb0(%x: f16, %y: f16, %o: f32):
    %0 = arith.extf %x : f16 to f32
    %1 = arith.extf %y : f16 to f32
    %2 = arith.mulf %0, %1 : f32
    %3 = arith.addf %o, %2 : f32
    linalg.yield %3 : f32
  }
  return
}

// -----

#a = affine_map<(i, j, k) -> (i, k)>
#bt = affine_map<(i, j, k) -> (j, k)>
#c = affine_map<(i, j, k) -> (i, j)>

// f32 input gradient dY * W^T, dynamic sizes: A is read in place, B is
// packed to (k, j) (transposed in registers); the blocks are an scf.parallel (sizes unknown, so
// threads), over ceil(M / 48) x ceil(N / 64) blocks; in a block, the last
// rows (M mod 6 in the last row block) are one-row tiles and the masked edge
// is taken only when the block's width is not a multiple of 16.
// CHECK-LABEL: func.func @input_grad_f32_dynamic
// CHECK-SAME: (%[[A:.*]]: memref<?x?xf32>, %[[B:.*]]: memref<?x?xf32>, %[[C:.*]]: memref<?x?xf32>)
// CHECK-NOT: memref.alloc{{.*}}memref<?x?xf32>{{.*}}%[[A]]
// CHECK:     %[[M:.*]] = memref.dim %[[C]], %{{.*}}
// CHECK:     %[[N:.*]] = memref.dim %[[C]], %{{.*}}
// CHECK:     %[[BP:.*]] = memref.alloc({{.*}}) {alignment = 64 : i64} : memref<?x?xf32>
// B is transposed into the pack in 16 x 16 blocks: 16 rows of B, a
// shuffle network, 16 rows of the pack; at the edge of N only (all 16
// k's there), whole rows of B and zeros past N (no masked loads, which
// AVX2 does lane by lane for 16-bit elements); masked at the other edges.
// CHECK:     scf.for %[[X0:.*]] =
// CHECK:       scf.for %[[K0:.*]] =
// CHECK:         scf.if
// CHECK:           vector.load %[[B]][%{{.*}}, %[[K0]]] : memref<?x?xf32>, vector<16xf32>
// CHECK-COUNT-64:  vector.shuffle
// CHECK:           vector.store %{{.*}}, %[[BP]][%{{.*}}, %[[X0]]] : memref<?x?xf32>, vector<16xf32>
// CHECK:         } else {
// CHECK:           scf.if
// CHECK-NOT:         vector.maskedload
// CHECK:             %[[ROW:.*]] = vector.load %[[B]][%{{.*}}, %[[K0]]] : memref<?x?xf32>, vector<16xf32>
// CHECK:             arith.select %{{.*}}, %[[ROW]], %{{.*}} : vector<16xf32>
// CHECK-NOT:         vector.maskedload
// CHECK:             vector.maskedstore %[[BP]]
// CHECK:           } else {
// CHECK:             vector.maskedload %[[B]]
// CHECK:             vector.maskedstore %[[BP]]
// CHECK:     %[[RB:.*]] = arith.ceildivui %[[M]], %{{.*}}
// CHECK:     %[[CB:.*]] = arith.ceildivui %[[N]], %{{.*}}
// CHECK:     scf.parallel (%{{.*}}, %{{.*}}) = (%{{.*}}, %{{.*}}) to (%[[RB]], %[[CB]])
// CHECK:       scf.for
// CHECK:         scf.for
// CHECK:           scf.for
// CHECK:             scf.for {{.*}} -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>)
// CHECK:               memref.load %[[A]]
// CHECK:           scf.if
// CHECK:             vector.create_mask
// The one-row tiles.
// CHECK:         scf.for
// CHECK:           scf.for
// CHECK:             scf.for {{.*}} -> (vector<16xf32>) {
// CHECK:     memref.dealloc %[[BP]]
func.func @input_grad_f32_dynamic(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %cm: memref<?x?xf32>) {
  linalg.generic {indexing_maps = [#a, #bt, #c], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%cm : memref<?x?xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %2 = arith.mulf %x, %y : f32
    %3 = arith.addf %2, %o : f32
    linalg.yield %3 : f32
  }
  return
}

// -----

#a = affine_map<(i, j, k) -> (i, k)>
#b = affine_map<(i, j, k) -> (k, j)>
#c = affine_map<(i, j, k) -> (i, j)>

// The MLP's first layer, f32, static: 128 x 256 x 784 multiply-adds are
// enough for threads, so the 3 x 4 blocks of 48 x 64 (128 = 48 + 48 + 32
// rows) are an scf.parallel; A and B are read in place (no packing); k runs
// in slices of 256 (784 = 3 * 256 + 16); 128 mod 6 = 2 rows left over.
// CHECK-LABEL: func.func @forward_f32_threads
// CHECK-SAME: (%[[A:.*]]: memref<128x784xf32>, %[[B:.*]]: memref<784x256xf32>, %[[C:.*]]: memref<128x256xf32>)
// CHECK-NOT: memref.alloc
// CHECK-DAG: %[[C3:.*]] = arith.constant 3 : index
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG: %[[C784:.*]] = arith.constant 784 : index
// CHECK-DAG: %[[C256:.*]] = arith.constant 256 : index
// CHECK:     scf.parallel (%{{.*}}, %{{.*}}) = (%{{.*}}, %{{.*}}) to (%[[C3]], %[[C4]])
// CHECK:       scf.for %{{.*}} = %{{.*}} to %[[C784]] step %[[C256]]
// CHECK:         scf.for
// CHECK:           scf.for
// CHECK:             vector.load %[[C]]
// CHECK:             scf.for {{.*}} -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>)
// CHECK:               vector.load %[[B]]
// CHECK:               memref.load %[[A]]
// No masked edge: 256 = 16 * 16.
// CHECK-NOT:   vector.create_mask
// The rows left over (2 here, but a block's size is dynamic) as panels of
// 4, 2 and 1 rows, the binary digits of their number.
// CHECK:         scf.for
// CHECK:           scf.for
// CHECK:             scf.for {{.*}} -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>) {
// CHECK:         scf.for
// CHECK:           scf.for
// CHECK:             scf.for {{.*}} -> (vector<16xf32>, vector<16xf32>) {
// CHECK:         scf.for
// CHECK:           scf.for
// CHECK:             scf.for {{.*}} -> (vector<16xf32>) {
// CHECK-NOT: memref.dealloc
// CHECK:     return
func.func @forward_f32_threads(%a: memref<128x784xf32>, %b: memref<784x256xf32>, %cm: memref<128x256xf32>) {
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%a, %b : memref<128x784xf32>, memref<784x256xf32>) outs(%cm : memref<128x256xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %2 = arith.mulf %x, %y : f32
    %3 = arith.addf %2, %o : f32
    linalg.yield %3 : f32
  }
  return
}

// -----

#a = affine_map<(i, j, k) -> (i, k)>
#b = affine_map<(i, j, k) -> (k, j)>
#c = affine_map<(i, j, k) -> (i, j)>

// Left to convert-linalg-to-loops: accumulation in f16, a body that is not
// out + x * y, and C viewing A's buffer.
// CHECK-LABEL: func.func @negative_f16_accumulator
// CHECK-NOT:   vector.fma
// CHECK:       linalg.generic
func.func @negative_f16_accumulator(%a: memref<8x8xf16>, %b: memref<8x16xf16>, %cm: memref<8x16xf16>) {
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%a, %b : memref<8x8xf16>, memref<8x16xf16>) outs(%cm : memref<8x16xf16>) {
  ^bb0(%x: f16, %y: f16, %o: f16):
    %2 = arith.mulf %x, %y : f16
    %3 = arith.addf %o, %2 : f16
    linalg.yield %3 : f16
  }
  return
}

// CHECK-LABEL: func.func @negative_body_with_relu
// CHECK-NOT:   vector.fma
// CHECK:       linalg.generic
func.func @negative_body_with_relu(%a: memref<8x8xf32>, %b: memref<8x16xf32>, %cm: memref<8x16xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%a, %b : memref<8x8xf32>, memref<8x16xf32>) outs(%cm : memref<8x16xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %2 = arith.mulf %x, %y : f32
    %3 = arith.addf %o, %2 : f32
    %4 = arith.maximumf %3, %zero : f32
    linalg.yield %4 : f32
  }
  return
}

// CHECK-LABEL: func.func @negative_output_aliases_input
// CHECK-NOT:   vector.fma
// CHECK:       linalg.generic
func.func @negative_output_aliases_input(%buf: memref<8x16xf32>, %b: memref<16x16xf32>) {
  %a = memref.subview %buf[0, 0] [8, 16] [1, 1] : memref<8x16xf32> to memref<8x16xf32, strided<[16, 1]>>
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%a, %b : memref<8x16xf32, strided<[16, 1]>>, memref<16x16xf32>) outs(%buf : memref<8x16xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %2 = arith.mulf %x, %y : f32
    %3 = arith.addf %o, %2 : f32
    linalg.yield %3 : f32
  }
  return
}

// A column view of C (stride 2 along j) cannot be vector-loaded.
// CHECK-LABEL: func.func @negative_strided_output
// CHECK-NOT:   vector.fma
// CHECK:       linalg.generic
func.func @negative_strided_output(%a: memref<8x8xf32>, %b: memref<8x16xf32>, %big: memref<8x32xf32>) {
  %cm = memref.subview %big[0, 0] [8, 16] [1, 2] : memref<8x32xf32> to memref<8x16xf32, strided<[32, 2]>>
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%a, %b : memref<8x8xf32>, memref<8x16xf32>) outs(%cm : memref<8x16xf32, strided<[32, 2]>>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %2 = arith.mulf %x, %y : f32
    %3 = arith.addf %o, %2 : f32
    linalg.yield %3 : f32
  }
  return
}

// -----

// A batched contraction (attention scores): 4 loops, left alone.
// CHECK-LABEL: func.func @negative_batched
// CHECK-NOT:   vector.fma
// CHECK:       linalg.generic
func.func @negative_batched(%a: memref<2x8x8xf32>, %b: memref<2x8x16xf32>, %cm: memref<2x8x16xf32>) {
  linalg.generic {indexing_maps = [affine_map<(n, i, j, k) -> (n, i, k)>, affine_map<(n, i, j, k) -> (n, k, j)>, affine_map<(n, i, j, k) -> (n, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
    ins(%a, %b : memref<2x8x8xf32>, memref<2x8x16xf32>) outs(%cm : memref<2x8x16xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %2 = arith.mulf %x, %y : f32
    %3 = arith.addf %o, %2 : f32
    linalg.yield %3 : f32
  }
  return
}

// -----

#a = affine_map<(i, j, k) -> (i, k)>
#b = affine_map<(i, j, k) -> (k, j)>
#c = affine_map<(i, j, k) -> (i, j)>
#id = affine_map<(i, j) -> (i, j)>

// Autocast's f16 cast of a parameter that is never written (%w) is done by
// the pack, from the f32 argument (rounded to f16, then widened: the same
// values), and the cast, which nothing else reads, goes. The cast of %x
// stays: %x is also written (it is an init of the fill); and with the
// cast of %w between it and the contraction it does not write the pack
// itself either (writer-distance=0; the widen-in-writer test).
// CHECK-LABEL: func.func @cast_into_pack
// CHECK-SAME: (%[[X:.*]]: memref<12x9xf32>, %[[W:.*]]: memref<9x40xf32>, %[[C:.*]]: memref<12x40xf32>)
// CHECK:     linalg.fill {{.*}} outs(%[[X]]
// CHECK:     %[[XH:.*]] = memref.alloc() : memref<12x9xf16>
// CHECK:     linalg.generic {{.*}} ins(%[[X]] : memref<12x9xf32>) outs(%[[XH]] : memref<12x9xf16>)
// CHECK-NOT: outs({{.*}} : memref<9x40xf16>)
// CHECK:     linalg.generic {{.*}} ins(%[[XH]] : memref<12x9xf16>) outs(%{{.*}} : memref<12x9xf32>)
// CHECK:     %[[WP:.*]] = memref.alloc() {alignment = 64 : i64} : memref<9x40xf32>
// CHECK:     linalg.generic {{.*}} ins(%[[W]] : memref<9x40xf32>) outs(%[[WP]] : memref<9x40xf32>)
// CHECK-NEXT: ^bb0
// CHECK-NEXT:   %[[R:.*]] = arith.truncf %{{.*}} : f32 to f16
// CHECK-NEXT:   arith.extf %[[R]] : f16 to f32
// CHECK:     vector.fma
func.func @cast_into_pack(%x: memref<12x9xf32>, %w: memref<9x40xf32>, %cm: memref<12x40xf32>) {
  %one = arith.constant 1.0 : f32
  linalg.fill ins(%one : f32) outs(%x : memref<12x9xf32>)
  %xh = memref.alloc() : memref<12x9xf16>
  %wh = memref.alloc() : memref<9x40xf16>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
    ins(%x : memref<12x9xf32>) outs(%xh : memref<12x9xf16>) {
  ^bb0(%v: f32, %o: f16):
    %t = arith.truncf %v : f32 to f16
    linalg.yield %t : f16
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
    ins(%w : memref<9x40xf32>) outs(%wh : memref<9x40xf16>) {
  ^bb0(%v: f32, %o: f16):
    %t = arith.truncf %v : f32 to f16
    linalg.yield %t : f16
  }
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%xh, %wh : memref<12x9xf16>, memref<9x40xf16>) outs(%cm : memref<12x40xf32>) {
  ^bb0(%p: f16, %q: f16, %o: f32):
    %pe = arith.extf %p : f16 to f32
    %qe = arith.extf %q : f16 to f32
    %m = arith.mulf %pe, %qe : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  }
  memref.dealloc %xh : memref<12x9xf16>
  memref.dealloc %wh : memref<9x40xf16>
  return
}

// -----

#a = affine_map<(i, j, k) -> (i, k)>
#b = affine_map<(i, j, k) -> (k, j)>
#c = affine_map<(i, j, k) -> (i, j)>
#id = affine_map<(i, j) -> (i, j)>

// The cast's buffer is written again before the contraction (bufferization
// reuses buffers): the contraction reads what the fill wrote, so the cast
// is not folded and the pack reads the f16 buffer.
// CHECK-LABEL: func.func @cast_buffer_rewritten
// CHECK-SAME: (%[[X:.*]]: memref<12x9xf16>, %[[W:.*]]: memref<9x40xf32>, %{{.*}}: memref<12x40xf32>)
// CHECK:     %[[WH:.*]] = memref.alloc() : memref<9x40xf16>
// CHECK:     linalg.generic {{.*}} ins(%[[W]] : memref<9x40xf32>) outs(%[[WH]] : memref<9x40xf16>)
// CHECK:     linalg.fill {{.*}} outs(%[[WH]]
// CHECK:     linalg.generic {{.*}} ins(%[[WH]] : memref<9x40xf16>) outs(%{{.*}} : memref<9x40xf32>)
func.func @cast_buffer_rewritten(%x: memref<12x9xf16>, %w: memref<9x40xf32>, %cm: memref<12x40xf32>) {
  %one = arith.constant 1.0 : f16
  %wh = memref.alloc() : memref<9x40xf16>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
    ins(%w : memref<9x40xf32>) outs(%wh : memref<9x40xf16>) {
  ^bb0(%v: f32, %o: f16):
    %t = arith.truncf %v : f32 to f16
    linalg.yield %t : f16
  }
  linalg.fill ins(%one : f16) outs(%wh : memref<9x40xf16>)
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%x, %wh : memref<12x9xf16>, memref<9x40xf16>) outs(%cm : memref<12x40xf32>) {
  ^bb0(%p: f16, %q: f16, %o: f32):
    %pe = arith.extf %p : f16 to f32
    %qe = arith.extf %q : f16 to f32
    %m = arith.mulf %pe, %qe : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  }
  memref.dealloc %wh : memref<9x40xf16>
  return
}
