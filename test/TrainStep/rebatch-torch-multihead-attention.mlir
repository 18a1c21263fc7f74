// nn.MultiheadAttention(batch_first=False) as F.multi_head_attention_forward
// writes it, traced at batch 1 (2026-12-07): the in- and out-projections
// flatten [S, B, E] to [S*B, E] (attn_output.transpose(0, 1).contiguous()
// .view(S * B, E) before out_proj), so the batch sits after the sequence
// in a merged dimension. Re-batching follows it as S x B rows (refused
// before: "flattens across the batch"), through the matmuls to the expand
// that splits it off again.
// RUN: %python %amp_src_root/scripts/check-rebatch-forward.py %s %amp_obj_root --batch-dim=1 | FileCheck %s --check-prefix=EXEC
// EXEC: max |fwd1 - fwd8| = 0, max |fwd1 - fwd(dynamic at 8)| = 0, max |fwd1| = {{[0-9]}}
// RUN: amp-opt %s --amp-build-train-step="loss=mse batch=8 batch-dim=1" -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// CHECK-LABEL: func.func @train_step(
// CHECK: tensor.collapse_shape %{{.*}} {{\[}}[0, 1], [2]] : tensor<3x8x4xf32> into tensor<24x4xf32>
// CHECK: tensor.collapse_shape %{{.*}} {{\[}}[0, 1], [2, 3]] : tensor<3x8x2x2xf32> into tensor<24x4xf32>
// RUN: amp-run %t.mlir --data=synthetic --check-gradients | FileCheck %s --check-prefix=GRAD
// GRAD: (tolerance 1e-05): passed
// RUN: amp-run %t.mlir --data=synthetic --run=f32,f16+dynamic,bf16 --max-steps=3 --threads=1 --progress=false 2>&1 | FileCheck %s --check-prefix=TRAIN
// TRAIN: f32{{ +}}[[L:[0-9]\.[0-9][0-9]]]
// TRAIN: f16 + dynamic{{ +}}[[L]]
// TRAIN: bf16{{ +}}[[L]]

module attributes {torch.debug_module_name = "TorchMultiheadAttention1"} {
  ml_program.global private mutable @global_seed(dense<0> : tensor<i64>) : tensor<i64>
  func.func @forward(%arg0: tensor<3x1x4xf32>) -> tensor<3x1x4xf32> {
    %cst_w0 = arith.constant dense<[[0.158798, -0.214283, 0.306357, 0.207618], [-0.327881, 0.214196, -0.0467348, -0.391736], [-0.138003, 0.125702, -0.36914, 0.360438], [-0.167339, -0.0101159, -0.3438, -0.209466]]> : tensor<4x4xf32>
    %cst_s0 = arith.constant 0.000000e+00 : f32
    %cst_w2 = arith.constant dense<[0.0898321, -0.0953742, 0.084492, -0.0440267]> : tensor<4xf32>
    %cst_w3 = arith.constant dense_resource<torch_tensor_4_4_torch.float32> : tensor<4x4xf32>
    %cst_w4 = arith.constant dense<[-0.0930256, -0.0601277, 0.045795, -0.0619248]> : tensor<4xf32>
    %cst_w5 = arith.constant dense_resource<torch_tensor_4_4_torch.float32_1> : tensor<4x4xf32>
    %cst_w6 = arith.constant dense<[0.0552838, -0.0166661, -0.00977798, 0.0316934]> : tensor<4xf32>
    %cst_s1 = arith.constant 1.414214e+00 : f32
    %cst_s2 = arith.constant 0xFF800000 : f32
    %c0_i64 = arith.constant 0 : i64
    %cst_w10 = arith.constant dense<[[-0.013063, 0.480439, -0.376338, 0.461561], [-0.450658, 0.0716039, -0.152805, -0.240323], [-0.30518, -0.438522, 0.145413, 0.25635], [-0.15796, 0.0226576, 0.114787, -0.369779]]> : tensor<4x4xf32>
    %cst_w11 = arith.constant dense_resource<torch_tensor_4_torch.float32> : tensor<4xf32>
    %cst_s4 = arith.constant 4.000000e+00 : f32
    %cst_s5 = arith.constant 1.000000e-05 : f64
    %cst_w14 = arith.constant dense<[-0.265363, -0.0641572, -0.0141601, -0.270812]> : tensor<4xf32>
    %cst_w15 = arith.constant dense_resource<torch_tensor_4_torch.float32_1> : tensor<4xf32>
    %1 = tensor.collapse_shape %arg0 [[0, 1], [2]] : tensor<3x1x4xf32> into tensor<3x4xf32>
    %2 = tensor.empty() : tensor<4x4xf32>
    %3 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%cst_w0 : tensor<4x4xf32>) outs(%2 : tensor<4x4xf32>) {
    ^bb0(%a0: f32, %out: f32):
      linalg.yield %a0 : f32
    } -> tensor<4x4xf32>
    %4 = tensor.empty() : tensor<3x4xf32>
    %5 = linalg.fill ins(%cst_s0 : f32) outs(%4 : tensor<3x4xf32>) -> tensor<3x4xf32>
    %6 = linalg.matmul ins(%1, %3 : tensor<3x4xf32>, tensor<4x4xf32>) outs(%5 : tensor<3x4xf32>) -> tensor<3x4xf32>
    %7 = tensor.empty() : tensor<3x4xf32>
    %8 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%6, %cst_w2 : tensor<3x4xf32>, tensor<4xf32>) outs(%7 : tensor<3x4xf32>) {
    ^bb0(%a0: f32, %a1: f32, %out: f32):
      %r = arith.addf %a0, %a1 : f32
      linalg.yield %r : f32
    } -> tensor<3x4xf32>
    %9 = tensor.expand_shape %8 [[0, 1], [2]] output_shape [3, 1, 4] : tensor<3x4xf32> into tensor<3x1x4xf32>
    %10 = tensor.collapse_shape %arg0 [[0, 1], [2]] : tensor<3x1x4xf32> into tensor<3x4xf32>
    %11 = tensor.empty() : tensor<4x4xf32>
    %12 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%cst_w3 : tensor<4x4xf32>) outs(%11 : tensor<4x4xf32>) {
    ^bb0(%a0: f32, %out: f32):
      linalg.yield %a0 : f32
    } -> tensor<4x4xf32>
    %13 = tensor.empty() : tensor<3x4xf32>
    %14 = linalg.fill ins(%cst_s0 : f32) outs(%13 : tensor<3x4xf32>) -> tensor<3x4xf32>
    %15 = linalg.matmul ins(%10, %12 : tensor<3x4xf32>, tensor<4x4xf32>) outs(%14 : tensor<3x4xf32>) -> tensor<3x4xf32>
    %16 = tensor.empty() : tensor<3x4xf32>
    %17 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%15, %cst_w4 : tensor<3x4xf32>, tensor<4xf32>) outs(%16 : tensor<3x4xf32>) {
    ^bb0(%a0: f32, %a1: f32, %out: f32):
      %r = arith.addf %a0, %a1 : f32
      linalg.yield %r : f32
    } -> tensor<3x4xf32>
    %18 = tensor.expand_shape %17 [[0, 1], [2]] output_shape [3, 1, 4] : tensor<3x4xf32> into tensor<3x1x4xf32>
    %19 = tensor.collapse_shape %arg0 [[0, 1], [2]] : tensor<3x1x4xf32> into tensor<3x4xf32>
    %20 = tensor.empty() : tensor<4x4xf32>
    %21 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%cst_w5 : tensor<4x4xf32>) outs(%20 : tensor<4x4xf32>) {
    ^bb0(%a0: f32, %out: f32):
      linalg.yield %a0 : f32
    } -> tensor<4x4xf32>
    %22 = tensor.empty() : tensor<3x4xf32>
    %23 = linalg.fill ins(%cst_s0 : f32) outs(%22 : tensor<3x4xf32>) -> tensor<3x4xf32>
    %24 = linalg.matmul ins(%19, %21 : tensor<3x4xf32>, tensor<4x4xf32>) outs(%23 : tensor<3x4xf32>) -> tensor<3x4xf32>
    %25 = tensor.empty() : tensor<3x4xf32>
    %26 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%24, %cst_w6 : tensor<3x4xf32>, tensor<4xf32>) outs(%25 : tensor<3x4xf32>) {
    ^bb0(%a0: f32, %a1: f32, %out: f32):
      %r = arith.addf %a0, %a1 : f32
      linalg.yield %r : f32
    } -> tensor<3x4xf32>
    %27 = tensor.expand_shape %26 [[0, 1], [2]] output_shape [3, 1, 4] : tensor<3x4xf32> into tensor<3x1x4xf32>
    %28 = tensor.expand_shape %9 [[0], [1], [2, 3]] output_shape [3, 1, 2, 2] : tensor<3x1x4xf32> into tensor<3x1x2x2xf32>
    %29 = tensor.collapse_shape %28 [[0], [1, 2], [3]] : tensor<3x1x2x2xf32> into tensor<3x2x2xf32>
    %30 = tensor.empty() : tensor<2x3x2xf32>
    %31 = linalg.transpose ins(%29 : tensor<3x2x2xf32>) outs(%30 : tensor<2x3x2xf32>) permutation = [1, 0, 2] 
    %32 = tensor.expand_shape %18 [[0], [1], [2, 3]] output_shape [3, 1, 2, 2] : tensor<3x1x4xf32> into tensor<3x1x2x2xf32>
    %33 = tensor.collapse_shape %32 [[0], [1, 2], [3]] : tensor<3x1x2x2xf32> into tensor<3x2x2xf32>
    %34 = tensor.empty() : tensor<2x3x2xf32>
    %35 = linalg.transpose ins(%33 : tensor<3x2x2xf32>) outs(%34 : tensor<2x3x2xf32>) permutation = [1, 0, 2] 
    %36 = tensor.expand_shape %27 [[0], [1], [2, 3]] output_shape [3, 1, 2, 2] : tensor<3x1x4xf32> into tensor<3x1x2x2xf32>
    %37 = tensor.collapse_shape %36 [[0], [1, 2], [3]] : tensor<3x1x2x2xf32> into tensor<3x2x2xf32>
    %38 = tensor.empty() : tensor<2x3x2xf32>
    %39 = linalg.transpose ins(%37 : tensor<3x2x2xf32>) outs(%38 : tensor<2x3x2xf32>) permutation = [1, 0, 2] 
    %40 = tensor.empty() : tensor<2x2x3xf32>
    %41 = linalg.transpose ins(%35 : tensor<2x3x2xf32>) outs(%40 : tensor<2x2x3xf32>) permutation = [0, 2, 1] 
    %42 = tensor.empty() : tensor<2x3x3xf32>
    %43 = linalg.fill ins(%cst_s0 : f32) outs(%42 : tensor<2x3x3xf32>) -> tensor<2x3x3xf32>
    %44 = linalg.batch_matmul ins(%31, %41 : tensor<2x3x2xf32>, tensor<2x2x3xf32>) outs(%43 : tensor<2x3x3xf32>) -> tensor<2x3x3xf32>
    %45 = tensor.empty() : tensor<2x3x3xf32>
    %46 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%44 : tensor<2x3x3xf32>) outs(%45 : tensor<2x3x3xf32>) {
    ^bb0(%a0: f32, %out: f32):
      %r = arith.divf %a0, %cst_s1 : f32
      linalg.yield %r : f32
    } -> tensor<2x3x3xf32>
    %47 = tensor.empty() : tensor<2x3x1xf32>
    %48 = linalg.fill ins(%cst_s2 : f32) outs(%47 : tensor<2x3x1xf32>) -> tensor<2x3x1xf32>
    %49 = tensor.empty() : tensor<2x3x1xi64>
    %50 = linalg.fill ins(%c0_i64 : i64) outs(%49 : tensor<2x3x1xi64>) -> tensor<2x3x1xi64>
    %51:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%46 : tensor<2x3x3xf32>) outs(%48, %50 : tensor<2x3x1xf32>, tensor<2x3x1xi64>) {
    ^bb0(%in: f32, %out: f32, %out_1: i64):
      %i = linalg.index 2 : index
      %ii = arith.index_cast %i : index to i64
      %m = arith.maximumf %in, %out : f32
      %c = arith.cmpf ogt, %in, %out : f32
      %s = arith.select %c, %ii, %out_1 : i64
      linalg.yield %m, %s : f32, i64
    } -> (tensor<2x3x1xf32>, tensor<2x3x1xi64>)
    %52 = tensor.empty() : tensor<2x3x3xf32>
    %53 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%46, %51#0 : tensor<2x3x3xf32>, tensor<2x3x1xf32>) outs(%52 : tensor<2x3x3xf32>) {
    ^bb0(%a0: f32, %a1: f32, %out: f32):
      %r = arith.subf %a0, %a1 : f32
      linalg.yield %r : f32
    } -> tensor<2x3x3xf32>
    %54 = tensor.empty() : tensor<2x3x3xf32>
    %55 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%53 : tensor<2x3x3xf32>) outs(%54 : tensor<2x3x3xf32>) {
    ^bb0(%a0: f32, %out: f32):
      %r = math.exp %a0 : f32
      linalg.yield %r : f32
    } -> tensor<2x3x3xf32>
    %56 = tensor.empty() : tensor<2x3x1xf32>
    %57 = linalg.fill ins(%cst_s0 : f32) outs(%56 : tensor<2x3x1xf32>) -> tensor<2x3x1xf32>
    %58 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%55 : tensor<2x3x3xf32>) outs(%57 : tensor<2x3x1xf32>) {
    ^bb0(%a0: f32, %out: f32):
      %r = arith.addf %a0, %out : f32
      linalg.yield %r : f32
    } -> tensor<2x3x1xf32>
    %59 = tensor.empty() : tensor<2x3x3xf32>
    %60 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%55, %58 : tensor<2x3x3xf32>, tensor<2x3x1xf32>) outs(%59 : tensor<2x3x3xf32>) {
    ^bb0(%a0: f32, %a1: f32, %out: f32):
      %r = arith.divf %a0, %a1 : f32
      linalg.yield %r : f32
    } -> tensor<2x3x3xf32>
    %61 = tensor.empty() : tensor<2x3x2xf32>
    %62 = linalg.fill ins(%cst_s0 : f32) outs(%61 : tensor<2x3x2xf32>) -> tensor<2x3x2xf32>
    %63 = linalg.batch_matmul ins(%60, %39 : tensor<2x3x3xf32>, tensor<2x3x2xf32>) outs(%62 : tensor<2x3x2xf32>) -> tensor<2x3x2xf32>
    %64 = tensor.empty() : tensor<3x2x2xf32>
    %65 = linalg.transpose ins(%63 : tensor<2x3x2xf32>) outs(%64 : tensor<3x2x2xf32>) permutation = [1, 0, 2] 
    %66 = tensor.expand_shape %65 [[0], [1, 2], [3]] output_shape [3, 1, 2, 2] : tensor<3x2x2xf32> into tensor<3x1x2x2xf32>
    %67 = tensor.collapse_shape %66 [[0, 1], [2, 3]] : tensor<3x1x2x2xf32> into tensor<3x4xf32>
    %68 = tensor.empty() : tensor<4x4xf32>
    %69 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%cst_w10 : tensor<4x4xf32>) outs(%68 : tensor<4x4xf32>) {
    ^bb0(%a0: f32, %out: f32):
      linalg.yield %a0 : f32
    } -> tensor<4x4xf32>
    %70 = tensor.empty() : tensor<3x4xf32>
    %71 = linalg.fill ins(%cst_s0 : f32) outs(%70 : tensor<3x4xf32>) -> tensor<3x4xf32>
    %72 = linalg.matmul ins(%67, %69 : tensor<3x4xf32>, tensor<4x4xf32>) outs(%71 : tensor<3x4xf32>) -> tensor<3x4xf32>
    %73 = tensor.empty() : tensor<3x4xf32>
    %74 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%72, %cst_w11 : tensor<3x4xf32>, tensor<4xf32>) outs(%73 : tensor<3x4xf32>) {
    ^bb0(%a0: f32, %a1: f32, %out: f32):
      %r = arith.addf %a0, %a1 : f32
      linalg.yield %r : f32
    } -> tensor<3x4xf32>
    %75 = tensor.expand_shape %74 [[0, 1], [2]] output_shape [3, 1, 4] : tensor<3x4xf32> into tensor<3x1x4xf32>
    %76 = tensor.empty() : tensor<3x1x4xf32>
    %77 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0, %75 : tensor<3x1x4xf32>, tensor<3x1x4xf32>) outs(%76 : tensor<3x1x4xf32>) {
    ^bb0(%a0: f32, %a1: f32, %out: f32):
      %r = arith.addf %a0, %a1 : f32
      linalg.yield %r : f32
    } -> tensor<3x1x4xf32>
    %78 = tensor.empty() : tensor<3x1x1xf32>
    %79 = linalg.fill ins(%cst_s0 : f32) outs(%78 : tensor<3x1x1xf32>) -> tensor<3x1x1xf32>
    %80 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%77 : tensor<3x1x4xf32>) outs(%79 : tensor<3x1x1xf32>) {
    ^bb0(%a0: f32, %out: f32):
      %r = arith.addf %a0, %out : f32
      linalg.yield %r : f32
    } -> tensor<3x1x1xf32>
    %81 = tensor.empty() : tensor<3x1x1xf32>
    %82 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%80 : tensor<3x1x1xf32>) outs(%81 : tensor<3x1x1xf32>) {
    ^bb0(%a0: f32, %out: f32):
      %r = arith.divf %a0, %cst_s4 : f32
      linalg.yield %r : f32
    } -> tensor<3x1x1xf32>
    %83 = tensor.empty() : tensor<3x1x4xf32>
    %84 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%77, %82 : tensor<3x1x4xf32>, tensor<3x1x1xf32>) outs(%83 : tensor<3x1x4xf32>) {
    ^bb0(%a0: f32, %a1: f32, %out: f32):
      %r = arith.subf %a0, %a1 : f32
      linalg.yield %r : f32
    } -> tensor<3x1x4xf32>
    %85 = tensor.empty() : tensor<3x1x4xf32>
    %86 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%84 : tensor<3x1x4xf32>) outs(%85 : tensor<3x1x4xf32>) {
    ^bb0(%a0: f32, %out: f32):
      %r = arith.mulf %a0, %a0 : f32
      linalg.yield %r : f32
    } -> tensor<3x1x4xf32>
    %87 = tensor.empty() : tensor<3x1x1xf32>
    %88 = linalg.fill ins(%cst_s0 : f32) outs(%87 : tensor<3x1x1xf32>) -> tensor<3x1x1xf32>
    %89 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%86 : tensor<3x1x4xf32>) outs(%88 : tensor<3x1x1xf32>) {
    ^bb0(%a0: f32, %out: f32):
      %r = arith.addf %a0, %out : f32
      linalg.yield %r : f32
    } -> tensor<3x1x1xf32>
    %90 = tensor.empty() : tensor<3x1x1xf32>
    %91 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%89 : tensor<3x1x1xf32>) outs(%90 : tensor<3x1x1xf32>) {
    ^bb0(%a0: f32, %out: f32):
      %r = arith.divf %a0, %cst_s4 : f32
      linalg.yield %r : f32
    } -> tensor<3x1x1xf32>
    %92 = tensor.empty() : tensor<3x1x1xf32>
    %93 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%91 : tensor<3x1x1xf32>) outs(%92 : tensor<3x1x1xf32>) {
    ^bb0(%a0: f32, %out: f32):
      %t = arith.truncf %cst_s5 : f64 to f32
      %e = arith.addf %a0, %t : f32
      %r = math.rsqrt %e : f32
      linalg.yield %r : f32
    } -> tensor<3x1x1xf32>
    %94 = tensor.empty() : tensor<3x1x4xf32>
    %95 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%84, %93 : tensor<3x1x4xf32>, tensor<3x1x1xf32>) outs(%94 : tensor<3x1x4xf32>) {
    ^bb0(%a0: f32, %a1: f32, %out: f32):
      %r = arith.mulf %a0, %a1 : f32
      linalg.yield %r : f32
    } -> tensor<3x1x4xf32>
    %96 = tensor.empty() : tensor<3x1x4xf32>
    %97 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%95, %cst_w14, %cst_w15 : tensor<3x1x4xf32>, tensor<4xf32>, tensor<4xf32>) outs(%96 : tensor<3x1x4xf32>) {
    ^bb0(%a0: f32, %a1: f32, %a2: f32, %out: f32):
      %m = arith.mulf %a0, %a1 : f32
      %r = arith.addf %m, %a2 : f32
      linalg.yield %r : f32
    } -> tensor<3x1x4xf32>
    return %97 : tensor<3x1x4xf32>
  }
}

{-#
  dialect_resources: {
    builtin: {
      torch_tensor_4_4_torch.float32: "0x04000000D19195BEF609BA3E62761EBECB3394BDE6FEB6BE4C9AA3BE79646FBEEDAB223C87E0C4BE1FE302BECAF7413EF1715A3E6C75C23EFE3591BE83EAB4BE7DBFE9BD",
      torch_tensor_4_4_torch.float32_1: "0x040000001D75B2BEA72A79BEF9653EBEA60D9ABD952D3EBE5631A7BEE31F353E6E94E8BE256E803E73A24D3EE773873ED6DA563DED3E583EB34ECF3D10D6DABEADA9A4BE",
      torch_tensor_4_torch.float32: "0x040000008167833DD5B9A03D52AB973DA49086BB",
      torch_tensor_4_torch.float32_1: "0x04000000BDF58C3D5A5D9B3DF5AEA5BC8315AD3C"
    }
  }
#-}
