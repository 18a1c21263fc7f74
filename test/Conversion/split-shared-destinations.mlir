// RUN: amp-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(amp-split-shared-destinations))' | FileCheck %s

// amp-split-shared-destinations: each destination use of a tensor.empty
// or of a zero fill gets its own copy, right before the op that writes it.

#id = affine_map<(d0) -> (d0)>

// One empty, the destination of a fill and of two elementwise ops far
// apart: the fill (its first destination use) keeps it, each op gets its
// own; the fill, the init of two ops: the second gets its own fill of its
// own empty.
// CHECK-LABEL: func.func @shared
// CHECK: %[[E:.*]] = tensor.empty() : tensor<8xf32>
// CHECK: %[[F:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[E]] : tensor<8xf32>)
// CHECK: %[[E1:.*]] = tensor.empty() : tensor<8xf32>
// CHECK-NEXT: linalg.generic {{.*}} outs(%[[E1]] : tensor<8xf32>)
// CHECK: linalg.generic {{.*}} outs(%[[F]] : tensor<8xf32>)
// CHECK: %[[E2:.*]] = tensor.empty() : tensor<8xf32>
// CHECK-NEXT: %[[F2:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[E2]] : tensor<8xf32>)
// CHECK-NEXT: linalg.generic {{.*}} outs(%[[F2]] : tensor<8xf32>)
// CHECK: %[[E3:.*]] = tensor.empty() : tensor<8xf32>
// CHECK-NEXT: linalg.generic {{.*}} outs(%[[E3]] : tensor<8xf32>)
func.func @shared(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.mulf %v, %v : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %s1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%a : tensor<8xf32>) outs(%f : tensor<8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.addf %v, %o : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %s2 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<8xf32>) outs(%f : tensor<8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.addf %v, %o : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %b = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%s2 : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.negf %v : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  return %a, %s1, %s2, %b : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}

// -----

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id = affine_map<(d0) -> (d0)>

// A collapsed view of an empty (amp-cpu-collapse-contiguous-loops' form)
// is an empty of the collapsed shape: two ops writing views of one empty
// get one empty each.
// CHECK-LABEL: func.func @through_reshape
// CHECK-NOT: tensor.collapse_shape %{{.*}} : tensor<2x4xf32>
// CHECK: %[[E1:.*]] = tensor.empty() : tensor<8xf32>
// CHECK: linalg.generic {{.*}} outs(%[[E1]] : tensor<8xf32>)
// CHECK: %[[E2:.*]] = tensor.empty() : tensor<8xf32>
// CHECK-NEXT: linalg.generic {{.*}} outs(%[[E2]] : tensor<8xf32>)
func.func @through_reshape(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %e = tensor.empty() : tensor<2x4xf32>
  %c = tensor.collapse_shape %e [[0, 1]] : tensor<2x4xf32> into tensor<8xf32>
  %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<8xf32>) outs(%c : tensor<8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.mulf %v, %v : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %b = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%a : tensor<8xf32>) outs(%c : tensor<8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.negf %v : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  return %a, %b : tensor<8xf32>, tensor<8xf32>
}

// -----

// Left alone: a single destination use. An empty that something else
// reads too (here the return) keeps its original for that reader, and its
// destination use gets a copy.
// CHECK-LABEL: func.func @negative_single_destination
// CHECK: tensor.empty
// CHECK-NOT: tensor.empty
// CHECK-LABEL: func.func @other_reader
// CHECK: %[[E:.*]] = tensor.empty() : tensor<8xf32>
// CHECK: %[[C:.*]] = tensor.empty() : tensor<8xf32>
// CHECK-NEXT: %[[A:.*]] = linalg.generic {{.*}} outs(%[[C]] : tensor<8xf32>)
// CHECK: return %[[A]], %[[E]]
#id = affine_map<(d0) -> (d0)>
func.func @negative_single_destination(%x: tensor<8xf32>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.mulf %v, %v : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  return %a : tensor<8xf32>
}

func.func @other_reader(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %e = tensor.empty() : tensor<8xf32>
  %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.mulf %v, %v : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  return %a, %e : tensor<8xf32>, tensor<8xf32>
}
