// Regression (break-it pass, 2026-12-04): amp-keep-accumulators-low rounded
// a linear's matmul result to f16 before its bias add when the backward
// read the sum, so x W = 8e4 (beyond f16's 65504) became inf although
// x W + b = 0 is small: the f16 step stopped with a non-finite loss where
// f32 and PyTorch's autocast (addmm rounds once, after the bias) train.
// The sum is now rounded: f16 trains, with losses within f16's rounding of
// f32's.
// RUN: amp-opt %s --amp-build-train-step=loss=mse -o %t.step 2>/dev/null
// RUN: amp-run %t.step --run=f32,f16 --threads=1 --data=synthetic --synthetic-examples=64 --max-steps=2 --progress=false | FileCheck %s
// CHECK: f32 {{ *}}2.508{{[0-9]}}e+08
// CHECK-NEXT: f16 {{ *}}2.508{{[0-9]}}e+08
// The model: a linear regression head y = x W + b, 8 features to 4
// values per example (batch 16), W = 2e4 and b = -8e4 to start with, so
// x W is about 8e4 for the synthetic inputs in [0, 1) while y is small.
#map0 = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d1)>
func.func @head(%x: tensor<16x8xf32>) -> tensor<16x4xf32> {
  %w = arith.constant dense<2.0e4> : tensor<8x4xf32>
  %b = arith.constant dense<-8.0e4> : tensor<4xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x4xf32>) -> tensor<16x4xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<16x8xf32>, tensor<8x4xf32>) outs(%f : tensor<16x4xf32>) -> tensor<16x4xf32>
  %y = linalg.generic {indexing_maps = [#map0, #map1, #map0], iterator_types = ["parallel", "parallel"]} ins(%mm, %b : tensor<16x4xf32>, tensor<4xf32>) outs(%e : tensor<16x4xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %s = arith.addf %a, %c : f32
    linalg.yield %s : f32
  } -> tensor<16x4xf32>
  return %y : tensor<16x4xf32>
}
