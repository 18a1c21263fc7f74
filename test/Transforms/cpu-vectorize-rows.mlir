// amp-cpu-vectorize-rows: which ops it lowers to row vectors, and which it
// leaves to convert-linalg-to-loops (the executed cases and their bits are
// in cpu-vectorize-rows-exec.mlir).
// RUN: amp-opt %s --split-input-file --amp-cpu-vectorize-rows | FileCheck %s

#id2 = affine_map<(i, j) -> (i, j)>
#tr2 = affine_map<(i, j) -> (j, i)>
#row = affine_map<(i, j) -> (j)>

// A short f32 row (14) with a broadcast per-row scale and a scalar input.
// CHECK-LABEL: func.func @short_row
// CHECK:         scf.for %[[I:.*]] =
// CHECK:           %[[X:.*]] = vector.load %{{.*}}[%[[I]], %{{.*}}] : memref<8x14xf32>, vector<14xf32>
// CHECK:           %[[S:.*]] = vector.load %{{.*}}[%{{.*}}] : memref<14xf32>, vector<14xf32>
// CHECK:           %[[B:.*]] = vector.broadcast %{{.*}} : f32 to vector<14xf32>
// CHECK:           %[[M:.*]] = arith.mulf %[[X]], %[[S]] : vector<14xf32>
// CHECK:           %[[A:.*]] = arith.addf %[[M]], %[[B]] : vector<14xf32>
// CHECK:           vector.store %[[A]], %{{.*}}[%[[I]], %{{.*}}] : memref<8x14xf32>, vector<14xf32>
// CHECK-NOT:     linalg.generic
func.func @short_row(%x: memref<8x14xf32>, %s: memref<14xf32>, %b: f32,
                     %y: memref<8x14xf32>) {
  linalg.generic {indexing_maps = [#id2, #row, affine_map<(i, j) -> ()>, #id2],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x, %s, %b : memref<8x14xf32>, memref<14xf32>, f32)
      outs(%y : memref<8x14xf32>) {
  ^bb0(%a: f32, %k: f32, %c: f32, %o: f32):
    %m = arith.mulf %a, %k : f32
    %r = arith.addf %m, %c : f32
    linalg.yield %r : f32
  }
  return
}

// -----

#id2 = affine_map<(i, j) -> (i, j)>
#tr2 = affine_map<(i, j) -> (j, i)>

// Left alone: a transposed read (the row is not the input's last index),
// a long f32 row, a body that reads linalg.index, an i1 output.
// CHECK-LABEL: func.func @left_alone
// CHECK-COUNT-4: linalg.generic
// CHECK-NOT:     vector.
func.func @left_alone(%t: memref<14x8xf32>, %y: memref<8x14xf32>,
                      %long: memref<8x64xf32>, %m: memref<8x14xi1>) {
  linalg.generic {indexing_maps = [#tr2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%t : memref<14x8xf32>) outs(%y : memref<8x14xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  }
  linalg.generic {indexing_maps = [#id2], iterator_types = ["parallel", "parallel"]}
      outs(%long : memref<8x64xf32>) {
  ^bb0(%o: f32):
    %r = arith.addf %o, %o : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#id2], iterator_types = ["parallel", "parallel"]}
      outs(%y : memref<8x14xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 1 : index
    %c = arith.index_cast %i : index to i32
    %f = arith.sitofp %c : i32 to f32
    linalg.yield %f : f32
  }
  linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%y : memref<8x14xf32>) outs(%m : memref<8x14xi1>) {
  ^bb0(%a: f32, %o: i1):
    %z = arith.constant 0.0 : f32
    %p = arith.cmpf ogt, %a, %z : f32
    linalg.yield %p : i1
  }
  return
}

// -----

#id1 = affine_map<(i) -> (i)>
#shift = affine_map<(i) -> (i + 1)>

// Left alone: the output overlaps the input one element later (a vector
// reads all its elements before writing any; the loop reads each after
// the previous one was written). In place (the same elements) is fine.
// CHECK-LABEL: func.func @overlap
// CHECK:         linalg.generic
// CHECK:         vector.load %[[V:.*]][%{{.*}}] : memref<15xf16>, vector<15xf16>
// CHECK:         vector.store %{{.*}}, %[[V]][%{{.*}}] : memref<15xf16>, vector<15xf16>
func.func @overlap(%buf: memref<16xf16>) {
  %a = memref.subview %buf[1] [15] [1] : memref<16xf16> to memref<15xf16, strided<[1], offset: 1>>
  %b = memref.subview %buf[0] [15] [1] : memref<16xf16> to memref<15xf16, strided<[1]>>
  linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%a : memref<15xf16, strided<[1], offset: 1>>)
      outs(%b : memref<15xf16, strided<[1]>>) {
  ^bb0(%x: f16, %o: f16):
    %r = arith.addf %x, %o : f16
    linalg.yield %r : f16
  }
  %v = memref.alloc() : memref<15xf16>
  linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%v : memref<15xf16>) outs(%v : memref<15xf16>) {
  ^bb0(%x: f16, %o: f16):
    %r = arith.mulf %x, %x : f16
    linalg.yield %r : f16
  }
  return
}
