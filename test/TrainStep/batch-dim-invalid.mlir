// batch-dim= errors (amp-rebatch and amp-build-train-step), each located and
// naming the option.
// RUN: amp-opt %s --split-input-file --amp-rebatch="batch=8 batch-dim=1" -verify-diagnostics
// RUN: not amp-opt %s --split-input-file --amp-rebatch="batch-dim=-1" 2>&1 | FileCheck %s --check-prefix=NEG
// NEG: error: amp-rebatch: batch-dim=-1: must be a dimension index in [0, 64] (PyTorch's batch_first=False layouts: 1)
// RUN: not amp-opt %s --split-input-file --amp-build-train-step="batch-dim=-1 loss=mse" 2>&1 | FileCheck %s --check-prefix=BUILDNEG
// BUILDNEG: error: amp-build-train-step: batch-dim=-1: must be a dimension index in [0, 64]
// A value past int32 was truncated (2^32 + 1 read as 1):
// RUN: not amp-opt %s --split-input-file --amp-rebatch="batch-dim=4294967297" 2>&1 | FileCheck %s --check-prefix=BIG
// RUN: not amp-opt %s --split-input-file --amp-build-train-step="batch-dim=4294967297 loss=mse" 2>&1 | FileCheck %s --check-prefix=BIG
// BIG: error: amp-{{rebatch|build-train-step}}: batch-dim=4294967297: must be a dimension index in [0, 64]
// (build-train-step-sequence-first.mlir has the builder's count check.)

// A sum over the sequence-first batch mixes examples.
func.func @sum_over_batch(%x: tensor<3x2x4xf32>) -> tensor<3x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<3x4xf32>) -> tensor<3x4xf32>
  // expected-error @+1 {{amp-rebatch: batch-dim=1: 'linalg.generic' contracts over the batch dimension (dimension 1 of the input, argument #0, loop d1 of the op), so the model mixes examples}}
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>], iterator_types = ["parallel", "reduction", "parallel"]} ins(%x : tensor<3x2x4xf32>) outs(%f : tensor<3x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.addf %a, %o : f32
    linalg.yield %r : f32
  } -> tensor<3x4xf32>
  return %s : tensor<3x4xf32>
}

// -----

// The input has no dimension 1.
// expected-error @+1 {{amp-rebatch: batch-dim=1: the input, argument #0 of @flat, has type 'tensor<4xf32>'; its dimension 1 is the batch, so it must be a ranked tensor of rank 2 or more}}
func.func @flat(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

// -----

// Traced at batch 1, the batch collapsed away in the result.
func.func @squeezed(%x: tensor<3x1x4xf32>) -> tensor<3x4xf32> {
  %c = tensor.collapse_shape %x [[0], [1, 2]] : tensor<3x1x4xf32> into tensor<3x4xf32>
  // expected-error @+1 {{amp-rebatch: batch-dim=1: result #0 of @squeezed ('tensor<3x4xf32>') has the batch collapsed away; the training-step contract needs the batch in one dimension of the output}}
  return %c : tensor<3x4xf32>
}

// -----

// Rows flattened sequence-major ([S, B, E] -> [S*B, E], row s*B + b) added
// to a table broadcast over the batch and collapsed batch-major ([B, S, E]
// -> [B*S, E], row b*S + s): the rows pair differently at another batch,
// so the table is not rebuilt (it was, and each example read other table
// rows after re-batching).
func.func @row_orders(%x: tensor<3x2x2xf32>) -> tensor<3x2x2xf32> {
  %tab = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]> : tensor<3x2xf32>
  %rows = tensor.collapse_shape %x [[0, 1], [2]] : tensor<3x2x2xf32> into tensor<6x2xf32>
  %e = tensor.empty() : tensor<2x3x2xf32>
  %bc = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%tab : tensor<3x2xf32>) outs(%e : tensor<2x3x2xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<2x3x2xf32>
  %bcr = tensor.collapse_shape %bc [[0, 1], [2]] : tensor<2x3x2xf32> into tensor<6x2xf32>
  %e2 = tensor.empty() : tensor<6x2xf32>
  // expected-error @+1 {{amp-rebatch: batch-dim=1: operand #1 of 'linalg.generic' ('tensor<6x2xf32>') is indexed by loop d0, the batch (dimension 1 of the input, argument #0), but does not derive from the input; it cannot be re-batched}}
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%rows, %bcr : tensor<6x2xf32>, tensor<6x2xf32>) outs(%e2 : tensor<6x2xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<6x2xf32>
  %y = tensor.expand_shape %sum [[0, 1], [2]] output_shape [3, 2, 2] : tensor<6x2xf32> into tensor<3x2x2xf32>
  return %y : tensor<3x2x2xf32>
}
