// A boolean mask of rank 2 with the *keep* convention (true = attend:
// `torch.where(mask, scores, -inf)`, or `masked_fill(~mask, -inf)`, which
// torch-mlir writes with arith.xori), combined with a causal mask. amp-run
// drew rank-2 masks as key padding masks (first k false), so query 0's
// only key was masked and the softmax of -inf gave NaN at step 1 (a
// break-it model, 2026-12-07). It now reads the convention from the
// arith.select that applies the mask (Analysis/MaskConvention.h).
// RUN: split-file %s %t
// RUN: amp-opt %t/keep.mlir --amp-build-train-step="loss=mse batch=8" -o %t/keep.step.mlir
// RUN: amp-run %t/keep.step.mlir --data=synthetic --run=f32,bf16 --max-steps=8 --threads=1 --progress=false 2>&1 | FileCheck %s
// RUN: amp-opt %t/not.mlir --amp-build-train-step="loss=mse batch=8" -o %t/not.step.mlir
// RUN: amp-run %t/not.step.mlir --data=synthetic --run=f32,bf16 --max-steps=8 --threads=1 --progress=false 2>&1 | FileCheck %s
// The -inf as a 0-d tensor operand of the generic (where.ScalarOther
// decomposed), and an i64 mask compared with 0 (an HF-style
// attention_mask; it was drawn uniformly from {0, 1}): found by a break-it
// run the same day.
// RUN: amp-opt %t/zerod.mlir --amp-build-train-step="loss=mse batch=8" -o %t/zerod.step.mlir
// RUN: amp-run %t/zerod.step.mlir --data=synthetic --run=f32,bf16 --max-steps=8 --threads=1 --progress=false 2>&1 | FileCheck %s
// RUN: amp-opt %t/i64.mlir --amp-build-train-step="loss=mse batch=8" -o %t/i64.step.mlir
// RUN: amp-run %t/i64.step.mlir --data=synthetic --run=f32,bf16 --max-steps=8 --threads=1 --progress=false 2>&1 | FileCheck %s --check-prefix=I64
// I64: argument #{{[0-9]+}} (tensor<8x4xi64>): 4 integers 0 and 1, each row of 4 an attention mask (its first k 1, the rest 0, k in [1, 3])
// I64-NOT: non-finite
// I64: f32{{ +}}[[L:[0-9]\.[0-9][0-9]]]{{.*}} 8
// I64: bf16{{ +}}[[L]]
// CHECK: argument #{{[0-9]+}} (tensor<8x4xi1>): 4 booleans, each row of 4 an attention mask (its first k true, the rest false, k in [1, 3])
// CHECK-NOT: non-finite
// CHECK: f32{{ +}}[[L:[0-9]\.[0-9][0-9]]]{{.*}} 8
// CHECK: bf16{{ +}}[[L]]

//--- keep.mlir
module attributes {torch.debug_module_name = "MaskAttn"} {
  ml_program.global private mutable @global_seed(dense<0> : tensor<i64>) : tensor<i64>
  func.func @forward(%arg0: tensor<2x4x4xf32>, %arg1: tensor<2x4xi1>) -> tensor<2x4x4xf32> {
    %cst_w0 = arith.constant dense<[[-0.18111, -0.0821258, -0.486616, 0.422093], [0.422465, -0.441337, 0.280225, 0.00844839], [0.298359, 0.181613, -0.402015, 0.228727], [0.267762, -0.175664, 0.188081, 0.389437]]> : tensor<4x4xf32>
    %cst_s0 = arith.constant 0.000000e+00 : f32
    %cst_w2 = arith.constant dense<[-0.0853946, 0.0944159, -0.0575412, -0.0998302]> : tensor<4xf32>
    %cst_s1 = arith.constant 0xFF800000 : f32
    %c0_i64 = arith.constant 0 : i64
    %1 = tensor.empty() : tensor<4x4xf32>
    %2 = linalg.transpose ins(%cst_w0 : tensor<4x4xf32>) outs(%1 : tensor<4x4xf32>) permutation = [1, 0] 
    %3 = tensor.empty() : tensor<2x4x4xf32>
    %4 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%2 : tensor<4x4xf32>) outs(%3 : tensor<2x4x4xf32>) {
    ^bb0(%a0: f32, %out: f32):
      linalg.yield %a0 : f32
    } -> tensor<2x4x4xf32>
    %5 = tensor.empty() : tensor<2x4x4xf32>
    %6 = linalg.fill ins(%cst_s0 : f32) outs(%5 : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
    %7 = linalg.batch_matmul ins(%arg0, %4 : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%6 : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
    %8 = tensor.empty() : tensor<2x4x4xf32>
    %9 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%7, %cst_w2 : tensor<2x4x4xf32>, tensor<4xf32>) outs(%8 : tensor<2x4x4xf32>) {
    ^bb0(%a0: f32, %a1: f32, %out: f32):
      %r = arith.addf %a0, %a1 : f32
      linalg.yield %r : f32
    } -> tensor<2x4x4xf32>
    %10 = tensor.empty() : tensor<2x4x4xf32>
    %11 = linalg.transpose ins(%arg0 : tensor<2x4x4xf32>) outs(%10 : tensor<2x4x4xf32>) permutation = [0, 2, 1] 
    %12 = tensor.empty() : tensor<2x4x4xf32>
    %13 = linalg.fill ins(%cst_s0 : f32) outs(%12 : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
    %14 = linalg.batch_matmul ins(%9, %11 : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%13 : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
    %15 = tensor.empty() : tensor<2x4x4xf32>
    %16 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%14, %arg1 : tensor<2x4x4xf32>, tensor<2x4xi1>) outs(%15 : tensor<2x4x4xf32>) {
    ^bb0(%a0: f32, %a1: i1, %out: f32):
      %i = linalg.index 1 : index
      %j = linalg.index 2 : index
      %up = arith.cmpi ugt, %j, %i : index
      %r0 = arith.select %a1, %a0, %cst_s1 : f32
      %r = arith.select %up, %cst_s1, %r0 : f32
      linalg.yield %r : f32
    } -> tensor<2x4x4xf32>
    %17 = tensor.empty() : tensor<2x4x1xf32>
    %18 = linalg.fill ins(%cst_s1 : f32) outs(%17 : tensor<2x4x1xf32>) -> tensor<2x4x1xf32>
    %19 = tensor.empty() : tensor<2x4x1xi64>
    %20 = linalg.fill ins(%c0_i64 : i64) outs(%19 : tensor<2x4x1xi64>) -> tensor<2x4x1xi64>
    %21:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%16 : tensor<2x4x4xf32>) outs(%18, %20 : tensor<2x4x1xf32>, tensor<2x4x1xi64>) {
    ^bb0(%in: f32, %out: f32, %out_1: i64):
      %i = linalg.index 2 : index
      %ii = arith.index_cast %i : index to i64
      %m = arith.maximumf %in, %out : f32
      %c = arith.cmpf ogt, %in, %out : f32
      %s = arith.select %c, %ii, %out_1 : i64
      linalg.yield %m, %s : f32, i64
    } -> (tensor<2x4x1xf32>, tensor<2x4x1xi64>)
    %22 = tensor.empty() : tensor<2x4x4xf32>
    %23 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%16, %21#0 : tensor<2x4x4xf32>, tensor<2x4x1xf32>) outs(%22 : tensor<2x4x4xf32>) {
    ^bb0(%a0: f32, %a1: f32, %out: f32):
      %r = arith.subf %a0, %a1 : f32
      linalg.yield %r : f32
    } -> tensor<2x4x4xf32>
    %24 = tensor.empty() : tensor<2x4x4xf32>
    %25 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%23 : tensor<2x4x4xf32>) outs(%24 : tensor<2x4x4xf32>) {
    ^bb0(%a0: f32, %out: f32):
      %r = math.exp %a0 : f32
      linalg.yield %r : f32
    } -> tensor<2x4x4xf32>
    %26 = tensor.empty() : tensor<2x4x1xf32>
    %27 = linalg.fill ins(%cst_s0 : f32) outs(%26 : tensor<2x4x1xf32>) -> tensor<2x4x1xf32>
    %28 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%25 : tensor<2x4x4xf32>) outs(%27 : tensor<2x4x1xf32>) {
    ^bb0(%a0: f32, %out: f32):
      %r = arith.addf %a0, %out : f32
      linalg.yield %r : f32
    } -> tensor<2x4x1xf32>
    %29 = tensor.empty() : tensor<2x4x4xf32>
    %30 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%25, %28 : tensor<2x4x4xf32>, tensor<2x4x1xf32>) outs(%29 : tensor<2x4x4xf32>) {
    ^bb0(%a0: f32, %a1: f32, %out: f32):
      %r = arith.divf %a0, %a1 : f32
      linalg.yield %r : f32
    } -> tensor<2x4x4xf32>
    %31 = tensor.empty() : tensor<2x4x4xf32>
    %32 = linalg.fill ins(%cst_s0 : f32) outs(%31 : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
    %33 = linalg.batch_matmul ins(%30, %arg0 : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%32 : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
    return %33 : tensor<2x4x4xf32>
  }
}

//--- not.mlir
module attributes {torch.debug_module_name = "MaskAttn"} {
  ml_program.global private mutable @global_seed(dense<0> : tensor<i64>) : tensor<i64>
  func.func @forward(%arg0: tensor<2x4x4xf32>, %arg1: tensor<2x4xi1>) -> tensor<2x4x4xf32> {
    %cst_w0 = arith.constant dense<[[-0.18111, -0.0821258, -0.486616, 0.422093], [0.422465, -0.441337, 0.280225, 0.00844839], [0.298359, 0.181613, -0.402015, 0.228727], [0.267762, -0.175664, 0.188081, 0.389437]]> : tensor<4x4xf32>
    %cst_s0 = arith.constant 0.000000e+00 : f32
    %cst_w2 = arith.constant dense<[-0.0853946, 0.0944159, -0.0575412, -0.0998302]> : tensor<4xf32>
    %cst_s1 = arith.constant 0xFF800000 : f32
    %c0_i64 = arith.constant 0 : i64
    %1 = tensor.empty() : tensor<4x4xf32>
    %2 = linalg.transpose ins(%cst_w0 : tensor<4x4xf32>) outs(%1 : tensor<4x4xf32>) permutation = [1, 0] 
    %3 = tensor.empty() : tensor<2x4x4xf32>
    %4 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%2 : tensor<4x4xf32>) outs(%3 : tensor<2x4x4xf32>) {
    ^bb0(%a0: f32, %out: f32):
      linalg.yield %a0 : f32
    } -> tensor<2x4x4xf32>
    %5 = tensor.empty() : tensor<2x4x4xf32>
    %6 = linalg.fill ins(%cst_s0 : f32) outs(%5 : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
    %7 = linalg.batch_matmul ins(%arg0, %4 : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%6 : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
    %8 = tensor.empty() : tensor<2x4x4xf32>
    %9 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%7, %cst_w2 : tensor<2x4x4xf32>, tensor<4xf32>) outs(%8 : tensor<2x4x4xf32>) {
    ^bb0(%a0: f32, %a1: f32, %out: f32):
      %r = arith.addf %a0, %a1 : f32
      linalg.yield %r : f32
    } -> tensor<2x4x4xf32>
    %10 = tensor.empty() : tensor<2x4x4xf32>
    %11 = linalg.transpose ins(%arg0 : tensor<2x4x4xf32>) outs(%10 : tensor<2x4x4xf32>) permutation = [0, 2, 1] 
    %12 = tensor.empty() : tensor<2x4x4xf32>
    %13 = linalg.fill ins(%cst_s0 : f32) outs(%12 : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
    %14 = linalg.batch_matmul ins(%9, %11 : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%13 : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
    %15 = tensor.empty() : tensor<2x4x4xf32>
    %16 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%14, %arg1 : tensor<2x4x4xf32>, tensor<2x4xi1>) outs(%15 : tensor<2x4x4xf32>) {
    ^bb0(%a0: f32, %a1: i1, %out: f32):
      %i = linalg.index 1 : index
      %j = linalg.index 2 : index
      %up = arith.cmpi ugt, %j, %i : index
      %true = arith.constant true
      %n = arith.xori %a1, %true : i1
      %r0 = arith.select %n, %cst_s1, %a0 : f32
      %r = arith.select %up, %cst_s1, %r0 : f32
      linalg.yield %r : f32
    } -> tensor<2x4x4xf32>
    %17 = tensor.empty() : tensor<2x4x1xf32>
    %18 = linalg.fill ins(%cst_s1 : f32) outs(%17 : tensor<2x4x1xf32>) -> tensor<2x4x1xf32>
    %19 = tensor.empty() : tensor<2x4x1xi64>
    %20 = linalg.fill ins(%c0_i64 : i64) outs(%19 : tensor<2x4x1xi64>) -> tensor<2x4x1xi64>
    %21:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%16 : tensor<2x4x4xf32>) outs(%18, %20 : tensor<2x4x1xf32>, tensor<2x4x1xi64>) {
    ^bb0(%in: f32, %out: f32, %out_1: i64):
      %i = linalg.index 2 : index
      %ii = arith.index_cast %i : index to i64
      %m = arith.maximumf %in, %out : f32
      %c = arith.cmpf ogt, %in, %out : f32
      %s = arith.select %c, %ii, %out_1 : i64
      linalg.yield %m, %s : f32, i64
    } -> (tensor<2x4x1xf32>, tensor<2x4x1xi64>)
    %22 = tensor.empty() : tensor<2x4x4xf32>
    %23 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%16, %21#0 : tensor<2x4x4xf32>, tensor<2x4x1xf32>) outs(%22 : tensor<2x4x4xf32>) {
    ^bb0(%a0: f32, %a1: f32, %out: f32):
      %r = arith.subf %a0, %a1 : f32
      linalg.yield %r : f32
    } -> tensor<2x4x4xf32>
    %24 = tensor.empty() : tensor<2x4x4xf32>
    %25 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%23 : tensor<2x4x4xf32>) outs(%24 : tensor<2x4x4xf32>) {
    ^bb0(%a0: f32, %out: f32):
      %r = math.exp %a0 : f32
      linalg.yield %r : f32
    } -> tensor<2x4x4xf32>
    %26 = tensor.empty() : tensor<2x4x1xf32>
    %27 = linalg.fill ins(%cst_s0 : f32) outs(%26 : tensor<2x4x1xf32>) -> tensor<2x4x1xf32>
    %28 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%25 : tensor<2x4x4xf32>) outs(%27 : tensor<2x4x1xf32>) {
    ^bb0(%a0: f32, %out: f32):
      %r = arith.addf %a0, %out : f32
      linalg.yield %r : f32
    } -> tensor<2x4x1xf32>
    %29 = tensor.empty() : tensor<2x4x4xf32>
    %30 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%25, %28 : tensor<2x4x4xf32>, tensor<2x4x1xf32>) outs(%29 : tensor<2x4x4xf32>) {
    ^bb0(%a0: f32, %a1: f32, %out: f32):
      %r = arith.divf %a0, %a1 : f32
      linalg.yield %r : f32
    } -> tensor<2x4x4xf32>
    %31 = tensor.empty() : tensor<2x4x4xf32>
    %32 = linalg.fill ins(%cst_s0 : f32) outs(%31 : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
    %33 = linalg.batch_matmul ins(%30, %arg0 : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%32 : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
    return %33 : tensor<2x4x4xf32>
  }
}

//--- zerod.mlir
module attributes {torch.debug_module_name = "MaskAttn"} {
  ml_program.global private mutable @global_seed(dense<0> : tensor<i64>) : tensor<i64>
  func.func @forward(%arg0: tensor<2x4x4xf32>, %arg1: tensor<2x4xi1>) -> tensor<2x4x4xf32> {
    %cst_w0 = arith.constant dense<[[-0.18111, -0.0821258, -0.486616, 0.422093], [0.422465, -0.441337, 0.280225, 0.00844839], [0.298359, 0.181613, -0.402015, 0.228727], [0.267762, -0.175664, 0.188081, 0.389437]]> : tensor<4x4xf32>
    %cst_s0 = arith.constant 0.000000e+00 : f32
    %cst_w2 = arith.constant dense<[-0.0853946, 0.0944159, -0.0575412, -0.0998302]> : tensor<4xf32>
    %cst_s1 = arith.constant 0xFF800000 : f32
    %c0_i64 = arith.constant 0 : i64
    %1 = tensor.empty() : tensor<4x4xf32>
    %2 = linalg.transpose ins(%cst_w0 : tensor<4x4xf32>) outs(%1 : tensor<4x4xf32>) permutation = [1, 0] 
    %3 = tensor.empty() : tensor<2x4x4xf32>
    %4 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%2 : tensor<4x4xf32>) outs(%3 : tensor<2x4x4xf32>) {
    ^bb0(%a0: f32, %out: f32):
      linalg.yield %a0 : f32
    } -> tensor<2x4x4xf32>
    %5 = tensor.empty() : tensor<2x4x4xf32>
    %6 = linalg.fill ins(%cst_s0 : f32) outs(%5 : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
    %7 = linalg.batch_matmul ins(%arg0, %4 : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%6 : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
    %8 = tensor.empty() : tensor<2x4x4xf32>
    %9 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%7, %cst_w2 : tensor<2x4x4xf32>, tensor<4xf32>) outs(%8 : tensor<2x4x4xf32>) {
    ^bb0(%a0: f32, %a1: f32, %out: f32):
      %r = arith.addf %a0, %a1 : f32
      linalg.yield %r : f32
    } -> tensor<2x4x4xf32>
    %10 = tensor.empty() : tensor<2x4x4xf32>
    %11 = linalg.transpose ins(%arg0 : tensor<2x4x4xf32>) outs(%10 : tensor<2x4x4xf32>) permutation = [0, 2, 1] 
    %12 = tensor.empty() : tensor<2x4x4xf32>
    %13 = linalg.fill ins(%cst_s0 : f32) outs(%12 : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
    %14 = linalg.batch_matmul ins(%9, %11 : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%13 : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
    %15 = tensor.empty() : tensor<2x4x4xf32>
    %ninf = arith.constant dense<0xFF800000> : tensor<f32>
    %16 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> ()>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%14, %arg1, %ninf : tensor<2x4x4xf32>, tensor<2x4xi1>, tensor<f32>) outs(%15 : tensor<2x4x4xf32>) {
    ^bb0(%a0: f32, %a1: i1, %a2: f32, %out: f32):
      %i = linalg.index 1 : index
      %j = linalg.index 2 : index
      %up = arith.cmpi ugt, %j, %i : index
      %r0 = arith.select %a1, %a0, %a2 : f32
      %r = arith.select %up, %cst_s1, %r0 : f32
      linalg.yield %r : f32
    } -> tensor<2x4x4xf32>
    %17 = tensor.empty() : tensor<2x4x1xf32>
    %18 = linalg.fill ins(%cst_s1 : f32) outs(%17 : tensor<2x4x1xf32>) -> tensor<2x4x1xf32>
    %19 = tensor.empty() : tensor<2x4x1xi64>
    %20 = linalg.fill ins(%c0_i64 : i64) outs(%19 : tensor<2x4x1xi64>) -> tensor<2x4x1xi64>
    %21:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%16 : tensor<2x4x4xf32>) outs(%18, %20 : tensor<2x4x1xf32>, tensor<2x4x1xi64>) {
    ^bb0(%in: f32, %out: f32, %out_1: i64):
      %i = linalg.index 2 : index
      %ii = arith.index_cast %i : index to i64
      %m = arith.maximumf %in, %out : f32
      %c = arith.cmpf ogt, %in, %out : f32
      %s = arith.select %c, %ii, %out_1 : i64
      linalg.yield %m, %s : f32, i64
    } -> (tensor<2x4x1xf32>, tensor<2x4x1xi64>)
    %22 = tensor.empty() : tensor<2x4x4xf32>
    %23 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%16, %21#0 : tensor<2x4x4xf32>, tensor<2x4x1xf32>) outs(%22 : tensor<2x4x4xf32>) {
    ^bb0(%a0: f32, %a1: f32, %out: f32):
      %r = arith.subf %a0, %a1 : f32
      linalg.yield %r : f32
    } -> tensor<2x4x4xf32>
    %24 = tensor.empty() : tensor<2x4x4xf32>
    %25 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%23 : tensor<2x4x4xf32>) outs(%24 : tensor<2x4x4xf32>) {
    ^bb0(%a0: f32, %out: f32):
      %r = math.exp %a0 : f32
      linalg.yield %r : f32
    } -> tensor<2x4x4xf32>
    %26 = tensor.empty() : tensor<2x4x1xf32>
    %27 = linalg.fill ins(%cst_s0 : f32) outs(%26 : tensor<2x4x1xf32>) -> tensor<2x4x1xf32>
    %28 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%25 : tensor<2x4x4xf32>) outs(%27 : tensor<2x4x1xf32>) {
    ^bb0(%a0: f32, %out: f32):
      %r = arith.addf %a0, %out : f32
      linalg.yield %r : f32
    } -> tensor<2x4x1xf32>
    %29 = tensor.empty() : tensor<2x4x4xf32>
    %30 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%25, %28 : tensor<2x4x4xf32>, tensor<2x4x1xf32>) outs(%29 : tensor<2x4x4xf32>) {
    ^bb0(%a0: f32, %a1: f32, %out: f32):
      %r = arith.divf %a0, %a1 : f32
      linalg.yield %r : f32
    } -> tensor<2x4x4xf32>
    %31 = tensor.empty() : tensor<2x4x4xf32>
    %32 = linalg.fill ins(%cst_s0 : f32) outs(%31 : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
    %33 = linalg.batch_matmul ins(%30, %arg0 : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%32 : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
    return %33 : tensor<2x4x4xf32>
  }
}

//--- i64.mlir
module attributes {torch.debug_module_name = "MaskAttn"} {
  ml_program.global private mutable @global_seed(dense<0> : tensor<i64>) : tensor<i64>
  func.func @forward(%arg0: tensor<2x4x4xf32>, %arg1: tensor<2x4xi64>) -> tensor<2x4x4xf32> {
    %cst_w0 = arith.constant dense<[[-0.18111, -0.0821258, -0.486616, 0.422093], [0.422465, -0.441337, 0.280225, 0.00844839], [0.298359, 0.181613, -0.402015, 0.228727], [0.267762, -0.175664, 0.188081, 0.389437]]> : tensor<4x4xf32>
    %cst_s0 = arith.constant 0.000000e+00 : f32
    %cst_w2 = arith.constant dense<[-0.0853946, 0.0944159, -0.0575412, -0.0998302]> : tensor<4xf32>
    %cst_s1 = arith.constant 0xFF800000 : f32
    %c0_i64 = arith.constant 0 : i64
    %1 = tensor.empty() : tensor<4x4xf32>
    %2 = linalg.transpose ins(%cst_w0 : tensor<4x4xf32>) outs(%1 : tensor<4x4xf32>) permutation = [1, 0] 
    %3 = tensor.empty() : tensor<2x4x4xf32>
    %4 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%2 : tensor<4x4xf32>) outs(%3 : tensor<2x4x4xf32>) {
    ^bb0(%a0: f32, %out: f32):
      linalg.yield %a0 : f32
    } -> tensor<2x4x4xf32>
    %5 = tensor.empty() : tensor<2x4x4xf32>
    %6 = linalg.fill ins(%cst_s0 : f32) outs(%5 : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
    %7 = linalg.batch_matmul ins(%arg0, %4 : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%6 : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
    %8 = tensor.empty() : tensor<2x4x4xf32>
    %9 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%7, %cst_w2 : tensor<2x4x4xf32>, tensor<4xf32>) outs(%8 : tensor<2x4x4xf32>) {
    ^bb0(%a0: f32, %a1: f32, %out: f32):
      %r = arith.addf %a0, %a1 : f32
      linalg.yield %r : f32
    } -> tensor<2x4x4xf32>
    %10 = tensor.empty() : tensor<2x4x4xf32>
    %11 = linalg.transpose ins(%arg0 : tensor<2x4x4xf32>) outs(%10 : tensor<2x4x4xf32>) permutation = [0, 2, 1] 
    %12 = tensor.empty() : tensor<2x4x4xf32>
    %13 = linalg.fill ins(%cst_s0 : f32) outs(%12 : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
    %14 = linalg.batch_matmul ins(%9, %11 : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%13 : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
    %15 = tensor.empty() : tensor<2x4x4xf32>
    %16 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%14, %arg1 : tensor<2x4x4xf32>, tensor<2x4xi64>) outs(%15 : tensor<2x4x4xf32>) {
    ^bb0(%a0: f32, %a1: i64, %out: f32):
      %i = linalg.index 1 : index
      %j = linalg.index 2 : index
      %up = arith.cmpi ugt, %j, %i : index
      %z = arith.constant 0 : i64
      %k = arith.cmpi ne, %a1, %z : i64
      %r0 = arith.select %k, %a0, %cst_s1 : f32
      %r = arith.select %up, %cst_s1, %r0 : f32
      linalg.yield %r : f32
    } -> tensor<2x4x4xf32>
    %17 = tensor.empty() : tensor<2x4x1xf32>
    %18 = linalg.fill ins(%cst_s1 : f32) outs(%17 : tensor<2x4x1xf32>) -> tensor<2x4x1xf32>
    %19 = tensor.empty() : tensor<2x4x1xi64>
    %20 = linalg.fill ins(%c0_i64 : i64) outs(%19 : tensor<2x4x1xi64>) -> tensor<2x4x1xi64>
    %21:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%16 : tensor<2x4x4xf32>) outs(%18, %20 : tensor<2x4x1xf32>, tensor<2x4x1xi64>) {
    ^bb0(%in: f32, %out: f32, %out_1: i64):
      %i = linalg.index 2 : index
      %ii = arith.index_cast %i : index to i64
      %m = arith.maximumf %in, %out : f32
      %c = arith.cmpf ogt, %in, %out : f32
      %s = arith.select %c, %ii, %out_1 : i64
      linalg.yield %m, %s : f32, i64
    } -> (tensor<2x4x1xf32>, tensor<2x4x1xi64>)
    %22 = tensor.empty() : tensor<2x4x4xf32>
    %23 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%16, %21#0 : tensor<2x4x4xf32>, tensor<2x4x1xf32>) outs(%22 : tensor<2x4x4xf32>) {
    ^bb0(%a0: f32, %a1: f32, %out: f32):
      %r = arith.subf %a0, %a1 : f32
      linalg.yield %r : f32
    } -> tensor<2x4x4xf32>
    %24 = tensor.empty() : tensor<2x4x4xf32>
    %25 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%23 : tensor<2x4x4xf32>) outs(%24 : tensor<2x4x4xf32>) {
    ^bb0(%a0: f32, %out: f32):
      %r = math.exp %a0 : f32
      linalg.yield %r : f32
    } -> tensor<2x4x4xf32>
    %26 = tensor.empty() : tensor<2x4x1xf32>
    %27 = linalg.fill ins(%cst_s0 : f32) outs(%26 : tensor<2x4x1xf32>) -> tensor<2x4x1xf32>
    %28 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%25 : tensor<2x4x4xf32>) outs(%27 : tensor<2x4x1xf32>) {
    ^bb0(%a0: f32, %out: f32):
      %r = arith.addf %a0, %out : f32
      linalg.yield %r : f32
    } -> tensor<2x4x1xf32>
    %29 = tensor.empty() : tensor<2x4x4xf32>
    %30 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%25, %28 : tensor<2x4x4xf32>, tensor<2x4x1xf32>) outs(%29 : tensor<2x4x4xf32>) {
    ^bb0(%a0: f32, %a1: f32, %out: f32):
      %r = arith.divf %a0, %a1 : f32
      linalg.yield %r : f32
    } -> tensor<2x4x4xf32>
    %31 = tensor.empty() : tensor<2x4x4xf32>
    %32 = linalg.fill ins(%cst_s0 : f32) outs(%31 : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
    %33 = linalg.batch_matmul ins(%30, %arg0 : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%32 : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
    return %33 : tensor<2x4x4xf32>
  }
}
