// RUN: amp-opt %s --amp-build-train-step="loss=mse" -o %t.mlir 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: FileCheck %s < %t.mlir
// An elided normalization weight that reaches its product through a
// reshape (torch-mlir's `weight[None, None, :]` / unsqueeze: a
// tensor.expand_shape) and a bias broadcast by a copy generic first: gamma
// starts at 1 and beta at 0 (both started at 0: the output was beta and no
// gradient reached the layers before the norm).
// REMARK: remark: amp-build-train-step: the normalisation weights (1) and biases (1) printed without data (__elided__) start at 1 and 0, PyTorch's initial values, not random
// CHECK: func.func @train_step(%arg0: tensor<8xf32> {amp.elided_at = {{.*}}, amp.initial_value = dense<1.000000e+00> : tensor<8xf32>, amp.role = "param"}, %arg1: tensor<8xf32> {amp.elided_at = {{.*}}, amp.initial_value = dense<0.000000e+00> : tensor<8xf32>, amp.role = "param"}
#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#row = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#c3 = affine_map<(d0, d1, d2) -> (0, 0, d2)>
#col = affine_map<(d0, d1, d2) -> (d2)>
module {
func.func @forward(%x: tensor<2x4x8xf32>) -> tensor<2x4x8xf32> {
  %gamma = arith.constant dense_resource<__elided__> : tensor<8xf32>
  %beta = arith.constant dense_resource<__elided__> : tensor<8xf32>
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 8.0 : f32
  %e1 = tensor.empty() : tensor<2x4x1xf32>
  %e = tensor.empty() : tensor<2x4x8xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<2x4x1xf32>) -> tensor<2x4x1xf32>
  %ms = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : tensor<2x4x8xf32>) outs(%z1 : tensor<2x4x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %p = arith.mulf %in, %in : f32
    %a = arith.addf %p, %out : f32
    linalg.yield %a : f32
  } -> tensor<2x4x1xf32>
  %nrm = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %ms : tensor<2x4x8xf32>, tensor<2x4x1xf32>) outs(%e : tensor<2x4x8xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %d = arith.divf %s, %n : f32
    %eps = arith.constant 1.0e-5 : f32
    %a = arith.addf %d, %eps : f32
    %r = math.rsqrt %a : f32
    %m = arith.mulf %in, %r : f32
    linalg.yield %m : f32
  } -> tensor<2x4x8xf32>
  %g3 = tensor.expand_shape %gamma [[0, 1, 2]] output_shape [1, 1, 8] : tensor<8xf32> into tensor<1x1x8xf32>
  %scaled = linalg.generic {indexing_maps = [#id, #c3, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%nrm, %g3 : tensor<2x4x8xf32>, tensor<1x1x8xf32>) outs(%e : tensor<2x4x8xf32>) {
  ^bb0(%in: f32, %g: f32, %out: f32):
    %m = arith.mulf %in, %g : f32
    linalg.yield %m : f32
  } -> tensor<2x4x8xf32>
  %bb = linalg.generic {indexing_maps = [#col, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%beta : tensor<8xf32>) outs(%e : tensor<2x4x8xf32>) {
  ^bb0(%b: f32, %out: f32):
    linalg.yield %b : f32
  } -> tensor<2x4x8xf32>
  %y = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%scaled, %bb : tensor<2x4x8xf32>, tensor<2x4x8xf32>) outs(%e : tensor<2x4x8xf32>) {
  ^bb0(%in: f32, %b: f32, %out: f32):
    %a = arith.addf %in, %b : f32
    linalg.yield %a : f32
  } -> tensor<2x4x8xf32>
  return %y : tensor<2x4x8xf32>
}
}
