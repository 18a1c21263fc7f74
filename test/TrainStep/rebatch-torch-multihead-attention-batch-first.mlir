// nn.MultiheadAttention(batch_first=True), traced at batch 2: the module
// transposes its [B, S, E] input to [S, B, E] itself and flattens the
// projections' rows to [S*B, E], so even a batch-first export merges the
// batch after the sequence (2026-12-07; refused before). batch=8 without
// batch-dim=:
// RUN: %python %amp_src_root/scripts/check-rebatch-forward.py %s %amp_obj_root | FileCheck %s --check-prefix=EXEC
// EXEC: max |fwd2 - fwd16| = 0, max |fwd2 - fwd(dynamic at 16)| = 0, max |fwd2| = {{[0-9]}}
// RUN: amp-opt %s --amp-build-train-step="loss=mse batch=8" -o %t.mlir
// RUN: amp-run %t.mlir --data=synthetic --check-gradients | FileCheck %s --check-prefix=GRAD
// GRAD: argument #{{[0-9]+}} (tensor<8x3x4xf32>)
// GRAD: (tolerance 1e-05): passed

module attributes {torch.debug_module_name = "TorchMHABatchFirst2"} {
  ml_program.global private mutable @global_seed(dense<0> : tensor<i64>) : tensor<i64>
  func.func @forward(%arg0: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
    %cst_w0 = arith.constant dense<[[-0.498399, -0.339137, -0.195881, 0.264823], [-0.201956, 0.424623, 0.0342961, -0.304245], [0.395708, -0.309433, -0.237306, 0.274933], [0.368999, 0.325689, -0.290119, 0.00228681]]> : tensor<4x4xf32>
    %cst_s0 = arith.constant 0.000000e+00 : f32
    %cst_w2 = arith.constant dense<[0.0479985, 0.0834645, 0.0704676, -0.0306915]> : tensor<4xf32>
    %cst_w3 = arith.constant dense_resource<torch_tensor_4_4_torch.float32> : tensor<4x4xf32>
    %cst_w4 = arith.constant dense<[-0.0835895, 0.0807218, 0.0632723, -0.0215962]> : tensor<4xf32>
    %cst_w5 = arith.constant dense_resource<torch_tensor_4_4_torch.float32_1> : tensor<4x4xf32>
    %cst_w6 = arith.constant dense<[0.0879465, 0.0383942, 0.0950886, 0.0524198]> : tensor<4xf32>
    %cst_s1 = arith.constant 1.414214e+00 : f32
    %cst_s2 = arith.constant 0xFF800000 : f32
    %c0_i64 = arith.constant 0 : i64
    %cst_w10 = arith.constant dense<[[-0.329465, -0.479056, 0.384478, -0.450145], [-0.326458, 0.298529, -0.372943, 0.13009], [0.175768, 0.469069, -0.14485, 0.365359], [-0.278993, -0.021013, 0.395064, 0.474846]]> : tensor<4x4xf32>
    %cst_w11 = arith.constant dense_resource<torch_tensor_4_torch.float32> : tensor<4xf32>
    %cst_s4 = arith.constant 4.000000e+00 : f32
    %cst_s5 = arith.constant 1.000000e-05 : f64
    %cst_w14 = arith.constant dense<[0.294033, 0.259431, 0.243732, 0.183406]> : tensor<4xf32>
    %cst_w15 = arith.constant dense_resource<torch_tensor_4_torch.float32_1> : tensor<4xf32>
    %1 = tensor.empty() : tensor<3x2x4xf32>
    %2 = linalg.transpose ins(%arg0 : tensor<2x3x4xf32>) outs(%1 : tensor<3x2x4xf32>) permutation = [1, 0, 2] 
    %3 = tensor.collapse_shape %2 [[0, 1], [2]] : tensor<3x2x4xf32> into tensor<6x4xf32>
    %4 = tensor.empty() : tensor<4x4xf32>
    %5 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%cst_w0 : tensor<4x4xf32>) outs(%4 : tensor<4x4xf32>) {
    ^bb0(%a0: f32, %out: f32):
      linalg.yield %a0 : f32
    } -> tensor<4x4xf32>
    %6 = tensor.empty() : tensor<6x4xf32>
    %7 = linalg.fill ins(%cst_s0 : f32) outs(%6 : tensor<6x4xf32>) -> tensor<6x4xf32>
    %8 = linalg.matmul ins(%3, %5 : tensor<6x4xf32>, tensor<4x4xf32>) outs(%7 : tensor<6x4xf32>) -> tensor<6x4xf32>
    %9 = tensor.empty() : tensor<6x4xf32>
    %10 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%8, %cst_w2 : tensor<6x4xf32>, tensor<4xf32>) outs(%9 : tensor<6x4xf32>) {
    ^bb0(%a0: f32, %a1: f32, %out: f32):
      %r = arith.addf %a0, %a1 : f32
      linalg.yield %r : f32
    } -> tensor<6x4xf32>
    %11 = tensor.expand_shape %10 [[0, 1], [2]] output_shape [3, 2, 4] : tensor<6x4xf32> into tensor<3x2x4xf32>
    %12 = tensor.collapse_shape %2 [[0, 1], [2]] : tensor<3x2x4xf32> into tensor<6x4xf32>
    %13 = tensor.empty() : tensor<4x4xf32>
    %14 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%cst_w3 : tensor<4x4xf32>) outs(%13 : tensor<4x4xf32>) {
    ^bb0(%a0: f32, %out: f32):
      linalg.yield %a0 : f32
    } -> tensor<4x4xf32>
    %15 = tensor.empty() : tensor<6x4xf32>
    %16 = linalg.fill ins(%cst_s0 : f32) outs(%15 : tensor<6x4xf32>) -> tensor<6x4xf32>
    %17 = linalg.matmul ins(%12, %14 : tensor<6x4xf32>, tensor<4x4xf32>) outs(%16 : tensor<6x4xf32>) -> tensor<6x4xf32>
    %18 = tensor.empty() : tensor<6x4xf32>
    %19 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%17, %cst_w4 : tensor<6x4xf32>, tensor<4xf32>) outs(%18 : tensor<6x4xf32>) {
    ^bb0(%a0: f32, %a1: f32, %out: f32):
      %r = arith.addf %a0, %a1 : f32
      linalg.yield %r : f32
    } -> tensor<6x4xf32>
    %20 = tensor.expand_shape %19 [[0, 1], [2]] output_shape [3, 2, 4] : tensor<6x4xf32> into tensor<3x2x4xf32>
    %21 = tensor.collapse_shape %2 [[0, 1], [2]] : tensor<3x2x4xf32> into tensor<6x4xf32>
    %22 = tensor.empty() : tensor<4x4xf32>
    %23 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%cst_w5 : tensor<4x4xf32>) outs(%22 : tensor<4x4xf32>) {
    ^bb0(%a0: f32, %out: f32):
      linalg.yield %a0 : f32
    } -> tensor<4x4xf32>
    %24 = tensor.empty() : tensor<6x4xf32>
    %25 = linalg.fill ins(%cst_s0 : f32) outs(%24 : tensor<6x4xf32>) -> tensor<6x4xf32>
    %26 = linalg.matmul ins(%21, %23 : tensor<6x4xf32>, tensor<4x4xf32>) outs(%25 : tensor<6x4xf32>) -> tensor<6x4xf32>
    %27 = tensor.empty() : tensor<6x4xf32>
    %28 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%26, %cst_w6 : tensor<6x4xf32>, tensor<4xf32>) outs(%27 : tensor<6x4xf32>) {
    ^bb0(%a0: f32, %a1: f32, %out: f32):
      %r = arith.addf %a0, %a1 : f32
      linalg.yield %r : f32
    } -> tensor<6x4xf32>
    %29 = tensor.expand_shape %28 [[0, 1], [2]] output_shape [3, 2, 4] : tensor<6x4xf32> into tensor<3x2x4xf32>
    %30 = tensor.expand_shape %11 [[0], [1], [2, 3]] output_shape [3, 2, 2, 2] : tensor<3x2x4xf32> into tensor<3x2x2x2xf32>
    %31 = tensor.collapse_shape %30 [[0], [1, 2], [3]] : tensor<3x2x2x2xf32> into tensor<3x4x2xf32>
    %32 = tensor.empty() : tensor<4x3x2xf32>
    %33 = linalg.transpose ins(%31 : tensor<3x4x2xf32>) outs(%32 : tensor<4x3x2xf32>) permutation = [1, 0, 2] 
    %34 = tensor.expand_shape %20 [[0], [1], [2, 3]] output_shape [3, 2, 2, 2] : tensor<3x2x4xf32> into tensor<3x2x2x2xf32>
    %35 = tensor.collapse_shape %34 [[0], [1, 2], [3]] : tensor<3x2x2x2xf32> into tensor<3x4x2xf32>
    %36 = tensor.empty() : tensor<4x3x2xf32>
    %37 = linalg.transpose ins(%35 : tensor<3x4x2xf32>) outs(%36 : tensor<4x3x2xf32>) permutation = [1, 0, 2] 
    %38 = tensor.expand_shape %29 [[0], [1], [2, 3]] output_shape [3, 2, 2, 2] : tensor<3x2x4xf32> into tensor<3x2x2x2xf32>
    %39 = tensor.collapse_shape %38 [[0], [1, 2], [3]] : tensor<3x2x2x2xf32> into tensor<3x4x2xf32>
    %40 = tensor.empty() : tensor<4x3x2xf32>
    %41 = linalg.transpose ins(%39 : tensor<3x4x2xf32>) outs(%40 : tensor<4x3x2xf32>) permutation = [1, 0, 2] 
    %42 = tensor.empty() : tensor<4x2x3xf32>
    %43 = linalg.transpose ins(%37 : tensor<4x3x2xf32>) outs(%42 : tensor<4x2x3xf32>) permutation = [0, 2, 1] 
    %44 = tensor.empty() : tensor<4x3x3xf32>
    %45 = linalg.fill ins(%cst_s0 : f32) outs(%44 : tensor<4x3x3xf32>) -> tensor<4x3x3xf32>
    %46 = linalg.batch_matmul ins(%33, %43 : tensor<4x3x2xf32>, tensor<4x2x3xf32>) outs(%45 : tensor<4x3x3xf32>) -> tensor<4x3x3xf32>
    %47 = tensor.empty() : tensor<4x3x3xf32>
    %48 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%46 : tensor<4x3x3xf32>) outs(%47 : tensor<4x3x3xf32>) {
    ^bb0(%a0: f32, %out: f32):
      %r = arith.divf %a0, %cst_s1 : f32
      linalg.yield %r : f32
    } -> tensor<4x3x3xf32>
    %49 = tensor.empty() : tensor<4x3x1xf32>
    %50 = linalg.fill ins(%cst_s2 : f32) outs(%49 : tensor<4x3x1xf32>) -> tensor<4x3x1xf32>
    %51 = tensor.empty() : tensor<4x3x1xi64>
    %52 = linalg.fill ins(%c0_i64 : i64) outs(%51 : tensor<4x3x1xi64>) -> tensor<4x3x1xi64>
    %53:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%48 : tensor<4x3x3xf32>) outs(%50, %52 : tensor<4x3x1xf32>, tensor<4x3x1xi64>) {
    ^bb0(%in: f32, %out: f32, %out_1: i64):
      %i = linalg.index 2 : index
      %ii = arith.index_cast %i : index to i64
      %m = arith.maximumf %in, %out : f32
      %c = arith.cmpf ogt, %in, %out : f32
      %s = arith.select %c, %ii, %out_1 : i64
      linalg.yield %m, %s : f32, i64
    } -> (tensor<4x3x1xf32>, tensor<4x3x1xi64>)
    %54 = tensor.empty() : tensor<4x3x3xf32>
    %55 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%48, %53#0 : tensor<4x3x3xf32>, tensor<4x3x1xf32>) outs(%54 : tensor<4x3x3xf32>) {
    ^bb0(%a0: f32, %a1: f32, %out: f32):
      %r = arith.subf %a0, %a1 : f32
      linalg.yield %r : f32
    } -> tensor<4x3x3xf32>
    %56 = tensor.empty() : tensor<4x3x3xf32>
    %57 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%55 : tensor<4x3x3xf32>) outs(%56 : tensor<4x3x3xf32>) {
    ^bb0(%a0: f32, %out: f32):
      %r = math.exp %a0 : f32
      linalg.yield %r : f32
    } -> tensor<4x3x3xf32>
    %58 = tensor.empty() : tensor<4x3x1xf32>
    %59 = linalg.fill ins(%cst_s0 : f32) outs(%58 : tensor<4x3x1xf32>) -> tensor<4x3x1xf32>
    %60 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%57 : tensor<4x3x3xf32>) outs(%59 : tensor<4x3x1xf32>) {
    ^bb0(%a0: f32, %out: f32):
      %r = arith.addf %a0, %out : f32
      linalg.yield %r : f32
    } -> tensor<4x3x1xf32>
    %61 = tensor.empty() : tensor<4x3x3xf32>
    %62 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%57, %60 : tensor<4x3x3xf32>, tensor<4x3x1xf32>) outs(%61 : tensor<4x3x3xf32>) {
    ^bb0(%a0: f32, %a1: f32, %out: f32):
      %r = arith.divf %a0, %a1 : f32
      linalg.yield %r : f32
    } -> tensor<4x3x3xf32>
    %63 = tensor.empty() : tensor<4x3x2xf32>
    %64 = linalg.fill ins(%cst_s0 : f32) outs(%63 : tensor<4x3x2xf32>) -> tensor<4x3x2xf32>
    %65 = linalg.batch_matmul ins(%62, %41 : tensor<4x3x3xf32>, tensor<4x3x2xf32>) outs(%64 : tensor<4x3x2xf32>) -> tensor<4x3x2xf32>
    %66 = tensor.empty() : tensor<3x4x2xf32>
    %67 = linalg.transpose ins(%65 : tensor<4x3x2xf32>) outs(%66 : tensor<3x4x2xf32>) permutation = [1, 0, 2] 
    %68 = tensor.expand_shape %67 [[0], [1, 2], [3]] output_shape [3, 2, 2, 2] : tensor<3x4x2xf32> into tensor<3x2x2x2xf32>
    %69 = tensor.collapse_shape %68 [[0, 1], [2, 3]] : tensor<3x2x2x2xf32> into tensor<6x4xf32>
    %70 = tensor.empty() : tensor<4x4xf32>
    %71 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%cst_w10 : tensor<4x4xf32>) outs(%70 : tensor<4x4xf32>) {
    ^bb0(%a0: f32, %out: f32):
      linalg.yield %a0 : f32
    } -> tensor<4x4xf32>
    %72 = tensor.empty() : tensor<6x4xf32>
    %73 = linalg.fill ins(%cst_s0 : f32) outs(%72 : tensor<6x4xf32>) -> tensor<6x4xf32>
    %74 = linalg.matmul ins(%69, %71 : tensor<6x4xf32>, tensor<4x4xf32>) outs(%73 : tensor<6x4xf32>) -> tensor<6x4xf32>
    %75 = tensor.empty() : tensor<6x4xf32>
    %76 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%74, %cst_w11 : tensor<6x4xf32>, tensor<4xf32>) outs(%75 : tensor<6x4xf32>) {
    ^bb0(%a0: f32, %a1: f32, %out: f32):
      %r = arith.addf %a0, %a1 : f32
      linalg.yield %r : f32
    } -> tensor<6x4xf32>
    %77 = tensor.expand_shape %76 [[0, 1], [2]] output_shape [3, 2, 4] : tensor<6x4xf32> into tensor<3x2x4xf32>
    %78 = tensor.empty() : tensor<2x3x4xf32>
    %79 = linalg.transpose ins(%77 : tensor<3x2x4xf32>) outs(%78 : tensor<2x3x4xf32>) permutation = [1, 0, 2] 
    %80 = tensor.empty() : tensor<2x3x4xf32>
    %81 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0, %79 : tensor<2x3x4xf32>, tensor<2x3x4xf32>) outs(%80 : tensor<2x3x4xf32>) {
    ^bb0(%a0: f32, %a1: f32, %out: f32):
      %r = arith.addf %a0, %a1 : f32
      linalg.yield %r : f32
    } -> tensor<2x3x4xf32>
    %82 = tensor.empty() : tensor<2x3x1xf32>
    %83 = linalg.fill ins(%cst_s0 : f32) outs(%82 : tensor<2x3x1xf32>) -> tensor<2x3x1xf32>
    %84 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%81 : tensor<2x3x4xf32>) outs(%83 : tensor<2x3x1xf32>) {
    ^bb0(%a0: f32, %out: f32):
      %r = arith.addf %a0, %out : f32
      linalg.yield %r : f32
    } -> tensor<2x3x1xf32>
    %85 = tensor.empty() : tensor<2x3x1xf32>
    %86 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%84 : tensor<2x3x1xf32>) outs(%85 : tensor<2x3x1xf32>) {
    ^bb0(%a0: f32, %out: f32):
      %r = arith.divf %a0, %cst_s4 : f32
      linalg.yield %r : f32
    } -> tensor<2x3x1xf32>
    %87 = tensor.empty() : tensor<2x3x4xf32>
    %88 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%81, %86 : tensor<2x3x4xf32>, tensor<2x3x1xf32>) outs(%87 : tensor<2x3x4xf32>) {
    ^bb0(%a0: f32, %a1: f32, %out: f32):
      %r = arith.subf %a0, %a1 : f32
      linalg.yield %r : f32
    } -> tensor<2x3x4xf32>
    %89 = tensor.empty() : tensor<2x3x4xf32>
    %90 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%88 : tensor<2x3x4xf32>) outs(%89 : tensor<2x3x4xf32>) {
    ^bb0(%a0: f32, %out: f32):
      %r = arith.mulf %a0, %a0 : f32
      linalg.yield %r : f32
    } -> tensor<2x3x4xf32>
    %91 = tensor.empty() : tensor<2x3x1xf32>
    %92 = linalg.fill ins(%cst_s0 : f32) outs(%91 : tensor<2x3x1xf32>) -> tensor<2x3x1xf32>
    %93 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%90 : tensor<2x3x4xf32>) outs(%92 : tensor<2x3x1xf32>) {
    ^bb0(%a0: f32, %out: f32):
      %r = arith.addf %a0, %out : f32
      linalg.yield %r : f32
    } -> tensor<2x3x1xf32>
    %94 = tensor.empty() : tensor<2x3x1xf32>
    %95 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%93 : tensor<2x3x1xf32>) outs(%94 : tensor<2x3x1xf32>) {
    ^bb0(%a0: f32, %out: f32):
      %r = arith.divf %a0, %cst_s4 : f32
      linalg.yield %r : f32
    } -> tensor<2x3x1xf32>
    %96 = tensor.empty() : tensor<2x3x1xf32>
    %97 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%95 : tensor<2x3x1xf32>) outs(%96 : tensor<2x3x1xf32>) {
    ^bb0(%a0: f32, %out: f32):
      %t = arith.truncf %cst_s5 : f64 to f32
      %e = arith.addf %a0, %t : f32
      %r = math.rsqrt %e : f32
      linalg.yield %r : f32
    } -> tensor<2x3x1xf32>
    %98 = tensor.empty() : tensor<2x3x4xf32>
    %99 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%88, %97 : tensor<2x3x4xf32>, tensor<2x3x1xf32>) outs(%98 : tensor<2x3x4xf32>) {
    ^bb0(%a0: f32, %a1: f32, %out: f32):
      %r = arith.mulf %a0, %a1 : f32
      linalg.yield %r : f32
    } -> tensor<2x3x4xf32>
    %100 = tensor.empty() : tensor<2x3x4xf32>
    %101 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%99, %cst_w14, %cst_w15 : tensor<2x3x4xf32>, tensor<4xf32>, tensor<4xf32>) outs(%100 : tensor<2x3x4xf32>) {
    ^bb0(%a0: f32, %a1: f32, %a2: f32, %out: f32):
      %m = arith.mulf %a0, %a1 : f32
      %r = arith.addf %m, %a2 : f32
      linalg.yield %r : f32
    } -> tensor<2x3x4xf32>
    return %101 : tensor<2x3x4xf32>
  }
}

{-#
  dialect_resources: {
    builtin: {
      torch_tensor_4_4_torch.float32: "0x04000000FB2FDE3EDBFBBC3E7472663E4F07F7BE5B19613E331EDC3EE8E7A2BC4D22B83DFAE2BCBE20D1ACBE63309E3E480D833E6FD89BBE2E62BA3E61A594BEB9EC443E",
      torch_tensor_4_4_torch.float32_1: "0x040000001E59AE3D5C5F8FBD2AC9B13E518CBE3E8014913EBCC981BE639075BEC35FBABD336FB0BE5A6FAC3C512521BD66D052BEB993A03E1D736ABEFD69AC3EA2F6DF3E",
      torch_tensor_4_torch.float32: "0x04000000A7973F3A3D29BFBDC1D5C03D42CAC5BD",
      torch_tensor_4_torch.float32_1: "0x04000000332559BDFC0AA23D5024823CBD417BBD"
    }
  }
#-}
