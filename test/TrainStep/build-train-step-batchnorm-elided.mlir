// RUN: amp-opt %s --amp-build-train-step="loss=mse" -o %t.mlir 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: FileCheck %s < %t.mlir
// RUN: amp-run %t.mlir --data=synthetic --run=f32 --max-steps=3 --progress=false | FileCheck %s --check-prefix=TRAIN
// A BatchNorm exported without its weights (--mlir-elide-resource-strings-if-larger:
// every blob is dense_resource<__elided__>). gamma and beta are weights
// that start where nn.BatchNorm starts them (1 and 0), not random as other
// elided weights (the scale %w applied in a later op does); the running
// statistics stay constants and, having no data, start where PyTorch
// starts them: running_mean 0, running_var 1.
// REMARK: remark: amp-build-train-step: this constant stays a constant: a BatchNorm running mean {{.*}}; its blob was printed without data: it is 0, PyTorch's initial running_mean
// REMARK: remark: amp-build-train-step: this constant stays a constant: a BatchNorm running variance {{.*}}; its blob was printed without data: it is 1, PyTorch's initial running_var
// REMARK: remark: amp-build-train-step: the normalisation weights (1) and biases (1) printed without data (__elided__) start at 1 and 0, PyTorch's initial values, not random
// CHECK-LABEL: func.func @train_step(
// CHECK-DAG: arith.constant dense<0.000000e+00> : tensor<2xf32>
// CHECK-DAG: arith.constant dense<1.000000e+00> : tensor<2xf32>
// CHECK-NOT: __elided__
// CHECK: return
// RUN: FileCheck %s --check-prefix=PARAMS < %t.mlir
// PARAMS: func.func @train_step(%arg0: tensor<2xf32> {amp.elided_at = {{loc\("[^"]*":[0-9]+:[0-9]+\)}}, amp.initial_value = dense<1.000000e+00> : tensor<2xf32>, amp.role = "param"}, %arg1: tensor<2xf32> {amp.elided_at = {{loc\("[^"]*":[0-9]+:[0-9]+\)}}, amp.initial_value = dense<0.000000e+00> : tensor<2xf32>, amp.role = "param"}, %arg2: tensor<2xf32> {amp.elided_at = {{loc\("[^"]*":[0-9]+:[0-9]+\)}}, amp.initial_value = dense_resource<__elided__> : tensor<2xf32>, amp.role = "param"}, %arg3: tensor<2xf32> {amp.role = "opt_state"}
// It lowers and trains (the elided statistics left as constants could not:
// 'arith.constant' op holds dense_resource<__elided__> without data).
// RUN: amp-opt %t.mlir --amp-mixed-precision --amp-lower-to-llvm -o /dev/null
// TRAIN: f32 {{[0-9]+\.[0-9]+}} - - 0 3
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#c = affine_map<(d0, d1, d2, d3) -> (d1)>
module {
func.func @forward(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %gamma = arith.constant dense_resource<__elided__> : tensor<2xf32>
  %beta = arith.constant dense_resource<__elided__> : tensor<2xf32>
  %mean = arith.constant dense_resource<__elided__> : tensor<2xf32>
  %var = arith.constant dense_resource<__elided__> : tensor<2xf32>
  %w = arith.constant dense_resource<__elided__> : tensor<2xf32>
  %e = tensor.empty() : tensor<1x2x4x4xf32>
  %0 = linalg.generic {indexing_maps = [#map, #c, #c, #c, #c, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x, %gamma, %beta, %mean, %var : tensor<1x2x4x4xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) outs(%e : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %g: f32, %b: f32, %m: f32, %v: f32, %out: f32):
    %t = arith.constant 1.0e-5 : f32
    %a = arith.addf %v, %t : f32
    %r = math.rsqrt %a : f32
    %s = arith.subf %in, %m : f32
    %n = arith.mulf %s, %r : f32
    %y = arith.mulf %n, %g : f32
    %z = arith.addf %y, %b : f32
    linalg.yield %z : f32
  } -> tensor<1x2x4x4xf32>
  %1 = linalg.generic {indexing_maps = [#map, #c, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%0, %w : tensor<1x2x4x4xf32>, tensor<2xf32>) outs(%e : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %y = arith.mulf %in, %s : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  return %1 : tensor<1x2x4x4xf32>
}
}
