// Sequence-first models (2026-12-07): PyTorch's batch_first=False, the
// default of nn.MultiheadAttention, nn.Transformer* and nn.RNN/LSTM/GRU,
// takes [S, B, E]. Without batch-dim= the builder took S as the batch (it
// trained sequence positions as examples); with batch-dim=1 the batch is
// moved to dimension 0 of the input ([B, S, E], a transpose at the
// entry) and of the output (found by re-batching's analysis: [S, B, E] ->
// [B, S, E]), and batch= re-batches it. The model below is
// nn.MultiheadAttention (2 heads, q.view(S, B*H, hd).transpose(0, 1)) +
// residual + LayerNorm, traced at batch 1 as torch-mlir does.
//
// The forward at batch 8 and dynamic (run at 8) against 8 runs at batch 1,
// bit for bit:
// RUN: %python %amp_src_root/scripts/check-rebatch-forward.py %s %amp_obj_root --batch-dim=1 | FileCheck %s --check-prefix=EXEC
// EXEC: max |fwd1 - fwd8| = 0, max |fwd1 - fwd(dynamic at 8)| = 0, max |fwd1| = {{[0-9]}}
//
// RUN: amp-opt %s --amp-build-train-step="loss=mse batch=8 batch-dim=1 function=forward" -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// CHECK-LABEL: func.func @train_step(
// CHECK-SAME: tensor<8x3x4xf32> {amp.role = "input"}
// CHECK-SAME: tensor<8x3x4xf32> {amp.role = "target"}
// CHECK: linalg.transpose ins(%{{.*}} : tensor<8x3x4xf32>) outs(%{{.*}} : tensor<3x8x4xf32>) permutation = [1, 0, 2]
// CHECK: linalg.batch_matmul {{.*}} -> tensor<16x3x3xf32>
// CHECK: linalg.transpose ins(%{{.*}} : tensor<3x8x4xf32>) outs(%{{.*}} : tensor<8x3x4xf32>) permutation = [1, 0, 2]
// RUN: amp-run %t.mlir --data=synthetic --check-gradients | FileCheck %s --check-prefix=GRAD
// GRAD: argument #{{[0-9]+}} (tensor<8x3x4xf32>): 12 f32 values
// GRAD: (tolerance 1e-05): passed
// RUN: amp-run %t.mlir --data=synthetic --run=f32,f16+dynamic,bf16 --max-steps=3 --threads=1 --progress=false 2>&1 | FileCheck %s --check-prefix=TRAIN
// TRAIN: f32{{ +}}[[L:[0-9]\.[0-9][0-9]]]
// TRAIN: f16 + dynamic{{ +}}[[L]]
// TRAIN: bf16{{ +}}[[L]]
//
// Without batch-dim=, a warning names it:
// RUN: amp-opt %s --amp-build-train-step="loss=mse function=forward" -o /dev/null 2>&1 | FileCheck %s --check-prefix=WARN
// WARN: build-train-step-sequence-first.mlir:[[#@LINE+7]]:3: warning: amp-build-train-step: @forward mixes the elements along dimension 0 of its input, which the step takes as the batch, while dimension 1 holds independent examples: a sequence-first model (PyTorch's batch_first=False, the default of nn.MultiheadAttention, nn.Transformer*, nn.LSTM, nn.GRU) takes batch-dim=1, or its sequence positions are trained as examples
// WARN-NOT: warning
// RUN: not amp-opt %s --amp-build-train-step="batch-dim=1,1 loss=mse function=forward" -o /dev/null 2>&1 | FileCheck %s --check-prefix=COUNT
// COUNT: error: amp-build-train-step: batch-dim= has 2 values, and @forward has 1 inputs (arguments #0); give one value for every input, or one per input in their order

module attributes {torch.debug_module_name = "SeqFirstMHA"} {
  ml_program.global private mutable @global_seed(dense<0> : tensor<i64>) : tensor<i64>
  func.func @forward(%arg0: tensor<3x1x4xf32>) -> tensor<3x1x4xf32> {
    %cst_w0 = arith.constant dense<[[-0.35128, -0.487119, 0.164349, -0.079098], [0.336101, -0.391342, 0.115602, -0.437308], [0.422893, 0.00588661, 0.23337, -0.369298], [0.252136, 0.384266, 0.169319, 0.367343]]> : tensor<4x4xf32>
    %cst_s0 = arith.constant 0.000000e+00 : f32
    %cst_w2 = arith.constant dense<[-0.0831419, 0.00114942, -0.0215907, -0.0538661]> : tensor<4xf32>
    %cst_w3 = arith.constant dense_resource<torch_tensor_4_4_torch.float32> : tensor<4x4xf32>
    %cst_w4 = arith.constant dense<[0.00772647, -0.0917393, -0.0519481, -0.0931978]> : tensor<4xf32>
    %cst_w5 = arith.constant dense_resource<torch_tensor_4_4_torch.float32_1> : tensor<4x4xf32>
    %cst_w6 = arith.constant dense<[0.0716189, -0.0247291, 0.036158, 0.0315358]> : tensor<4xf32>
    %cst_s1 = arith.constant 1.414214e+00 : f32
    %cst_s2 = arith.constant 0xFF800000 : f32
    %c0_i64 = arith.constant 0 : i64
    %cst_w10 = arith.constant dense<[[0.143516, 0.355906, 0.4693, -0.432147], [0.137727, 0.387234, -0.254816, -0.222841], [0.465299, -0.213071, 0.498775, -0.10731], [-0.0523361, 0.358498, 0.188623, -0.484711]]> : tensor<4x4xf32>
    %cst_w11 = arith.constant dense_resource<torch_tensor_4_torch.float32> : tensor<4xf32>
    %cst_s4 = arith.constant 4.000000e+00 : f32
    %cst_s5 = arith.constant 1.000000e-05 : f64
    %cst_w14 = arith.constant dense<[-0.146272, 0.163761, 0.224332, 0.159535]> : tensor<4xf32>
    %cst_w15 = arith.constant dense_resource<torch_tensor_4_torch.float32_1> : tensor<4xf32>
    %1 = tensor.empty() : tensor<4x4xf32>
    %2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%cst_w0 : tensor<4x4xf32>) outs(%1 : tensor<4x4xf32>) {
    ^bb0(%a0: f32, %out: f32):
      linalg.yield %a0 : f32
    } -> tensor<4x4xf32>
    %3 = tensor.empty() : tensor<3x4x4xf32>
    %4 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%2 : tensor<4x4xf32>) outs(%3 : tensor<3x4x4xf32>) {
    ^bb0(%a0: f32, %out: f32):
      linalg.yield %a0 : f32
    } -> tensor<3x4x4xf32>
    %5 = tensor.empty() : tensor<3x1x4xf32>
    %6 = linalg.fill ins(%cst_s0 : f32) outs(%5 : tensor<3x1x4xf32>) -> tensor<3x1x4xf32>
    %7 = linalg.batch_matmul ins(%arg0, %4 : tensor<3x1x4xf32>, tensor<3x4x4xf32>) outs(%6 : tensor<3x1x4xf32>) -> tensor<3x1x4xf32>
    %8 = tensor.empty() : tensor<3x1x4xf32>
    %9 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%7, %cst_w2 : tensor<3x1x4xf32>, tensor<4xf32>) outs(%8 : tensor<3x1x4xf32>) {
    ^bb0(%a0: f32, %a1: f32, %out: f32):
      %r = arith.addf %a0, %a1 : f32
      linalg.yield %r : f32
    } -> tensor<3x1x4xf32>
    %10 = tensor.empty() : tensor<4x4xf32>
    %11 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%cst_w3 : tensor<4x4xf32>) outs(%10 : tensor<4x4xf32>) {
    ^bb0(%a0: f32, %out: f32):
      linalg.yield %a0 : f32
    } -> tensor<4x4xf32>
    %12 = tensor.empty() : tensor<3x4x4xf32>
    %13 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%11 : tensor<4x4xf32>) outs(%12 : tensor<3x4x4xf32>) {
    ^bb0(%a0: f32, %out: f32):
      linalg.yield %a0 : f32
    } -> tensor<3x4x4xf32>
    %14 = tensor.empty() : tensor<3x1x4xf32>
    %15 = linalg.fill ins(%cst_s0 : f32) outs(%14 : tensor<3x1x4xf32>) -> tensor<3x1x4xf32>
    %16 = linalg.batch_matmul ins(%arg0, %13 : tensor<3x1x4xf32>, tensor<3x4x4xf32>) outs(%15 : tensor<3x1x4xf32>) -> tensor<3x1x4xf32>
    %17 = tensor.empty() : tensor<3x1x4xf32>
    %18 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%16, %cst_w4 : tensor<3x1x4xf32>, tensor<4xf32>) outs(%17 : tensor<3x1x4xf32>) {
    ^bb0(%a0: f32, %a1: f32, %out: f32):
      %r = arith.addf %a0, %a1 : f32
      linalg.yield %r : f32
    } -> tensor<3x1x4xf32>
    %19 = tensor.empty() : tensor<4x4xf32>
    %20 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%cst_w5 : tensor<4x4xf32>) outs(%19 : tensor<4x4xf32>) {
    ^bb0(%a0: f32, %out: f32):
      linalg.yield %a0 : f32
    } -> tensor<4x4xf32>
    %21 = tensor.empty() : tensor<3x4x4xf32>
    %22 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%20 : tensor<4x4xf32>) outs(%21 : tensor<3x4x4xf32>) {
    ^bb0(%a0: f32, %out: f32):
      linalg.yield %a0 : f32
    } -> tensor<3x4x4xf32>
    %23 = tensor.empty() : tensor<3x1x4xf32>
    %24 = linalg.fill ins(%cst_s0 : f32) outs(%23 : tensor<3x1x4xf32>) -> tensor<3x1x4xf32>
    %25 = linalg.batch_matmul ins(%arg0, %22 : tensor<3x1x4xf32>, tensor<3x4x4xf32>) outs(%24 : tensor<3x1x4xf32>) -> tensor<3x1x4xf32>
    %26 = tensor.empty() : tensor<3x1x4xf32>
    %27 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%25, %cst_w6 : tensor<3x1x4xf32>, tensor<4xf32>) outs(%26 : tensor<3x1x4xf32>) {
    ^bb0(%a0: f32, %a1: f32, %out: f32):
      %r = arith.addf %a0, %a1 : f32
      linalg.yield %r : f32
    } -> tensor<3x1x4xf32>
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
    %67 = tensor.collapse_shape %66 [[0], [1], [2, 3]] : tensor<3x1x2x2xf32> into tensor<3x1x4xf32>
    %68 = tensor.empty() : tensor<4x4xf32>
    %69 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%cst_w10 : tensor<4x4xf32>) outs(%68 : tensor<4x4xf32>) {
    ^bb0(%a0: f32, %out: f32):
      linalg.yield %a0 : f32
    } -> tensor<4x4xf32>
    %70 = tensor.empty() : tensor<3x4x4xf32>
    %71 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%69 : tensor<4x4xf32>) outs(%70 : tensor<3x4x4xf32>) {
    ^bb0(%a0: f32, %out: f32):
      linalg.yield %a0 : f32
    } -> tensor<3x4x4xf32>
    %72 = tensor.empty() : tensor<3x1x4xf32>
    %73 = linalg.fill ins(%cst_s0 : f32) outs(%72 : tensor<3x1x4xf32>) -> tensor<3x1x4xf32>
    %74 = linalg.batch_matmul ins(%67, %71 : tensor<3x1x4xf32>, tensor<3x4x4xf32>) outs(%73 : tensor<3x1x4xf32>) -> tensor<3x1x4xf32>
    %75 = tensor.empty() : tensor<3x1x4xf32>
    %76 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%74, %cst_w11 : tensor<3x1x4xf32>, tensor<4xf32>) outs(%75 : tensor<3x1x4xf32>) {
    ^bb0(%a0: f32, %a1: f32, %out: f32):
      %r = arith.addf %a0, %a1 : f32
      linalg.yield %r : f32
    } -> tensor<3x1x4xf32>
    %77 = tensor.empty() : tensor<3x1x4xf32>
    %78 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0, %76 : tensor<3x1x4xf32>, tensor<3x1x4xf32>) outs(%77 : tensor<3x1x4xf32>) {
    ^bb0(%a0: f32, %a1: f32, %out: f32):
      %r = arith.addf %a0, %a1 : f32
      linalg.yield %r : f32
    } -> tensor<3x1x4xf32>
    %79 = tensor.empty() : tensor<3x1x1xf32>
    %80 = linalg.fill ins(%cst_s0 : f32) outs(%79 : tensor<3x1x1xf32>) -> tensor<3x1x1xf32>
    %81 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%78 : tensor<3x1x4xf32>) outs(%80 : tensor<3x1x1xf32>) {
    ^bb0(%a0: f32, %out: f32):
      %r = arith.addf %a0, %out : f32
      linalg.yield %r : f32
    } -> tensor<3x1x1xf32>
    %82 = tensor.empty() : tensor<3x1x1xf32>
    %83 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%81 : tensor<3x1x1xf32>) outs(%82 : tensor<3x1x1xf32>) {
    ^bb0(%a0: f32, %out: f32):
      %r = arith.divf %a0, %cst_s4 : f32
      linalg.yield %r : f32
    } -> tensor<3x1x1xf32>
    %84 = tensor.empty() : tensor<3x1x4xf32>
    %85 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%78, %83 : tensor<3x1x4xf32>, tensor<3x1x1xf32>) outs(%84 : tensor<3x1x4xf32>) {
    ^bb0(%a0: f32, %a1: f32, %out: f32):
      %r = arith.subf %a0, %a1 : f32
      linalg.yield %r : f32
    } -> tensor<3x1x4xf32>
    %86 = tensor.empty() : tensor<3x1x4xf32>
    %87 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%85 : tensor<3x1x4xf32>) outs(%86 : tensor<3x1x4xf32>) {
    ^bb0(%a0: f32, %out: f32):
      %r = arith.mulf %a0, %a0 : f32
      linalg.yield %r : f32
    } -> tensor<3x1x4xf32>
    %88 = tensor.empty() : tensor<3x1x1xf32>
    %89 = linalg.fill ins(%cst_s0 : f32) outs(%88 : tensor<3x1x1xf32>) -> tensor<3x1x1xf32>
    %90 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%87 : tensor<3x1x4xf32>) outs(%89 : tensor<3x1x1xf32>) {
    ^bb0(%a0: f32, %out: f32):
      %r = arith.addf %a0, %out : f32
      linalg.yield %r : f32
    } -> tensor<3x1x1xf32>
    %91 = tensor.empty() : tensor<3x1x1xf32>
    %92 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%90 : tensor<3x1x1xf32>) outs(%91 : tensor<3x1x1xf32>) {
    ^bb0(%a0: f32, %out: f32):
      %r = arith.divf %a0, %cst_s4 : f32
      linalg.yield %r : f32
    } -> tensor<3x1x1xf32>
    %93 = tensor.empty() : tensor<3x1x1xf32>
    %94 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%92 : tensor<3x1x1xf32>) outs(%93 : tensor<3x1x1xf32>) {
    ^bb0(%a0: f32, %out: f32):
      %t = arith.truncf %cst_s5 : f64 to f32
      %e = arith.addf %a0, %t : f32
      %r = math.rsqrt %e : f32
      linalg.yield %r : f32
    } -> tensor<3x1x1xf32>
    %95 = tensor.empty() : tensor<3x1x4xf32>
    %96 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%85, %94 : tensor<3x1x4xf32>, tensor<3x1x1xf32>) outs(%95 : tensor<3x1x4xf32>) {
    ^bb0(%a0: f32, %a1: f32, %out: f32):
      %r = arith.mulf %a0, %a1 : f32
      linalg.yield %r : f32
    } -> tensor<3x1x4xf32>
    %97 = tensor.empty() : tensor<3x1x4xf32>
    %98 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%96, %cst_w14, %cst_w15 : tensor<3x1x4xf32>, tensor<4xf32>, tensor<4xf32>) outs(%97 : tensor<3x1x4xf32>) {
    ^bb0(%a0: f32, %a1: f32, %a2: f32, %out: f32):
      %m = arith.mulf %a0, %a1 : f32
      %r = arith.addf %m, %a2 : f32
      linalg.yield %r : f32
    } -> tensor<3x1x4xf32>
    return %98 : tensor<3x1x4xf32>
  }
}

{-#
  dialect_resources: {
    builtin: {
      torch_tensor_4_4_torch.float32: "0x040000000B9ABFBE230030BEEF02093ED3A4FD3EB3D1023EA17146BD04F4993EC54CCB3E9BF7CCBE0C8889BE63F4883D53F78BBEEE5E81BEF94FA2BEA80963BED404A03D",
      torch_tensor_4_4_torch.float32_1: "0x0400000086497F3EC0DBA43EA51A4ABDEAFE1C3ED640D23E8B4AB53E95B542BE7AD0373D04698EBE4F676BBEC464B3BE423DB43D18B5B1BE4E67D53EA3F0A73E20C31E3E",
      torch_tensor_4_torch.float32: "0x04000000C5F88B3B501ABDBD2F749B3D31FDE83C",
      torch_tensor_4_torch.float32_1: "0x040000002FE9A53C9ED909BD54EBEABC7D51843D"
    }
  }
#-}
