// A learned one-element weight printed inline (nn.PReLU()'s single slope):
// it stays a constant under the default min-elements=2, with a remark that
// says how to train it (it was left untrained silently); min-elements=1
// trains it and the gradient check passes.
// RUN: amp-opt %s --amp-build-train-step="loss=softmax-cross-entropy" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK: remark: amp-build-train-step: this constant and 1 more like it (2 uses in all) stay constants: fewer than min-elements=2 elements; if it is a learned scalar (nn.PReLU()'s single slope, a logit scale), pass min-elements=1 to train it
// RUN: amp-opt %s --amp-build-train-step="loss=softmax-cross-entropy min-elements=1" -o %t.mlir
// RUN: FileCheck %s --check-prefix=STEP < %t.mlir
// STEP: tensor<1xf32> {amp.initial_value = dense<2.500000e-01> : tensor<1xf32>, amp.role = "param"}
// RUN: amp-run %t.mlir --data=synthetic --check-gradients | FileCheck %s --check-prefix=GRAD
// GRAD: (tolerance 1e-05): passed

module attributes {torch.debug_module_name = "PReLU1Temperature"} {
  func.func @forward(%arg0: tensor<1x6xf32>) -> tensor<1x4xf32> {
    %cst = arith.constant dense<[[0.3, -0.2, 0.1, 0.25, -0.4, 0.05], [0.1, 0.2, -0.3, 0.15, 0.35, -0.1], [-0.2, 0.3, 0.25, -0.15, 0.1, 0.4], [0.05, -0.35, 0.2, 0.3, -0.1, 0.15], [0.4, 0.1, -0.05, -0.25, 0.2, 0.3], [-0.3, 0.15, 0.35, 0.1, -0.2, 0.25], [0.2, -0.1, 0.3, -0.3, 0.15, 0.05], [0.1, 0.25, -0.2, 0.35, 0.05, -0.15]]> : tensor<8x6xf32>
    %cst_0 = arith.constant dense<2.500000e-01> : tensor<1xf32>
    %cst_1 = arith.constant dense<[[0.3, -0.2, 0.1, 0.25, -0.4, 0.05, 0.2, 0.1], [0.1, 0.2, -0.3, 0.15, 0.35, -0.1, -0.2, 0.3], [-0.2, 0.3, 0.25, -0.15, 0.1, 0.4, 0.1, -0.1], [0.05, -0.35, 0.2, 0.3, -0.1, 0.15, 0.3, 0.2]]> : tensor<4x8xf32>
    %cst_2 = arith.constant dense<2.659260e+00> : tensor<f32>
    %cst_3 = arith.constant 0.000000e+00 : f32
    %0 = tensor.empty() : tensor<6x8xf32>
    %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%cst : tensor<8x6xf32>) outs(%0 : tensor<6x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<6x8xf32>
    %2 = tensor.empty() : tensor<1x8xf32>
    %3 = linalg.fill ins(%cst_3 : f32) outs(%2 : tensor<1x8xf32>) -> tensor<1x8xf32>
    %4 = linalg.matmul ins(%arg0, %1 : tensor<1x6xf32>, tensor<6x8xf32>) outs(%3 : tensor<1x8xf32>) -> tensor<1x8xf32>
    %5 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%4, %cst_0 : tensor<1x8xf32>, tensor<1xf32>) outs(%2 : tensor<1x8xf32>) {
    ^bb0(%in: f32, %in_4: f32, %out: f32):
      %c = arith.cmpf ogt, %in, %cst_3 : f32
      %m = arith.mulf %in_4, %in : f32
      %s = arith.select %c, %in, %m : f32
      linalg.yield %s : f32
    } -> tensor<1x8xf32>
    %6 = tensor.empty() : tensor<8x4xf32>
    %7 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%cst_1 : tensor<4x8xf32>) outs(%6 : tensor<8x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<8x4xf32>
    %8 = tensor.empty() : tensor<1x4xf32>
    %9 = linalg.fill ins(%cst_3 : f32) outs(%8 : tensor<1x4xf32>) -> tensor<1x4xf32>
    %10 = linalg.matmul ins(%5, %7 : tensor<1x8xf32>, tensor<8x4xf32>) outs(%9 : tensor<1x4xf32>) -> tensor<1x4xf32>
    %11 = tensor.empty() : tensor<f32>
    %12 = linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []} ins(%cst_2 : tensor<f32>) outs(%11 : tensor<f32>) {
    ^bb0(%in: f32, %out: f32):
      %e = math.exp %in : f32
      linalg.yield %e : f32
    } -> tensor<f32>
    %13 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%10, %12 : tensor<1x4xf32>, tensor<f32>) outs(%8 : tensor<1x4xf32>) {
    ^bb0(%in: f32, %in_4: f32, %out: f32):
      %m = arith.mulf %in, %in_4 : f32
      linalg.yield %m : f32
    } -> tensor<1x4xf32>
    return %13 : tensor<1x4xf32>
  }
}
