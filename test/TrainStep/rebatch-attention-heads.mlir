// Re-batching attention traced at batch 1 (2026-12-07; refused before):
// torch-mlir folds [1, H, T, d] into [H, T, d] for batch_matmul, which the
// re-batching first reads as a squeeze of the batch; where the batch_matmul
// then reads that dimension as its own batch loop the analysis is rerun
// with the collapse read as the batch merged with the heads (N*H rows at
// batch N). A per-head bias [H, T, T] (T5's relative positions, ALiBi)
// added to the scores is tiled N times.
// RUN: amp-opt %s --amp-build-train-step="loss=mse batch=8 function=forward" -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// CHECK-LABEL: func.func @train_step(
// CHECK: tensor.expand_shape %arg1 {{\[\[}}0, 1], [2], [3]] output_shape [1, 2, 3, 3] : tensor<2x3x3xf32> into tensor<1x2x3x3xf32>
// CHECK: %[[BIAS:.*]] = tensor.collapse_shape %{{.*}} {{\[\[}}0, 1], [2], [3]] : tensor<8x2x3x3xf32> into tensor<16x3x3xf32>
// CHECK: tensor.collapse_shape %{{.*}} {{\[\[}}0, 1], [2]] : tensor<8x3x4xf32> into tensor<24x4xf32>
// CHECK: linalg.batch_matmul {{.*}} -> tensor<16x3x3xf32>
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %[[BIAS]] : tensor<16x3x3xf32>, tensor<16x3x3xf32>)
//
// The forward at batch 8 and dynamic, example by example, bit for bit:
// RUN: %python %amp_src_root/scripts/check-rebatch-forward.py %s %amp_obj_root | FileCheck %s --check-prefix=EXEC
// EXEC: max |fwd1 - fwd8| = 0, max |fwd1 - fwd(dynamic at 8)| = 0, max |fwd1| = {{[0-9.]+}}
// RUN: amp-run %t.mlir --data=synthetic --check-gradients | FileCheck %s --check-prefix=GRAD
// GRAD: #0{{ +}}4x4xf32
// GRAD: #1{{ +}}2x3x3xf32
// GRAD: (tolerance 1e-05): passed
// RUN: amp-run %t.mlir --data=synthetic --run=f32,f16+dynamic,bf16 --max-steps=3 --threads=1 --progress=false 2>&1 | FileCheck %s --check-prefix=TRAIN
// TRAIN: f32{{ +}}[[L:[0-9]\.[0-9][0-9]]]
// TRAIN: f16 + dynamic{{ +}}[[L]]
// TRAIN: bf16{{ +}}[[L]]

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
  func.func @forward(%arg0: tensor<1x3x4xf32>) -> tensor<1x2x3x3xf32> {
    %w = arith.constant dense<[[0.5, -0.25, 0.125, 0.3], [0.2, -0.1, 0.05, 0.4], [-0.3, 0.15, 0.2, -0.05], [0.1, 0.35, -0.2, 0.25]]> : tensor<4x4xf32>
    %bias = arith.constant dense<[[[0.0, -1.0, -2.0], [-1.0, 0.0, -1.0], [-2.0, -1.0, 0.0]], [[0.0, -0.5, -1.0], [-0.5, 0.0, -0.5], [-1.0, -0.5, 0.0]]]> : tensor<2x3x3xf32>
    %zero = arith.constant 0.000000e+00 : f32
    // q = Linear(x) on [T, D]
    %flat = tensor.collapse_shape %arg0 [[0, 1], [2]] : tensor<1x3x4xf32> into tensor<3x4xf32>
    %e34 = tensor.empty() : tensor<3x4xf32>
    %z34 = linalg.fill ins(%zero : f32) outs(%e34 : tensor<3x4xf32>) -> tensor<3x4xf32>
    %qf = linalg.matmul ins(%flat, %w : tensor<3x4xf32>, tensor<4x4xf32>) outs(%z34 : tensor<3x4xf32>) -> tensor<3x4xf32>
    %q3 = tensor.expand_shape %qf [[0, 1], [2]] output_shape [1, 3, 4] : tensor<3x4xf32> into tensor<1x3x4xf32>
    // heads: [1, T, H, d] -> [1, H, T, d] -> [H, T, d]
    %q4 = tensor.expand_shape %q3 [[0], [1], [2, 3]] output_shape [1, 3, 2, 2] : tensor<1x3x4xf32> into tensor<1x3x2x2xf32>
    %et = tensor.empty() : tensor<1x2x3x2xf32>
    %qt = linalg.transpose ins(%q4 : tensor<1x3x2x2xf32>) outs(%et : tensor<1x2x3x2xf32>) permutation = [0, 2, 1, 3]
    %qh = tensor.collapse_shape %qt [[0, 1], [2], [3]] : tensor<1x2x3x2xf32> into tensor<2x3x2xf32>
    %ek = tensor.empty() : tensor<2x2x3xf32>
    %kt = linalg.transpose ins(%qh : tensor<2x3x2xf32>) outs(%ek : tensor<2x2x3xf32>) permutation = [0, 2, 1]
    %es = tensor.empty() : tensor<2x3x3xf32>
    %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x3x3xf32>) -> tensor<2x3x3xf32>
    %s = linalg.batch_matmul ins(%qh, %kt : tensor<2x3x2xf32>, tensor<2x2x3xf32>) outs(%zs : tensor<2x3x3xf32>) -> tensor<2x3x3xf32>
    // + the per-head bias
    %sb = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s, %bias : tensor<2x3x3xf32>, tensor<2x3x3xf32>) outs(%es : tensor<2x3x3xf32>) {
    ^bb0(%a: f32, %b: f32, %out: f32):
      %t = arith.addf %a, %b : f32
      linalg.yield %t : f32
    } -> tensor<2x3x3xf32>
    %s4 = tensor.expand_shape %sb [[0, 1], [2], [3]] output_shape [1, 2, 3, 3] : tensor<2x3x3xf32> into tensor<1x2x3x3xf32>
    %eo = tensor.empty() : tensor<1x2x3x3xf32>
    %y = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s4 : tensor<1x2x3x3xf32>) outs(%eo : tensor<1x2x3x3xf32>) {
    ^bb0(%in: f32, %out: f32):
      %t = math.tanh %in : f32
      linalg.yield %t : f32
    } -> tensor<1x2x3x3xf32>
    return %y : tensor<1x2x3x3xf32>
  }
