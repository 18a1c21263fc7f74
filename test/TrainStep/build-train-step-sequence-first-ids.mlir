// Token ids in a sequence-first layout ([S, B] i64, nn.Embedding before a
// batch_first=False layer), built with batch-dim=1 (2026-12-07): the ids
// reach the embedding's gather through the entry transpose, and amp-run's
// synthetic ids are drawn from the table's rows (it drew them from [0, 2):
// the transpose hid the table).
// RUN: amp-opt %s --amp-build-train-step="batch-dim=1 batch=8" -o %t.mlir
// RUN: amp-run %t.mlir --data=synthetic --max-steps=2 --threads=1 --progress=false 2>&1 | FileCheck %s
// CHECK: argument #{{[0-9]+}} (tensor<8x4xi64>): 4 integers from [0, 11) (the rows of the table it indexes)
// CHECK-NOT: indexes no table
// RUN: amp-run %t.mlir --data=synthetic --check-gradients | FileCheck %s --check-prefix=GRAD
// GRAD: (tolerance 1e-05): passed

module attributes {torch.debug_module_name = "EmbIds"} {
  ml_program.global private mutable @global_seed(dense<0> : tensor<i64>) : tensor<i64>
  func.func @forward(%arg0: tensor<4x2xi64>) -> tensor<2x3xf32> {
    %cst_w0 = arith.constant dense_resource<torch_tensor_11_4_torch.float32> : tensor<11x4xf32>
    %cst_s0 = arith.constant 0.000000e+00 : f32
    %cst_s1 = arith.constant 4.000000e+00 : f32
    %cst_w3 = arith.constant dense_resource<torch_tensor_3_4_torch.float32> : tensor<3x4xf32>
    %cst_w4 = arith.constant dense<[0.0193301, 0.0651367, -0.028978]> : tensor<3xf32>
    %1 = tensor.empty() : tensor<4x2x4xf32>
    %2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0 : tensor<4x2xi64>) outs(%1 : tensor<4x2x4xf32>) {
    ^bb0(%a0: i64, %out: f32):
      %i = arith.index_cast %a0 : i64 to index
      %j = linalg.index 2 : index
      %x = tensor.extract %cst_w0[%i, %j] : tensor<11x4xf32>
      linalg.yield %x : f32
    } -> tensor<4x2x4xf32>
    %3 = tensor.empty() : tensor<1x2x4xf32>
    %4 = linalg.fill ins(%cst_s0 : f32) outs(%3 : tensor<1x2x4xf32>) -> tensor<1x2x4xf32>
    %5 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (0, d1, d2)>], iterator_types = ["reduction", "parallel", "parallel"]} ins(%2 : tensor<4x2x4xf32>) outs(%4 : tensor<1x2x4xf32>) {
    ^bb0(%a0: f32, %out: f32):
      %r = arith.addf %a0, %out : f32
      linalg.yield %r : f32
    } -> tensor<1x2x4xf32>
    %6 = tensor.empty() : tensor<1x2x4xf32>
    %7 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%5 : tensor<1x2x4xf32>) outs(%6 : tensor<1x2x4xf32>) {
    ^bb0(%a0: f32, %out: f32):
      %r = arith.divf %a0, %cst_s1 : f32
      linalg.yield %r : f32
    } -> tensor<1x2x4xf32>
    %8 = tensor.collapse_shape %7 [[0, 1], [2]] : tensor<1x2x4xf32> into tensor<2x4xf32>
    %9 = tensor.empty() : tensor<4x3xf32>
    %10 = linalg.transpose ins(%cst_w3 : tensor<3x4xf32>) outs(%9 : tensor<4x3xf32>) permutation = [1, 0] 
    %11 = tensor.empty() : tensor<2x3xf32>
    %12 = linalg.fill ins(%cst_s0 : f32) outs(%11 : tensor<2x3xf32>) -> tensor<2x3xf32>
    %13 = linalg.matmul ins(%8, %10 : tensor<2x4xf32>, tensor<4x3xf32>) outs(%12 : tensor<2x3xf32>) -> tensor<2x3xf32>
    %14 = tensor.empty() : tensor<2x3xf32>
    %15 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%13, %cst_w4 : tensor<2x3xf32>, tensor<3xf32>) outs(%14 : tensor<2x3xf32>) {
    ^bb0(%a0: f32, %a1: f32, %out: f32):
      %r = arith.addf %a0, %a1 : f32
      linalg.yield %r : f32
    } -> tensor<2x3xf32>
    return %15 : tensor<2x3xf32>
  }
}

{-#
  dialect_resources: {
    builtin: {
      torch_tensor_11_4_torch.float32: "0x0400000010FC82BD9AC07ABF91A0D2BEB880A6BEAAED423EC494B7BEEBBE3F3FFF7E7ABFE250073F76C7C1BE0B346CBF454C02BF7B0B7BBF89B53B3F19D450BFD7CFDB3ED77D693F09554A3E507F65BF9A8D83BE1D4D493DF32E6ABF7F1861BF2CEB253F87C894BEAB1E4EBF3B4E3A3F2CCB213F1C464D3F5095A93E5646293F6090D33EC58C673F57270E3FE89CA1BE5810DE3DD78602BF6C54F73D8EBC73BE5A1CBEBEB1DC0DBF82CD0ABF86F9853EC9C119BD",
      torch_tensor_3_4_torch.float32: "0x04000000E6F18DBE46CFE5BD41711B3EF7A23C3E4A0DF4BEE43FA43E9C89CF3EE9D322BE46155ABE116A383D75C29FBEE16D0BBE"
    }
  }
#-}
