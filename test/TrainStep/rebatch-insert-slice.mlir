// Re-batching through tensor.insert_slice (2026-12-07; refused before):
// torch.cat written as insert_slices into an empty tensor (UNet skip
// connections, DenseNet) and ConvTranspose2d as torch-mlir lowers it (the
// input inserted with stride 2 into a zero fill, then a convolution). The
// source and the destination carry the batch in dimension 0; the empty
// tensor and the zero fill are rebuilt at the new batch, the slice's size
// there follows.
// RUN: amp-opt %s --amp-build-train-step="loss=mse batch=8 function=forward" -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// CHECK-LABEL: func.func @train_step(
// CHECK: %[[CAT:.*]] = tensor.empty() : tensor<8x4x3x3xf32>
// CHECK: tensor.insert_slice %{{.*}} into %[[CAT]][0, 0, 0, 0] [8, 2, 3, 3] [1, 1, 1, 1] : tensor<8x2x3x3xf32> into tensor<8x4x3x3xf32>
// CHECK: tensor.insert_slice %{{.*}} into %{{.*}}[0, 2, 0, 0] [8, 2, 3, 3] [1, 1, 1, 1] : tensor<8x2x3x3xf32> into tensor<8x4x3x3xf32>
// CHECK: linalg.fill {{.*}} -> tensor<8x4x8x8xf32>
// CHECK: tensor.insert_slice %{{.*}} into %{{.*}}[0, 0, 1, 1] [8, 4, 3, 3] [1, 1, 2, 2] : tensor<8x4x3x3xf32> into tensor<8x4x8x8xf32>
//
// Against finite differences at batch 8, and training in every precision:
// RUN: amp-run %t.mlir --data=synthetic --check-gradients | FileCheck %s --check-prefix=GRAD
// GRAD: (tolerance 1e-05): passed
// RUN: amp-run %t.mlir --data=synthetic --run=f32,f16+dynamic,bf16 --max-steps=3 --threads=1 --progress=false 2>&1 | FileCheck %s --check-prefix=TRAIN
// TRAIN: f32{{ +}}[[L:[0-9]\.[0-9][0-9]]]
// TRAIN: f16 + dynamic{{ +}}[[L]]
// TRAIN: bf16{{ +}}[[L]]
//
// A slice of part of the batch, and a batched value inserted into a
// destination that cannot be rebuilt, are refused, located:
// RUN: not amp-opt %s --split-input-file --amp-rebatch="batch=8" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: rebatch-insert-slice.mlir:[[#@LINE+34]]:8: error: amp-rebatch: batch=8: 'tensor.insert_slice' writes part of dimension 0, the batch (dimension 0 of the input, argument #0); only a slice of the whole batch can be re-batched
// BAD: rebatch-insert-slice.mlir:[[#@LINE+41]]:8: error: amp-rebatch: batch=8: 'tensor.insert_slice' inserts a value that carries the batch in dimension 0 into one that neither does nor can be rebuilt with it (an empty tensor, a splat or a fill of one); it cannot be re-batched

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @forward(%x: tensor<1x2x3x3xf32>) -> tensor<1x2x6x6xf32> {
    %zero = arith.constant 0.000000e+00 : f32
    %w = arith.constant dense<[[[[0.3]], [[-0.2]]], [[[0.5]], [[0.4]]]]> : tensor<2x2x1x1xf32>
    %wt = arith.constant dense<0.125> : tensor<2x4x3x3xf32>
    %e2 = tensor.empty() : tensor<1x2x3x3xf32>
    %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
    %conv = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x2x3x3xf32>, tensor<2x2x1x1xf32>) outs(%z2 : tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
    %relu = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : tensor<1x2x3x3xf32>) outs(%e2 : tensor<1x2x3x3xf32>) {
    ^bb0(%in: f32, %out: f32):
      %m = arith.maximumf %in, %zero : f32
      linalg.yield %m : f32
    } -> tensor<1x2x3x3xf32>
    // torch.cat([conv, relu], dim=1)
    %cat0 = tensor.empty() : tensor<1x4x3x3xf32>
    %cat1 = tensor.insert_slice %conv into %cat0[0, 0, 0, 0] [1, 2, 3, 3] [1, 1, 1, 1] : tensor<1x2x3x3xf32> into tensor<1x4x3x3xf32>
    %cat = tensor.insert_slice %relu into %cat1[0, 2, 0, 0] [1, 2, 3, 3] [1, 1, 1, 1] : tensor<1x2x3x3xf32> into tensor<1x4x3x3xf32>
    // ConvTranspose2d(4, 2, 3, stride=2, padding=1, output_padding=1)
    %e8 = tensor.empty() : tensor<1x4x8x8xf32>
    %z8 = linalg.fill ins(%zero : f32) outs(%e8 : tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
    %up = tensor.insert_slice %cat into %z8[0, 0, 1, 1] [1, 4, 3, 3] [1, 1, 2, 2] : tensor<1x4x3x3xf32> into tensor<1x4x8x8xf32>
    %e6 = tensor.empty() : tensor<1x2x6x6xf32>
    %z6 = linalg.fill ins(%zero : f32) outs(%e6 : tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
    %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%up, %wt : tensor<1x4x8x8xf32>, tensor<2x4x3x3xf32>) outs(%z6 : tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
    return %y : tensor<1x2x6x6xf32>
}

// -----

func.func @part_of_batch(%x: tensor<2x3xf32>) -> tensor<4x3xf32> {
  %e = tensor.empty() : tensor<4x3xf32>
  %r = tensor.insert_slice %x into %e[1, 0] [2, 3] [1, 1] : tensor<2x3xf32> into tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}

// -----

func.func @into_weights(%x: tensor<1x3xf32>) -> tensor<1x3xf32> {
  %w = arith.constant dense<[[1.0, 2.0, 3.0]]> : tensor<1x3xf32>
  %r = tensor.insert_slice %x into %w[0, 0] [1, 3] [1, 1] : tensor<1x3xf32> into tensor<1x3xf32>
  return %r : tensor<1x3xf32>
}
