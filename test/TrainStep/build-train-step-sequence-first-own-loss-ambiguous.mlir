// A sequence-first encoder that returns its own loss against a [B, C]
// target, with C == B at the trace (2026-12-07): one batch-dim value
// cannot tell whether the target holds the batch in dimension 0 or 1 (it
// took 1, and each example was trained against another's target); the
// builder asks for the target's own value, and batch-dim=1,0 builds.
// RUN: not amp-opt %s --amp-build-train-step="loss=none batch-dim=1" -o /dev/null 2>&1 | FileCheck %s --check-prefix=AMBIGUOUS
// AMBIGUOUS: error: amp-build-train-step: batch-dim=1 with loss=none: the label or target, argument #1 ('tensor<2x2xf32>'), has the inputs' traced batch (2) in dimension 0 and in dimension 1; name its batch dimension with one more value: batch-dim=1,1 ([S, B, ...] as the input) or batch-dim=1,0 ([B, ...])
// RUN: amp-opt %s --amp-build-train-step="loss=none batch-dim=1,0" -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// CHECK-LABEL: func.func @train_step(
// CHECK-SAME: %[[X:arg[0-9]+]]: tensor<2x3x4xf32> {amp.role = "input"}
// CHECK-SAME: %[[T:arg[0-9]+]]: tensor<2x2xf32> {amp.role = "target"}
// CHECK: linalg.transpose ins(%[[X]]
// CHECK-NOT: linalg.transpose ins(%[[T]]
// RUN: amp-run %t.mlir --data=synthetic --check-gradients | FileCheck %s --check-prefix=GRAD
// GRAD: (tolerance 1e-05): passed

module attributes {torch.debug_module_name = "OwnLossBC"} {
  ml_program.global private mutable @global_seed(dense<0> : tensor<i64>) : tensor<i64>
  func.func @forward(%arg0: tensor<3x2x4xf32>, %arg1: tensor<2x2xf32>) -> tensor<f32> {
    %cst_s0 = arith.constant 0.000000e+00 : f32
    %cst_s1 = arith.constant 3.000000e+00 : f32
    %cst_w2 = arith.constant dense<[[-0.224428, 0.0948596, 0.0256752, 0.195126], [-0.394617, -0.0929259, 0.171778, 0.0852414]]> : tensor<2x4xf32>
    %cst_w3 = arith.constant dense_resource<torch_tensor_2_torch.float32> : tensor<2xf32>
    %cst_s2 = arith.constant 4.000000e+00 : f32
    %1 = tensor.empty() : tensor<1x2x4xf32>
    %2 = linalg.fill ins(%cst_s0 : f32) outs(%1 : tensor<1x2x4xf32>) -> tensor<1x2x4xf32>
    %3 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (0, d1, d2)>], iterator_types = ["reduction", "parallel", "parallel"]} ins(%arg0 : tensor<3x2x4xf32>) outs(%2 : tensor<1x2x4xf32>) {
    ^bb0(%a0: f32, %out: f32):
      %r = arith.addf %a0, %out : f32
      linalg.yield %r : f32
    } -> tensor<1x2x4xf32>
    %4 = tensor.empty() : tensor<1x2x4xf32>
    %5 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%3 : tensor<1x2x4xf32>) outs(%4 : tensor<1x2x4xf32>) {
    ^bb0(%a0: f32, %out: f32):
      %r = arith.divf %a0, %cst_s1 : f32
      linalg.yield %r : f32
    } -> tensor<1x2x4xf32>
    %6 = tensor.collapse_shape %5 [[0, 1], [2]] : tensor<1x2x4xf32> into tensor<2x4xf32>
    %7 = tensor.empty() : tensor<4x2xf32>
    %8 = linalg.transpose ins(%cst_w2 : tensor<2x4xf32>) outs(%7 : tensor<4x2xf32>) permutation = [1, 0] 
    %9 = tensor.empty() : tensor<2x2xf32>
    %10 = linalg.fill ins(%cst_s0 : f32) outs(%9 : tensor<2x2xf32>) -> tensor<2x2xf32>
    %11 = linalg.matmul ins(%6, %8 : tensor<2x4xf32>, tensor<4x2xf32>) outs(%10 : tensor<2x2xf32>) -> tensor<2x2xf32>
    %12 = tensor.empty() : tensor<2x2xf32>
    %13 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%11, %cst_w3 : tensor<2x2xf32>, tensor<2xf32>) outs(%12 : tensor<2x2xf32>) {
    ^bb0(%a0: f32, %a1: f32, %out: f32):
      %r = arith.addf %a0, %a1 : f32
      linalg.yield %r : f32
    } -> tensor<2x2xf32>
    %14 = tensor.empty() : tensor<2x2xf32>
    %15 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%13, %arg1 : tensor<2x2xf32>, tensor<2x2xf32>) outs(%14 : tensor<2x2xf32>) {
    ^bb0(%a0: f32, %a1: f32, %out: f32):
      %s = arith.subf %a0, %a1 : f32
      %r = arith.mulf %s, %s : f32
      linalg.yield %r : f32
    } -> tensor<2x2xf32>
    %16 = tensor.empty() : tensor<f32>
    %17 = linalg.fill ins(%cst_s0 : f32) outs(%16 : tensor<f32>) -> tensor<f32>
    %18 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%15 : tensor<2x2xf32>) outs(%17 : tensor<f32>) {
    ^bb0(%a0: f32, %out: f32):
      %r = arith.addf %a0, %out : f32
      linalg.yield %r : f32
    } -> tensor<f32>
    %19 = tensor.empty() : tensor<f32>
    %20 = linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []} ins(%18 : tensor<f32>) outs(%19 : tensor<f32>) {
    ^bb0(%a0: f32, %out: f32):
      %r = arith.divf %a0, %cst_s2 : f32
      linalg.yield %r : f32
    } -> tensor<f32>
    return %20 : tensor<f32>
  }
}

{-#
  dialect_resources: {
    builtin: {
      torch_tensor_2_torch.float32: "0x04000000440CB9BCB3C46B3D"
    }
  }
#-}
