// amp-gpu-parallel-dims-outer: reductions move inside the parallel loops.
// RUN: amp-opt %s --amp-gpu-parallel-dims-outer | FileCheck %s

// Column sum (bias gradient): [reduction, parallel] -> [parallel, reduction].
// CHECK-DAG: #[[IN:.*]] = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @column_sum(
// CHECK: linalg.generic {indexing_maps = [#[[IN]], #[[OUT]]], iterator_types = ["parallel", "reduction"]}
#in = affine_map<(d0, d1) -> (d0, d1)>
#out = affine_map<(d0, d1) -> (d1)>
func.func @column_sum(%x: tensor<128x10xf32>, %acc: tensor<10xf32>) -> tensor<10xf32> {
  %r = linalg.generic {indexing_maps = [#in, #out], iterator_types = ["reduction", "parallel"]}
      ins(%x : tensor<128x10xf32>) outs(%acc : tensor<10xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  } -> tensor<10xf32>
  return %r : tensor<10xf32>
}
