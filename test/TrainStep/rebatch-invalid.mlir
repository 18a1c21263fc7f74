// RUN: amp-opt %s --split-input-file --amp-rebatch="batch=8" -verify-diagnostics
// A bad batch= value names the option (located on the module); so does the
// builder's.
// RUN: not amp-opt %s --split-input-file --amp-rebatch="batch=-2" 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not amp-opt %s --split-input-file --amp-rebatch="batch=eight" 2>&1 | FileCheck %s --check-prefix=WORD
// RUN: not amp-opt %s --split-input-file --amp-build-train-step="batch=1.5" 2>&1 | FileCheck %s --check-prefix=BUILD
// BAD: error: amp-rebatch: batch=-2: must be a batch size >= 1 or dynamic (0 or no batch: the batch the model was traced at)
// WORD: error: amp-rebatch: batch=eight: must be a batch size >= 1 or dynamic
// BUILD: error: amp-build-train-step: batch=1.5: must be a batch size >= 1 or dynamic

// Attention as gpt3_layernorm_linear_mha_1head.mlir has it: the scores
// matmul contracts over the tokens, which are dimension 0 of the input.
func.func @attention(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  // expected-error @+1 {{amp-rebatch: batch=8: 'linalg.matmul' contracts over the batch dimension (dimension 0 of the input, argument #0, loop d2 of the op), so the model mixes examples; it cannot be re-batched}}
  %s = linalg.matmul ins(%x, %x : tensor<4x4xf32>, tensor<4x4xf32>) outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %s : tensor<4x4xf32>
}

// -----

// Scores against the transposed keys pair every example with every other.
func.func @outer(%x: tensor<4x3xf32>) -> tensor<4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %et = tensor.empty() : tensor<3x4xf32>
  %xt = linalg.transpose ins(%x : tensor<4x3xf32>) outs(%et : tensor<3x4xf32>) permutation = [1, 0]
  %e = tensor.empty() : tensor<4x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  // expected-error @+1 {{amp-rebatch: batch=8: 'linalg.matmul' reads the batch (dimension 0 of the input, argument #0) of operand #1 with loop d1 and that of operand #0 with loop d0, so the model mixes examples; it cannot be re-batched}}
  %s = linalg.matmul ins(%x, %xt : tensor<4x3xf32>, tensor<3x4xf32>) outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %s : tensor<4x4xf32>
}

// -----

// A matmul whose k is the batch.
func.func @gram(%x: tensor<1x3xf32>) -> tensor<3x3xf32> {
  %zero = arith.constant 0.0 : f32
  %et = tensor.empty() : tensor<3x1xf32>
  %xt = linalg.transpose ins(%x : tensor<1x3xf32>) outs(%et : tensor<3x1xf32>) permutation = [1, 0]
  %e = tensor.empty() : tensor<3x3xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<3x3xf32>) -> tensor<3x3xf32>
  // expected-error @+1 {{'linalg.matmul' contracts over the batch dimension (dimension 0 of the input, argument #0, loop d2 of the op)}}
  %g = linalg.matmul ins(%xt, %x : tensor<3x1xf32>, tensor<1x3xf32>) outs(%f : tensor<3x3xf32>) -> tensor<3x3xf32>
  return %g : tensor<3x3xf32>
}

// -----

// A sum over the batch.
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @batch_sum(%x: tensor<2x3xf32>) -> tensor<3xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<3xf32>) -> tensor<3xf32>
  // expected-error @+1 {{'linalg.generic' contracts over the batch dimension (dimension 0 of the input, argument #0, loop d0 of the op)}}
  %s = linalg.generic {indexing_maps = [#id2, #col], iterator_types = ["reduction", "parallel"]}
      ins(%x : tensor<2x3xf32>) outs(%f : tensor<3xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.addf %a, %o : f32
    linalg.yield %r : f32
  } -> tensor<3xf32>
  return %s : tensor<3xf32>
}

// -----

// A flatten of the batch with the other dimensions at batch 2 (each
// example's rows stay together, rebatch-merged-batch.mlir), returned so:
// a located error on the return.
func.func @flatten_batch(%x: tensor<2x3xf32>) -> tensor<6xf32> {
  %c = tensor.collapse_shape %x [[0, 1]] : tensor<2x3xf32> into tensor<6xf32>
  // expected-error @+1 {{amp-rebatch: batch=8: result #0 of @flatten_batch ('tensor<6xf32>') holds in its dimension 0 the batch (dimension 0 of the input, argument #0) merged with 3 elements of other dimensions (a flatten of the batch with them); the training-step contract needs the batch alone in dimension 0 of the output}}
  return %c : tensor<6xf32>
}

// -----

// A collapse that merges the batch after another dimension ([S, B] ->
// [S*B], as a sequence-first Linear flattens its rows) is followed as S x B
// rows; an expand that splits them otherwise than into [S, B] mixes
// examples.
func.func @batch_not_first(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %e = tensor.empty() : tensor<3x2xf32>
  %t = linalg.transpose ins(%x : tensor<2x3xf32>) outs(%e : tensor<3x2xf32>) permutation = [1, 0]
  %c = tensor.collapse_shape %t [[0, 1]] : tensor<3x2xf32> into tensor<6xf32>
  // expected-error @+1 {{amp-rebatch: batch=8: 'tensor.expand_shape' splits dimension 0, which merges the batch (dimension 0 of the input, argument #0) with 3 elements of other dimensions, into 'tensor<2x3xf32>' without splitting the batch off first; it cannot be re-batched}}
  %r = tensor.expand_shape %c [[0, 1]] output_shape [2, 3] : tensor<6xf32> into tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}

// -----

// Split back into [S, B], the batch is in dimension 1 of the result.
func.func @batch_second(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %e = tensor.empty() : tensor<3x2xf32>
  %t = linalg.transpose ins(%x : tensor<2x3xf32>) outs(%e : tensor<3x2xf32>) permutation = [1, 0]
  %c = tensor.collapse_shape %t [[0, 1]] : tensor<3x2xf32> into tensor<6xf32>
  %r = tensor.expand_shape %c [[0, 1]] output_shape [3, 2] : tensor<6xf32> into tensor<3x2xf32>
  // expected-error @+1 {{amp-rebatch: batch=8: result #0 of @batch_second ('tensor<3x2xf32>') does not have the batch (dimension 0 of the input, argument #0) in dimension 0; the training-step contract needs the batch in dimension 0 of the output}}
  return %r : tensor<3x2xf32>
}

// -----

// The same at batch 1: the collapse is not a squeeze that an op broadcasts
// back (the matmul reads its rows), so it is read as the batch merged with
// the 4 rows, which the result keeps: the error is on the return.
func.func @flatten_batch1(%x: tensor<1x4x3xf32>) -> tensor<4x2xf32> {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<1.0> : tensor<3x2xf32>
  %c = tensor.collapse_shape %x [[0, 1], [2]] : tensor<1x4x3xf32> into tensor<4x3xf32>
  %e = tensor.empty() : tensor<4x2xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x2xf32>) -> tensor<4x2xf32>
  %y = linalg.matmul ins(%c, %w : tensor<4x3xf32>, tensor<3x2xf32>) outs(%f : tensor<4x2xf32>) -> tensor<4x2xf32>
  // expected-error @+1 {{amp-rebatch: batch=8: result #0 of @flatten_batch1 ('tensor<4x2xf32>') holds in its dimension 0 the batch (dimension 0 of the input, argument #0) merged with 4 elements of other dimensions (a flatten of the batch with them); the training-step contract needs the batch alone in dimension 0 of the output}}
  return %y : tensor<4x2xf32>
}

// -----

// At batch 1, the batch merged with the rows and flattened again: still
// one example's values together, returned so: the error is on the return.
func.func @flatten_batch1_twice(%x: tensor<1x4x3xf32>) -> tensor<12xf32> {
  %c = tensor.collapse_shape %x [[0, 1], [2]] : tensor<1x4x3xf32> into tensor<4x3xf32>
  %d = tensor.collapse_shape %c [[0, 1]] : tensor<4x3xf32> into tensor<12xf32>
  // expected-error @+1 {{amp-rebatch: batch=8: result #0 of @flatten_batch1_twice ('tensor<12xf32>') holds in its dimension 0 the batch (dimension 0 of the input, argument #0) merged with 12 elements of other dimensions (a flatten of the batch with them); the training-step contract needs the batch alone in dimension 0 of the output}}
  return %d : tensor<12xf32>
}

// -----

// The output must keep the batch in dimension 0.
func.func @transposed_output(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %e = tensor.empty() : tensor<3x2xf32>
  %t = linalg.transpose ins(%x : tensor<2x3xf32>) outs(%e : tensor<3x2xf32>) permutation = [1, 0]
  // expected-error @+1 {{amp-rebatch: batch=8: result #0 of @transposed_output ('tensor<3x2xf32>') does not have the batch (dimension 0 of the input, argument #0) in dimension 0; the training-step contract needs the batch in dimension 0 of the output}}
  return %t : tensor<3x2xf32>
}

// -----

// Padding the batch.
func.func @pad_batch(%x: tensor<2x3xf32>) -> tensor<4x3xf32> {
  %zero = arith.constant 0.0 : f32
  // expected-error @+1 {{'tensor.pad' pads dimension 0, the batch (dimension 0 of the input, argument #0); it cannot be re-batched}}
  %p = tensor.pad %x low[1, 0] high[1, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f32
  } : tensor<2x3xf32> to tensor<4x3xf32>
  return %p : tensor<4x3xf32>
}

// -----

// An op the analysis does not know.
func.func @unknown(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'tensor.cast' takes operand #0, which carries the batch (dimension 0 of the input, argument #0), and re-batching does not know how 'tensor.cast' treats it}}
  %c = tensor.cast %x : tensor<2x3xf32> to tensor<?x3xf32>
  %d = tensor.cast %c : tensor<?x3xf32> to tensor<2x3xf32>
  return %d : tensor<2x3xf32>
}

// -----

// A per-example constant: an operand of the traced batch size that does not
// derive from the input.
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @per_example(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %c = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %e = tensor.empty() : tensor<2x3xf32>
  // expected-error @+1 {{operand #1 of 'linalg.generic' ('tensor<2x3xf32>') is indexed by loop d0, the batch (dimension 0 of the input, argument #0), but does not derive from the input; it cannot be re-batched}}
  %y = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %c : tensor<2x3xf32>, tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<2x3xf32>
  return %y : tensor<2x3xf32>
}


// -----

// Traced at 1, a batch merged with the rows (the tanh reads them as rows of
// their own) and the input's batch read with a constant 0 in one op: the
// two reads would need different loops at the new batch. Refused whatever
// the order of the operands (the input first was accepted, and read
// another example's rows at a dynamic batch).
func.func @merged_and_broadcast(%arg0: tensor<1x2x4xf32>) -> tensor<1x2x4xf32> {
  %flat = tensor.collapse_shape %arg0 [[0, 1], [2]] : tensor<1x2x4xf32> into tensor<2x4xf32>
  %e = tensor.empty() : tensor<2x4xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%flat : tensor<2x4xf32>) outs(%e : tensor<2x4xf32>) {
  ^bb0(%b: f32, %out: f32):
    %s = math.tanh %b : f32
    linalg.yield %s : f32
  } -> tensor<2x4xf32>
  // expected-error @+1 {{amp-rebatch: batch=8: 'linalg.generic' takes operands whose batch (dimension 0 of the input, argument #0) is merged with 1 and with 2 elements of other dimensions; it cannot be re-batched}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (0, 0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%arg0, %t : tensor<1x2x4xf32>, tensor<2x4xf32>) outs(%e : tensor<2x4xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<2x4xf32>
  %y = tensor.expand_shape %r [[0, 1], [2]] output_shape [1, 2, 4] : tensor<2x4xf32> into tensor<1x2x4xf32>
  return %y : tensor<1x2x4xf32>
}

// -----

// The batch's size used as a number (x / B) would change the model.
func.func @batch_size_as_number(%arg0: tensor<1x4xf32>) -> tensor<1x4xf32> {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{amp-rebatch: batch=8: 'tensor.dim' reads the size of dimension 0 of a value that carries the batch (dimension 0 of the input, argument #0) in dimension 0; a model that computes with its batch size cannot be re-batched}}
  %d = tensor.dim %arg0, %c0 : tensor<1x4xf32>
  %di = arith.index_cast %d : index to i64
  %df = arith.sitofp %di : i64 to f32
  %e = tensor.empty() : tensor<1x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<1x4xf32>) outs(%e : tensor<1x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.divf %in, %df : f32
    linalg.yield %s : f32
  } -> tensor<1x4xf32>
  return %r : tensor<1x4xf32>
}

// -----

// A merged batch [B*T] split the other way ([T, B] order): refused.
func.func @merged_split_otherwise(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %c = tensor.collapse_shape %x [[0, 1]] : tensor<2x3xf32> into tensor<6xf32>
  // expected-error @+1 {{amp-rebatch: batch=8: 'tensor.expand_shape' splits dimension 0, which merges the batch (dimension 0 of the input, argument #0) with 3 elements of other dimensions, into 'tensor<3x2xf32>' without splitting the batch off first; it cannot be re-batched}}
  %e = tensor.expand_shape %c [[0, 1]] output_shape [3, 2] : tensor<6xf32> into tensor<3x2xf32>
  return %e : tensor<3x2xf32>
}

// -----

// A gather reading the batch with one loop while an operand reads it with
// another: the op pairs different examples.
func.func @gather_other_loop(%x: tensor<2x3xf32>) -> tensor<2x2x3xf32> {
  %e = tensor.empty() : tensor<2x2x3xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x : tensor<2x3xf32>) outs(%e : tensor<2x2x3xf32>) {
  ^bb0(%a: f32, %out: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    // expected-error @+1 {{amp-rebatch: batch=8: 'tensor.extract' inside 'linalg.generic' reads the batch (dimension 0 of the input, argument #0) at loop d1, but operand #0 reads it with loop d0, so the model mixes examples; it cannot be re-batched}}
    %g = tensor.extract %x[%i, %j] : tensor<2x3xf32>
    %s = arith.addf %a, %g : f32
    linalg.yield %s : f32
  } -> tensor<2x2x3xf32>
  return %r : tensor<2x2x3xf32>
}
