// RUN: amp-opt %s --split-input-file --amp-cpu-tile-contractions="tile-depth=4" | FileCheck %s

// amp-cpu-tile-contractions starts a contraction's accumulators from C's
// initial value when every element of C holds one value, put there by a
// fill of C or by a copy into C from a filled buffer (the zero init of a
// bufferized step, BLAS's beta = 0), and removes that fill or copy: the
// first depth slice broadcasts the value, the later ones load C. Whatever
// else could see or change C or the filled buffer in between keeps them.
// Values: cpu-tile-contractions-exec.mlir (cases 7 and 8). With
// tile-depth=4 every case here has two depth slices; where k fits in one,
// the accumulators start from the value without the branch.

#a = affine_map<(i, j, k) -> (i, k)>
#b = affine_map<(i, j, k) -> (k, j)>
#c = affine_map<(i, j, k) -> (i, j)>

// Two contractions whose inits are copies of one zero buffer (CSE merged
// their fills): both copies go, then the buffer, its fill and its free.
// CHECK-LABEL: func.func @shared_zeros
// CHECK-NOT:   linalg.fill
// CHECK-NOT:   memref.copy
// CHECK:       %[[FIRST:.*]] = arith.cmpi eq, %{{.*}}, %c0
// CHECK:       scf.if %[[FIRST]] -> (vector<16xf32>
// CHECK:         vector.broadcast %cst : f32 to vector<16xf32>
// CHECK:       } else {
// CHECK:         vector.load
// CHECK-NOT:   linalg.fill
// CHECK-NOT:   memref.copy
// CHECK-NOT:   memref.alloc() : memref<16x16xf32>
// CHECK:       return
func.func @shared_zeros(%x: memref<16x8xf32>, %w: memref<8x16xf32>, %v: memref<8x16xf32>,
                        %y: memref<16x16xf32>, %u: memref<16x16xf32>) {
  %cst = arith.constant 0.0 : f32
  %z = memref.alloc() : memref<16x16xf32>
  linalg.fill ins(%cst : f32) outs(%z : memref<16x16xf32>)
  memref.copy %z, %y : memref<16x16xf32> to memref<16x16xf32>
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%x, %w : memref<16x8xf32>, memref<8x16xf32>) outs(%y : memref<16x16xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  }
  memref.copy %z, %u : memref<16x16xf32> to memref<16x16xf32>
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%x, %v : memref<16x8xf32>, memref<8x16xf32>) outs(%u : memref<16x16xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  }
  memref.dealloc %z : memref<16x16xf32>
  return
}

// -----

#a = affine_map<(i, j, k) -> (i, k)>
#b = affine_map<(i, j, k) -> (k, j)>
#c = affine_map<(i, j, k) -> (i, j)>

// C is read between its fill and the contraction: the fill stays, and
// the kernel loads C.
// CHECK-LABEL: func.func @read_between
// CHECK:       linalg.fill
// CHECK:       memref.load %arg2
// CHECK-NOT:   scf.if
// CHECK:       return
func.func @read_between(%x: memref<16x8xf32>, %w: memref<8x16xf32>, %y: memref<16x16xf32>) -> f32 {
  %cst = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  linalg.fill ins(%cst : f32) outs(%y : memref<16x16xf32>)
  %e = memref.load %y[%c0, %c0] : memref<16x16xf32>
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%x, %w : memref<16x8xf32>, memref<8x16xf32>) outs(%y : memref<16x16xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  }
  return %e : f32
}

// -----

#a = affine_map<(i, j, k) -> (i, k)>
#b = affine_map<(i, j, k) -> (k, j)>
#c = affine_map<(i, j, k) -> (i, j)>

// The zero buffer is written after its fill, before the copy: the copy
// (and the fill) stay.
// CHECK-LABEL: func.func @source_written
// CHECK:       linalg.fill
// CHECK:       memref.store
// CHECK:       memref.copy
// CHECK-NOT:   scf.if
// CHECK:       return
func.func @source_written(%x: memref<16x8xf32>, %w: memref<8x16xf32>, %y: memref<16x16xf32>) {
  %cst = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %c0 = arith.constant 0 : index
  %z = memref.alloc() : memref<16x16xf32>
  linalg.fill ins(%cst : f32) outs(%z : memref<16x16xf32>)
  memref.store %one, %z[%c0, %c0] : memref<16x16xf32>
  memref.copy %z, %y : memref<16x16xf32> to memref<16x16xf32>
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%x, %w : memref<16x8xf32>, memref<8x16xf32>) outs(%y : memref<16x16xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  }
  memref.dealloc %z : memref<16x16xf32>
  return
}

// -----

#a = affine_map<(i, j, k) -> (i, k)>
#b = affine_map<(i, j, k) -> (k, j)>
#c = affine_map<(i, j, k) -> (i, j)>

// A view of C exists (it could be written unseen): the fill stays.
// CHECK-LABEL: func.func @view_of_c
// CHECK:       linalg.fill
// CHECK-NOT:   scf.if
// CHECK:       return
func.func @view_of_c(%x: memref<16x8xf32>, %w: memref<8x16xf32>, %y: memref<16x16xf32>)
    -> memref<4x4xf32, strided<[16, 1]>> {
  %cst = arith.constant 0.0 : f32
  %view = memref.subview %y[0, 0] [4, 4] [1, 1] : memref<16x16xf32> to memref<4x4xf32, strided<[16, 1]>>
  linalg.fill ins(%cst : f32) outs(%y : memref<16x16xf32>)
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%x, %w : memref<16x8xf32>, memref<8x16xf32>) outs(%y : memref<16x16xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  }
  return %view : memref<4x4xf32, strided<[16, 1]>>
}

// -----

#a = affine_map<(i, j, k) -> (i, k)>
#b = affine_map<(i, j, k) -> (k, j)>
#c = affine_map<(i, j, k) -> (i, j)>
#id = affine_map<(d0) -> (d0)>

// A view of C made before the fill, read only after the contraction (the
// bf16 cast of a layer's output through its collapse_shape): its uses are
// C's, none between, so the fill goes.
// CHECK-LABEL: func.func @view_read_after
// CHECK-NOT:   linalg.fill
// CHECK:       scf.if
// CHECK:       memref.collapse_shape
// CHECK:       linalg.generic
// CHECK:       return
func.func @view_read_after(%x: memref<16x8xf32>, %w: memref<8x16xf32>, %out: memref<256xf32>) {
  %cst = arith.constant 0.0 : f32
  %y = memref.alloc() : memref<16x16xf32>
  linalg.fill ins(%cst : f32) outs(%y : memref<16x16xf32>)
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%x, %w : memref<16x8xf32>, memref<8x16xf32>) outs(%y : memref<16x16xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  }
  %flat = memref.collapse_shape %y [[0, 1]] : memref<16x16xf32> into memref<256xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
    ins(%flat : memref<256xf32>) outs(%out : memref<256xf32>) {
  ^bb0(%p: f32, %o: f32):
    %n = arith.negf %p : f32
    linalg.yield %n : f32
  }
  memref.dealloc %y : memref<16x16xf32>
  return
}

// -----

#a = affine_map<(i, j, k) -> (i, k)>
#b = affine_map<(i, j, k) -> (k, j)>
#c = affine_map<(i, j, k) -> (i, j)>

// A view of C written between the fill and the contraction: the fill
// stays, and the kernel loads C.
// CHECK-LABEL: func.func @view_written_between
// CHECK:       linalg.fill
// CHECK:       memref.store
// CHECK-NOT:   scf.if
// CHECK:       return
func.func @view_written_between(%x: memref<16x8xf32>, %w: memref<8x16xf32>, %out: memref<16x16xf32>) {
  %cst = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %c3 = arith.constant 3 : index
  %y = memref.alloc() : memref<16x16xf32>
  %flat = memref.collapse_shape %y [[0, 1]] : memref<16x16xf32> into memref<256xf32>
  linalg.fill ins(%cst : f32) outs(%y : memref<16x16xf32>)
  memref.store %one, %flat[%c3] : memref<256xf32>
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%x, %w : memref<16x8xf32>, memref<8x16xf32>) outs(%y : memref<16x16xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  }
  memref.copy %y, %out : memref<16x16xf32> to memref<16x16xf32>
  memref.dealloc %y : memref<16x16xf32>
  return
}

// -----

#a = affine_map<(i, j, k) -> (i, k)>
#b = affine_map<(i, j, k) -> (k, j)>
#c = affine_map<(i, j, k) -> (i, j)>

// k is dynamic (it may be 0, when C keeps its initial value): the fill
// stays.
// CHECK-LABEL: func.func @dynamic_depth
// CHECK:       linalg.fill
// CHECK-NOT:   scf.if
// CHECK:       return
func.func @dynamic_depth(%x: memref<16x?xf32>, %w: memref<?x16xf32>, %y: memref<16x16xf32>) {
  %cst = arith.constant 0.0 : f32
  linalg.fill ins(%cst : f32) outs(%y : memref<16x16xf32>)
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%x, %w : memref<16x?xf32>, memref<?x16xf32>) outs(%y : memref<16x16xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  }
  return
}

// -----

#a = affine_map<(i, j, k) -> (i, k)>
#b = affine_map<(i, j, k) -> (k, j)>
#c = affine_map<(i, j, k) -> (i, j)>

// The second contraction accumulates into what the first wrote: only the
// first starts from the fill (its four kinds of tile, 6 rows and, for the
// rows left of a block of dynamic size, 4, 2 and 1 rows, each choose
// between the fill's value and C).
// CHECK-LABEL: func.func @accumulate
// CHECK-NOT:      linalg.fill
// CHECK-COUNT-4:  scf.if %{{.*}} -> (vector<16xf32>
// CHECK-NOT:      scf.if %{{.*}} -> (vector<16xf32>
// CHECK:          return
func.func @accumulate(%x: memref<16x8xf32>, %w: memref<8x16xf32>, %y: memref<16x16xf32>) {
  %cst = arith.constant 0.0 : f32
  linalg.fill ins(%cst : f32) outs(%y : memref<16x16xf32>)
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%x, %w : memref<16x8xf32>, memref<8x16xf32>) outs(%y : memref<16x16xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%x, %w : memref<16x8xf32>, memref<8x16xf32>) outs(%y : memref<16x16xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  }
  return
}

// -----

#a = affine_map<(i, j, k) -> (i, k)>
#b = affine_map<(i, j, k) -> (k, j)>
#c = affine_map<(i, j, k) -> (i, j)>

// C is an argument and a call between the fill and the contraction may
// write its memory under another name (a global passed in; break-it,
// 2026-12-02): the fill stays.
// CHECK-LABEL: func.func @call_between
// CHECK:       linalg.fill
// CHECK:       call @poke
// CHECK-NOT:   scf.if
// CHECK:       return
func.func private @poke()
func.func @call_between(%x: memref<16x8xf32>, %w: memref<8x16xf32>, %y: memref<16x16xf32>) {
  %cst = arith.constant 0.0 : f32
  linalg.fill ins(%cst : f32) outs(%y : memref<16x16xf32>)
  func.call @poke() : () -> ()
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%x, %w : memref<16x8xf32>, memref<8x16xf32>) outs(%y : memref<16x16xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  }
  return
}
