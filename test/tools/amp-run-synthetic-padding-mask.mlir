// A sequence-first attention block with a key_padding_mask input ([S, B, E]
// and [B, S] of i1, batch-dim=1,0; 2026-12-07): amp-run draws each mask row
// as padding (its first k false, the rest true, k in [1, S - 1]), so no
// example masks every key. Drawn uniformly, about one row in 16 was masked whole,
// the softmax of -inf gave NaN and the run stopped at the first step.
// RUN: amp-opt %s --amp-build-train-step="loss=mse batch-dim=1,0 batch=8" -o %t.mlir
// RUN: amp-run %t.mlir --data=synthetic --run=f32,f16+dynamic,bf16 --max-steps=8 --threads=1 --progress=false 2>&1 | FileCheck %s
// CHECK: argument #{{[0-9]+}} (tensor<8x4x8xf32>): 32 f32 values
// CHECK: argument #{{[0-9]+}} (tensor<8x4xi1>): 4 booleans, each row of 4 a padding mask (its first k false, the rest true, k in [1, 3])
// CHECK-NOT: non-finite
// CHECK: f32{{ +}}[[L:[0-9]\.[0-9][0-9]]]{{.*}} 8
// CHECK: f16 + dynamic{{ +}}[[L]]
// CHECK: bf16{{ +}}[[L]]
// RUN: amp-run %t.mlir --data=synthetic --check-gradients | FileCheck %s --check-prefix=GRAD
// A range past 0 and 1 for a boolean input is refused:
// RUN: not amp-run %t.mlir --data=synthetic --synthetic-int-range=3 --max-steps=1 2>&1 | FileCheck %s --check-prefix=RANGE
// RANGE: --synthetic-int-range=3: the input argument #{{[0-9]+}} (tensor<8x4xi1>) is boolean; its values are 0 and 1
// GRAD: (tolerance 1e-05): passed

module attributes {torch.debug_module_name = "MHAKeyPaddingMask"} {
  ml_program.global private mutable @global_seed(dense<0> : tensor<i64>) : tensor<i64>
  func.func @forward(%arg0: tensor<4x1x8xf32>, %arg1: tensor<1x4xi1>) -> tensor<4x1x8xf32> {
    %cst_s0 = arith.constant 0xFF800000 : f32
    %cst_s1 = arith.constant 0.000000e+00 : f32
    %cst_w2 = arith.constant dense<[[-0.17382, 0.00518163, -0.251458, 0.234362, 0.19256, -0.214789, -0.299517, -0.193595], [-0.0451389, -0.221599, 0.329699, -0.216606, 0.314525, -0.0444607, -0.0371825, 0.14272], [-0.305567, 0.105852, -0.0880349, 0.333877, -0.10247, 0.314593, 0.223909, 0.320456], [-0.341877, 0.0730306, -0.126461, 0.195389, 0.017154, 0.251142, -0.160094, -0.204393], [-0.191126, -0.0711859, -0.0223295, 0.00102756, -0.224862, -0.222422, -0.0802118, 0.304854], [-0.0913558, 0.0971884, 0.023387, -0.246571, -0.0169542, -0.0363712, -0.113718, -0.0946919], [0.300793, -0.135391, -0.149313, -0.231965, 0.248323, -0.190714, 0.198694, -0.0426875], [-0.297904, 0.330909, 0.306912, -0.0612967, -0.165477, 0.293678, 0.0175944, -0.124588], [-0.221963, 0.000220341, 0.146019, 0.0494218, 0.015689, 0.0138483, -0.112473, -0.110517], [0.00473304, -0.294931, 0.308246, 0.256966, -0.34552, 0.346329, 0.164313, -0.111476], [-0.0401328, 0.054876, 0.269587, -0.307556, -0.0481632, 0.0611849, -0.193618, -0.145281], [0.0479401, 0.168163, 0.0374378, 0.276973, -0.166275, -0.317106, -0.242075, 0.0801107], [-0.117859, -0.187917, 0.00119249, 0.01529, 0.232721, -0.15512, 0.0267666, 0.230107], [0.177893, 0.147201, -0.0415995, -0.164809, -0.0557226, 0.135339, -0.0804546, -0.327041], [0.289506, -0.0812063, -0.23041, 0.058185, 0.0542849, 0.217036, 0.254477, -0.01336], [-0.284884, -0.0124749, 0.3158, -0.155192, -0.329603, -0.267922, -0.348819, 0.0706611], [0.136688, -0.344191, -0.345373, -0.298441, -0.23201, 0.264959, -0.352635, 0.166926], [-0.271881, 0.345683, 0.238349, -0.277271, 0.0663711, 0.0342533, -0.154442, 0.205514], [-0.131677, 0.229813, 0.0701003, -0.095194, 0.299449, -0.304304, -0.00603607, -0.233551], [-0.232766, 0.0073889, -0.22398, 0.224077, 0.209598, 0.189157, -0.00278043, -0.291618], [0.091531, 0.19867, -0.332883, 0.0223525, -0.235357, 0.0035208, 0.352451, 0.145897], [0.0297968, -0.0794433, -0.0674971, 0.0997174, -0.176238, -0.242004, -0.199637, 0.0295932], [-0.0112555, 0.167648, -0.286302, 0.166913, -0.129262, 0.285395, 0.276036, 0.0317351], [-0.218862, 0.0435366, -0.27459, -0.344778, -0.318773, -0.0669009, 0.287242, 0.340152]]> : tensor<24x8xf32>
    %cst_w3 = arith.constant dense_resource<torch_tensor_24_torch.float32> : tensor<24xf32>
    %cst_s2 = arith.constant 5.000000e-01 : f32
    %c0_i64 = arith.constant 0 : i64
    %cst_w6 = arith.constant dense<[[0.250994, 0.103301, -0.134461, -0.216177, 0.108016, 0.328546, -0.188118, 0.265152], [0.336659, 0.236783, -0.0445546, 0.16816, 0.173632, 0.101157, -0.123905, 0.0411115], [-0.342541, 0.170307, 0.104657, -0.161094, 0.0211272, 0.0517385, 0.275967, 0.176814], [0.279188, -0.159193, 0.133629, 0.0336972, -0.11761, -0.0483858, 0.0472672, -0.090951], [-0.280589, -0.0652039, -0.298468, -0.152879, 0.338123, -0.12709, 0.24147, -0.158406], [-0.0935029, -0.199002, -0.178075, 0.0556971, 0.0439307, 0.000981251, -0.114156, -0.141759], [0.0749559, -0.0635994, -0.345837, -0.0270709, -0.141447, 0.253506, 0.07992, 0.131248], [0.076585, -0.00650824, -0.296348, -0.214958, 0.0611586, 0.283508, -0.315185, -0.0792747]]> : tensor<8x8xf32>
    %cst_w7 = arith.constant dense_resource<torch_tensor_8_torch.float32> : tensor<8xf32>
    %cst_s4 = arith.constant 8.000000e+00 : f32
    %cst_s5 = arith.constant 1.000000e-05 : f64
    %cst_w10 = arith.constant dense<[-0.296214, 0.29633, 0.035841, -0.109626, -0.164789, 0.236026, -0.258196, 0.181915]> : tensor<8xf32>
    %cst_w11 = arith.constant dense_resource<torch_tensor_8_torch.float32_1> : tensor<8xf32>
    %1 = tensor.empty() : tensor<1x4xf32>
    %2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%arg1 : tensor<1x4xi1>) outs(%1 : tensor<1x4xf32>) {
    ^bb0(%a0: i1, %out: f32):
      %r = arith.select %a0, %cst_s0, %cst_s1 : f32
      linalg.yield %r : f32
    } -> tensor<1x4xf32>
    %3 = tensor.expand_shape %2 [[0, 1, 2], [3]] output_shape [1, 1, 1, 4] : tensor<1x4xf32> into tensor<1x1x1x4xf32>
    %4 = tensor.empty() : tensor<1x2x1x4xf32>
    %5 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (0, 0, 0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%3 : tensor<1x1x1x4xf32>) outs(%4 : tensor<1x2x1x4xf32>) {
    ^bb0(%a0: f32, %out: f32):
      linalg.yield %a0 : f32
    } -> tensor<1x2x1x4xf32>
    %6 = tensor.collapse_shape %5 [[0, 1], [2], [3]] : tensor<1x2x1x4xf32> into tensor<2x1x4xf32>
    %7 = tensor.expand_shape %6 [[0, 1], [2], [3]] output_shape [1, 2, 1, 4] : tensor<2x1x4xf32> into tensor<1x2x1x4xf32>
    %8 = tensor.empty() : tensor<8x24xf32>
    %9 = linalg.transpose ins(%cst_w2 : tensor<24x8xf32>) outs(%8 : tensor<8x24xf32>) permutation = [1, 0] 
    %10 = tensor.empty() : tensor<4x8x24xf32>
    %11 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%9 : tensor<8x24xf32>) outs(%10 : tensor<4x8x24xf32>) {
    ^bb0(%a0: f32, %out: f32):
      linalg.yield %a0 : f32
    } -> tensor<4x8x24xf32>
    %12 = tensor.empty() : tensor<4x1x24xf32>
    %13 = linalg.fill ins(%cst_s1 : f32) outs(%12 : tensor<4x1x24xf32>) -> tensor<4x1x24xf32>
    %14 = linalg.batch_matmul ins(%arg0, %11 : tensor<4x1x8xf32>, tensor<4x8x24xf32>) outs(%13 : tensor<4x1x24xf32>) -> tensor<4x1x24xf32>
    %15 = tensor.empty() : tensor<4x1x24xf32>
    %16 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%14, %cst_w3 : tensor<4x1x24xf32>, tensor<24xf32>) outs(%15 : tensor<4x1x24xf32>) {
    ^bb0(%a0: f32, %a1: f32, %out: f32):
      %r = arith.addf %a0, %a1 : f32
      linalg.yield %r : f32
    } -> tensor<4x1x24xf32>
    %17 = tensor.expand_shape %16 [[0], [1], [2, 3]] output_shape [4, 1, 3, 8] : tensor<4x1x24xf32> into tensor<4x1x3x8xf32>
    %18 = tensor.expand_shape %17 [[0, 1], [2], [3], [4]] output_shape [1, 4, 1, 3, 8] : tensor<4x1x3x8xf32> into tensor<1x4x1x3x8xf32>
    %19 = tensor.empty() : tensor<3x4x1x1x8xf32>
    %20 = linalg.transpose ins(%18 : tensor<1x4x1x3x8xf32>) outs(%19 : tensor<3x4x1x1x8xf32>) permutation = [3, 1, 2, 0, 4] 
    %21 = tensor.collapse_shape %20 [[0], [1], [2], [3, 4]] : tensor<3x4x1x1x8xf32> into tensor<3x4x1x8xf32>
    %22 = tensor.extract_slice %21[0, 0, 0, 0] [1, 4, 1, 8] [1, 1, 1, 1] : tensor<3x4x1x8xf32> to tensor<1x4x1x8xf32>
    %23 = tensor.collapse_shape %22 [[0, 1], [2], [3]] : tensor<1x4x1x8xf32> into tensor<4x1x8xf32>
    %24 = tensor.extract_slice %21[1, 0, 0, 0] [1, 4, 1, 8] [1, 1, 1, 1] : tensor<3x4x1x8xf32> to tensor<1x4x1x8xf32>
    %25 = tensor.collapse_shape %24 [[0, 1], [2], [3]] : tensor<1x4x1x8xf32> into tensor<4x1x8xf32>
    %26 = tensor.extract_slice %21[2, 0, 0, 0] [1, 4, 1, 8] [1, 1, 1, 1] : tensor<3x4x1x8xf32> to tensor<1x4x1x8xf32>
    %27 = tensor.collapse_shape %26 [[0, 1], [2], [3]] : tensor<1x4x1x8xf32> into tensor<4x1x8xf32>
    %28 = tensor.expand_shape %23 [[0], [1], [2, 3]] output_shape [4, 1, 2, 4] : tensor<4x1x8xf32> into tensor<4x1x2x4xf32>
    %29 = tensor.collapse_shape %28 [[0], [1, 2], [3]] : tensor<4x1x2x4xf32> into tensor<4x2x4xf32>
    %30 = tensor.empty() : tensor<2x4x4xf32>
    %31 = linalg.transpose ins(%29 : tensor<4x2x4xf32>) outs(%30 : tensor<2x4x4xf32>) permutation = [1, 0, 2] 
    %32 = tensor.expand_shape %31 [[0, 1], [2], [3]] output_shape [1, 2, 4, 4] : tensor<2x4x4xf32> into tensor<1x2x4x4xf32>
    %33 = tensor.expand_shape %25 [[0], [1], [2, 3]] output_shape [4, 1, 2, 4] : tensor<4x1x8xf32> into tensor<4x1x2x4xf32>
    %34 = tensor.collapse_shape %33 [[0], [1, 2], [3]] : tensor<4x1x2x4xf32> into tensor<4x2x4xf32>
    %35 = tensor.empty() : tensor<2x4x4xf32>
    %36 = linalg.transpose ins(%34 : tensor<4x2x4xf32>) outs(%35 : tensor<2x4x4xf32>) permutation = [1, 0, 2] 
    %37 = tensor.expand_shape %36 [[0, 1], [2], [3]] output_shape [1, 2, 4, 4] : tensor<2x4x4xf32> into tensor<1x2x4x4xf32>
    %38 = tensor.expand_shape %27 [[0], [1], [2, 3]] output_shape [4, 1, 2, 4] : tensor<4x1x8xf32> into tensor<4x1x2x4xf32>
    %39 = tensor.collapse_shape %38 [[0], [1, 2], [3]] : tensor<4x1x2x4xf32> into tensor<4x2x4xf32>
    %40 = tensor.empty() : tensor<2x4x4xf32>
    %41 = linalg.transpose ins(%39 : tensor<4x2x4xf32>) outs(%40 : tensor<2x4x4xf32>) permutation = [1, 0, 2] 
    %42 = tensor.expand_shape %41 [[0, 1], [2], [3]] output_shape [1, 2, 4, 4] : tensor<2x4x4xf32> into tensor<1x2x4x4xf32>
    %43 = tensor.empty() : tensor<1x2x4x4xf32>
    %44 = linalg.transpose ins(%37 : tensor<1x2x4x4xf32>) outs(%43 : tensor<1x2x4x4xf32>) permutation = [0, 1, 3, 2] 
    %45 = tensor.collapse_shape %32 [[0, 1], [2], [3]] : tensor<1x2x4x4xf32> into tensor<2x4x4xf32>
    %46 = tensor.collapse_shape %44 [[0, 1], [2], [3]] : tensor<1x2x4x4xf32> into tensor<2x4x4xf32>
    %47 = tensor.empty() : tensor<2x4x4xf32>
    %48 = linalg.fill ins(%cst_s1 : f32) outs(%47 : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
    %49 = linalg.batch_matmul ins(%45, %46 : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%48 : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
    %50 = tensor.expand_shape %49 [[0, 1], [2], [3]] output_shape [1, 2, 4, 4] : tensor<2x4x4xf32> into tensor<1x2x4x4xf32>
    %51 = tensor.empty() : tensor<1x2x4x4xf32>
    %52 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%50 : tensor<1x2x4x4xf32>) outs(%51 : tensor<1x2x4x4xf32>) {
    ^bb0(%a0: f32, %out: f32):
      %r = arith.mulf %a0, %cst_s2 : f32
      linalg.yield %r : f32
    } -> tensor<1x2x4x4xf32>
    %53 = tensor.empty() : tensor<1x2x4x4xf32>
    %54 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (0, d1, 0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%52, %7 : tensor<1x2x4x4xf32>, tensor<1x2x1x4xf32>) outs(%53 : tensor<1x2x4x4xf32>) {
    ^bb0(%a0: f32, %a1: f32, %out: f32):
      %r = arith.addf %a0, %a1 : f32
      linalg.yield %r : f32
    } -> tensor<1x2x4x4xf32>
    %55 = tensor.empty() : tensor<1x2x4x1xf32>
    %56 = linalg.fill ins(%cst_s0 : f32) outs(%55 : tensor<1x2x4x1xf32>) -> tensor<1x2x4x1xf32>
    %57 = tensor.empty() : tensor<1x2x4x1xi64>
    %58 = linalg.fill ins(%c0_i64 : i64) outs(%57 : tensor<1x2x4x1xi64>) -> tensor<1x2x4x1xi64>
    %59:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%54 : tensor<1x2x4x4xf32>) outs(%56, %58 : tensor<1x2x4x1xf32>, tensor<1x2x4x1xi64>) {
    ^bb0(%in: f32, %out: f32, %out_1: i64):
      %i = linalg.index 3 : index
      %ii = arith.index_cast %i : index to i64
      %m = arith.maximumf %in, %out : f32
      %c = arith.cmpf ogt, %in, %out : f32
      %s = arith.select %c, %ii, %out_1 : i64
      linalg.yield %m, %s : f32, i64
    } -> (tensor<1x2x4x1xf32>, tensor<1x2x4x1xi64>)
    %60 = tensor.empty() : tensor<1x2x4x4xf32>
    %61 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (0, d1, d2, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%54, %59#0 : tensor<1x2x4x4xf32>, tensor<1x2x4x1xf32>) outs(%60 : tensor<1x2x4x4xf32>) {
    ^bb0(%a0: f32, %a1: f32, %out: f32):
      %r = arith.subf %a0, %a1 : f32
      linalg.yield %r : f32
    } -> tensor<1x2x4x4xf32>
    %62 = tensor.empty() : tensor<1x2x4x4xf32>
    %63 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%61 : tensor<1x2x4x4xf32>) outs(%62 : tensor<1x2x4x4xf32>) {
    ^bb0(%a0: f32, %out: f32):
      %r = math.exp %a0 : f32
      linalg.yield %r : f32
    } -> tensor<1x2x4x4xf32>
    %64 = tensor.empty() : tensor<1x2x4x1xf32>
    %65 = linalg.fill ins(%cst_s1 : f32) outs(%64 : tensor<1x2x4x1xf32>) -> tensor<1x2x4x1xf32>
    %66 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%63 : tensor<1x2x4x4xf32>) outs(%65 : tensor<1x2x4x1xf32>) {
    ^bb0(%a0: f32, %out: f32):
      %r = arith.addf %a0, %out : f32
      linalg.yield %r : f32
    } -> tensor<1x2x4x1xf32>
    %67 = tensor.empty() : tensor<1x2x4x4xf32>
    %68 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (0, d1, d2, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%63, %66 : tensor<1x2x4x4xf32>, tensor<1x2x4x1xf32>) outs(%67 : tensor<1x2x4x4xf32>) {
    ^bb0(%a0: f32, %a1: f32, %out: f32):
      %r = arith.divf %a0, %a1 : f32
      linalg.yield %r : f32
    } -> tensor<1x2x4x4xf32>
    %69 = tensor.collapse_shape %68 [[0, 1], [2], [3]] : tensor<1x2x4x4xf32> into tensor<2x4x4xf32>
    %70 = tensor.collapse_shape %42 [[0, 1], [2], [3]] : tensor<1x2x4x4xf32> into tensor<2x4x4xf32>
    %71 = tensor.empty() : tensor<2x4x4xf32>
    %72 = linalg.fill ins(%cst_s1 : f32) outs(%71 : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
    %73 = linalg.batch_matmul ins(%69, %70 : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%72 : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
    %74 = tensor.expand_shape %73 [[0, 1], [2], [3]] output_shape [1, 2, 4, 4] : tensor<2x4x4xf32> into tensor<1x2x4x4xf32>
    %75 = tensor.empty() : tensor<4x1x2x4xf32>
    %76 = linalg.transpose ins(%74 : tensor<1x2x4x4xf32>) outs(%75 : tensor<4x1x2x4xf32>) permutation = [2, 0, 1, 3] 
    %77 = tensor.collapse_shape %76 [[0], [1], [2, 3]] : tensor<4x1x2x4xf32> into tensor<4x1x8xf32>
    %78 = tensor.empty() : tensor<8x8xf32>
    %79 = linalg.transpose ins(%cst_w6 : tensor<8x8xf32>) outs(%78 : tensor<8x8xf32>) permutation = [1, 0] 
    %80 = tensor.empty() : tensor<4x8x8xf32>
    %81 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%79 : tensor<8x8xf32>) outs(%80 : tensor<4x8x8xf32>) {
    ^bb0(%a0: f32, %out: f32):
      linalg.yield %a0 : f32
    } -> tensor<4x8x8xf32>
    %82 = tensor.empty() : tensor<4x1x8xf32>
    %83 = linalg.fill ins(%cst_s1 : f32) outs(%82 : tensor<4x1x8xf32>) -> tensor<4x1x8xf32>
    %84 = linalg.batch_matmul ins(%77, %81 : tensor<4x1x8xf32>, tensor<4x8x8xf32>) outs(%83 : tensor<4x1x8xf32>) -> tensor<4x1x8xf32>
    %85 = tensor.empty() : tensor<4x1x8xf32>
    %86 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%84, %cst_w7 : tensor<4x1x8xf32>, tensor<8xf32>) outs(%85 : tensor<4x1x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %out: f32):
      %r = arith.addf %a0, %a1 : f32
      linalg.yield %r : f32
    } -> tensor<4x1x8xf32>
    %87 = tensor.empty() : tensor<4x1x8xf32>
    %88 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0, %86 : tensor<4x1x8xf32>, tensor<4x1x8xf32>) outs(%87 : tensor<4x1x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %out: f32):
      %r = arith.addf %a0, %a1 : f32
      linalg.yield %r : f32
    } -> tensor<4x1x8xf32>
    %89 = tensor.empty() : tensor<4x1x1xf32>
    %90 = linalg.fill ins(%cst_s1 : f32) outs(%89 : tensor<4x1x1xf32>) -> tensor<4x1x1xf32>
    %91 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%88 : tensor<4x1x8xf32>) outs(%90 : tensor<4x1x1xf32>) {
    ^bb0(%a0: f32, %out: f32):
      %r = arith.addf %a0, %out : f32
      linalg.yield %r : f32
    } -> tensor<4x1x1xf32>
    %92 = tensor.empty() : tensor<4x1x1xf32>
    %93 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, 0, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%91 : tensor<4x1x1xf32>) outs(%92 : tensor<4x1x1xf32>) {
    ^bb0(%a0: f32, %out: f32):
      %r = arith.divf %a0, %cst_s4 : f32
      linalg.yield %r : f32
    } -> tensor<4x1x1xf32>
    %94 = tensor.empty() : tensor<4x1x8xf32>
    %95 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%88, %93 : tensor<4x1x8xf32>, tensor<4x1x1xf32>) outs(%94 : tensor<4x1x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %out: f32):
      %r = arith.subf %a0, %a1 : f32
      linalg.yield %r : f32
    } -> tensor<4x1x8xf32>
    %96 = tensor.empty() : tensor<4x1x8xf32>
    %97 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%95 : tensor<4x1x8xf32>) outs(%96 : tensor<4x1x8xf32>) {
    ^bb0(%a0: f32, %out: f32):
      %r = arith.mulf %a0, %a0 : f32
      linalg.yield %r : f32
    } -> tensor<4x1x8xf32>
    %98 = tensor.empty() : tensor<4x1x1xf32>
    %99 = linalg.fill ins(%cst_s1 : f32) outs(%98 : tensor<4x1x1xf32>) -> tensor<4x1x1xf32>
    %100 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%97 : tensor<4x1x8xf32>) outs(%99 : tensor<4x1x1xf32>) {
    ^bb0(%a0: f32, %out: f32):
      %r = arith.addf %a0, %out : f32
      linalg.yield %r : f32
    } -> tensor<4x1x1xf32>
    %101 = tensor.empty() : tensor<4x1x1xf32>
    %102 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, 0, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%100 : tensor<4x1x1xf32>) outs(%101 : tensor<4x1x1xf32>) {
    ^bb0(%a0: f32, %out: f32):
      %r = arith.divf %a0, %cst_s4 : f32
      linalg.yield %r : f32
    } -> tensor<4x1x1xf32>
    %103 = tensor.empty() : tensor<4x1x1xf32>
    %104 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, 0, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%102 : tensor<4x1x1xf32>) outs(%103 : tensor<4x1x1xf32>) {
    ^bb0(%a0: f32, %out: f32):
      %t = arith.truncf %cst_s5 : f64 to f32
      %e = arith.addf %a0, %t : f32
      %r = math.rsqrt %e : f32
      linalg.yield %r : f32
    } -> tensor<4x1x1xf32>
    %105 = tensor.empty() : tensor<4x1x8xf32>
    %106 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%95, %104 : tensor<4x1x8xf32>, tensor<4x1x1xf32>) outs(%105 : tensor<4x1x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %out: f32):
      %r = arith.mulf %a0, %a1 : f32
      linalg.yield %r : f32
    } -> tensor<4x1x8xf32>
    %107 = tensor.empty() : tensor<4x1x8xf32>
    %108 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%106, %cst_w10, %cst_w11 : tensor<4x1x8xf32>, tensor<8xf32>, tensor<8xf32>) outs(%107 : tensor<4x1x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %a2: f32, %out: f32):
      %m = arith.mulf %a0, %a1 : f32
      %r = arith.addf %m, %a2 : f32
      linalg.yield %r : f32
    } -> tensor<4x1x8xf32>
    return %108 : tensor<4x1x8xf32>
  }
}

{-#
  dialect_resources: {
    builtin: {
      torch_tensor_24_torch.float32: "0x040000007C942ABD4212C83C5C2135BDEE6C42BD5A48B0BD4D9E0DBDEDCCC4BDB3FC6FBDA3893B3D4678A33DB5293DBDA123043DAA4184BC0C0C4F3DA12CAA3DF976B5BDF730D23BABF8573D2503833CE6C0103DFFB7A8BD1F6003BC55DC66BCCC030C3D",
      torch_tensor_8_torch.float32: "0x04000000E31999BD1671863D359B51BC9B1B97BDD969593DFE9FC13D9D4FA5BD4FD283BD",
      torch_tensor_8_torch.float32_1: "0x04000000FC6EDB3CBDF8C1BD6A6096BD7F2453BD96BDE5BC3AE2C1BDF58950BD1FF3923D"
    }
  }
#-}
