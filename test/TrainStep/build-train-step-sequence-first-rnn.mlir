// A sequence-first RNN classifier (nn.RNN(batch_first=False), zero h0 of
// [1, B, H], h_S -> Linear), traced at batch 2: batch-dim=1 moves the batch
// of the input [S, B, D] to dimension 0; the output [B, 3] keeps it there.
// The zero state's fill [1, 2, 4] collapsed to [2, 4] is rebuilt at the new
// batch (a collapse of unit dimensions into the batch, 2026-12-07).
//
// RUN: %python %amp_src_root/scripts/check-rebatch-forward.py %s %amp_obj_root --batch-dim=1 | FileCheck %s --check-prefix=EXEC
// EXEC: max |fwd2 - fwd16| = 0, max |fwd2 - fwd(dynamic at 16)| = 0, max |fwd2| = {{[0-9]}}
//
// RUN: amp-opt %s --amp-build-train-step="batch=8 batch-dim=1" -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// CHECK-LABEL: func.func @train_step(
// CHECK-SAME: tensor<8x3x3xf32> {amp.role = "input"}
// CHECK-SAME: tensor<8xi32> {amp.classes = 3 : i64
// CHECK: linalg.transpose ins(%{{.*}} : tensor<8x3x3xf32>) outs(%{{.*}} : tensor<3x8x3xf32>) permutation = [1, 0, 2]
// CHECK: tensor.collapse_shape %{{.*}} {{\[}}[0, 1], [2]] : tensor<1x8x4xf32> into tensor<8x4xf32>
// RUN: amp-run %t.mlir --data=synthetic --check-gradients | FileCheck %s --check-prefix=GRAD
// GRAD: (tolerance 1e-05): passed
//
// A dynamic batch trains at --batch-size:
// RUN: amp-opt %s --amp-build-train-step="batch=dynamic batch-dim=1" -o %t.dyn.mlir
// RUN: amp-run %t.dyn.mlir --batch-size=8 --data=synthetic --run=f32,bf16 --max-steps=3 --threads=1 --progress=false 2>&1 | FileCheck %s --check-prefix=DYN
// DYN: examples of 9 values
// DYN: f32{{ +}}[[L:[0-9]\.[0-9][0-9]]]
// DYN: bf16{{ +}}[[L]]

module attributes {torch.debug_module_name = "SeqFirstRNN"} {
  ml_program.global private mutable @global_seed(dense<0> : tensor<i64>) : tensor<i64>
  func.func @forward(%arg0: tensor<3x2x3xf32>) -> tensor<2x3xf32> {
    %cst_s0 = arith.constant 0.000000e+00 : f32
    %cst_w1 = arith.constant dense_resource<torch_tensor_4_3_torch.float32> : tensor<4x3xf32>
    %cst_w2 = arith.constant dense<[0.0201596, -0.00111278, -0.0545652, 0.022208]> : tensor<4xf32>
    %cst_w3 = arith.constant dense_resource<torch_tensor_4_4_torch.float32> : tensor<4x4xf32>
    %cst_w4 = arith.constant dense<[[-0.343938, -0.43059, -0.372195], [0.500459, -0.0170269, 0.441133], [-0.5362, -0.417351, 0.188049], [-0.525761, -0.00530345, 0.489001]]> : tensor<4x3xf32>
    %cst_w5 = arith.constant dense_resource<torch_tensor_4_torch.float32> : tensor<4xf32>
    %cst_w6 = arith.constant dense<[[0.242489, -0.220185, -0.26054, -0.483798], [-0.44476, 0.2858, -0.0295504, 0.304122], [0.469146, -0.357071, 0.403241, -0.477493], [0.450097, -0.0314943, 0.131002, 0.0168967]]> : tensor<4x4xf32>
    %cst_w7 = arith.constant dense_resource<torch_tensor_4_3_torch.float32_1> : tensor<4x3xf32>
    %cst_w8 = arith.constant dense<[0.0770399, 0.0158173, 0.0730717, -0.00658442]> : tensor<4xf32>
    %cst_w9 = arith.constant dense_resource<torch_tensor_4_4_torch.float32_1> : tensor<4x4xf32>
    %cst_w10 = arith.constant dense<[[-0.48655, -0.353379, 0.0110869, 0.281292], [0.352851, -0.412341, -0.481983, -0.305527], [-0.294177, -0.288727, -0.437349, 0.396307]]> : tensor<3x4xf32>
    %cst_w11 = arith.constant dense_resource<torch_tensor_3_torch.float32> : tensor<3xf32>
    %1 = tensor.empty() : tensor<1x2x4xf32>
    %2 = linalg.fill ins(%cst_s0 : f32) outs(%1 : tensor<1x2x4xf32>) -> tensor<1x2x4xf32>
    %3 = tensor.collapse_shape %2 [[0, 1], [2]] : tensor<1x2x4xf32> into tensor<2x4xf32>
    %4 = tensor.extract_slice %arg0[0, 0, 0] [1, 2, 3] [1, 1, 1] : tensor<3x2x3xf32> to tensor<1x2x3xf32>
    %5 = tensor.collapse_shape %4 [[0, 1], [2]] : tensor<1x2x3xf32> into tensor<2x3xf32>
    %6 = tensor.empty() : tensor<3x4xf32>
    %7 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%cst_w1 : tensor<4x3xf32>) outs(%6 : tensor<3x4xf32>) {
    ^bb0(%a0: f32, %out: f32):
      linalg.yield %a0 : f32
    } -> tensor<3x4xf32>
    %8 = tensor.empty() : tensor<2x4xf32>
    %9 = linalg.fill ins(%cst_s0 : f32) outs(%8 : tensor<2x4xf32>) -> tensor<2x4xf32>
    %10 = linalg.matmul ins(%5, %7 : tensor<2x3xf32>, tensor<3x4xf32>) outs(%9 : tensor<2x4xf32>) -> tensor<2x4xf32>
    %11 = tensor.empty() : tensor<2x4xf32>
    %12 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%10, %cst_w2 : tensor<2x4xf32>, tensor<4xf32>) outs(%11 : tensor<2x4xf32>) {
    ^bb0(%a0: f32, %a1: f32, %out: f32):
      %r = arith.addf %a0, %a1 : f32
      linalg.yield %r : f32
    } -> tensor<2x4xf32>
    %13 = tensor.empty() : tensor<4x4xf32>
    %14 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%cst_w3 : tensor<4x4xf32>) outs(%13 : tensor<4x4xf32>) {
    ^bb0(%a0: f32, %out: f32):
      linalg.yield %a0 : f32
    } -> tensor<4x4xf32>
    %15 = tensor.empty() : tensor<2x4xf32>
    %16 = linalg.fill ins(%cst_s0 : f32) outs(%15 : tensor<2x4xf32>) -> tensor<2x4xf32>
    %17 = linalg.matmul ins(%3, %14 : tensor<2x4xf32>, tensor<4x4xf32>) outs(%16 : tensor<2x4xf32>) -> tensor<2x4xf32>
    %18 = tensor.empty() : tensor<2x4xf32>
    %19 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%12, %17 : tensor<2x4xf32>, tensor<2x4xf32>) outs(%18 : tensor<2x4xf32>) {
    ^bb0(%a0: f32, %a1: f32, %out: f32):
      %r = arith.addf %a0, %a1 : f32
      linalg.yield %r : f32
    } -> tensor<2x4xf32>
    %20 = tensor.empty() : tensor<2x4xf32>
    %21 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%19 : tensor<2x4xf32>) outs(%20 : tensor<2x4xf32>) {
    ^bb0(%a0: f32, %out: f32):
      %r = math.tanh %a0 : f32
      linalg.yield %r : f32
    } -> tensor<2x4xf32>
    %22 = tensor.extract_slice %arg0[1, 0, 0] [1, 2, 3] [1, 1, 1] : tensor<3x2x3xf32> to tensor<1x2x3xf32>
    %23 = tensor.collapse_shape %22 [[0, 1], [2]] : tensor<1x2x3xf32> into tensor<2x3xf32>
    %24 = tensor.empty() : tensor<3x4xf32>
    %25 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%cst_w4 : tensor<4x3xf32>) outs(%24 : tensor<3x4xf32>) {
    ^bb0(%a0: f32, %out: f32):
      linalg.yield %a0 : f32
    } -> tensor<3x4xf32>
    %26 = tensor.empty() : tensor<2x4xf32>
    %27 = linalg.fill ins(%cst_s0 : f32) outs(%26 : tensor<2x4xf32>) -> tensor<2x4xf32>
    %28 = linalg.matmul ins(%23, %25 : tensor<2x3xf32>, tensor<3x4xf32>) outs(%27 : tensor<2x4xf32>) -> tensor<2x4xf32>
    %29 = tensor.empty() : tensor<2x4xf32>
    %30 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%28, %cst_w5 : tensor<2x4xf32>, tensor<4xf32>) outs(%29 : tensor<2x4xf32>) {
    ^bb0(%a0: f32, %a1: f32, %out: f32):
      %r = arith.addf %a0, %a1 : f32
      linalg.yield %r : f32
    } -> tensor<2x4xf32>
    %31 = tensor.empty() : tensor<4x4xf32>
    %32 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%cst_w6 : tensor<4x4xf32>) outs(%31 : tensor<4x4xf32>) {
    ^bb0(%a0: f32, %out: f32):
      linalg.yield %a0 : f32
    } -> tensor<4x4xf32>
    %33 = tensor.empty() : tensor<2x4xf32>
    %34 = linalg.fill ins(%cst_s0 : f32) outs(%33 : tensor<2x4xf32>) -> tensor<2x4xf32>
    %35 = linalg.matmul ins(%21, %32 : tensor<2x4xf32>, tensor<4x4xf32>) outs(%34 : tensor<2x4xf32>) -> tensor<2x4xf32>
    %36 = tensor.empty() : tensor<2x4xf32>
    %37 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%30, %35 : tensor<2x4xf32>, tensor<2x4xf32>) outs(%36 : tensor<2x4xf32>) {
    ^bb0(%a0: f32, %a1: f32, %out: f32):
      %r = arith.addf %a0, %a1 : f32
      linalg.yield %r : f32
    } -> tensor<2x4xf32>
    %38 = tensor.empty() : tensor<2x4xf32>
    %39 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%37 : tensor<2x4xf32>) outs(%38 : tensor<2x4xf32>) {
    ^bb0(%a0: f32, %out: f32):
      %r = math.tanh %a0 : f32
      linalg.yield %r : f32
    } -> tensor<2x4xf32>
    %40 = tensor.extract_slice %arg0[2, 0, 0] [1, 2, 3] [1, 1, 1] : tensor<3x2x3xf32> to tensor<1x2x3xf32>
    %41 = tensor.collapse_shape %40 [[0, 1], [2]] : tensor<1x2x3xf32> into tensor<2x3xf32>
    %42 = tensor.empty() : tensor<3x4xf32>
    %43 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%cst_w7 : tensor<4x3xf32>) outs(%42 : tensor<3x4xf32>) {
    ^bb0(%a0: f32, %out: f32):
      linalg.yield %a0 : f32
    } -> tensor<3x4xf32>
    %44 = tensor.empty() : tensor<2x4xf32>
    %45 = linalg.fill ins(%cst_s0 : f32) outs(%44 : tensor<2x4xf32>) -> tensor<2x4xf32>
    %46 = linalg.matmul ins(%41, %43 : tensor<2x3xf32>, tensor<3x4xf32>) outs(%45 : tensor<2x4xf32>) -> tensor<2x4xf32>
    %47 = tensor.empty() : tensor<2x4xf32>
    %48 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%46, %cst_w8 : tensor<2x4xf32>, tensor<4xf32>) outs(%47 : tensor<2x4xf32>) {
    ^bb0(%a0: f32, %a1: f32, %out: f32):
      %r = arith.addf %a0, %a1 : f32
      linalg.yield %r : f32
    } -> tensor<2x4xf32>
    %49 = tensor.empty() : tensor<4x4xf32>
    %50 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%cst_w9 : tensor<4x4xf32>) outs(%49 : tensor<4x4xf32>) {
    ^bb0(%a0: f32, %out: f32):
      linalg.yield %a0 : f32
    } -> tensor<4x4xf32>
    %51 = tensor.empty() : tensor<2x4xf32>
    %52 = linalg.fill ins(%cst_s0 : f32) outs(%51 : tensor<2x4xf32>) -> tensor<2x4xf32>
    %53 = linalg.matmul ins(%39, %50 : tensor<2x4xf32>, tensor<4x4xf32>) outs(%52 : tensor<2x4xf32>) -> tensor<2x4xf32>
    %54 = tensor.empty() : tensor<2x4xf32>
    %55 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%48, %53 : tensor<2x4xf32>, tensor<2x4xf32>) outs(%54 : tensor<2x4xf32>) {
    ^bb0(%a0: f32, %a1: f32, %out: f32):
      %r = arith.addf %a0, %a1 : f32
      linalg.yield %r : f32
    } -> tensor<2x4xf32>
    %56 = tensor.empty() : tensor<2x4xf32>
    %57 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%55 : tensor<2x4xf32>) outs(%56 : tensor<2x4xf32>) {
    ^bb0(%a0: f32, %out: f32):
      %r = math.tanh %a0 : f32
      linalg.yield %r : f32
    } -> tensor<2x4xf32>
    %58 = tensor.empty() : tensor<4x3xf32>
    %59 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%cst_w10 : tensor<3x4xf32>) outs(%58 : tensor<4x3xf32>) {
    ^bb0(%a0: f32, %out: f32):
      linalg.yield %a0 : f32
    } -> tensor<4x3xf32>
    %60 = tensor.empty() : tensor<2x3xf32>
    %61 = linalg.fill ins(%cst_s0 : f32) outs(%60 : tensor<2x3xf32>) -> tensor<2x3xf32>
    %62 = linalg.matmul ins(%57, %59 : tensor<2x4xf32>, tensor<4x3xf32>) outs(%61 : tensor<2x3xf32>) -> tensor<2x3xf32>
    %63 = tensor.empty() : tensor<2x3xf32>
    %64 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%62, %cst_w11 : tensor<2x3xf32>, tensor<3xf32>) outs(%63 : tensor<2x3xf32>) {
    ^bb0(%a0: f32, %a1: f32, %out: f32):
      %r = arith.addf %a0, %a1 : f32
      linalg.yield %r : f32
    } -> tensor<2x3xf32>
    return %64 : tensor<2x3xf32>
  }
}

{-#
  dialect_resources: {
    builtin: {
      torch_tensor_4_3_torch.float32: "0x0400000057BA043FF4AE9CBD556E2E3E4E20E23EA6C8E53EA0090BBF31F7AE3EDF85063FBF56163EB0EB5C3E73D305BF70C38D3D",
      torch_tensor_4_4_torch.float32: "0x0400000069789FBD75C19B3E8719DA3E4B18FA3ED992863E838C2F3E98A6B33EAB9E703EC9EAED3D4730EDBEDD18F4BC62FB9E3DEC09DD3E8AE003BEB370F0BE9BE0FB3D",
      torch_tensor_4_torch.float32: "0x04000000347F433DD8A3AABCFDE486BC3D86873D",
      torch_tensor_4_3_torch.float32_1: "0x04000000A248CDBE433DCCBEC9321F3E563E97BE165B0DBD243F7DBE3CE8C0BED9CCDCBEE017B53E80BE40BE1929323EBE75E63E",
      torch_tensor_4_4_torch.float32_1: "0x040000000374D6BEA408ECBE6144B3BCE6DCFC3E30B325BE9C04663E453EFEBDF34D0D3DC41FDCBE9B03EABCF301F13CB8027C3B71B08BBEE4066ABEFBBDE13E8E9D563C",
      torch_tensor_3_torch.float32: "0x040000009F33D73C4BDF45BDE853483D"
    }
  }
#-}
