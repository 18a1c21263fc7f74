// A dynamic-batch step whose backward reads only the size of the forward
// matmul's f32 accumulator (tensor.dim, for its empty tensors): that is not
// a read of the values, so amp-keep-accumulators-low must not round the
// accumulator and keep its bf16 copy (it did: bf16 kept 196 bytes at batch
// 4 where f32 kept 132). The mixed-precision pipeline resolves such dims
// from the operands first (upstream's resolve-ranked-shaped-type-result-dims).
// The step: matmul -> scaled softmax -> mse, built by amp-build-train-step.
// RUN: amp-opt %s --amp-mixed-precision=precision=bf16 | FileCheck %s
// CHECK-LABEL: func.func @train_step
// CHECK:         %[[MM:.*]] = linalg.matmul ins(%{{.*}} : tensor<?x8xbf16>, tensor<8x8xbf16>) outs(%{{.*}} : tensor<?x8xf32>)
// CHECK-NOT:     arith.truncf %[[MM]]
// CHECK-LABEL: func.func @eval_step

#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> ()>
#map2 = affine_map<(d0, d1) -> (d0)>
#map3 = affine_map<(d0, d1, d2) -> (d0, d2)>
#map4 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map5 = affine_map<(d0, d1, d2) -> (d2, d1)>
module attributes {amp.source_model = "/tmp/breakit/today/rs/dynmm_scale.mlir", amp.source_model_xxh3 = "fbc8680158ca903d"} {
  func.func @train_step(%arg0: tensor<8x8xf32> {amp.initial_value = dense_resource<sm.weight> : tensor<8x8xf32>, amp.role = "param"}, %arg1: tensor<8x8xf32> {amp.role = "opt_state"}, %arg2: tensor<?x8xf32> {amp.role = "input"}, %arg3: tensor<?x8xf32> {amp.role = "target"}) -> (tensor<f32> {amp.role = "loss"}, tensor<8x8xf32> {amp.updates = 0 : i64}, tensor<8x8xf32> {amp.updates = 1 : i64}) attributes {amp.train_step} {
    %cst = arith.constant 0.000000e+00 : f32
    %c0 = arith.constant 0 : index
    %dim = tensor.dim %arg2, %c0 : tensor<?x8xf32>
    %0 = tensor.empty(%dim) : tensor<?x8xf32>
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<?x8xf32>) -> tensor<?x8xf32>
    %2 = linalg.matmul ins(%arg2, %arg0 : tensor<?x8xf32>, tensor<8x8xf32>) outs(%1 : tensor<?x8xf32>) -> tensor<?x8xf32>
    %c0_0 = arith.constant 0 : index
    %dim_1 = tensor.dim %2, %c0_0 : tensor<?x8xf32>
    %3 = tensor.empty(%dim_1) : tensor<?x8xf32>
    %c0_2 = arith.constant 0 : index
    %dim_3 = tensor.dim %2, %c0_2 : tensor<?x8xf32>
    %4 = tensor.empty(%dim_3) : tensor<?x8xf32>
    %5 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%2 : tensor<?x8xf32>) outs(%4 : tensor<?x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %cst_18 = arith.constant 5.000000e-01 : f32
      %32 = arith.mulf %in, %cst_18 : f32
      linalg.yield %32 : f32
    } -> tensor<?x8xf32>
    %6 = linalg.softmax dimension(1) ins(%5 : tensor<?x8xf32>) outs(%3 : tensor<?x8xf32>) -> tensor<?x8xf32>
    %c8 = arith.constant 8 : index
    %c0_4 = arith.constant 0 : index
    %dim_5 = tensor.dim %6, %c0_4 : tensor<?x8xf32>
    %7 = arith.muli %c8, %dim_5 : index
    %8 = arith.index_cast %7 : index to i64
    %9 = arith.sitofp %8 : i64 to f32
    %cst_6 = arith.constant 1.000000e+00 : f32
    %10 = arith.divf %cst_6, %9 : f32
    %cst_7 = arith.constant 0.000000e+00 : f32
    %11 = tensor.empty() : tensor<f32>
    %12 = linalg.fill ins(%cst_7 : f32) outs(%11 : tensor<f32>) -> tensor<f32>
    %13 = linalg.generic {indexing_maps = [#map, #map, #map1], iterator_types = ["reduction", "reduction"]} ins(%6, %arg3 : tensor<?x8xf32>, tensor<?x8xf32>) outs(%12 : tensor<f32>) {
    ^bb0(%in: f32, %in_18: f32, %out: f32):
      %32 = arith.subf %in, %in_18 : f32
      %33 = arith.mulf %32, %32 : f32
      %34 = arith.mulf %33, %10 : f32
      %35 = arith.addf %34, %out : f32
      linalg.yield %35 : f32
    } -> tensor<f32>
    %14 = amp.loss_grad %13 : tensor<f32>
    %c0_8 = arith.constant 0 : index
    %dim_9 = tensor.dim %6, %c0_8 : tensor<?x8xf32>
    %15 = tensor.empty(%dim_9) : tensor<?x8xf32>
    %16 = linalg.generic {indexing_maps = [#map, #map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%6, %arg3, %14 : tensor<?x8xf32>, tensor<?x8xf32>, tensor<f32>) outs(%15 : tensor<?x8xf32>) {
    ^bb0(%in: f32, %in_18: f32, %in_19: f32, %out: f32):
      %32 = arith.subf %in, %in_18 : f32
      %33 = arith.mulf %in_19, %10 : f32
      %34 = arith.mulf %33, %32 : f32
      %35 = arith.mulf %32, %33 : f32
      %36 = arith.addf %34, %35 : f32
      linalg.yield %36 : f32
    } -> tensor<?x8xf32>
    %c0_10 = arith.constant 0 : index
    %dim_11 = tensor.dim %6, %c0_10 : tensor<?x8xf32>
    %cst_12 = arith.constant 0.000000e+00 : f32
    %17 = tensor.empty(%dim_11) : tensor<?xf32>
    %18 = linalg.fill ins(%cst_12 : f32) outs(%17 : tensor<?xf32>) -> tensor<?xf32>
    %19 = linalg.generic {indexing_maps = [#map, #map, #map2], iterator_types = ["parallel", "reduction"]} ins(%16, %6 : tensor<?x8xf32>, tensor<?x8xf32>) outs(%18 : tensor<?xf32>) {
    ^bb0(%in: f32, %in_18: f32, %out: f32):
      %32 = arith.mulf %in, %in_18 : f32
      %33 = arith.addf %out, %32 : f32
      linalg.yield %33 : f32
    } -> tensor<?xf32>
    %c0_13 = arith.constant 0 : index
    %dim_14 = tensor.dim %6, %c0_13 : tensor<?x8xf32>
    %20 = tensor.empty(%dim_14) : tensor<?x8xf32>
    %21 = linalg.generic {indexing_maps = [#map, #map, #map2, #map], iterator_types = ["parallel", "parallel"]} ins(%6, %16, %19 : tensor<?x8xf32>, tensor<?x8xf32>, tensor<?xf32>) outs(%20 : tensor<?x8xf32>) {
    ^bb0(%in: f32, %in_18: f32, %in_19: f32, %out: f32):
      %32 = arith.subf %in_18, %in_19 : f32
      %33 = arith.mulf %in, %32 : f32
      linalg.yield %33 : f32
    } -> tensor<?x8xf32>
    %c0_15 = arith.constant 0 : index
    %dim_16 = tensor.dim %2, %c0_15 : tensor<?x8xf32>
    %22 = tensor.empty(%dim_16) : tensor<?x8xf32>
    %23 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%21 : tensor<?x8xf32>) outs(%22 : tensor<?x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %cst_18 = arith.constant 5.000000e-01 : f32
      %32 = arith.mulf %in, %cst_18 : f32
      linalg.yield %32 : f32
    } -> tensor<?x8xf32>
    %cst_17 = arith.constant 0.000000e+00 : f32
    %24 = tensor.empty() : tensor<8x8xf32>
    %25 = linalg.fill ins(%cst_17 : f32) outs(%24 : tensor<8x8xf32>) -> tensor<8x8xf32>
    %26 = linalg.generic {indexing_maps = [#map3, #map4, #map5], iterator_types = ["reduction", "parallel", "parallel"]} ins(%arg2, %23 : tensor<?x8xf32>, tensor<?x8xf32>) outs(%25 : tensor<8x8xf32>) {
    ^bb0(%in: f32, %in_18: f32, %out: f32):
      %32 = arith.mulf %in, %in_18 : f32
      %33 = arith.addf %out, %32 : f32
      linalg.yield %33 : f32
    } -> tensor<8x8xf32>
    %27 = amp.grad %26, %arg0 : tensor<8x8xf32>
    %28 = tensor.empty() : tensor<8x8xf32>
    %29 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg1, %27 : tensor<8x8xf32>, tensor<8x8xf32>) outs(%28 : tensor<8x8xf32>) {
    ^bb0(%in: f32, %in_18: f32, %out: f32):
      %cst_19 = arith.constant 0.899999976 : f32
      %32 = arith.mulf %cst_19, %in : f32
      %33 = arith.addf %32, %in_18 : f32
      linalg.yield %33 : f32
    } -> tensor<8x8xf32>
    %30 = tensor.empty() : tensor<8x8xf32>
    %31 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0, %29 : tensor<8x8xf32>, tensor<8x8xf32>) outs(%30 : tensor<8x8xf32>) {
    ^bb0(%in: f32, %in_18: f32, %out: f32):
      %cst_19 = arith.constant 0.00999999977 : f32
      %32 = arith.mulf %cst_19, %in_18 : f32
      %33 = arith.subf %in, %32 : f32
      linalg.yield %33 : f32
    } -> tensor<8x8xf32>
    return %13, %31, %29 : tensor<f32>, tensor<8x8xf32>, tensor<8x8xf32>
  }
  func.func @eval_step(%arg0: tensor<8x8xf32> {amp.role = "param"}, %arg1: tensor<?x8xf32> {amp.role = "input"}) -> (tensor<?x8xf32> {amp.role = "logits"}) attributes {amp.eval_step} {
    %cst = arith.constant 0.000000e+00 : f32
    %c0 = arith.constant 0 : index
    %dim = tensor.dim %arg1, %c0 : tensor<?x8xf32>
    %0 = tensor.empty(%dim) : tensor<?x8xf32>
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<?x8xf32>) -> tensor<?x8xf32>
    %2 = linalg.matmul ins(%arg1, %arg0 : tensor<?x8xf32>, tensor<8x8xf32>) outs(%1 : tensor<?x8xf32>) -> tensor<?x8xf32>
    %c0_0 = arith.constant 0 : index
    %dim_1 = tensor.dim %2, %c0_0 : tensor<?x8xf32>
    %3 = tensor.empty(%dim_1) : tensor<?x8xf32>
    %c0_2 = arith.constant 0 : index
    %dim_3 = tensor.dim %2, %c0_2 : tensor<?x8xf32>
    %4 = tensor.empty(%dim_3) : tensor<?x8xf32>
    %5 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%2 : tensor<?x8xf32>) outs(%4 : tensor<?x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %cst_4 = arith.constant 5.000000e-01 : f32
      %7 = arith.mulf %in, %cst_4 : f32
      linalg.yield %7 : f32
    } -> tensor<?x8xf32>
    %6 = linalg.softmax dimension(1) ins(%5 : tensor<?x8xf32>) outs(%3 : tensor<?x8xf32>) -> tensor<?x8xf32>
    return %6 : tensor<?x8xf32>
  }
}

