// A per-head attention bias (T5 / ALiBi style, [H, T, T]) broadcast to
// [B, H, T, T] and collapsed to [B*H, T, T] beside the merged heads, in a
// model traced at batch 2 (2026-12-07; refused before: "does not derive
// from the input"): the broadcast is rebuilt at the new batch before the
// collapse.
// RUN: %python %amp_src_root/scripts/check-rebatch-forward.py %s %amp_obj_root | FileCheck %s --check-prefix=EXEC
// EXEC: max |fwd2 - fwd16| = 0, max |fwd2 - fwd(dynamic at 16)| = 0, max |fwd2| = {{[0-9]}}
// RUN: amp-opt %s --amp-build-train-step="loss=mse batch=8" -o %t.mlir
// RUN: amp-run %t.mlir --data=synthetic --check-gradients | FileCheck %s --check-prefix=GRAD
// GRAD: (tolerance 1e-05): passed

module attributes {torch.debug_module_name = "PerHeadBiasBatchFirst"} {
  ml_program.global private mutable @global_seed(dense<0> : tensor<i64>) : tensor<i64>
  func.func @forward(%arg0: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
    %cst_w0 = arith.constant dense<[[-0.33728, -0.0212597, -0.250335, 0.030409], [-0.187179, 0.0298551, 0.256219, 0.399789], [0.288047, -0.440235, 0.0249779, 0.301614], [0.369023, 0.439136, -0.177273, -0.392937]]> : tensor<4x4xf32>
    %cst_s0 = arith.constant 0.000000e+00 : f32
    %cst_w2 = arith.constant dense<[-0.0101073, 0.0974895, 0.0146255, 0.0767038]> : tensor<4xf32>
    %cst_w3 = arith.constant dense_resource<torch_tensor_4_4_torch.float32> : tensor<4x4xf32>
    %cst_w4 = arith.constant dense<[-0.0821571, 0.020913, 0.0958474, -0.0494081]> : tensor<4xf32>
    %cst_w5 = arith.constant dense_resource<torch_tensor_4_4_torch.float32_1> : tensor<4x4xf32>
    %cst_w6 = arith.constant dense<[0.0984844, -0.0173761, 0.0593285, 0.0764136]> : tensor<4xf32>
    %cst_w7 = arith.constant dense<[[[-0.667777, -0.592183, 0.656633], [0.660102, -0.0874045, 0.0727715], [-0.14831, 0.604346, 0.229685]], [[-0.914885, -0.787697, -0.66826], [-0.220939, 0.688541, -0.672652], [-0.930075, -0.598232, 0.962619]]]> : tensor<2x3x3xf32>
    %cst_s1 = arith.constant 0xFF800000 : f32
    %c0_i64 = arith.constant 0 : i64
    %cst_w10 = arith.constant dense<[[0.421949, 0.26173, -0.0198073, 0.300107], [-0.289149, 0.368342, 0.0271111, -0.231482], [-0.395173, -0.283541, 0.355306, -0.243798], [-0.476577, -0.305835, -0.117542, 0.175576]]> : tensor<4x4xf32>
    %cst_w11 = arith.constant dense_resource<torch_tensor_4_torch.float32> : tensor<4xf32>
    %1 = tensor.empty() : tensor<4x4xf32>
    %2 = linalg.transpose ins(%cst_w0 : tensor<4x4xf32>) outs(%1 : tensor<4x4xf32>) permutation = [1, 0] 
    %3 = tensor.empty() : tensor<2x4x4xf32>
    %4 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%2 : tensor<4x4xf32>) outs(%3 : tensor<2x4x4xf32>) {
    ^bb0(%a0: f32, %out: f32):
      linalg.yield %a0 : f32
    } -> tensor<2x4x4xf32>
    %5 = tensor.empty() : tensor<2x3x4xf32>
    %6 = linalg.fill ins(%cst_s0 : f32) outs(%5 : tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
    %7 = linalg.batch_matmul ins(%arg0, %4 : tensor<2x3x4xf32>, tensor<2x4x4xf32>) outs(%6 : tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
    %8 = tensor.empty() : tensor<2x3x4xf32>
    %9 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%7, %cst_w2 : tensor<2x3x4xf32>, tensor<4xf32>) outs(%8 : tensor<2x3x4xf32>) {
    ^bb0(%a0: f32, %a1: f32, %out: f32):
      %r = arith.addf %a0, %a1 : f32
      linalg.yield %r : f32
    } -> tensor<2x3x4xf32>
    %10 = tensor.empty() : tensor<4x4xf32>
    %11 = linalg.transpose ins(%cst_w3 : tensor<4x4xf32>) outs(%10 : tensor<4x4xf32>) permutation = [1, 0] 
    %12 = tensor.empty() : tensor<2x4x4xf32>
    %13 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%11 : tensor<4x4xf32>) outs(%12 : tensor<2x4x4xf32>) {
    ^bb0(%a0: f32, %out: f32):
      linalg.yield %a0 : f32
    } -> tensor<2x4x4xf32>
    %14 = tensor.empty() : tensor<2x3x4xf32>
    %15 = linalg.fill ins(%cst_s0 : f32) outs(%14 : tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
    %16 = linalg.batch_matmul ins(%arg0, %13 : tensor<2x3x4xf32>, tensor<2x4x4xf32>) outs(%15 : tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
    %17 = tensor.empty() : tensor<2x3x4xf32>
    %18 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%16, %cst_w4 : tensor<2x3x4xf32>, tensor<4xf32>) outs(%17 : tensor<2x3x4xf32>) {
    ^bb0(%a0: f32, %a1: f32, %out: f32):
      %r = arith.addf %a0, %a1 : f32
      linalg.yield %r : f32
    } -> tensor<2x3x4xf32>
    %19 = tensor.empty() : tensor<4x4xf32>
    %20 = linalg.transpose ins(%cst_w5 : tensor<4x4xf32>) outs(%19 : tensor<4x4xf32>) permutation = [1, 0] 
    %21 = tensor.empty() : tensor<2x4x4xf32>
    %22 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%20 : tensor<4x4xf32>) outs(%21 : tensor<2x4x4xf32>) {
    ^bb0(%a0: f32, %out: f32):
      linalg.yield %a0 : f32
    } -> tensor<2x4x4xf32>
    %23 = tensor.empty() : tensor<2x3x4xf32>
    %24 = linalg.fill ins(%cst_s0 : f32) outs(%23 : tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
    %25 = linalg.batch_matmul ins(%arg0, %22 : tensor<2x3x4xf32>, tensor<2x4x4xf32>) outs(%24 : tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
    %26 = tensor.empty() : tensor<2x3x4xf32>
    %27 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%25, %cst_w6 : tensor<2x3x4xf32>, tensor<4xf32>) outs(%26 : tensor<2x3x4xf32>) {
    ^bb0(%a0: f32, %a1: f32, %out: f32):
      %r = arith.addf %a0, %a1 : f32
      linalg.yield %r : f32
    } -> tensor<2x3x4xf32>
    %28 = tensor.expand_shape %9 [[0], [1], [2, 3]] output_shape [2, 3, 2, 2] : tensor<2x3x4xf32> into tensor<2x3x2x2xf32>
    %29 = tensor.empty() : tensor<2x2x3x2xf32>
    %30 = linalg.transpose ins(%28 : tensor<2x3x2x2xf32>) outs(%29 : tensor<2x2x3x2xf32>) permutation = [0, 2, 1, 3] 
    %31 = tensor.collapse_shape %30 [[0, 1], [2], [3]] : tensor<2x2x3x2xf32> into tensor<4x3x2xf32>
    %32 = tensor.expand_shape %18 [[0], [1], [2, 3]] output_shape [2, 3, 2, 2] : tensor<2x3x4xf32> into tensor<2x3x2x2xf32>
    %33 = tensor.empty() : tensor<2x2x3x2xf32>
    %34 = linalg.transpose ins(%32 : tensor<2x3x2x2xf32>) outs(%33 : tensor<2x2x3x2xf32>) permutation = [0, 2, 1, 3] 
    %35 = tensor.collapse_shape %34 [[0, 1], [2], [3]] : tensor<2x2x3x2xf32> into tensor<4x3x2xf32>
    %36 = tensor.expand_shape %27 [[0], [1], [2, 3]] output_shape [2, 3, 2, 2] : tensor<2x3x4xf32> into tensor<2x3x2x2xf32>
    %37 = tensor.empty() : tensor<2x2x3x2xf32>
    %38 = linalg.transpose ins(%36 : tensor<2x3x2x2xf32>) outs(%37 : tensor<2x2x3x2xf32>) permutation = [0, 2, 1, 3] 
    %39 = tensor.collapse_shape %38 [[0, 1], [2], [3]] : tensor<2x2x3x2xf32> into tensor<4x3x2xf32>
    %40 = tensor.empty() : tensor<4x2x3xf32>
    %41 = linalg.transpose ins(%35 : tensor<4x3x2xf32>) outs(%40 : tensor<4x2x3xf32>) permutation = [0, 2, 1] 
    %42 = tensor.empty() : tensor<4x3x3xf32>
    %43 = linalg.fill ins(%cst_s0 : f32) outs(%42 : tensor<4x3x3xf32>) -> tensor<4x3x3xf32>
    %44 = linalg.batch_matmul ins(%31, %41 : tensor<4x3x2xf32>, tensor<4x2x3xf32>) outs(%43 : tensor<4x3x3xf32>) -> tensor<4x3x3xf32>
    %45 = tensor.empty() : tensor<2x2x3x3xf32>
    %46 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%cst_w7 : tensor<2x3x3xf32>) outs(%45 : tensor<2x2x3x3xf32>) {
    ^bb0(%a0: f32, %out: f32):
      linalg.yield %a0 : f32
    } -> tensor<2x2x3x3xf32>
    %47 = tensor.collapse_shape %46 [[0, 1], [2], [3]] : tensor<2x2x3x3xf32> into tensor<4x3x3xf32>
    %48 = tensor.empty() : tensor<4x3x3xf32>
    %49 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%44, %47 : tensor<4x3x3xf32>, tensor<4x3x3xf32>) outs(%48 : tensor<4x3x3xf32>) {
    ^bb0(%a0: f32, %a1: f32, %out: f32):
      %r = arith.addf %a0, %a1 : f32
      linalg.yield %r : f32
    } -> tensor<4x3x3xf32>
    %50 = tensor.empty() : tensor<4x3x1xf32>
    %51 = linalg.fill ins(%cst_s1 : f32) outs(%50 : tensor<4x3x1xf32>) -> tensor<4x3x1xf32>
    %52 = tensor.empty() : tensor<4x3x1xi64>
    %53 = linalg.fill ins(%c0_i64 : i64) outs(%52 : tensor<4x3x1xi64>) -> tensor<4x3x1xi64>
    %54:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%49 : tensor<4x3x3xf32>) outs(%51, %53 : tensor<4x3x1xf32>, tensor<4x3x1xi64>) {
    ^bb0(%in: f32, %out: f32, %out_1: i64):
      %i = linalg.index 2 : index
      %ii = arith.index_cast %i : index to i64
      %m = arith.maximumf %in, %out : f32
      %c = arith.cmpf ogt, %in, %out : f32
      %s = arith.select %c, %ii, %out_1 : i64
      linalg.yield %m, %s : f32, i64
    } -> (tensor<4x3x1xf32>, tensor<4x3x1xi64>)
    %55 = tensor.empty() : tensor<4x3x3xf32>
    %56 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%49, %54#0 : tensor<4x3x3xf32>, tensor<4x3x1xf32>) outs(%55 : tensor<4x3x3xf32>) {
    ^bb0(%a0: f32, %a1: f32, %out: f32):
      %r = arith.subf %a0, %a1 : f32
      linalg.yield %r : f32
    } -> tensor<4x3x3xf32>
    %57 = tensor.empty() : tensor<4x3x3xf32>
    %58 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%56 : tensor<4x3x3xf32>) outs(%57 : tensor<4x3x3xf32>) {
    ^bb0(%a0: f32, %out: f32):
      %r = math.exp %a0 : f32
      linalg.yield %r : f32
    } -> tensor<4x3x3xf32>
    %59 = tensor.empty() : tensor<4x3x1xf32>
    %60 = linalg.fill ins(%cst_s0 : f32) outs(%59 : tensor<4x3x1xf32>) -> tensor<4x3x1xf32>
    %61 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%58 : tensor<4x3x3xf32>) outs(%60 : tensor<4x3x1xf32>) {
    ^bb0(%a0: f32, %out: f32):
      %r = arith.addf %a0, %out : f32
      linalg.yield %r : f32
    } -> tensor<4x3x1xf32>
    %62 = tensor.empty() : tensor<4x3x3xf32>
    %63 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%58, %61 : tensor<4x3x3xf32>, tensor<4x3x1xf32>) outs(%62 : tensor<4x3x3xf32>) {
    ^bb0(%a0: f32, %a1: f32, %out: f32):
      %r = arith.divf %a0, %a1 : f32
      linalg.yield %r : f32
    } -> tensor<4x3x3xf32>
    %64 = tensor.empty() : tensor<4x3x2xf32>
    %65 = linalg.fill ins(%cst_s0 : f32) outs(%64 : tensor<4x3x2xf32>) -> tensor<4x3x2xf32>
    %66 = linalg.batch_matmul ins(%63, %39 : tensor<4x3x3xf32>, tensor<4x3x2xf32>) outs(%65 : tensor<4x3x2xf32>) -> tensor<4x3x2xf32>
    %67 = tensor.expand_shape %66 [[0, 1], [2], [3]] output_shape [2, 2, 3, 2] : tensor<4x3x2xf32> into tensor<2x2x3x2xf32>
    %68 = tensor.empty() : tensor<2x3x2x2xf32>
    %69 = linalg.transpose ins(%67 : tensor<2x2x3x2xf32>) outs(%68 : tensor<2x3x2x2xf32>) permutation = [0, 2, 1, 3] 
    %70 = tensor.collapse_shape %69 [[0], [1], [2, 3]] : tensor<2x3x2x2xf32> into tensor<2x3x4xf32>
    %71 = tensor.empty() : tensor<4x4xf32>
    %72 = linalg.transpose ins(%cst_w10 : tensor<4x4xf32>) outs(%71 : tensor<4x4xf32>) permutation = [1, 0] 
    %73 = tensor.empty() : tensor<2x4x4xf32>
    %74 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%72 : tensor<4x4xf32>) outs(%73 : tensor<2x4x4xf32>) {
    ^bb0(%a0: f32, %out: f32):
      linalg.yield %a0 : f32
    } -> tensor<2x4x4xf32>
    %75 = tensor.empty() : tensor<2x3x4xf32>
    %76 = linalg.fill ins(%cst_s0 : f32) outs(%75 : tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
    %77 = linalg.batch_matmul ins(%70, %74 : tensor<2x3x4xf32>, tensor<2x4x4xf32>) outs(%76 : tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
    %78 = tensor.empty() : tensor<2x3x4xf32>
    %79 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%77, %cst_w11 : tensor<2x3x4xf32>, tensor<4xf32>) outs(%78 : tensor<2x3x4xf32>) {
    ^bb0(%a0: f32, %a1: f32, %out: f32):
      %r = arith.addf %a0, %a1 : f32
      linalg.yield %r : f32
    } -> tensor<2x3x4xf32>
    return %79 : tensor<2x3x4xf32>
  }
}

{-#
  dialect_resources: {
    builtin: {
      torch_tensor_4_4_torch.float32: "0x04000000B4EFB33EEA30593E364EFE3AF67EC3BE48F58D3DD8CFF83E4708FCBDF0301EBEFB29BBBE24D4E43E5FF4473D1CF0DFBE28239CBE121C0F3E5A14923E9E996CBE",
      torch_tensor_4_4_torch.float32_1: "0x040000006491BDBEFB2779BE8F4D3D3B6EDF053EC404BE3E4F3F023ED447C5BE76E0D33ECA28903EDF8DD83E20202DBE20E747BEF3B5593E3CB3983E33D37D3E7676493E",
      torch_tensor_4_torch.float32: "0x04000000E0E7C03B91D030BD5D8E6BBDDA3D71BC"
    }
  }
#-}
