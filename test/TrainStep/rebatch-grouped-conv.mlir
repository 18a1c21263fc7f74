// Re-batching a grouped convolution as torch-mlir exports
// nn.Conv2d(groups=2): input, weight and the bias broadcast into the init
// are expand_shape'd to (n, g, c/g, h, w) for linalg.conv_2d_ngchw_gfchw.
// The bias init is an expand_shape of a broadcast; it is rebuilt at the new
// batch like the broadcast itself (2026-12-07; refused before: "does not
// derive from the input").
// RUN: amp-opt %s --amp-build-train-step="loss=mse batch=8" -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// CHECK-LABEL: func.func @train_step(
// CHECK: %[[BIAS:.*]] = linalg.generic
// CHECK: } -> tensor<8x4x4x4xf32>
// CHECK: %[[INIT:.*]] = tensor.expand_shape %[[BIAS]] {{\[\[}}0], [1, 2], [3], [4]] output_shape [8, 2, 2, 4, 4] : tensor<8x4x4x4xf32> into tensor<8x2x2x4x4xf32>
// CHECK: linalg.conv_2d_ngchw_gfchw {{.*}} outs(%[[INIT]] : tensor<8x2x2x4x4xf32>)
//
// Against finite differences at batch 8, and training in every precision:
// RUN: amp-run %t.mlir --data=synthetic --check-gradients | FileCheck %s --check-prefix=GRAD
// GRAD: (tolerance 1e-05): passed
// RUN: amp-run %t.mlir --data=synthetic --run=f32,f16+dynamic,bf16 --max-steps=3 --threads=1 --progress=false 2>&1 | FileCheck %s --check-prefix=TRAIN
// TRAIN: f32{{ +}}[[L:[0-9]\.[0-9][0-9]]]
// TRAIN: f16 + dynamic{{ +}}[[L]]
// TRAIN: bf16{{ +}}[[L]]

func.func @forward(%x: tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32> {
  %w = arith.constant dense<[[[[0.3]], [[-0.2]]], [[[0.5]], [[0.4]]], [[[-0.1]], [[0.7]]], [[[0.2]], [[-0.6]]]]> : tensor<4x2x1x1xf32>
  %b = arith.constant dense<[0.1, -0.2, 0.3, 0.05]> : tensor<4xf32>
  %e = tensor.empty() : tensor<1x4x4x4xf32>
  %bias = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%b : tensor<4xf32>) outs(%e : tensor<1x4x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x4x4x4xf32>
  %xg = tensor.expand_shape %x [[0], [1, 2], [3], [4]] output_shape [1, 2, 2, 4, 4] : tensor<1x4x4x4xf32> into tensor<1x2x2x4x4xf32>
  %wg = tensor.expand_shape %w [[0, 1], [2], [3], [4]] output_shape [2, 2, 2, 1, 1] : tensor<4x2x1x1xf32> into tensor<2x2x2x1x1xf32>
  %init = tensor.expand_shape %bias [[0], [1, 2], [3], [4]] output_shape [1, 2, 2, 4, 4] : tensor<1x4x4x4xf32> into tensor<1x2x2x4x4xf32>
  %y = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%xg, %wg : tensor<1x2x2x4x4xf32>, tensor<2x2x2x1x1xf32>) outs(%init : tensor<1x2x2x4x4xf32>) -> tensor<1x2x2x4x4xf32>
  %out = tensor.collapse_shape %y [[0], [1, 2], [3], [4]] : tensor<1x2x2x4x4xf32> into tensor<1x4x4x4xf32>
  return %out : tensor<1x4x4x4xf32>
}
