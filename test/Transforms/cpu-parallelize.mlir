// RUN: amp-opt %s --split-input-file --amp-cpu-parallelize --cse | FileCheck %s
// RUN: amp-opt %s --split-input-file --amp-cpu-parallelize="chunk-work=100000" --cse | FileCheck %s --check-prefix=BIG
// RUN: not amp-opt %s --split-input-file --amp-cpu-parallelize="min-work=0" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD

// BAD: error: amp-cpu-parallelize: min-work and chunk-work must be at least 1

#id = affine_map<(i, j) -> (i, j)>

// An elementwise update of a 784 x 256 weight: 256 iterations per row, so
// chunks of 64 rows (16384 iterations), the last one of 784 - 12 * 64 = 16;
// each chunk runs the same generic on its rows.
// CHECK-LABEL: func.func @elementwise
// CHECK-SAME: (%[[A:.*]]: memref<784x256xf32>, %[[B:.*]]: memref<784x256xf32>)
// CHECK-DAG: %[[C784:.*]] = arith.constant 784 : index
// CHECK-DAG: %[[C64:.*]] = arith.constant 64 : index
// CHECK:     scf.parallel (%[[I:.*]]) = (%{{.*}}) to (%[[C784]]) step (%[[C64]]) {
// CHECK:       %[[ROWS:.*]] = affine.min #{{.*}}(%[[I]])
// CHECK:       %[[SA:.*]] = memref.subview %[[A]][%[[I]], 0] [%[[ROWS]], 256] [1, 1]
// CHECK:       %[[SB:.*]] = memref.subview %[[B]][%[[I]], 0] [%{{.*}}, 256] [1, 1]
// CHECK:       linalg.generic {{.*}} ins(%[[SA]] : {{.*}}) outs(%[[SB]] : {{.*}})
// CHECK:         arith.mulf
// CHECK:       scf.reduce
// With chunk-work=100000: chunks of ceil(100000 / 256) = 391 rows.
// BIG-LABEL: func.func @elementwise
// BIG:         %[[STEP:.*]] = arith.constant 391 : index
// BIG:         scf.parallel ({{.*}}) = ({{.*}}) to ({{.*}}) step (%[[STEP]])
func.func @elementwise(%a: memref<784x256xf32>, %b: memref<784x256xf32>) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : memref<784x256xf32>) outs(%b : memref<784x256xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 0.9 : f32
    %r = arith.mulf %x, %c : f32
    linalg.yield %r : f32
  }
  return
}

// -----

#id = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (j)>

// A bias gradient (column sum over the batch): the batch loop is a float
// reduction and is never split; the columns are, in chunks of 128 (a
// multiple of 64, the innermost loop is the vectorized one), each summing
// all 128 rows in order.
// CHECK-LABEL: func.func @column_sum
// CHECK-SAME: (%[[A:.*]]: memref<128x256xf32>, %[[S:.*]]: memref<256xf32>)
// CHECK-DAG: %[[C256:.*]] = arith.constant 256 : index
// CHECK-DAG: %[[C128:.*]] = arith.constant 128 : index
// CHECK:     scf.parallel (%[[J:.*]]) = (%{{.*}}) to (%[[C256]]) step (%[[C128]]) {
// CHECK:       %[[SA:.*]] = memref.subview %[[A]][0, %[[J]]] [128, 128] [1, 1]
// CHECK:       %[[SS:.*]] = memref.subview %[[S]][%[[J]]] [128] [1]
// CHECK:       linalg.generic {{.*}} iterator_types = ["reduction", "parallel"]} ins(%[[SA]] : {{.*}}) outs(%[[SS]] : {{.*}})
func.func @column_sum(%a: memref<128x256xf32>, %s: memref<256xf32>) {
  linalg.generic {indexing_maps = [#id, #col], iterator_types = ["reduction", "parallel"]} ins(%a : memref<128x256xf32>) outs(%s : memref<256xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.addf %x, %o : f32
    linalg.yield %r : f32
  }
  return
}

// -----

#id = affine_map<(i, j) -> (i, j)>
#none = affine_map<(i, j) -> ()>

// The fused unscale-and-check of one gradient: every loop is a reduction
// because of the found-inf flag (an i1 or-reduction). The flag is first
// or-reduced per row into a 784 x i1 buffer (filled with false), which
// makes the row loop parallel and the generic chunked like any other; then
// the rows' flags are or-reduced into the flag, and the buffer is freed.
// CHECK-LABEL: func.func @check
// CHECK-SAME: (%[[G:.*]]: memref<784x256xf32>, %[[INV:.*]]: memref<f32>, %[[U:.*]]: memref<784x256xf32>, %[[FLAG:.*]]: memref<i1>)
// CHECK:     %[[ROWS:.*]] = memref.alloc() : memref<784xi1>
// CHECK:     %[[FALSE:.*]] = arith.constant false
// CHECK:     linalg.fill ins(%[[FALSE]] : i1) outs(%[[ROWS]] : memref<784xi1>)
// CHECK:     scf.parallel (%[[I:.*]]) =
// CHECK:       %[[SR:.*]] = memref.subview %[[ROWS]][%[[I]]]
// CHECK:       linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins({{.*}}, %[[INV]] : {{.*}}) outs({{.*}}, %[[SR]] : {{.*}})
// CHECK:         arith.ori
// CHECK:       scf.reduce
// CHECK:     linalg.generic {{.*}} iterator_types = ["reduction"]} ins(%[[ROWS]] : memref<784xi1>) outs(%[[FLAG]] : memref<i1>)
// CHECK:       %[[OR:.*]] = arith.ori
// CHECK:       linalg.yield %[[OR]] : i1
// CHECK:     memref.dealloc %[[ROWS]]
func.func @check(%g: memref<784x256xf32>, %inv: memref<f32>, %u: memref<784x256xf32>, %flag: memref<i1>) {
  linalg.generic {indexing_maps = [#id, #none, #id, #none], iterator_types = ["reduction", "reduction"]} ins(%g, %inv : memref<784x256xf32>, memref<f32>) outs(%u, %flag : memref<784x256xf32>, memref<i1>) {
  ^bb0(%x: f32, %s: f32, %o: f32, %f: i1):
    %y = arith.mulf %x, %s : f32
    %a = math.absf %x : f32
    %inf = arith.constant 0x7F800000 : f32
    %n = arith.cmpf uge, %a, %inf : f32
    %any = arith.ori %f, %n : i1
    linalg.yield %y, %any : f32, i1
  }
  return
}

// -----

#id = affine_map<(i, j) -> (i, j)>
#id1 = affine_map<(i) -> (i)>
#none = affine_map<(i, j) -> ()>
#none1 = affine_map<(i) -> ()>

// Left alone: too little work (128 x 10 logits); a float sum to a scalar
// (no parallel loop: float reductions are never split); a flag that is
// combined with something else than `or`; ops on tensors.
// CHECK-LABEL: func.func @negative_small
// CHECK-NOT:   scf.parallel
// CHECK:       linalg.generic
func.func @negative_small(%a: memref<128x10xf32>, %b: memref<128x10xf32>) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : memref<128x10xf32>) outs(%b : memref<128x10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.negf %x : f32
    linalg.yield %r : f32
  }
  return
}

// CHECK-LABEL: func.func @negative_float_sum
// CHECK-NOT:   scf.parallel
// CHECK-NOT:   memref.alloc
// CHECK:       linalg.generic
func.func @negative_float_sum(%a: memref<784x256xf32>, %s: memref<f32>) {
  linalg.generic {indexing_maps = [#id, #none], iterator_types = ["reduction", "reduction"]} ins(%a : memref<784x256xf32>) outs(%s : memref<f32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.addf %x, %o : f32
    linalg.yield %r : f32
  }
  return
}

// CHECK-LABEL: func.func @negative_xor_flag
// CHECK-NOT:   scf.parallel
// CHECK-NOT:   memref.alloc
// CHECK:       linalg.generic
func.func @negative_xor_flag(%g: memref<65536xf32>, %u: memref<65536xf32>, %flag: memref<i1>) {
  linalg.generic {indexing_maps = [#id1, #id1, #none1], iterator_types = ["reduction"]} ins(%g : memref<65536xf32>) outs(%u, %flag : memref<65536xf32>, memref<i1>) {
  ^bb0(%x: f32, %o: f32, %f: i1):
    %zero = arith.constant 0.0 : f32
    %n = arith.cmpf olt, %x, %zero : f32
    %any = arith.xori %f, %n : i1
    linalg.yield %x, %any : f32, i1
  }
  return
}

// CHECK-LABEL: func.func @negative_tensors
// CHECK-NOT:   scf.parallel
// CHECK:       linalg.generic
func.func @negative_tensors(%a: tensor<784x256xf32>) -> tensor<784x256xf32> {
  %e = tensor.empty() : tensor<784x256xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<784x256xf32>) outs(%e : tensor<784x256xf32>) {
  ^bb0(%x: f32, %o: f32):
    %n = arith.negf %x : f32
    linalg.yield %n : f32
  } -> tensor<784x256xf32>
  return %r : tensor<784x256xf32>
}

// -----

// The input cotangent of a 3x3 convolution as amp-differentiate writes it
// (a transposed window: the padded cotangent read at i - k + 2; loops
// n, c_out, h, w, c_in, kh, kw). Upstream's tiling takes a slice to span the
// expression at the tile's first and last iteration, too short for
// `i - k + 2`; such loops (h, w) are not cut, the input channels are.
// CHECK-LABEL: func.func @transposed_window
// CHECK:     scf.parallel (%[[C:.*]]) =
// CHECK:       memref.subview %{{.*}}[0, %[[C]], 0, 0] [256, 1, 3, 3]
// CHECK:       memref.subview %{{.*}}[0, %[[C]], 0, 0] [1, 1, 15, 15]
// CHECK:       linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : {{.*}}, memref<1x256x17x17xf32>)
func.func @transposed_window(%w: memref<256x64x3x3xf32>, %dy: memref<1x256x17x17xf32>, %dx: memref<1x64x15x15xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2 - d5 + 2, d3 - d6 + 2)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d4, d2, d3)>], iterator_types = ["parallel", "reduction", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%w, %dy : memref<256x64x3x3xf32>, memref<1x256x17x17xf32>) outs(%dx : memref<1x64x15x15xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  }
  return
}
