// A sequence-first GRU-like cell (batch_first=False, h0 = zeros(2, B, H),
// gates of h @ U + b split along H, outputs stacked into [S, B, H]),
// traced at batch 1: each step's [1, H] output is expanded to [1, 1, H], where either unit dimension could be the batch; the insert at [t, 0, 0] of [S, 1, H] reads it in dimension 1, and the analysis, which first took dimension 0, is rerun quietly with dimension 1 (2026-12-07).
// Its forward at batch 8 and dynamic against the traced one, bit for bit:
// RUN: %python %amp_src_root/scripts/check-rebatch-forward.py %s %amp_obj_root --batch-dim=1 | FileCheck %s --check-prefix=EXEC
// EXEC: max |fwd1 - fwd8| = 0, max |fwd1 - fwd(dynamic at 8)| = 0, max |fwd1| = {{[0-9]}}
// RUN: amp-opt %s --amp-build-train-step="loss=mse batch=8 batch-dim=1" -o %t.mlir
// RUN: amp-run %t.mlir --data=synthetic --check-gradients | FileCheck %s --check-prefix=GRAD
// GRAD: argument #{{[0-9]+}} (tensor<8x3x3xf32>): 9 f32 values
// GRAD: target (tensor<8x3x4xf32>)
// GRAD: (tolerance 1e-05): passed

module attributes {torch.debug_module_name = "SeqFirstGRUGates1"} {
  ml_program.global private mutable @global_seed(dense<0> : tensor<i64>) : tensor<i64>
  func.func @forward(%arg0: tensor<3x1x3xf32>) -> tensor<3x1x4xf32> {
    %cst_s0 = arith.constant 0.000000e+00 : f32
    %cst_w1 = arith.constant dense_resource<torch_tensor_8_3_torch.float32> : tensor<8x3xf32>
    %cst_w2 = arith.constant dense<[0.0659036, -0.0563935, 0.0609276, -0.00498968, 0.024164, -0.0646279, -0.0627458, -0.0272706]> : tensor<8xf32>
    %cst_w3 = arith.constant dense_resource<torch_tensor_8_4_torch.float32> : tensor<8x4xf32>
    %cst_w4 = arith.constant dense<[-0.0728734, 0.0151466, -0.0240441, -0.0586577, 0.0201112, -0.0963163, -0.0338811, 0.0715755]> : tensor<8xf32>
    %cst_w5 = arith.constant dense_resource<torch_tensor_8_3_torch.float32_1> : tensor<8x3xf32>
    %cst_w6 = arith.constant dense<[0.00290349, -0.0106352, -0.0953228, 0.0727642, 0.0420916, 0.0870055, 0.0202855, 0.0306275]> : tensor<8xf32>
    %cst_w7 = arith.constant dense_resource<torch_tensor_8_4_torch.float32_1> : tensor<8x4xf32>
    %cst_w8 = arith.constant dense<[-0.0837345, 0.0271498, 0.0677054, 0.080837, -0.069937, 0.0711741, 0.0387382, 0.078814]> : tensor<8xf32>
    %cst_w9 = arith.constant dense_resource<torch_tensor_8_3_torch.float32_2> : tensor<8x3xf32>
    %cst_w10 = arith.constant dense<[0.0463711, 0.077234, -0.0912544, 0.0361055, 0.0374839, -0.0390962, 0.0270549, 0.00231041]> : tensor<8xf32>
    %cst_w11 = arith.constant dense_resource<torch_tensor_8_4_torch.float32_2> : tensor<8x4xf32>
    %cst_w12 = arith.constant dense<[0.0249485, 0.0709003, 0.0850482, 0.0357839, -0.00618619, 0.00405417, -0.0714516, -0.0305767]> : tensor<8xf32>
    %1 = tensor.empty() : tensor<2x1x4xf32>
    %2 = linalg.fill ins(%cst_s0 : f32) outs(%1 : tensor<2x1x4xf32>) -> tensor<2x1x4xf32>
    %3 = tensor.extract_slice %2[0, 0, 0] [1, 1, 4] [1, 1, 1] : tensor<2x1x4xf32> to tensor<1x1x4xf32>
    %4 = tensor.collapse_shape %3 [[0, 1], [2]] : tensor<1x1x4xf32> into tensor<1x4xf32>
    %5 = tensor.extract_slice %arg0[0, 0, 0] [1, 1, 3] [1, 1, 1] : tensor<3x1x3xf32> to tensor<1x1x3xf32>
    %6 = tensor.collapse_shape %5 [[0, 1], [2]] : tensor<1x1x3xf32> into tensor<1x3xf32>
    %7 = tensor.empty() : tensor<3x8xf32>
    %8 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%cst_w1 : tensor<8x3xf32>) outs(%7 : tensor<3x8xf32>) {
    ^bb0(%a0: f32, %out: f32):
      linalg.yield %a0 : f32
    } -> tensor<3x8xf32>
    %9 = tensor.empty() : tensor<1x8xf32>
    %10 = linalg.fill ins(%cst_s0 : f32) outs(%9 : tensor<1x8xf32>) -> tensor<1x8xf32>
    %11 = linalg.matmul ins(%6, %8 : tensor<1x3xf32>, tensor<3x8xf32>) outs(%10 : tensor<1x8xf32>) -> tensor<1x8xf32>
    %12 = tensor.empty() : tensor<1x8xf32>
    %13 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%11, %cst_w2 : tensor<1x8xf32>, tensor<8xf32>) outs(%12 : tensor<1x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %out: f32):
      %r = arith.addf %a0, %a1 : f32
      linalg.yield %r : f32
    } -> tensor<1x8xf32>
    %14 = tensor.empty() : tensor<4x8xf32>
    %15 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%cst_w3 : tensor<8x4xf32>) outs(%14 : tensor<4x8xf32>) {
    ^bb0(%a0: f32, %out: f32):
      linalg.yield %a0 : f32
    } -> tensor<4x8xf32>
    %16 = tensor.empty() : tensor<1x8xf32>
    %17 = linalg.fill ins(%cst_s0 : f32) outs(%16 : tensor<1x8xf32>) -> tensor<1x8xf32>
    %18 = linalg.matmul ins(%4, %15 : tensor<1x4xf32>, tensor<4x8xf32>) outs(%17 : tensor<1x8xf32>) -> tensor<1x8xf32>
    %19 = tensor.empty() : tensor<1x8xf32>
    %20 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%18, %cst_w4 : tensor<1x8xf32>, tensor<8xf32>) outs(%19 : tensor<1x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %out: f32):
      %r = arith.addf %a0, %a1 : f32
      linalg.yield %r : f32
    } -> tensor<1x8xf32>
    %21 = tensor.extract_slice %13[0, 0] [1, 4] [1, 1] : tensor<1x8xf32> to tensor<1x4xf32>
    %22 = tensor.extract_slice %13[0, 4] [1, 4] [1, 1] : tensor<1x8xf32> to tensor<1x4xf32>
    %23 = tensor.extract_slice %20[0, 0] [1, 4] [1, 1] : tensor<1x8xf32> to tensor<1x4xf32>
    %24 = tensor.extract_slice %20[0, 4] [1, 4] [1, 1] : tensor<1x8xf32> to tensor<1x4xf32>
    %25 = tensor.empty() : tensor<1x4xf32>
    %26 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%21, %23 : tensor<1x4xf32>, tensor<1x4xf32>) outs(%25 : tensor<1x4xf32>) {
    ^bb0(%a0: f32, %a1: f32, %out: f32):
      %r = arith.addf %a0, %a1 : f32
      linalg.yield %r : f32
    } -> tensor<1x4xf32>
    %27 = tensor.empty() : tensor<1x4xf32>
    %28 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%26 : tensor<1x4xf32>) outs(%27 : tensor<1x4xf32>) {
    ^bb0(%a0: f32, %out: f32):
      %r = math.tanh %a0 : f32
      linalg.yield %r : f32
    } -> tensor<1x4xf32>
    %29 = tensor.empty() : tensor<1x4xf32>
    %30 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%22, %24 : tensor<1x4xf32>, tensor<1x4xf32>) outs(%29 : tensor<1x4xf32>) {
    ^bb0(%a0: f32, %a1: f32, %out: f32):
      %r = arith.addf %a0, %a1 : f32
      linalg.yield %r : f32
    } -> tensor<1x4xf32>
    %31 = tensor.empty() : tensor<1x4xf32>
    %32 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%30 : tensor<1x4xf32>) outs(%31 : tensor<1x4xf32>) {
    ^bb0(%a0: f32, %out: f32):
      %n = arith.negf %a0 : f32
      %e = math.exp %n : f32
      %o = arith.constant 1.0 : f32
      %d = arith.addf %e, %o : f32
      %r = arith.divf %o, %d : f32
      linalg.yield %r : f32
    } -> tensor<1x4xf32>
    %33 = tensor.empty() : tensor<1x4xf32>
    %34 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%32, %28, %4 : tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>) outs(%33 : tensor<1x4xf32>) {
    ^bb0(%a0: f32, %a1: f32, %a2: f32, %out: f32):
      %a = arith.mulf %a0, %a1 : f32
      %o = arith.constant 1.0 : f32
      %c = arith.subf %o, %a0 : f32
      %b = arith.mulf %c, %a2 : f32
      %r = arith.addf %a, %b : f32
      linalg.yield %r : f32
    } -> tensor<1x4xf32>
    %35 = tensor.expand_shape %34 [[0, 1], [2]] output_shape [1, 1, 4] : tensor<1x4xf32> into tensor<1x1x4xf32>
    %36 = tensor.extract_slice %arg0[1, 0, 0] [1, 1, 3] [1, 1, 1] : tensor<3x1x3xf32> to tensor<1x1x3xf32>
    %37 = tensor.collapse_shape %36 [[0, 1], [2]] : tensor<1x1x3xf32> into tensor<1x3xf32>
    %38 = tensor.empty() : tensor<3x8xf32>
    %39 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%cst_w5 : tensor<8x3xf32>) outs(%38 : tensor<3x8xf32>) {
    ^bb0(%a0: f32, %out: f32):
      linalg.yield %a0 : f32
    } -> tensor<3x8xf32>
    %40 = tensor.empty() : tensor<1x8xf32>
    %41 = linalg.fill ins(%cst_s0 : f32) outs(%40 : tensor<1x8xf32>) -> tensor<1x8xf32>
    %42 = linalg.matmul ins(%37, %39 : tensor<1x3xf32>, tensor<3x8xf32>) outs(%41 : tensor<1x8xf32>) -> tensor<1x8xf32>
    %43 = tensor.empty() : tensor<1x8xf32>
    %44 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%42, %cst_w6 : tensor<1x8xf32>, tensor<8xf32>) outs(%43 : tensor<1x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %out: f32):
      %r = arith.addf %a0, %a1 : f32
      linalg.yield %r : f32
    } -> tensor<1x8xf32>
    %45 = tensor.empty() : tensor<4x8xf32>
    %46 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%cst_w7 : tensor<8x4xf32>) outs(%45 : tensor<4x8xf32>) {
    ^bb0(%a0: f32, %out: f32):
      linalg.yield %a0 : f32
    } -> tensor<4x8xf32>
    %47 = tensor.empty() : tensor<1x8xf32>
    %48 = linalg.fill ins(%cst_s0 : f32) outs(%47 : tensor<1x8xf32>) -> tensor<1x8xf32>
    %49 = linalg.matmul ins(%34, %46 : tensor<1x4xf32>, tensor<4x8xf32>) outs(%48 : tensor<1x8xf32>) -> tensor<1x8xf32>
    %50 = tensor.empty() : tensor<1x8xf32>
    %51 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%49, %cst_w8 : tensor<1x8xf32>, tensor<8xf32>) outs(%50 : tensor<1x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %out: f32):
      %r = arith.addf %a0, %a1 : f32
      linalg.yield %r : f32
    } -> tensor<1x8xf32>
    %52 = tensor.extract_slice %44[0, 0] [1, 4] [1, 1] : tensor<1x8xf32> to tensor<1x4xf32>
    %53 = tensor.extract_slice %44[0, 4] [1, 4] [1, 1] : tensor<1x8xf32> to tensor<1x4xf32>
    %54 = tensor.extract_slice %51[0, 0] [1, 4] [1, 1] : tensor<1x8xf32> to tensor<1x4xf32>
    %55 = tensor.extract_slice %51[0, 4] [1, 4] [1, 1] : tensor<1x8xf32> to tensor<1x4xf32>
    %56 = tensor.empty() : tensor<1x4xf32>
    %57 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%52, %54 : tensor<1x4xf32>, tensor<1x4xf32>) outs(%56 : tensor<1x4xf32>) {
    ^bb0(%a0: f32, %a1: f32, %out: f32):
      %r = arith.addf %a0, %a1 : f32
      linalg.yield %r : f32
    } -> tensor<1x4xf32>
    %58 = tensor.empty() : tensor<1x4xf32>
    %59 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%57 : tensor<1x4xf32>) outs(%58 : tensor<1x4xf32>) {
    ^bb0(%a0: f32, %out: f32):
      %r = math.tanh %a0 : f32
      linalg.yield %r : f32
    } -> tensor<1x4xf32>
    %60 = tensor.empty() : tensor<1x4xf32>
    %61 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%53, %55 : tensor<1x4xf32>, tensor<1x4xf32>) outs(%60 : tensor<1x4xf32>) {
    ^bb0(%a0: f32, %a1: f32, %out: f32):
      %r = arith.addf %a0, %a1 : f32
      linalg.yield %r : f32
    } -> tensor<1x4xf32>
    %62 = tensor.empty() : tensor<1x4xf32>
    %63 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%61 : tensor<1x4xf32>) outs(%62 : tensor<1x4xf32>) {
    ^bb0(%a0: f32, %out: f32):
      %n = arith.negf %a0 : f32
      %e = math.exp %n : f32
      %o = arith.constant 1.0 : f32
      %d = arith.addf %e, %o : f32
      %r = arith.divf %o, %d : f32
      linalg.yield %r : f32
    } -> tensor<1x4xf32>
    %64 = tensor.empty() : tensor<1x4xf32>
    %65 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%63, %59, %34 : tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>) outs(%64 : tensor<1x4xf32>) {
    ^bb0(%a0: f32, %a1: f32, %a2: f32, %out: f32):
      %a = arith.mulf %a0, %a1 : f32
      %o = arith.constant 1.0 : f32
      %c = arith.subf %o, %a0 : f32
      %b = arith.mulf %c, %a2 : f32
      %r = arith.addf %a, %b : f32
      linalg.yield %r : f32
    } -> tensor<1x4xf32>
    %66 = tensor.expand_shape %65 [[0, 1], [2]] output_shape [1, 1, 4] : tensor<1x4xf32> into tensor<1x1x4xf32>
    %67 = tensor.extract_slice %arg0[2, 0, 0] [1, 1, 3] [1, 1, 1] : tensor<3x1x3xf32> to tensor<1x1x3xf32>
    %68 = tensor.collapse_shape %67 [[0, 1], [2]] : tensor<1x1x3xf32> into tensor<1x3xf32>
    %69 = tensor.empty() : tensor<3x8xf32>
    %70 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%cst_w9 : tensor<8x3xf32>) outs(%69 : tensor<3x8xf32>) {
    ^bb0(%a0: f32, %out: f32):
      linalg.yield %a0 : f32
    } -> tensor<3x8xf32>
    %71 = tensor.empty() : tensor<1x8xf32>
    %72 = linalg.fill ins(%cst_s0 : f32) outs(%71 : tensor<1x8xf32>) -> tensor<1x8xf32>
    %73 = linalg.matmul ins(%68, %70 : tensor<1x3xf32>, tensor<3x8xf32>) outs(%72 : tensor<1x8xf32>) -> tensor<1x8xf32>
    %74 = tensor.empty() : tensor<1x8xf32>
    %75 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%73, %cst_w10 : tensor<1x8xf32>, tensor<8xf32>) outs(%74 : tensor<1x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %out: f32):
      %r = arith.addf %a0, %a1 : f32
      linalg.yield %r : f32
    } -> tensor<1x8xf32>
    %76 = tensor.empty() : tensor<4x8xf32>
    %77 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%cst_w11 : tensor<8x4xf32>) outs(%76 : tensor<4x8xf32>) {
    ^bb0(%a0: f32, %out: f32):
      linalg.yield %a0 : f32
    } -> tensor<4x8xf32>
    %78 = tensor.empty() : tensor<1x8xf32>
    %79 = linalg.fill ins(%cst_s0 : f32) outs(%78 : tensor<1x8xf32>) -> tensor<1x8xf32>
    %80 = linalg.matmul ins(%65, %77 : tensor<1x4xf32>, tensor<4x8xf32>) outs(%79 : tensor<1x8xf32>) -> tensor<1x8xf32>
    %81 = tensor.empty() : tensor<1x8xf32>
    %82 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%80, %cst_w12 : tensor<1x8xf32>, tensor<8xf32>) outs(%81 : tensor<1x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %out: f32):
      %r = arith.addf %a0, %a1 : f32
      linalg.yield %r : f32
    } -> tensor<1x8xf32>
    %83 = tensor.extract_slice %75[0, 0] [1, 4] [1, 1] : tensor<1x8xf32> to tensor<1x4xf32>
    %84 = tensor.extract_slice %75[0, 4] [1, 4] [1, 1] : tensor<1x8xf32> to tensor<1x4xf32>
    %85 = tensor.extract_slice %82[0, 0] [1, 4] [1, 1] : tensor<1x8xf32> to tensor<1x4xf32>
    %86 = tensor.extract_slice %82[0, 4] [1, 4] [1, 1] : tensor<1x8xf32> to tensor<1x4xf32>
    %87 = tensor.empty() : tensor<1x4xf32>
    %88 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%83, %85 : tensor<1x4xf32>, tensor<1x4xf32>) outs(%87 : tensor<1x4xf32>) {
    ^bb0(%a0: f32, %a1: f32, %out: f32):
      %r = arith.addf %a0, %a1 : f32
      linalg.yield %r : f32
    } -> tensor<1x4xf32>
    %89 = tensor.empty() : tensor<1x4xf32>
    %90 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%88 : tensor<1x4xf32>) outs(%89 : tensor<1x4xf32>) {
    ^bb0(%a0: f32, %out: f32):
      %r = math.tanh %a0 : f32
      linalg.yield %r : f32
    } -> tensor<1x4xf32>
    %91 = tensor.empty() : tensor<1x4xf32>
    %92 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%84, %86 : tensor<1x4xf32>, tensor<1x4xf32>) outs(%91 : tensor<1x4xf32>) {
    ^bb0(%a0: f32, %a1: f32, %out: f32):
      %r = arith.addf %a0, %a1 : f32
      linalg.yield %r : f32
    } -> tensor<1x4xf32>
    %93 = tensor.empty() : tensor<1x4xf32>
    %94 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%92 : tensor<1x4xf32>) outs(%93 : tensor<1x4xf32>) {
    ^bb0(%a0: f32, %out: f32):
      %n = arith.negf %a0 : f32
      %e = math.exp %n : f32
      %o = arith.constant 1.0 : f32
      %d = arith.addf %e, %o : f32
      %r = arith.divf %o, %d : f32
      linalg.yield %r : f32
    } -> tensor<1x4xf32>
    %95 = tensor.empty() : tensor<1x4xf32>
    %96 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%94, %90, %65 : tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>) outs(%95 : tensor<1x4xf32>) {
    ^bb0(%a0: f32, %a1: f32, %a2: f32, %out: f32):
      %a = arith.mulf %a0, %a1 : f32
      %o = arith.constant 1.0 : f32
      %c = arith.subf %o, %a0 : f32
      %b = arith.mulf %c, %a2 : f32
      %r = arith.addf %a, %b : f32
      linalg.yield %r : f32
    } -> tensor<1x4xf32>
    %97 = tensor.expand_shape %96 [[0, 1], [2]] output_shape [1, 1, 4] : tensor<1x4xf32> into tensor<1x1x4xf32>
    %98 = tensor.empty() : tensor<3x1x4xf32>
    %99 = tensor.insert_slice %35 into %98[0, 0, 0] [1, 1, 4] [1, 1, 1] : tensor<1x1x4xf32> into tensor<3x1x4xf32>
    %100 = tensor.insert_slice %66 into %99[1, 0, 0] [1, 1, 4] [1, 1, 1] : tensor<1x1x4xf32> into tensor<3x1x4xf32>
    %101 = tensor.insert_slice %97 into %100[2, 0, 0] [1, 1, 4] [1, 1, 1] : tensor<1x1x4xf32> into tensor<3x1x4xf32>
    return %101 : tensor<3x1x4xf32>
  }
}

{-#
  dialect_resources: {
    builtin: {
      torch_tensor_8_3_torch.float32: "0x0400000030C59D3E4C4D87BD82696F3E8CE28CBE087481BDF8B7E03DB9C8EF3E7F27043FDB7F833E564403BFA396283ECC6314BE0CC979BE36C6AF3EEFA9F1BE5481DC3EC1C23E3EFBD09EBE98D490BEE7988F3E46CB473E0EE5603D35ADD73E4C0680BE",
      torch_tensor_8_4_torch.float32: "0x040000005036823E2167923E95A6B83D0383853EA5CDF2BD7AC28DBEE05D44BEDFC8BABDEA9EE8BE2F8B653E9851893D9FBF20BE4E78E1BEB0E28EBE7A81EC3EC2C718BE7493D6BDE1CA60BE965164BDC12A943EA9D39A3DBCECB7BE115D153E45C0FCBE5D90E3BE5F7A4CBEC39491BED0AC5ABEA80BDCBEDC7C81BEADE7793E0F28153E",
      torch_tensor_8_3_torch.float32_1: "0x0400000044DE093F85ED3F3EF5E9B9BED81C7C3E6AC60F3F5A2827BEA48B033F47CDB83E0762043FD8954CBEEDD595BEB3F1A23EF1CB23BE2B4B033E12FE903E9965B8BEF8B112BF26ADA9BEB4871DBE393FB53EB3E0EABEA031EABDB173833E7769583E",
      torch_tensor_8_4_torch.float32_1: "0x0400000012FADBBDE354CFBECE3AC8BEA8F8B6BC5D5CD0BD17FAE4BE93BB5C3E6FC8273E029F393E28C7933E8AA8F33EECE5F0BEE1CAA73EF2DA163E68AB3D3ECD77BEBE48042FBEA805BCBE12E4C83ED08F52BE1F1FC5BE80B23A3E0C19063C18BABEBE9FDB803E4392A9BE01CE2DBE25ADAB3E9D6A9D3E1B96573E1F45FD3EA8020E3E",
      torch_tensor_8_3_torch.float32_2: "0x04000000ADEDE2BE815BC33B7DB4133F6880FB3E9BC683BE513EBBBD6241B9BEA110B93EA8384E3D0FB38F3CEA21EBBB8ACDE43E76014ABEE570EC3EBD1610BF02D8133EF89685BDCEA2313ED79B113F1C8EB23E46F7A0BE603EBD3E919FA6BD8ABF06BF",
      torch_tensor_8_4_torch.float32_2: "0x040000000A4989BCD3BEFC3EC138F4BE0F4CD0BE733BD13E14EAA13E1BC8D7BEEE5F963E6726B03D8EB2D5BDC98A8CBE4FD6163E6D4DFDBE920289BEB6E7EEBE4391DD3E9F34773EBB6B11BE9F17F13EBC79BABEED25C33B25B7E4BE18D828BE451596BDBBEB513E7FFA4CBE4B719BBE0DAF863E4841B4BE8EE72F3E8F2DD9BDC1C6CDBE"
    }
  }
#-}
