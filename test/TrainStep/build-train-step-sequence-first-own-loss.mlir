// A sequence-first model that returns its own loss (loss=none) against a
// target argument of the input's layout [S, B, E] (2026-12-07): one
// batch-dim value moves the target too when its rank is larger (it did
// not for a model with one input, and with S == B the step paired each
// example with another example's target). Both arguments take [B, S, E].
// RUN: amp-opt %s --amp-build-train-step="loss=none batch-dim=1" -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// CHECK-LABEL: func.func @train_step(
// CHECK-SAME: %[[X:arg[0-9]+]]: tensor<2x3x4xf32> {amp.role = "input"}
// CHECK-SAME: %[[T:arg[0-9]+]]: tensor<2x3x4xf32> {amp.role = "target"}
// CHECK-DAG: linalg.transpose ins(%[[X]] : tensor<2x3x4xf32>) outs(%{{.*}} : tensor<3x2x4xf32>) permutation = [1, 0, 2]
// CHECK-DAG: linalg.transpose ins(%[[T]] : tensor<2x3x4xf32>) outs(%{{.*}} : tensor<3x2x4xf32>) permutation = [1, 0, 2]
// RUN: amp-run %t.mlir --data=synthetic --check-gradients | FileCheck %s --check-prefix=GRAD
// GRAD: (tolerance 1e-05): passed
// The target's own value (batch-dim=1,0: the target stays) is refused, as
// its dimension 0 (3) is not the input's batch (2):
// RUN: not amp-opt %s --amp-build-train-step="loss=none batch-dim=1,0" -o /dev/null 2>&1 | FileCheck %s --check-prefix=KEEP
// KEEP: error: amp-build-train-step: batch-dim=1,0: the inputs disagree on the batch they were traced at: argument #0 has 2 in dimension 1, argument #1 has 3 in dimension 0

module attributes {torch.debug_module_name = "SeqFirstOwnLoss"} {
  ml_program.global private mutable @global_seed(dense<0> : tensor<i64>) : tensor<i64>
  func.func @forward(%arg0: tensor<3x2x4xf32>, %arg1: tensor<3x2x4xf32>) -> tensor<f32> {
    %cst_w0 = arith.constant dense<[[0.157424, 0.422877, 0.423136, 0.0295139], [0.160388, -0.0419126, 0.0559149, -0.112569], [0.258827, -0.400444, 0.425146, -0.179352], [0.474094, -0.0982849, -0.376128, 0.253352]]> : tensor<4x4xf32>
    %cst_s0 = arith.constant 0.000000e+00 : f32
    %cst_w2 = arith.constant dense<[0.0474386, -0.0233909, 0.0961636, 0.0481636]> : tensor<4xf32>
    %cst_s1 = arith.constant 2.400000e+01 : f32
    %1 = tensor.empty() : tensor<4x4xf32>
    %2 = linalg.transpose ins(%cst_w0 : tensor<4x4xf32>) outs(%1 : tensor<4x4xf32>) permutation = [1, 0] 
    %3 = tensor.empty() : tensor<3x4x4xf32>
    %4 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%2 : tensor<4x4xf32>) outs(%3 : tensor<3x4x4xf32>) {
    ^bb0(%a0: f32, %out: f32):
      linalg.yield %a0 : f32
    } -> tensor<3x4x4xf32>
    %5 = tensor.empty() : tensor<3x2x4xf32>
    %6 = linalg.fill ins(%cst_s0 : f32) outs(%5 : tensor<3x2x4xf32>) -> tensor<3x2x4xf32>
    %7 = linalg.batch_matmul ins(%arg0, %4 : tensor<3x2x4xf32>, tensor<3x4x4xf32>) outs(%6 : tensor<3x2x4xf32>) -> tensor<3x2x4xf32>
    %8 = tensor.empty() : tensor<3x2x4xf32>
    %9 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%7, %cst_w2 : tensor<3x2x4xf32>, tensor<4xf32>) outs(%8 : tensor<3x2x4xf32>) {
    ^bb0(%a0: f32, %a1: f32, %out: f32):
      %r = arith.addf %a0, %a1 : f32
      linalg.yield %r : f32
    } -> tensor<3x2x4xf32>
    %10 = tensor.empty() : tensor<3x2x4xf32>
    %11 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%9, %arg1 : tensor<3x2x4xf32>, tensor<3x2x4xf32>) outs(%10 : tensor<3x2x4xf32>) {
    ^bb0(%a0: f32, %a1: f32, %out: f32):
      %s = arith.subf %a0, %a1 : f32
      %r = arith.mulf %s, %s : f32
      linalg.yield %r : f32
    } -> tensor<3x2x4xf32>
    %12 = tensor.empty() : tensor<f32>
    %13 = linalg.fill ins(%cst_s0 : f32) outs(%12 : tensor<f32>) -> tensor<f32>
    %14 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> ()>], iterator_types = ["reduction", "reduction", "reduction"]} ins(%11 : tensor<3x2x4xf32>) outs(%13 : tensor<f32>) {
    ^bb0(%a0: f32, %out: f32):
      %r = arith.addf %a0, %out : f32
      linalg.yield %r : f32
    } -> tensor<f32>
    %15 = tensor.empty() : tensor<f32>
    %16 = linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []} ins(%14 : tensor<f32>) outs(%15 : tensor<f32>) {
    ^bb0(%a0: f32, %out: f32):
      %r = arith.divf %a0, %cst_s1 : f32
      linalg.yield %r : f32
    } -> tensor<f32>
    return %16 : tensor<f32>
  }
}
