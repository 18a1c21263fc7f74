// --check-gradients on a model that rounds to bf16 itself (an
// `arith.truncf` traced under torch.autocast): the check runs in f64, and
// the f64 -> bf16 conversion called `__truncdfbf2`, which the JIT lacks
// ("Symbols not found"); rounded, the loss would be a staircase anyway. The
// model's own f16/bf16 values are computed in f64 (the roundings left out,
// as the backward treats them) and the check says so.
// RUN: amp-opt %s --amp-build-train-step="loss=mse" -o %t.mlir
// RUN: amp-run %t.mlir --data=synthetic --check-gradients 2>&1 | FileCheck %s
// CHECK-NOT: Symbols not found
// CHECK: amp-run: the step computes f16/bf16 values of its own; they are computed in f64 here
// CHECK: #0{{ +}}4xf32
// CHECK: (tolerance 1e-05): passed

func.func @forward(%arg0: tensor<1x4xf32>) -> tensor<1x4xf32> {
  %cst = arith.constant dense<[0.5, -0.25, 0.75, 1.0]> : tensor<4xf32>
  %half = arith.constant 5.000000e-01 : f16
  %0 = tensor.empty() : tensor<1x4xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%arg0, %cst : tensor<1x4xf32>, tensor<4xf32>) outs(%0 : tensor<1x4xf32>) {
  ^bb0(%in: f32, %w: f32, %out: f32):
    %a = arith.truncf %in : f32 to bf16
    %b = arith.truncf %w : f32 to bf16
    %m = arith.mulf %a, %b : bf16
    %r = arith.extf %m : bf16 to f32
    %h = arith.truncf %r : f32 to f16
    %s = arith.addf %h, %half : f16
    %t = arith.extf %s : f16 to f32
    linalg.yield %t : f32
  } -> tensor<1x4xf32>
  return %1 : tensor<1x4xf32>
}
