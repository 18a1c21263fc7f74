// RUN: amp-opt %s --split-input-file --amp-extend-in-consumers | FileCheck %s

// amp-extend-in-consumers: a linalg.generic that reads an arith.extf of an
// f16/bf16 tensor reads the narrow tensor and widens each element in its
// body (the same bits); the extf goes when nothing else reads it.
// CHECK-LABEL: func.func @folded
// CHECK-NOT:   arith.extf %{{.*}} : tensor
// CHECK:       linalg.generic {{.*}} ins(%arg0, %arg1 : tensor<4xf16>, tensor<4xbf16>) outs(%{{.*}} : tensor<4xf32>)
// CHECK-NEXT:  ^bb0(%[[A:.*]]: f16, %[[B:.*]]: bf16, %{{.*}}: f32):
// CHECK-NEXT:    %[[BW:.*]] = arith.extf %[[B]] : bf16 to f32
// CHECK-NEXT:    %[[AW:.*]] = arith.extf %[[A]] : f16 to f32
// CHECK-NEXT:    %[[S:.*]] = arith.mulf %[[AW]], %[[BW]] : f32
// CHECK-NEXT:    linalg.yield %[[S]]
#id = affine_map<(d0) -> (d0)>
func.func @folded(%a: tensor<4xf16>, %b: tensor<4xbf16>) -> tensor<4xf32> {
  %aw = arith.extf %a : tensor<4xf16> to tensor<4xf32>
  %bw = arith.extf %b : tensor<4xbf16> to tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%aw, %bw : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m = arith.mulf %x, %y : f32
    linalg.yield %m : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// Kept where another reader needs the f32 tensor: as a generic's init (its
// elements are the starting values of the output) and as a named op's
// input. The generic input use is folded all the same.
// CHECK-LABEL: func.func @kept
// CHECK:       %[[W:.*]] = arith.extf %arg0 : tensor<4xf16> to tensor<4xf32>
// CHECK:       linalg.generic {{.*}} ins(%arg0 : tensor<4xf16>) outs(%[[W]] : tensor<4xf32>)
// CHECK:       linalg.exp ins(%[[W]] : tensor<4xf32>)
#id2 = affine_map<(d0) -> (d0)>
func.func @kept(%a: tensor<4xf16>) -> (tensor<4xf32>, tensor<4xf32>) {
  %w = arith.extf %a : tensor<4xf16> to tensor<4xf32>
  %r = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel"]}
      ins(%w : tensor<4xf32>) outs(%w : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %x, %o : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %x = linalg.exp ins(%w : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %r, %x : tensor<4xf32>, tensor<4xf32>
}
