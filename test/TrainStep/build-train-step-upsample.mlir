// Nearest-neighbour upsampling as torch-mlir lowers aten.upsample_nearest2d
// (UNet and FPN decoders): a generic with only an output whose body reads
// the smaller tensor with tensor.extract at (h / 2, w / 2). Here it reads a
// ReLU's output and a max pool's, and the two are added:
// - amp-recompute-for-backward recomputes the ReLU in the backward and with
//   it the upsampling that captures it, the ReLU's clone first (a clone
//   placed after the clone that reads it did not verify: "operand #0 does
//   not dominate this use");
// - amp-autocast runs the max pool in f16/bf16 (clear) and the upsampling
//   reads its result through one widened f32 copy, as the body's f32
//   tensor.extract expects (it used to read the narrow tensor: "result type
//   matches element type of tensor" failed).
// RUN: amp-opt %s --amp-build-train-step="loss=mse" -o %t.mlir
// RUN: amp-opt %t.mlir --amp-recompute-for-backward | FileCheck %s --check-prefix=RECOMPUTE
// RECOMPUTE: amp.loss_grad
// RECOMPUTE: %[[RELU:.*]] = linalg.generic {{.*}}attrs = {amp.recomputed}
// RECOMPUTE: arith.select
// RECOMPUTE: = linalg.generic {{.*}}attrs = {amp.recomputed}
// RECOMPUTE: tensor.extract %[[RELU]]
// RUN: amp-opt %t.mlir --amp-mixed-precision="precision=bf16 loss-scale=none" | FileCheck %s --check-prefix=AUTOCAST
// AUTOCAST: %[[POOL:.*]] = linalg.pooling_nchw_max {{.*}} -> tensor<1x2x2x2xbf16>
// AUTOCAST: %[[WIDE:.*]] = arith.extf %[[POOL]] : tensor<1x2x2x2xbf16> to tensor<1x2x2x2xf32>
// AUTOCAST: tensor.extract %[[WIDE]][{{.*}}] : tensor<1x2x2x2xf32>
//
// Against finite differences, and training in every precision:
// RUN: amp-run %t.mlir --data=synthetic --check-gradients | FileCheck %s --check-prefix=GRAD
// GRAD: (tolerance 1e-05): passed
// RUN: amp-run %t.mlir --data=synthetic --run=f32,f16+dynamic,bf16 --max-steps=3 --threads=1 --progress=false 2>&1 | FileCheck %s --check-prefix=TRAIN
// TRAIN: f32{{ +}}[[L:[0-9]\.[0-9][0-9]]]
// TRAIN: f16 + dynamic{{ +}}[[L]]
// TRAIN: bf16{{ +}}[[L]]

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
module {
  func.func @forward(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
    %w = arith.constant dense<[[[[0.3]], [[-0.2]]], [[[0.5]], [[0.4]]]]> : tensor<2x2x1x1xf32>
    %zero = arith.constant 0.000000e+00 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %c2 = arith.constant 2 : index
    %e4 = tensor.empty() : tensor<1x2x4x4xf32>
    %z4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
    %conv = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) outs(%z4 : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
    %relu = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%conv : tensor<1x2x4x4xf32>) outs(%e4 : tensor<1x2x4x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %gt = arith.cmpf ugt, %in, %zero : f32
      %r = arith.select %gt, %in, %zero : f32
      linalg.yield %r : f32
    } -> tensor<1x2x4x4xf32>
    %e2 = tensor.empty() : tensor<1x2x2x2xf32>
    %m2 = linalg.fill ins(%ninf : f32) outs(%e2 : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
    %window = tensor.empty() : tensor<2x2xf32>
    %pool = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%conv, %window : tensor<1x2x4x4xf32>, tensor<2x2xf32>) outs(%m2 : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
    // The ReLU read back to front along w (a gather of a recomputed value).
    %flip = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%e4 : tensor<1x2x4x4xf32>) {
    ^bb0(%out: f32):
      %i0 = linalg.index 0 : index
      %i1 = linalg.index 1 : index
      %i2 = linalg.index 2 : index
      %i3 = linalg.index 3 : index
      %c3 = arith.constant 3 : index
      %j = arith.subi %c3, %i3 : index
      %v = tensor.extract %relu[%i0, %i1, %i2, %j] : tensor<1x2x4x4xf32>
      linalg.yield %v : f32
    } -> tensor<1x2x4x4xf32>
    %up = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%e4 : tensor<1x2x4x4xf32>) {
    ^bb0(%out: f32):
      %i0 = linalg.index 0 : index
      %i1 = linalg.index 1 : index
      %i2 = linalg.index 2 : index
      %i3 = linalg.index 3 : index
      %h = arith.divui %i2, %c2 : index
      %v = arith.divui %i3, %c2 : index
      %p = tensor.extract %pool[%i0, %i1, %h, %v] : tensor<1x2x2x2xf32>
      linalg.yield %p : f32
    } -> tensor<1x2x4x4xf32>
    %sum = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%flip, %up : tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) outs(%e4 : tensor<1x2x4x4xf32>) {
    ^bb0(%a: f32, %b: f32, %out: f32):
      %s = arith.addf %a, %b : f32
      linalg.yield %s : f32
    } -> tensor<1x2x4x4xf32>
    return %sum : tensor<1x2x4x4xf32>
  }
}
