// Re-batching a model traced at batch 2 whose batch is merged with other
// dimensions (2026-12-07; refused before as "flattens across the batch"):
// torch-mlir writes a Linear on [B, T, D] as a collapse to [B*T, D], a
// matmul and an expand back, and attention's heads as a collapse of
// [B, H, T, d] to [B*H, T, d] for batch_matmul. Row by row these ops keep
// the examples apart; the merged dimension holds batch x T (or x H) rows
// at the new batch, and the expand that splits the batch off again ends it.
// RUN: amp-opt %s --amp-build-train-step="loss=mse batch=16 function=forward" -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// CHECK-LABEL: func.func @train_step(
// CHECK: tensor.collapse_shape %{{.*}} {{\[\[}}0, 1], [2]] : tensor<16x3x4xf32> into tensor<48x4xf32>
// CHECK: linalg.matmul {{.*}} -> tensor<48x4xf32>
// CHECK: tensor.expand_shape %{{.*}} {{\[\[}}0, 1], [2]] output_shape [16, 3, 4] : tensor<48x4xf32> into tensor<16x3x4xf32>
// CHECK: tensor.collapse_shape %{{.*}} {{\[\[}}0, 1], [2], [3]] : tensor<16x2x3x2xf32> into tensor<32x3x2xf32>
// CHECK: linalg.batch_matmul {{.*}} -> tensor<32x3x3xf32>
//
// The forward at batch 16 and dynamic, chunk by chunk of 2, bit for bit:
// RUN: %python %amp_src_root/scripts/check-rebatch-forward.py %s %amp_obj_root | FileCheck %s --check-prefix=EXEC
// EXEC: max |fwd2 - fwd16| = 0, max |fwd2 - fwd(dynamic at 16)| = 0, max |fwd2| = {{[0-9.]+}}
// RUN: amp-run %t.mlir --data=synthetic --check-gradients | FileCheck %s --check-prefix=GRAD
// GRAD: #0{{ +}}4x4xf32
// GRAD: (tolerance 1e-05): passed
// RUN: amp-run %t.mlir --data=synthetic --run=f32,f16+dynamic,bf16 --max-steps=3 --threads=1 --progress=false 2>&1 | FileCheck %s --check-prefix=TRAIN
// TRAIN: f32{{ +}}[[L:[0-9]\.[0-9][0-9]]]
// TRAIN: f16 + dynamic{{ +}}[[L]]
// TRAIN: bf16{{ +}}[[L]]
//
// A merged batch read by an op other than linalg, elementwise and the
// expand that splits it off is refused, located:
// RUN: not amp-opt %s --split-input-file --amp-rebatch="batch=16" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: rebatch-merged-batch.mlir:[[#@LINE+36]]:11: error: amp-rebatch: batch=16: 'tensor.extract_slice' takes a value ('tensor<6x4xf32>') whose dimension 0 merges the batch (dimension 0 of the input, argument #0) with 3 elements of other dimensions; re-batching follows such a value through linalg ops, elementwise ops and the expand_shape that splits the batch off again, not through 'tensor.extract_slice' (trace the model at batch 1 to re-batch it)

#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
  func.func @forward(%arg0: tensor<2x3x4xf32>) -> tensor<2x2x3x3xf32> {
    %w = arith.constant dense<[[0.5, -0.25, 0.125, 0.3], [0.2, -0.1, 0.05, 0.4], [-0.3, 0.15, 0.2, -0.05], [0.1, 0.35, -0.2, 0.25]]> : tensor<4x4xf32>
    %zero = arith.constant 0.000000e+00 : f32
    // q = Linear(x) on [B*T, D]
    %flat = tensor.collapse_shape %arg0 [[0, 1], [2]] : tensor<2x3x4xf32> into tensor<6x4xf32>
    %e64 = tensor.empty() : tensor<6x4xf32>
    %z64 = linalg.fill ins(%zero : f32) outs(%e64 : tensor<6x4xf32>) -> tensor<6x4xf32>
    %qf = linalg.matmul ins(%flat, %w : tensor<6x4xf32>, tensor<4x4xf32>) outs(%z64 : tensor<6x4xf32>) -> tensor<6x4xf32>
    %q3 = tensor.expand_shape %qf [[0, 1], [2]] output_shape [2, 3, 4] : tensor<6x4xf32> into tensor<2x3x4xf32>
    // heads: [B, T, H, d] -> [B, H, T, d] -> [B*H, T, d]
    %q4 = tensor.expand_shape %q3 [[0], [1], [2, 3]] output_shape [2, 3, 2, 2] : tensor<2x3x4xf32> into tensor<2x3x2x2xf32>
    %et = tensor.empty() : tensor<2x2x3x2xf32>
    %qt = linalg.transpose ins(%q4 : tensor<2x3x2x2xf32>) outs(%et : tensor<2x2x3x2xf32>) permutation = [0, 2, 1, 3]
    %qh = tensor.collapse_shape %qt [[0, 1], [2], [3]] : tensor<2x2x3x2xf32> into tensor<4x3x2xf32>
    %ek = tensor.empty() : tensor<4x2x3xf32>
    %kt = linalg.transpose ins(%qh : tensor<4x3x2xf32>) outs(%ek : tensor<4x2x3xf32>) permutation = [0, 2, 1]
    %es = tensor.empty() : tensor<4x3x3xf32>
    %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x3x3xf32>) -> tensor<4x3x3xf32>
    %s = linalg.batch_matmul ins(%qh, %kt : tensor<4x3x2xf32>, tensor<4x2x3xf32>) outs(%zs : tensor<4x3x3xf32>) -> tensor<4x3x3xf32>
    %s4 = tensor.expand_shape %s [[0, 1], [2], [3]] output_shape [2, 2, 3, 3] : tensor<4x3x3xf32> into tensor<2x2x3x3xf32>
    %eo = tensor.empty() : tensor<2x2x3x3xf32>
    %y = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s4 : tensor<2x2x3x3xf32>) outs(%eo : tensor<2x2x3x3xf32>) {
    ^bb0(%in: f32, %out: f32):
      %t = math.tanh %in : f32
      linalg.yield %t : f32
    } -> tensor<2x2x3x3xf32>
    return %y : tensor<2x2x3x3xf32>
  }

// -----

func.func @slice_of_merged(%arg0: tensor<2x3x4xf32>) -> tensor<2x3x2xf32> {
  %flat = tensor.collapse_shape %arg0 [[0, 1], [2]] : tensor<2x3x4xf32> into tensor<6x4xf32>
  %half = tensor.extract_slice %flat[0, 0] [6, 2] [1, 1] : tensor<6x4xf32> to tensor<6x2xf32>
  %r = tensor.expand_shape %half [[0, 1], [2]] output_shape [2, 3, 2] : tensor<6x2xf32> into tensor<2x3x2xf32>
  return %r : tensor<2x3x2xf32>
}
