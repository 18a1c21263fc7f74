// RUN: amp-opt %s --amp-build-train-step="loss=mse" -o %t.mlir 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: FileCheck %s < %t.mlir
// RUN: amp-opt %s --amp-build-train-step="loss=mse freeze-running-stats=false" 2>&1 | FileCheck %s --check-prefix=ALL
// torch-mlir's export of two eval-mode BatchNorms at their initialisation
// (gamma = running_var = 1, beta = running_mean = 0): constant uniquing
// leaves one dense<1.0> and one dense<0.0> that both layers read, each in
// two roles. In PyTorch these are four parameters (two gammas, two betas)
// and four buffers. Each use becomes its own constant
// (splitSharedConstants); the running statistics are found by how they are
// read, rsqrt(var + eps) and x - mean, and stay constants with one remark
// per constant of the model (runningStatisticReason).
//
// REMARK: build-train-step-batchnorm.mlir:{{[0-9]+}}:11: remark: amp-build-train-step: this constant (at its 2 uses) stays a constant: a BatchNorm running mean (subtracted before rsqrt(var + eps) scales), a buffer PyTorch never trains
// REMARK: build-train-step-batchnorm.mlir:{{[0-9]+}}:11: remark: amp-build-train-step: this constant (at its 2 uses) stays a constant: a BatchNorm running variance (read as rsqrt(v + eps) or sqrt(v + eps))
// REMARK-NOT: remark
//
// Four parameters of 2 elements: beta and gamma of each layer (and
// their momentum buffers).
// CHECK: func.func @train_step(%arg0: tensor<2xf32> {amp.initial_value = dense<0.000000e+00> : tensor<2xf32>, amp.role = "param"}, %arg1: tensor<2xf32> {amp.initial_value = dense<0.000000e+00> : tensor<2xf32>, amp.role = "param"}, %arg2: tensor<2xf32> {amp.initial_value = dense<1.000000e+00> : tensor<2xf32>, amp.role = "param"}, %arg3: tensor<2xf32> {amp.initial_value = dense<1.000000e+00> : tensor<2xf32>, amp.role = "param"}, %arg4: tensor<2xf32> {amp.role = "opt_state"}
// With freeze-running-stats=false the buffers train too: eight (and their
// eight momentum buffers).
// ALL: func.func @train_step(%arg0: tensor<2xf32> {{.*}}%arg7: tensor<2xf32> {amp.initial_value = {{[^}]*}}, amp.role = "param"}, %arg8: tensor<2xf32> {amp.role = "opt_state"}
//
// The gradients of the four against finite differences:
// RUN: amp-run %t.mlir --data=synthetic --check-gradients | FileCheck %s --check-prefix=GRAD
// GRAD-COUNT-4: #{{[0-3]}}{{ +}}2xf32{{ +}}4
// GRAD: (tolerance 1e-05): passed
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#c = affine_map<(d0, d1, d2, d3) -> (d1)>
module {
func.func @forward(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %mean = arith.constant dense<0.000000e+00> : tensor<2xf32>
  %ones = arith.constant dense<1.000000e+00> : tensor<2xf32>
  %eps = arith.constant 1.000000e-05 : f64
  %e = tensor.empty() : tensor<1x2x4x4xf32>
  %0 = linalg.generic {indexing_maps = [#map, #c, #c, #c, #c, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x, %ones, %mean, %mean, %ones : tensor<1x2x4x4xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) outs(%e : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %g: f32, %b: f32, %m: f32, %v: f32, %out: f32):
    %t = arith.truncf %eps : f64 to f32
    %a = arith.addf %v, %t : f32
    %r = math.rsqrt %a : f32
    %s = arith.subf %in, %m : f32
    %n = arith.mulf %s, %r : f32
    %y = arith.mulf %n, %g : f32
    %z = arith.addf %y, %b : f32
    linalg.yield %z : f32
  } -> tensor<1x2x4x4xf32>
  %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%0 : tensor<1x2x4x4xf32>) outs(%e : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %sq = arith.mulf %in, %in : f32
    %p = arith.addf %sq, %in : f32
    linalg.yield %p : f32
  } -> tensor<1x2x4x4xf32>
  %2 = linalg.generic {indexing_maps = [#map, #c, #c, #c, #c, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%1, %ones, %mean, %mean, %ones : tensor<1x2x4x4xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) outs(%e : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %g: f32, %b: f32, %m: f32, %v: f32, %out: f32):
    %t = arith.truncf %eps : f64 to f32
    %a = arith.addf %v, %t : f32
    %r = math.rsqrt %a : f32
    %s = arith.subf %in, %m : f32
    %n = arith.mulf %s, %r : f32
    %y = arith.mulf %n, %g : f32
    %z = arith.addf %y, %b : f32
    linalg.yield %z : f32
  } -> tensor<1x2x4x4xf32>
  return %2 : tensor<1x2x4x4xf32>
}
}
