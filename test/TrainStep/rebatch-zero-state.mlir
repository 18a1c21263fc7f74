// Re-batching a recurrent cell's zero state traced at batch 2 (2026-12-07;
// refused before): h0 = torch.zeros(B, H) is a fill of the traced batch, and
// h0 @ U + b, a matmul of that fill and a bias add, is the same for every
// example. A linalg op whose inputs along the batch loop can all be rebuilt
// (a fill, an empty tensor, a splat, a broadcast, such an op) is rebuilt at
// the new batch with them.
// RUN: amp-opt %s --amp-build-train-step="loss=mse batch=16 function=forward" -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// CHECK-LABEL: func.func @train_step(
// CHECK: linalg.matmul ins(%arg{{[0-9]+}}, %arg0 : tensor<16x3xf32>, tensor<3x3xf32>)
// CHECK: %[[H0:.*]] = linalg.fill {{.*}} -> tensor<16x3xf32>
// CHECK-NEXT: linalg.matmul ins(%[[H0]], %arg1 : tensor<16x3xf32>, tensor<3x3xf32>) outs(%{{.*}} : tensor<16x3xf32>)
// RUN: amp-run %t.mlir --data=synthetic --check-gradients | FileCheck %s --check-prefix=GRAD
// GRAD: #0{{ +}}3x3xf32
// GRAD: #1{{ +}}3x3xf32
// GRAD: #2{{ +}}3xf32
// GRAD: (tolerance 1e-05): passed
// RUN: amp-run %t.mlir --data=synthetic --run=f32,f16+dynamic,bf16 --max-steps=3 --threads=1 --progress=false 2>&1 | FileCheck %s --check-prefix=TRAIN
// TRAIN: f32{{ +}}[[L:[0-9]\.[0-9][0-9]]]
// TRAIN: f16 + dynamic{{ +}}[[L]]
// TRAIN: bf16{{ +}}[[L]]
//
// A rebuilt op that reads the batch's position is still refused:
// RUN: not amp-opt %s --split-input-file --amp-rebatch="batch=16" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: rebatch-zero-state.mlir:[[#@LINE+42]]:8: error: amp-rebatch: batch=16: operand #1 of 'linalg.generic' ('tensor<2x3xf32>') is indexed by loop d0, the batch (dimension 0 of the input, argument #0), but does not derive from the input; it cannot be re-batched

#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d1)>
func.func @forward(%arg0: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %w = arith.constant dense<[[0.5, -0.25, 0.125], [0.3, 0.2, -0.1], [0.05, 0.4, -0.35]]> : tensor<3x3xf32>
  %u = arith.constant dense<[[0.1, -0.2, 0.3], [-0.3, 0.25, 0.15], [0.45, -0.4, 0.2]]> : tensor<3x3xf32>
  %b = arith.constant dense<[0.1, -0.2, 0.05]> : tensor<3xf32>
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<2x3xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = linalg.matmul ins(%arg0, %w : tensor<2x3xf32>, tensor<3x3xf32>) outs(%1 : tensor<2x3xf32>) -> tensor<2x3xf32>
  %h0 = linalg.fill ins(%cst : f32) outs(%0 : tensor<2x3xf32>) -> tensor<2x3xf32>
  %3 = linalg.matmul ins(%h0, %u : tensor<2x3xf32>, tensor<3x3xf32>) outs(%1 : tensor<2x3xf32>) -> tensor<2x3xf32>
  %4 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%3, %b : tensor<2x3xf32>, tensor<3xf32>) outs(%0 : tensor<2x3xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %6 = arith.addf %in, %in_0 : f32
    linalg.yield %6 : f32
  } -> tensor<2x3xf32>
  %5 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%2, %4 : tensor<2x3xf32>, tensor<2x3xf32>) outs(%0 : tensor<2x3xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %6 = math.tanh %in : f32
    %7 = arith.addf %6, %in_0 : f32
    linalg.yield %7 : f32
  } -> tensor<2x3xf32>
  return %5 : tensor<2x3xf32>
}

// -----

func.func @position(%arg0: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<2x3xf32>
  %h0 = linalg.fill ins(%cst : f32) outs(%0 : tensor<2x3xf32>) -> tensor<2x3xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%h0 : tensor<2x3xf32>) outs(%0 : tensor<2x3xf32>) {
  ^bb0(%in: f32, %out: f32):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i64
    %f = arith.sitofp %ii : i64 to f32
    %s = arith.addf %in, %f : f32
    linalg.yield %s : f32
  } -> tensor<2x3xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%arg0, %p : tensor<2x3xf32>, tensor<2x3xf32>) outs(%0 : tensor<2x3xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %s = arith.addf %in, %in_0 : f32
    linalg.yield %s : f32
  } -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}
