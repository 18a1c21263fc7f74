// Dynamic batches and batch-dim= (2026-12-07).
// A model exported with a dynamic batch in dimension 1 ([4, ?, 8], sizes
// from tensor.dim) takes batch-dim=1: the batch is moved to dimension 0
// (it was refused: "tensor.dim reads the size ... of the batch"), and
// amp-run trains it at --batch-size:
// RUN: amp-opt %s --amp-build-train-step="loss=mse batch-dim=1 function=seq_first" -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// CHECK-LABEL: func.func @train_step(
// CHECK-SAME: tensor<?x4x8xf32> {amp.role = "input"}
// CHECK-SAME: tensor<?x4x8xf32> {amp.role = "target"}
// A batch-first model with a dynamic dimension 0 gets no batch-dim=1
// warning without it (it did: a dynamic dimension 0 is the batch):
// RUN: amp-opt %s --amp-build-train-step="loss=mse function=batch_first" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOWARN --allow-empty
// NOWARN-NOT: warning
// RUN: amp-run %t.mlir --batch-size=4 --data=synthetic --check-gradients | FileCheck %s --check-prefix=GRAD
// GRAD: (tolerance 1e-05): passed

func.func @seq_first(%arg0: tensor<4x?x8xf32>) -> tensor<4x?x8xf32> {
  %c1 = arith.constant 1 : index
  %w = arith.constant dense<0.5> : tensor<8x8xf32>
  %b = arith.constant dense<[0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8]> : tensor<8xf32>
  %zero = arith.constant 0.0 : f32
  %d1 = tensor.dim %arg0, %c1 : tensor<4x?x8xf32>
  %e0 = tensor.empty() : tensor<4x8x8xf32>
  %wb = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%w : tensor<8x8xf32>) outs(%e0 : tensor<4x8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<4x8x8xf32>
  %e1 = tensor.empty(%d1) : tensor<4x?x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4x?x8xf32>) -> tensor<4x?x8xf32>
  %mm = linalg.batch_matmul ins(%arg0, %wb : tensor<4x?x8xf32>, tensor<4x8x8xf32>) outs(%f : tensor<4x?x8xf32>) -> tensor<4x?x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%mm, %b : tensor<4x?x8xf32>, tensor<8xf32>) outs(%e1 : tensor<4x?x8xf32>) {
  ^bb0(%in: f32, %in2: f32, %out: f32):
    %s = arith.addf %in, %in2 : f32
    %t = math.tanh %s : f32
    linalg.yield %t : f32
  } -> tensor<4x?x8xf32>
  return %r : tensor<4x?x8xf32>
}


func.func @batch_first(%arg0: tensor<?x4x8xf32>) -> tensor<?x4x8xf32> {
  %c0 = arith.constant 0 : index
  %w = arith.constant dense<0.5> : tensor<8x8xf32>
  %b = arith.constant dense<[0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8]> : tensor<8xf32>
  %zero = arith.constant 0.0 : f32
  %d0 = tensor.dim %arg0, %c0 : tensor<?x4x8xf32>
  %e0 = tensor.empty(%d0) : tensor<?x8x8xf32>
  %wb = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%w : tensor<8x8xf32>) outs(%e0 : tensor<?x8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<?x8x8xf32>
  %e1 = tensor.empty(%d0) : tensor<?x4x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e1 : tensor<?x4x8xf32>) -> tensor<?x4x8xf32>
  %mm = linalg.batch_matmul ins(%arg0, %wb : tensor<?x4x8xf32>, tensor<?x8x8xf32>) outs(%f : tensor<?x4x8xf32>) -> tensor<?x4x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%mm, %b : tensor<?x4x8xf32>, tensor<8xf32>) outs(%e1 : tensor<?x4x8xf32>) {
  ^bb0(%in: f32, %in2: f32, %out: f32):
    %s = arith.addf %in, %in2 : f32
    %t = math.tanh %s : f32
    linalg.yield %t : f32
  } -> tensor<?x4x8xf32>
  return %r : tensor<?x4x8xf32>
}
