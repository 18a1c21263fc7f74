// A sequence-first GRU-like cell (batch_first=False, h0 = zeros(2, B, H),
// gates of h @ U + b split along H, outputs stacked into [S, B, H]),
// traced at batch 2: the zero state zeros(2, B, H) sliced to one direction, and the gates of h0 @ U + b sliced along H, are rebuilt at the new batch (slices of all of the batch of a rebuildable value, 2026-12-07).
// Its forward at batch 16 and dynamic against the traced one, bit for bit:
// RUN: %python %amp_src_root/scripts/check-rebatch-forward.py %s %amp_obj_root --batch-dim=1 | FileCheck %s --check-prefix=EXEC
// EXEC: max |fwd2 - fwd16| = 0, max |fwd2 - fwd(dynamic at 16)| = 0, max |fwd2| = {{[0-9]}}
// RUN: amp-opt %s --amp-build-train-step="loss=mse batch=8 batch-dim=1" -o %t.mlir
// RUN: amp-run %t.mlir --data=synthetic --check-gradients | FileCheck %s --check-prefix=GRAD
// GRAD: argument #{{[0-9]+}} (tensor<8x3x3xf32>): 9 f32 values
// GRAD: target (tensor<8x3x4xf32>)
// GRAD: (tolerance 1e-05): passed

module attributes {torch.debug_module_name = "SeqFirstGRUGates2"} {
  ml_program.global private mutable @global_seed(dense<0> : tensor<i64>) : tensor<i64>
  func.func @forward(%arg0: tensor<3x2x3xf32>) -> tensor<3x2x4xf32> {
    %cst_s0 = arith.constant 0.000000e+00 : f32
    %cst_w1 = arith.constant dense_resource<torch_tensor_8_3_torch.float32> : tensor<8x3xf32>
    %cst_w2 = arith.constant dense<[-0.0747313, 0.0969686, 0.0343341, -0.0662104, -0.0216018, 0.0534926, -0.00211292, 0.035246]> : tensor<8xf32>
    %cst_w3 = arith.constant dense_resource<torch_tensor_8_4_torch.float32> : tensor<8x4xf32>
    %cst_w4 = arith.constant dense<[-0.0799477, -0.0762671, 0.0821213, 0.0348663, -0.0428442, 0.053923, -0.0430885, -0.0171921]> : tensor<8xf32>
    %cst_w5 = arith.constant dense_resource<torch_tensor_8_3_torch.float32_1> : tensor<8x3xf32>
    %cst_w6 = arith.constant dense<[0.0919003, 0.0608781, -0.00876399, -0.0200601, 0.0512757, -0.093955, -0.0813143, 0.017417]> : tensor<8xf32>
    %cst_w7 = arith.constant dense_resource<torch_tensor_8_4_torch.float32_1> : tensor<8x4xf32>
    %cst_w8 = arith.constant dense<[-0.0211329, 0.0950135, -0.0775734, 0.0257073, -0.0523903, 0.0342261, -0.014727, -0.0286796]> : tensor<8xf32>
    %cst_w9 = arith.constant dense_resource<torch_tensor_8_3_torch.float32_2> : tensor<8x3xf32>
    %cst_w10 = arith.constant dense<[0.0299518, 0.0636662, 0.0783594, 0.0589627, 0.0592725, 0.0684466, 0.0407701, 0.0233388]> : tensor<8xf32>
    %cst_w11 = arith.constant dense_resource<torch_tensor_8_4_torch.float32_2> : tensor<8x4xf32>
    %cst_w12 = arith.constant dense<[0.0428802, 0.02541, 0.0428372, 0.0224974, -0.0302447, -0.0984635, -0.0657304, 0.00271203]> : tensor<8xf32>
    %1 = tensor.empty() : tensor<2x2x4xf32>
    %2 = linalg.fill ins(%cst_s0 : f32) outs(%1 : tensor<2x2x4xf32>) -> tensor<2x2x4xf32>
    %3 = tensor.extract_slice %2[0, 0, 0] [1, 2, 4] [1, 1, 1] : tensor<2x2x4xf32> to tensor<1x2x4xf32>
    %4 = tensor.collapse_shape %3 [[0, 1], [2]] : tensor<1x2x4xf32> into tensor<2x4xf32>
    %5 = tensor.extract_slice %arg0[0, 0, 0] [1, 2, 3] [1, 1, 1] : tensor<3x2x3xf32> to tensor<1x2x3xf32>
    %6 = tensor.collapse_shape %5 [[0, 1], [2]] : tensor<1x2x3xf32> into tensor<2x3xf32>
    %7 = tensor.empty() : tensor<3x8xf32>
    %8 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%cst_w1 : tensor<8x3xf32>) outs(%7 : tensor<3x8xf32>) {
    ^bb0(%a0: f32, %out: f32):
      linalg.yield %a0 : f32
    } -> tensor<3x8xf32>
    %9 = tensor.empty() : tensor<2x8xf32>
    %10 = linalg.fill ins(%cst_s0 : f32) outs(%9 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %11 = linalg.matmul ins(%6, %8 : tensor<2x3xf32>, tensor<3x8xf32>) outs(%10 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %12 = tensor.empty() : tensor<2x8xf32>
    %13 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%11, %cst_w2 : tensor<2x8xf32>, tensor<8xf32>) outs(%12 : tensor<2x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %out: f32):
      %r = arith.addf %a0, %a1 : f32
      linalg.yield %r : f32
    } -> tensor<2x8xf32>
    %14 = tensor.empty() : tensor<4x8xf32>
    %15 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%cst_w3 : tensor<8x4xf32>) outs(%14 : tensor<4x8xf32>) {
    ^bb0(%a0: f32, %out: f32):
      linalg.yield %a0 : f32
    } -> tensor<4x8xf32>
    %16 = tensor.empty() : tensor<2x8xf32>
    %17 = linalg.fill ins(%cst_s0 : f32) outs(%16 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %18 = linalg.matmul ins(%4, %15 : tensor<2x4xf32>, tensor<4x8xf32>) outs(%17 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %19 = tensor.empty() : tensor<2x8xf32>
    %20 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%18, %cst_w4 : tensor<2x8xf32>, tensor<8xf32>) outs(%19 : tensor<2x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %out: f32):
      %r = arith.addf %a0, %a1 : f32
      linalg.yield %r : f32
    } -> tensor<2x8xf32>
    %21 = tensor.extract_slice %13[0, 0] [2, 4] [1, 1] : tensor<2x8xf32> to tensor<2x4xf32>
    %22 = tensor.extract_slice %13[0, 4] [2, 4] [1, 1] : tensor<2x8xf32> to tensor<2x4xf32>
    %23 = tensor.extract_slice %20[0, 0] [2, 4] [1, 1] : tensor<2x8xf32> to tensor<2x4xf32>
    %24 = tensor.extract_slice %20[0, 4] [2, 4] [1, 1] : tensor<2x8xf32> to tensor<2x4xf32>
    %25 = tensor.empty() : tensor<2x4xf32>
    %26 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%21, %23 : tensor<2x4xf32>, tensor<2x4xf32>) outs(%25 : tensor<2x4xf32>) {
    ^bb0(%a0: f32, %a1: f32, %out: f32):
      %r = arith.addf %a0, %a1 : f32
      linalg.yield %r : f32
    } -> tensor<2x4xf32>
    %27 = tensor.empty() : tensor<2x4xf32>
    %28 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%26 : tensor<2x4xf32>) outs(%27 : tensor<2x4xf32>) {
    ^bb0(%a0: f32, %out: f32):
      %r = math.tanh %a0 : f32
      linalg.yield %r : f32
    } -> tensor<2x4xf32>
    %29 = tensor.empty() : tensor<2x4xf32>
    %30 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%22, %24 : tensor<2x4xf32>, tensor<2x4xf32>) outs(%29 : tensor<2x4xf32>) {
    ^bb0(%a0: f32, %a1: f32, %out: f32):
      %r = arith.addf %a0, %a1 : f32
      linalg.yield %r : f32
    } -> tensor<2x4xf32>
    %31 = tensor.empty() : tensor<2x4xf32>
    %32 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%30 : tensor<2x4xf32>) outs(%31 : tensor<2x4xf32>) {
    ^bb0(%a0: f32, %out: f32):
      %n = arith.negf %a0 : f32
      %e = math.exp %n : f32
      %o = arith.constant 1.0 : f32
      %d = arith.addf %e, %o : f32
      %r = arith.divf %o, %d : f32
      linalg.yield %r : f32
    } -> tensor<2x4xf32>
    %33 = tensor.empty() : tensor<2x4xf32>
    %34 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%32, %28, %4 : tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>) outs(%33 : tensor<2x4xf32>) {
    ^bb0(%a0: f32, %a1: f32, %a2: f32, %out: f32):
      %a = arith.mulf %a0, %a1 : f32
      %o = arith.constant 1.0 : f32
      %c = arith.subf %o, %a0 : f32
      %b = arith.mulf %c, %a2 : f32
      %r = arith.addf %a, %b : f32
      linalg.yield %r : f32
    } -> tensor<2x4xf32>
    %35 = tensor.expand_shape %34 [[0, 1], [2]] output_shape [1, 2, 4] : tensor<2x4xf32> into tensor<1x2x4xf32>
    %36 = tensor.extract_slice %arg0[1, 0, 0] [1, 2, 3] [1, 1, 1] : tensor<3x2x3xf32> to tensor<1x2x3xf32>
    %37 = tensor.collapse_shape %36 [[0, 1], [2]] : tensor<1x2x3xf32> into tensor<2x3xf32>
    %38 = tensor.empty() : tensor<3x8xf32>
    %39 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%cst_w5 : tensor<8x3xf32>) outs(%38 : tensor<3x8xf32>) {
    ^bb0(%a0: f32, %out: f32):
      linalg.yield %a0 : f32
    } -> tensor<3x8xf32>
    %40 = tensor.empty() : tensor<2x8xf32>
    %41 = linalg.fill ins(%cst_s0 : f32) outs(%40 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %42 = linalg.matmul ins(%37, %39 : tensor<2x3xf32>, tensor<3x8xf32>) outs(%41 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %43 = tensor.empty() : tensor<2x8xf32>
    %44 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%42, %cst_w6 : tensor<2x8xf32>, tensor<8xf32>) outs(%43 : tensor<2x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %out: f32):
      %r = arith.addf %a0, %a1 : f32
      linalg.yield %r : f32
    } -> tensor<2x8xf32>
    %45 = tensor.empty() : tensor<4x8xf32>
    %46 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%cst_w7 : tensor<8x4xf32>) outs(%45 : tensor<4x8xf32>) {
    ^bb0(%a0: f32, %out: f32):
      linalg.yield %a0 : f32
    } -> tensor<4x8xf32>
    %47 = tensor.empty() : tensor<2x8xf32>
    %48 = linalg.fill ins(%cst_s0 : f32) outs(%47 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %49 = linalg.matmul ins(%34, %46 : tensor<2x4xf32>, tensor<4x8xf32>) outs(%48 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %50 = tensor.empty() : tensor<2x8xf32>
    %51 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%49, %cst_w8 : tensor<2x8xf32>, tensor<8xf32>) outs(%50 : tensor<2x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %out: f32):
      %r = arith.addf %a0, %a1 : f32
      linalg.yield %r : f32
    } -> tensor<2x8xf32>
    %52 = tensor.extract_slice %44[0, 0] [2, 4] [1, 1] : tensor<2x8xf32> to tensor<2x4xf32>
    %53 = tensor.extract_slice %44[0, 4] [2, 4] [1, 1] : tensor<2x8xf32> to tensor<2x4xf32>
    %54 = tensor.extract_slice %51[0, 0] [2, 4] [1, 1] : tensor<2x8xf32> to tensor<2x4xf32>
    %55 = tensor.extract_slice %51[0, 4] [2, 4] [1, 1] : tensor<2x8xf32> to tensor<2x4xf32>
    %56 = tensor.empty() : tensor<2x4xf32>
    %57 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%52, %54 : tensor<2x4xf32>, tensor<2x4xf32>) outs(%56 : tensor<2x4xf32>) {
    ^bb0(%a0: f32, %a1: f32, %out: f32):
      %r = arith.addf %a0, %a1 : f32
      linalg.yield %r : f32
    } -> tensor<2x4xf32>
    %58 = tensor.empty() : tensor<2x4xf32>
    %59 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%57 : tensor<2x4xf32>) outs(%58 : tensor<2x4xf32>) {
    ^bb0(%a0: f32, %out: f32):
      %r = math.tanh %a0 : f32
      linalg.yield %r : f32
    } -> tensor<2x4xf32>
    %60 = tensor.empty() : tensor<2x4xf32>
    %61 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%53, %55 : tensor<2x4xf32>, tensor<2x4xf32>) outs(%60 : tensor<2x4xf32>) {
    ^bb0(%a0: f32, %a1: f32, %out: f32):
      %r = arith.addf %a0, %a1 : f32
      linalg.yield %r : f32
    } -> tensor<2x4xf32>
    %62 = tensor.empty() : tensor<2x4xf32>
    %63 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%61 : tensor<2x4xf32>) outs(%62 : tensor<2x4xf32>) {
    ^bb0(%a0: f32, %out: f32):
      %n = arith.negf %a0 : f32
      %e = math.exp %n : f32
      %o = arith.constant 1.0 : f32
      %d = arith.addf %e, %o : f32
      %r = arith.divf %o, %d : f32
      linalg.yield %r : f32
    } -> tensor<2x4xf32>
    %64 = tensor.empty() : tensor<2x4xf32>
    %65 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%63, %59, %34 : tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>) outs(%64 : tensor<2x4xf32>) {
    ^bb0(%a0: f32, %a1: f32, %a2: f32, %out: f32):
      %a = arith.mulf %a0, %a1 : f32
      %o = arith.constant 1.0 : f32
      %c = arith.subf %o, %a0 : f32
      %b = arith.mulf %c, %a2 : f32
      %r = arith.addf %a, %b : f32
      linalg.yield %r : f32
    } -> tensor<2x4xf32>
    %66 = tensor.expand_shape %65 [[0, 1], [2]] output_shape [1, 2, 4] : tensor<2x4xf32> into tensor<1x2x4xf32>
    %67 = tensor.extract_slice %arg0[2, 0, 0] [1, 2, 3] [1, 1, 1] : tensor<3x2x3xf32> to tensor<1x2x3xf32>
    %68 = tensor.collapse_shape %67 [[0, 1], [2]] : tensor<1x2x3xf32> into tensor<2x3xf32>
    %69 = tensor.empty() : tensor<3x8xf32>
    %70 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%cst_w9 : tensor<8x3xf32>) outs(%69 : tensor<3x8xf32>) {
    ^bb0(%a0: f32, %out: f32):
      linalg.yield %a0 : f32
    } -> tensor<3x8xf32>
    %71 = tensor.empty() : tensor<2x8xf32>
    %72 = linalg.fill ins(%cst_s0 : f32) outs(%71 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %73 = linalg.matmul ins(%68, %70 : tensor<2x3xf32>, tensor<3x8xf32>) outs(%72 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %74 = tensor.empty() : tensor<2x8xf32>
    %75 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%73, %cst_w10 : tensor<2x8xf32>, tensor<8xf32>) outs(%74 : tensor<2x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %out: f32):
      %r = arith.addf %a0, %a1 : f32
      linalg.yield %r : f32
    } -> tensor<2x8xf32>
    %76 = tensor.empty() : tensor<4x8xf32>
    %77 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%cst_w11 : tensor<8x4xf32>) outs(%76 : tensor<4x8xf32>) {
    ^bb0(%a0: f32, %out: f32):
      linalg.yield %a0 : f32
    } -> tensor<4x8xf32>
    %78 = tensor.empty() : tensor<2x8xf32>
    %79 = linalg.fill ins(%cst_s0 : f32) outs(%78 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %80 = linalg.matmul ins(%65, %77 : tensor<2x4xf32>, tensor<4x8xf32>) outs(%79 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %81 = tensor.empty() : tensor<2x8xf32>
    %82 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%80, %cst_w12 : tensor<2x8xf32>, tensor<8xf32>) outs(%81 : tensor<2x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %out: f32):
      %r = arith.addf %a0, %a1 : f32
      linalg.yield %r : f32
    } -> tensor<2x8xf32>
    %83 = tensor.extract_slice %75[0, 0] [2, 4] [1, 1] : tensor<2x8xf32> to tensor<2x4xf32>
    %84 = tensor.extract_slice %75[0, 4] [2, 4] [1, 1] : tensor<2x8xf32> to tensor<2x4xf32>
    %85 = tensor.extract_slice %82[0, 0] [2, 4] [1, 1] : tensor<2x8xf32> to tensor<2x4xf32>
    %86 = tensor.extract_slice %82[0, 4] [2, 4] [1, 1] : tensor<2x8xf32> to tensor<2x4xf32>
    %87 = tensor.empty() : tensor<2x4xf32>
    %88 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%83, %85 : tensor<2x4xf32>, tensor<2x4xf32>) outs(%87 : tensor<2x4xf32>) {
    ^bb0(%a0: f32, %a1: f32, %out: f32):
      %r = arith.addf %a0, %a1 : f32
      linalg.yield %r : f32
    } -> tensor<2x4xf32>
    %89 = tensor.empty() : tensor<2x4xf32>
    %90 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%88 : tensor<2x4xf32>) outs(%89 : tensor<2x4xf32>) {
    ^bb0(%a0: f32, %out: f32):
      %r = math.tanh %a0 : f32
      linalg.yield %r : f32
    } -> tensor<2x4xf32>
    %91 = tensor.empty() : tensor<2x4xf32>
    %92 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%84, %86 : tensor<2x4xf32>, tensor<2x4xf32>) outs(%91 : tensor<2x4xf32>) {
    ^bb0(%a0: f32, %a1: f32, %out: f32):
      %r = arith.addf %a0, %a1 : f32
      linalg.yield %r : f32
    } -> tensor<2x4xf32>
    %93 = tensor.empty() : tensor<2x4xf32>
    %94 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%92 : tensor<2x4xf32>) outs(%93 : tensor<2x4xf32>) {
    ^bb0(%a0: f32, %out: f32):
      %n = arith.negf %a0 : f32
      %e = math.exp %n : f32
      %o = arith.constant 1.0 : f32
      %d = arith.addf %e, %o : f32
      %r = arith.divf %o, %d : f32
      linalg.yield %r : f32
    } -> tensor<2x4xf32>
    %95 = tensor.empty() : tensor<2x4xf32>
    %96 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%94, %90, %65 : tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>) outs(%95 : tensor<2x4xf32>) {
    ^bb0(%a0: f32, %a1: f32, %a2: f32, %out: f32):
      %a = arith.mulf %a0, %a1 : f32
      %o = arith.constant 1.0 : f32
      %c = arith.subf %o, %a0 : f32
      %b = arith.mulf %c, %a2 : f32
      %r = arith.addf %a, %b : f32
      linalg.yield %r : f32
    } -> tensor<2x4xf32>
    %97 = tensor.expand_shape %96 [[0, 1], [2]] output_shape [1, 2, 4] : tensor<2x4xf32> into tensor<1x2x4xf32>
    %98 = tensor.empty() : tensor<3x2x4xf32>
    %99 = tensor.insert_slice %35 into %98[0, 0, 0] [1, 2, 4] [1, 1, 1] : tensor<1x2x4xf32> into tensor<3x2x4xf32>
    %100 = tensor.insert_slice %66 into %99[1, 0, 0] [1, 2, 4] [1, 1, 1] : tensor<1x2x4xf32> into tensor<3x2x4xf32>
    %101 = tensor.insert_slice %97 into %100[2, 0, 0] [1, 2, 4] [1, 1, 1] : tensor<1x2x4xf32> into tensor<3x2x4xf32>
    return %101 : tensor<3x2x4xf32>
  }
}

{-#
  dialect_resources: {
    builtin: {
      torch_tensor_8_3_torch.float32: "0x04000000ACF23F3E03DD0BBE05D03B3EBDE26C3E00B8563E03CFB1BE8DCBFC3E69C8343E141584BDCBD012BF8225663EAA2EAF3E2D740C3F7C99A73EE3AE06BE4AE00C3F3AAF08BF967FF83E5647E3BE2F2925BE08850DBF7A0AEC3EBED9C5BEF1BBB33D",
      torch_tensor_8_4_torch.float32: "0x040000008F91B2BE2062223EF69E973D19D419BE6122B23EC69F56BEE1E952BC7A8E3A3E36E8AABED1FBED3E5B3E43BE5E27243E59F9373D5D901B3C2234CDBE23B9333E5D13AEBDD55D713E9127B9BEEAEF013C331A8DBEDEE67EBE04DDDFBD0EEC203E8818BE3ECE8A20BEF1749CBE1285C6BD2E7DC13EEFF1603EF67844BE6ADBB2BD",
      torch_tensor_8_3_torch.float32_1: "0x040000004163983D1B70E63D3276EBBEF91689BE641B80BDAD7CF23E2DB80CBF973B163EE003A93EF73311BFFBAF0D3EC2E78ABEC77E58BE9366163D97326BBE4217D03EB71A103F13A1113F0D648DBE1245893DA88FB23EB5F0F0BE1F24DA3E34F3DA3E",
      torch_tensor_8_4_torch.float32_1: "0x04000000E7B1B3BE6F89F33DDD07413E3B9224BE432FC63EFBBF903E1816383D82F703BE6867C9BE3CD6B63EF5CD593E9A54043E537E1C3C91F576BD11E4933E91EC8D3E132763BEF7CF12BE88A9E93E91B62EBD6F79ABBEE9CF66BEC7946DBEB65A8A3D5ACABF3DB5B7C03ED59E95BE0C68093BFC463DBEF741B63DC735213E48C3D73E",
      torch_tensor_8_3_torch.float32_2: "0x040000004FD1BE3E3288753E1B5E243E2D51CC3D40AD07BEF61F4A3EBE71953DFED3ED3E8D9DD4BE7A52303E4FEA2EBD395E133FA78A14BEE840813C9990D83EEC9D0C3F76973BBD4637DEBE6BB64F3E2E66DC3E796112BF52B6FC3D1DD786BE2E4FB63E",
      torch_tensor_8_4_torch.float32_2: "0x040000000FE0EF3EF4BAAF3E22E6EC3E4E06F03E49A2A13DDC8EA83E2A38CDBC2A2BBBBDA6E14C3D79E839BC21E49F3EAC94903DAEB4B3BDC3C9E2BE43FFF5BE496DEBBD45E9C03D0D9ED43E2484C03E94EE39BEDC95C93C2995CF3E3266633E7F29EEBE8449D53E1F04C2BE905AEA3DB28686BEB0FBF93E18ADB73EC5DB103C39C4C3BE"
    }
  }
#-}
