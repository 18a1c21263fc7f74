// RUN: amp-opt %s --amp-build-train-step="loss=mse" -o %t.mlir 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: FileCheck %s < %t.mlir
// A LayerNorm and an RMSNorm exported without their weights
// (dense_resource<__elided__>), in the form torch-mlir gives them: the mean,
// the variance (or the mean square), `+ eps`, the rsqrt, the centring and
// the product each an elementwise linalg.generic of its own, then the
// weight (gamma) and the bias (beta) in generics of their own. gamma starts
// at 1 and beta at 0, as nn.LayerNorm / nn.RMSNorm start them; before,
// every elided rank-1 weight started at 0, so the model's output was beta
// and no gradient reached anything before the norm. A scale applied after
// the bias (%late) is a later layer's weight and keeps the start of any
// elided weight.
// REMARK: remark: amp-build-train-step: the normalisation weights (2) and biases (1) printed without data (__elided__) start at 1 and 0, PyTorch's initial values, not random
// PARAMS: func.func @train_step(%arg0: tensor<8xf32> {amp.elided_at = {{loc\("[^"]*":[0-9]+:[0-9]+\)}}, amp.initial_value = dense<1.000000e+00> : tensor<8xf32>, amp.role = "param"}, %arg1: tensor<8xf32> {amp.elided_at = {{loc\("[^"]*":[0-9]+:[0-9]+\)}}, amp.initial_value = dense<0.000000e+00> : tensor<8xf32>, amp.role = "param"}, %arg2: tensor<8xf32> {amp.elided_at = {{loc\("[^"]*":[0-9]+:[0-9]+\)}}, amp.initial_value = dense_resource<__elided__> : tensor<8xf32>, amp.role = "param"}, %arg3: tensor<8xf32> {amp.elided_at = {{loc\("[^"]*":[0-9]+:[0-9]+\)}}, amp.initial_value = dense<1.000000e+00> : tensor<8xf32>, amp.role = "param"}
// CHECK-LABEL: func.func @train_step(
// RUN: FileCheck %s --check-prefix=PARAMS < %t.mlir
// It lowers and trains.
// RUN: amp-run %t.mlir --data=synthetic --run=f32 --max-steps=3 --progress=false | FileCheck %s --check-prefix=TRAIN
// TRAIN: f32 {{[0-9]+\.[0-9]+}} {{[-0-9.]+}} - 0 3
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0, 0)>
#col = affine_map<(d0, d1) -> (d1)>
module {
func.func @forward(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %gamma = arith.constant dense_resource<__elided__> : tensor<8xf32>
  %beta = arith.constant dense_resource<__elided__> : tensor<8xf32>
  %late = arith.constant dense_resource<__elided__> : tensor<8xf32>
  %rms_w = arith.constant dense_resource<__elided__> : tensor<8xf32>
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 8.0 : f32
  %eps = arith.constant 1.0e-5 : f64
  %e1 = tensor.empty() : tensor<4x1xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4x1xf32>) -> tensor<4x1xf32>
  // LayerNorm: mean
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x8xf32>) outs(%z1 : tensor<4x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.addf %in, %out : f32
    linalg.yield %a : f32
  } -> tensor<4x1xf32>
  %mean = linalg.generic {indexing_maps = [#row, #id], iterator_types = ["parallel", "parallel"]} ins(%sum : tensor<4x1xf32>) outs(%e1 : tensor<4x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %d = arith.divf %in, %n : f32
    linalg.yield %d : f32
  } -> tensor<4x1xf32>
  %xc = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %mean : tensor<4x8xf32>, tensor<4x1xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %s = arith.subf %in, %m : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  // variance
  %sq = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%xc : tensor<4x8xf32>) outs(%z1 : tensor<4x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %p = arith.mulf %in, %in : f32
    %a = arith.addf %p, %out : f32
    linalg.yield %a : f32
  } -> tensor<4x1xf32>
  %var = linalg.generic {indexing_maps = [#row, #id], iterator_types = ["parallel", "parallel"]} ins(%sq : tensor<4x1xf32>) outs(%e1 : tensor<4x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %d = arith.divf %in, %n : f32
    linalg.yield %d : f32
  } -> tensor<4x1xf32>
  %vpe = linalg.generic {indexing_maps = [#row, #id], iterator_types = ["parallel", "parallel"]} ins(%var : tensor<4x1xf32>) outs(%e1 : tensor<4x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %t = arith.truncf %eps : f64 to f32
    %a = arith.addf %in, %t : f32
    linalg.yield %a : f32
  } -> tensor<4x1xf32>
  %rstd = linalg.generic {indexing_maps = [#row, #id], iterator_types = ["parallel", "parallel"]} ins(%vpe : tensor<4x1xf32>) outs(%e1 : tensor<4x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = math.rsqrt %in : f32
    linalg.yield %r : f32
  } -> tensor<4x1xf32>
  %norm = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%xc, %rstd : tensor<4x8xf32>, tensor<4x1xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %r: f32, %out: f32):
    %m = arith.mulf %in, %r : f32
    linalg.yield %m : f32
  } -> tensor<4x8xf32>
  %scaled = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]} ins(%norm, %gamma : tensor<4x8xf32>, tensor<8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %g: f32, %out: f32):
    %m = arith.mulf %in, %g : f32
    linalg.yield %m : f32
  } -> tensor<4x8xf32>
  %ln = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]} ins(%scaled, %beta : tensor<4x8xf32>, tensor<8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %b: f32, %out: f32):
    %a = arith.addf %in, %b : f32
    linalg.yield %a : f32
  } -> tensor<4x8xf32>
  %y = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]} ins(%ln, %late : tensor<4x8xf32>, tensor<8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %w: f32, %out: f32):
    %m = arith.mulf %in, %w : f32
    linalg.yield %m : f32
  } -> tensor<4x8xf32>
  // RMSNorm of %y: y * rsqrt(mean(y^2) + eps) * w, in one generic after
  // the mean square.
  %ms = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%y : tensor<4x8xf32>) outs(%z1 : tensor<4x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %p = arith.mulf %in, %in : f32
    %a = arith.addf %p, %out : f32
    linalg.yield %a : f32
  } -> tensor<4x1xf32>
  %rms = linalg.generic {indexing_maps = [#id, #row, #col, #id], iterator_types = ["parallel", "parallel"]} ins(%y, %ms, %rms_w : tensor<4x8xf32>, tensor<4x1xf32>, tensor<8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %s: f32, %w: f32, %out: f32):
    %d = arith.divf %s, %n : f32
    %t = arith.truncf %eps : f64 to f32
    %a = arith.addf %d, %t : f32
    %r = math.rsqrt %a : f32
    %m = arith.mulf %in, %r : f32
    %o = arith.mulf %m, %w : f32
    linalg.yield %o : f32
  } -> tensor<4x8xf32>
  return %rms : tensor<4x8xf32>
}
}
