// A linear gather whose weight reads another loop's position (linalg.index 1)
// than its indices need: the adjoint's weight read the body's linalg.index
// from outside the body ("operand #0 does not dominate this use").
// RUN: amp-opt %s --amp-build-train-step="loss=mse" -o %t.mlir
// RUN: amp-run %t.mlir --data=synthetic --check-gradients | FileCheck %s
// CHECK: (tolerance 1e-05): passed

func.func @forward(%arg0: tensor<1x4xf32>) -> tensor<1x4xf32> {
  %w = arith.constant dense<[0.7, -0.4, 1.3, 0.9]> : tensor<4xf32>
  %w2 = arith.constant dense<[0.5, 1.5, -0.8, 0.2]> : tensor<4xf32>
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %e = tensor.empty() : tensor<1x4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4xf32>) -> tensor<1x4xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%arg0, %w : tensor<1x4xf32>, tensor<4xf32>) outs(%e : tensor<1x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    %m1 = arith.addf %m, %half : f32
    linalg.yield %m1 : f32
  } -> tensor<1x4xf32>
  %t2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%arg0, %w2 : tensor<1x4xf32>, tensor<4xf32>) outs(%e : tensor<1x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<1x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<1x4xf32>) {
  ^bb0(%out: f32):
    %n = linalg.index 0 : index
    %j = linalg.index 1 : index
    %ji = arith.index_cast %j : index to i64
    %jf = arith.sitofp %ji : i64 to f32
    %g1 = tensor.extract %t[%n, %c1] : tensor<1x4xf32>
    %s = arith.mulf %g1, %jf : f32
    linalg.yield %s : f32
  } -> tensor<1x4xf32>
  return %r : tensor<1x4xf32>
}
