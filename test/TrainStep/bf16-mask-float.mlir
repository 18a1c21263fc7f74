// A mask's `.float()` feeding a contraction (2026-12-07): autocast gives the
// `arith.uitofp` of the i1 mask the bf16 type, and without AVX512_BF16 LLVM
// converted it through a call of `__truncsfbf2`, which the JIT does not
// have: the bf16 step failed to load ("Symbols not found") while f32 and
// f16 trained. amp-cpu-bf16-int-casts-via-f32 converts through f32.
// RUN: amp-opt %s --amp-build-train-step="loss=mse" -o %t.mlir
// RUN: amp-run %t.mlir --data=synthetic --run=f32,f16+dynamic,bf16 --max-steps=3 --threads=1 --progress=false 2>&1 | FileCheck %s
// CHECK-NOT: Symbols not found
// CHECK: f32{{ +}}[[L:[0-9]\.[0-9][0-9]]]
// CHECK: f16 + dynamic{{ +}}[[L]]
// CHECK: bf16{{ +}}[[L]]

#map = affine_map<(d0, d1) -> (d0, d1)>
func.func @forward(%arg0: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %w = arith.constant dense<[[0.5, -0.25, 0.125], [0.3, 0.2, -0.1], [0.05, 0.4, -0.35]]> : tensor<3x3xf32>
  %zero = arith.constant 0.000000e+00 : f32
  %half = arith.constant 5.000000e-01 : f32
  %e = tensor.empty() : tensor<2x3xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  %eb = tensor.empty() : tensor<2x3xi1>
  // (x > 0.5).float() @ w
  %mask = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<2x3xf32>) outs(%eb : tensor<2x3xi1>) {
  ^bb0(%in: f32, %out: i1):
    %c = arith.cmpf ogt, %in, %half : f32
    linalg.yield %c : i1
  } -> tensor<2x3xi1>
  %mf = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%mask : tensor<2x3xi1>) outs(%e : tensor<2x3xf32>) {
  ^bb0(%in: i1, %out: f32):
    %f = arith.uitofp %in : i1 to f32
    linalg.yield %f : f32
  } -> tensor<2x3xf32>
  %y = linalg.matmul ins(%mf, %w : tensor<2x3xf32>, tensor<3x3xf32>) outs(%z : tensor<2x3xf32>) -> tensor<2x3xf32>
  return %y : tensor<2x3xf32>
}
