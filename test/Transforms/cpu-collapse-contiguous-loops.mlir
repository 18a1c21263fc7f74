// RUN: amp-opt %s --split-input-file --amp-cpu-collapse-contiguous-loops | FileCheck %s

// amp-cpu-collapse-contiguous-loops: loops that walk contiguous memory in
// every operand merged into one (the vectorizer then sees a long innermost
// loop).

// (Each result goes through a tensor.cast: a result that the function
// returns is left alone, see @returned_stays.)

// A per-channel scale: (h, w) merge; n and c stay (the scale reads c).
// CHECK-DAG:   #[[M3:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG:   #[[C3:.*]] = affine_map<(d0, d1, d2) -> (d1)>
// CHECK-LABEL: func.func @per_channel_scale
// CHECK:       %[[X:.*]] = tensor.collapse_shape %arg0 {{\[}}[0], [1], [2, 3]] : tensor<4x8x6x6xbf16> into tensor<4x8x36xbf16>
// CHECK:       %[[R:.*]] = linalg.generic {indexing_maps = [#[[M3]], #[[C3]], #[[M3]]], iterator_types = ["parallel", "parallel", "parallel"]} ins(%[[X]], %arg1 : tensor<4x8x36xbf16>, tensor<8xf32>)
// CHECK:       %[[E:.*]] = tensor.expand_shape %[[R]] {{\[}}[0], [1], [2, 3]] output_shape [4, 8, 6, 6]
// CHECK:       tensor.cast %[[E]]
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#ch = affine_map<(d0, d1, d2, d3) -> (d1)>
func.func @per_channel_scale(%x: tensor<4x8x6x6xbf16>, %s: tensor<8xf32>) -> tensor<?x8x6x6xbf16> {
  %e = tensor.empty() : tensor<4x8x6x6xbf16>
  %r = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %s : tensor<4x8x6x6xbf16>, tensor<8xf32>) outs(%e : tensor<4x8x6x6xbf16>) {
  ^bb0(%in: bf16, %sc: f32, %out: bf16):
    %a = arith.extf %in : bf16 to f32
    %m = arith.mulf %a, %sc : f32
    %t = arith.truncf %m : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<4x8x6x6xbf16>
  %d = tensor.cast %r : tensor<4x8x6x6xbf16> to tensor<?x8x6x6xbf16>
  return %d : tensor<?x8x6x6xbf16>
}

// -----

// Elementwise: one loop over all 1152 elements.
// CHECK-LABEL: func.func @elementwise
// CHECK:       tensor.collapse_shape %arg0 {{\[}}[0, 1, 2, 3]] : tensor<4x8x6x6xf32> into tensor<1152xf32>
// CHECK:       linalg.generic {{.*}} iterator_types = ["parallel"]} ins(%{{.*}} : tensor<1152xf32>)
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @elementwise(%x: tensor<4x8x6x6xf32>) -> tensor<?x8x6x6xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8x6x6xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<4x8x6x6xf32>) outs(%e : tensor<4x8x6x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<4x8x6x6xf32>
  %d = tensor.cast %r : tensor<4x8x6x6xf32> to tensor<?x8x6x6xf32>
  return %d : tensor<?x8x6x6xf32>
}

// -----

// A per-channel sum over (n, h, w): the reductions h and w merge; n, a
// reduction separated from them by the parallel c, stays.
// CHECK-LABEL: func.func @channel_sum
// CHECK:       tensor.collapse_shape %arg0 {{\[}}[0], [1], [2, 3]] : tensor<4x8x6x6xf32> into tensor<4x8x36xf32>
// CHECK:       linalg.generic {{.*}} iterator_types = ["reduction", "parallel", "reduction"]} ins(%{{.*}} : tensor<4x8x36xf32>) outs(%arg1 : tensor<8xf32>)
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#ch = affine_map<(d0, d1, d2, d3) -> (d1)>
func.func @channel_sum(%x: tensor<4x8x6x6xf32>, %init: tensor<8xf32>) -> tensor<?xf32> {
  %r = linalg.generic {indexing_maps = [#id, #ch], iterator_types = ["reduction", "parallel", "reduction", "reduction"]}
      ins(%x : tensor<4x8x6x6xf32>) outs(%init : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %out, %in : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  %d = tensor.cast %r : tensor<8xf32> to tensor<?xf32>
  return %d : tensor<?xf32>
}

// -----

// A window (d1 + d3) is left alone.
// CHECK-LABEL: func.func @window_stays
// CHECK-NOT:   tensor.collapse_shape
// CHECK:       linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
#w = affine_map<(d0, d1, d2, d3) -> (d0, d1 + d3, d2)>
#o = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @window_stays(%x: tensor<2x6x4xf32>) -> tensor<?x4x4x3xf32> {
  %e = tensor.empty() : tensor<2x4x4x3xf32>
  %r = linalg.generic {indexing_maps = [#w, #o], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<2x6x4xf32>) outs(%e : tensor<2x4x4x3xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<2x4x4x3xf32>
  %d = tensor.cast %r : tensor<2x4x4x3xf32> to tensor<?x4x4x3xf32>
  return %d : tensor<?x4x4x3xf32>
}

// -----

// A body that reads a loop index is left alone.
// CHECK-LABEL: func.func @index_stays
// CHECK-NOT:   tensor.collapse_shape
// CHECK:       linalg.index 1
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @index_stays(%x: tensor<4x6xf32>) -> tensor<?x6xf32> {
  %e = tensor.empty() : tensor<4x6xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x6xf32>) outs(%e : tensor<4x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %i = linalg.index 1 : index
    %c = arith.index_cast %i : index to i32
    %f = arith.sitofp %c : i32 to f32
    %m = arith.mulf %in, %f : f32
    linalg.yield %m : f32
  } -> tensor<4x6xf32>
  %d = tensor.cast %r : tensor<4x6xf32> to tensor<?x6xf32>
  return %d : tensor<?x6xf32>
}

// -----

// A result the function returns (a new parameter, written straight into
// its out-parameter after bufferization) is left alone.
// CHECK-LABEL: func.func @returned_stays
// CHECK-NOT:   tensor.collapse_shape
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @returned_stays(%x: tensor<4x8x6x6xf32>) -> tensor<4x8x6x6xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8x6x6xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<4x8x6x6xf32>) outs(%e : tensor<4x8x6x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<4x8x6x6xf32>
  return %r : tensor<4x8x6x6xf32>
}

// -----

// An innermost loop of 64 or more vectorizes as it is: left alone.
// CHECK-LABEL: func.func @long_row_stays
// CHECK-NOT:   tensor.collapse_shape
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @long_row_stays(%x: tensor<4x64xf32>) -> tensor<?x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x64xf32>
  %r = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x64xf32>) outs(%e : tensor<4x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<4x64xf32>
  %d = tensor.cast %r : tensor<4x64xf32> to tensor<?x64xf32>
  return %d : tensor<?x64xf32>
}

// -----

// No loops at all (rank-0 tensors): nothing to merge (break-it: the pass
// read the innermost extent of an empty loop list).
// CHECK-LABEL: func.func @no_loops
// CHECK-NOT:   tensor.collapse_shape
func.func @no_loops(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %e = tensor.empty() : tensor<f32>
  %0 = linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []}
      ins(%a, %b : tensor<f32>, tensor<f32>) outs(%e : tensor<f32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  %c = tensor.cast %0 : tensor<f32> to tensor<f32>
  return %c : tensor<f32>
}
