// A masked contraction (the transposed convolution amp-differentiate builds
// for a padded convolution's input gradient: out + select(mask, dy * w, 0),
// the mask computed from loop indices only) is an allow op run as Mixed:
// f16 inputs, the body widens them, f32 accumulator. Before it was a deny
// reduction and kept the whole input gradient in f32.
// RUN: amp-opt %s -split-input-file -amp-autocast | FileCheck %s

// CHECK-LABEL: func.func @transposed_conv
// CHECK-DAG:   %[[W:.*]] = arith.truncf %arg0 : tensor<2x3xf32> to tensor<2x3xf16>
// CHECK-DAG:   %[[DY:.*]] = arith.truncf %arg1 : tensor<4x2xf32> to tensor<4x2xf16>
// CHECK:       linalg.generic {{.*}} ins(%[[W]], %[[DY]] : tensor<2x3xf16>, tensor<4x2xf16>) outs(%{{.*}} : tensor<4x3xf32>)
// CHECK-NEXT:  ^bb0(%{{.*}}: f16, %{{.*}}: f16, %{{.*}}: f32):
// CHECK:         arith.extf
// CHECK:         arith.extf
// CHECK:         arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK:         arith.select
// CHECK:       } -> tensor<4x3xf32>
#w = affine_map<(i, c, k) -> (k, c)>
#dy = affine_map<(i, c, k) -> (i, k)>
#dx = affine_map<(i, c, k) -> (i, c)>
func.func @transposed_conv(%w: tensor<2x3xf32>, %dy: tensor<4x2xf32>) -> tensor<4x3xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x3xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<4x3xf32>) -> tensor<4x3xf32>
  %r = linalg.generic {indexing_maps = [#w, #dy, #dx], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%w, %dy : tensor<2x3xf32>, tensor<4x2xf32>) outs(%init : tensor<4x3xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %p = arith.mulf %b, %a : f32
    %i = linalg.index 0 : index
    %c3 = arith.constant 3 : index
    %in = arith.cmpi slt, %i, %c3 : index
    %z = arith.constant 0.0 : f32
    %m = arith.select %in, %p, %z : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  } -> tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}

// -----

// A select on a float comparison is not a window mask: the op stays a deny
// reduction in f32.
// CHECK-LABEL: func.func @value_mask
// CHECK-NOT:   arith.truncf
// CHECK:       linalg.generic {{.*}} ins(%arg0, %arg1 : tensor<2x3xf32>, tensor<4x2xf32>)
#w2 = affine_map<(i, c, k) -> (k, c)>
#dy2 = affine_map<(i, c, k) -> (i, k)>
#dx2 = affine_map<(i, c, k) -> (i, c)>
func.func @value_mask(%w: tensor<2x3xf32>, %dy: tensor<4x2xf32>) -> tensor<4x3xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x3xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<4x3xf32>) -> tensor<4x3xf32>
  %r = linalg.generic {indexing_maps = [#w2, #dy2, #dx2], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%w, %dy : tensor<2x3xf32>, tensor<4x2xf32>) outs(%init : tensor<4x3xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %p = arith.mulf %b, %a : f32
    %z = arith.constant 0.0 : f32
    %pos = arith.cmpf ogt, %b, %z : f32
    %m = arith.select %pos, %p, %z : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  } -> tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}
