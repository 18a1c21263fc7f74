// Re-batching a ViT's class token (2026-12-07; refused before): torch-mlir
// writes torch.cat([cls.expand(B, -1, -1), patches], dim=1) as a broadcast of
// the token over the batch, inserted into an empty tensor, and the patches
// inserted into that. The insert of the broadcast is the same for every
// example, so it is rebuilt at the new batch like the empty tensor and the
// broadcast.
// RUN: amp-opt %s --amp-build-train-step="loss=mse batch=8 function=forward" -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// CHECK-LABEL: func.func @train_step(
// CHECK: %[[TOK:.*]] = linalg.generic
// CHECK-NEXT: ^bb0
// CHECK-NEXT: linalg.yield
// CHECK-NEXT: } -> tensor<8x1x4xf32>
// CHECK: %[[CAT:.*]] = tensor.insert_slice %[[TOK]] into %{{.*}}[0, 0, 0] [8, 1, 4] [1, 1, 1] : tensor<8x1x4xf32> into tensor<8x3x4xf32>
// CHECK: tensor.insert_slice %{{.*}} into %[[CAT]][0, 1, 0] [8, 2, 4] [1, 1, 1] : tensor<8x2x4xf32> into tensor<8x3x4xf32>
//
// The forward at batch 8 and dynamic, example by example, bit for bit:
// RUN: %python %amp_src_root/scripts/check-rebatch-forward.py %s %amp_obj_root | FileCheck %s --check-prefix=EXEC
// EXEC: max |fwd1 - fwd8| = 0, max |fwd1 - fwd(dynamic at 8)| = 0, max |fwd1| = {{[0-9.]+}}
// RUN: amp-run %t.mlir --data=synthetic --check-gradients | FileCheck %s --check-prefix=GRAD
// GRAD: #0{{ +}}1x1x4xf32
// GRAD: (tolerance 1e-05): passed
// RUN: amp-run %t.mlir --data=synthetic --run=f32,f16+dynamic,bf16 --max-steps=3 --threads=1 --progress=false 2>&1 | FileCheck %s --check-prefix=TRAIN
// TRAIN: f32{{ +}}[[L:[0-9]\.[0-9][0-9]]]
// TRAIN: f16 + dynamic{{ +}}[[L]]
// TRAIN: bf16{{ +}}[[L]]

#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
  func.func @forward(%arg0: tensor<1x2x4xf32>) -> tensor<1x3x4xf32> {
    %cls = arith.constant dense<[[[0.5, -0.25, 0.125, 0.75]]]> : tensor<1x1x4xf32>
    %pos = arith.constant dense<[[[0.1, 0.2, 0.3, 0.4], [-0.1, 0.05, 0.2, -0.3], [0.3, -0.2, 0.1, 0.0]]]> : tensor<1x3x4xf32>
    %e1 = tensor.empty() : tensor<1x1x4xf32>
    %tok = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (0, 0, d2)>, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%cls : tensor<1x1x4xf32>) outs(%e1 : tensor<1x1x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x1x4xf32>
    %e3 = tensor.empty() : tensor<1x3x4xf32>
    %cat0 = tensor.insert_slice %tok into %e3[0, 0, 0] [1, 1, 4] [1, 1, 1] : tensor<1x1x4xf32> into tensor<1x3x4xf32>
    %cat = tensor.insert_slice %arg0 into %cat0[0, 1, 0] [1, 2, 4] [1, 1, 1] : tensor<1x2x4xf32> into tensor<1x3x4xf32>
    // + position embedding, then tanh
    %y = linalg.generic {indexing_maps = [#id, affine_map<(d0, d1, d2) -> (0, d1, d2)>, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%cat, %pos : tensor<1x3x4xf32>, tensor<1x3x4xf32>) outs(%e3 : tensor<1x3x4xf32>) {
    ^bb0(%a: f32, %b: f32, %out: f32):
      %s = arith.addf %a, %b : f32
      %t = math.tanh %s : f32
      linalg.yield %t : f32
    } -> tensor<1x3x4xf32>
    return %y : tensor<1x3x4xf32>
  }
