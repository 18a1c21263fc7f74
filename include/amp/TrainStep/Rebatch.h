//===- Rebatch.h - re-batch a forward model ---------------------*- C++ -*-===//
//
// `amp-rebatch` and `amp-build-train-step batch=`: a forward model traced at
// batch B (torch-mlir exports are traced at one batch size, usually 1)
// becomes the same model at batch N, or at a dynamic batch. Analysis first
// (which dimension of which value is the batch, and what each op needs),
// then one rewrite; the function is unchanged on error.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_TRAINSTEP_REBATCH_H
#define AMP_TRAINSTEP_REBATCH_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <cstdint>

namespace mlir::amp::trainstep {

/// Re-batches `model` (a func.func with a single-block body) from the batch
/// it was traced at, dimension 0 of the arguments `inputs` (static ranked
/// tensors that agree on it: a model's data inputs, such as token ids and
/// segment ids), to `batch` (>= 1, or ShapedType::kDynamic for `?`; a
/// dynamic batch is read from the first input).
///
/// The batch is propagated forward from dimension 0 of every input, through
/// linalg ops (generic and named: by their indexing maps, the loop dimension
/// that reads the batch of an operand is the batch loop, and every operand
/// and result dimension it indexes is batched), tensor.pad (no padding of
/// the batch), tensor.collapse_shape / expand_shape (the batch stays a group
/// of its own, or with unit dimensions), tensor.concat (not along the
/// batch), tensor.extract_slice and insert_slice (the whole batch), gathers
/// in linalg bodies (`tensor.extract` of a batched value at `linalg.index`
/// of the batch loop, used for nothing else), and elementwise arith / math
/// ops on tensors. Every batched dimension then changes from B to `batch`,
/// and the function's signature with it:
///
/// - An operand the batch loop reads that does not come from the input (an
///   init `tensor.empty`, a `linalg.fill` of one, a splat constant, a
///   linalg op whose inputs along that dimension are such values or none,
///   an expand_shape keeping that dimension alone, an insert over all of
///   it of such values, a slice of all of it, a collapse of unit
///   dimensions into it, or, traced at B > 1 and read by batch-major rows,
///   a collapse of it with the dimensions after it: a per-head bias
///   [B, H, T, T] -> [B*H, T, T]) is rebuilt at the new size (for a dynamic
///   batch, `tensor.empty` gets `tensor.dim` of the input); a size-1 input of a
///   linalg.generic is read with a constant 0 (a broadcast), and one of a named
///   op is broadcast first.
/// - Traced at B = 1, torch-mlir writes broadcasts of the batch as constant
///   0 in indexing maps (`(d0, d1) -> (0, d1)`) and squeezes it with
///   collapse_shape before a broadcast re-adds it (matmul's batch
///   dimensions). A batched operand read with 0 is read with the batch loop
///   (the loop the first output indexes at the aligned position); a
///   collapse that merges a size-1 batch with the following dimensions
///   keeps the batch apart, and the linalg op that broadcasts the result
///   over a size-1 leading loop reads the batch with that loop. Where no op
///   broadcasts it back (attention's heads [1, H, T, d] -> [H, T, d] for
///   batch_matmul), the analysis is rerun with that collapse read as below.
///   An expand of the batch's unit dimension into several unit dimensions
///   puts the batch in the first; where an op reads it otherwise (an insert
///   at [t, 0, 0] of [S, 1, H]), the analysis is rerun with the next.
/// - A collapse that merges the batch, leading its group, with the
///   dimensions after it ([B, T, D] -> [B*T, D]) is followed as the batch
///   times their size: through linalg ops that read it with a parallel loop
///   of their own, elementwise ops, and the expand_shape that splits the
///   batch off again; it becomes `batch` times that size. Traced at 1, an
///   operand of that size that does not derive from the input (a per-head
///   bias) is tiled `batch` times.
/// - A collapse that merges the batch after other dimensions ([S, B, E] ->
///   [S*B, E]: nn.MultiheadAttention's projections, a Linear on a
///   sequence-first input) is followed the same way as S x B rows, to the
///   expand that splits it into [S, B, ...] again.
///
/// Errors, located on the op that mixes examples and naming it: a
/// reduction or contraction over the batch loop (`linalg.matmul` with the
/// batch as k, a sum over the batch), an op that reads the batch of two
/// operands with different loops, a read of the batch with another
/// expression than a loop (or a constant 0 at B = 1), an output (init) the
/// batch loop does not index, a collapse or expand that splits a merged
/// batch otherwise than into its parts, a merged batch read by
/// any other op or returned, a gather whose batch index is not the batch
/// loop's `linalg.index` or whose loop does not run over the whole batch,
/// a concat or pad along the batch, a slice or insert of part of the
/// batch, an operand
/// of the traced batch size that does not derive from the input, an op this
/// analysis does not know that takes a batched value, a result whose
/// dimension 0 is not the batch, a dynamic traced batch with a static
/// `batch`, and a model another function calls. Each starts with `prefix`
/// ("amp-rebatch", "amp-build-train-step") and the batch= value.
///
/// `batch` equal to the traced batch (or kDynamic for a dynamic input):
/// success, nothing changes. `givenDims`: the dimension each input held
/// the batch in before moveBatchFirst moved it, for the errors ("dimension
/// 1 of the input"); empty: 0.
LogicalResult rebatch(func::FuncOp model, ArrayRef<unsigned> inputs,
                      int64_t batch, StringRef prefix,
                      ArrayRef<unsigned> givenDims = {});

/// Moves the batch of `model` to dimension 0 of its inputs and of its
/// output, for a model whose inputs hold it in another dimension: PyTorch's
/// sequence-first layouts (`batch_first=False`, the default of
/// nn.MultiheadAttention, nn.Transformer*, nn.LSTM, nn.GRU and nn.RNN:
/// [S, B, E]). `dims[k]` is the batch dimension of argument `inputs[k]`.
///
/// Each such argument takes the batch-first type (dimension `dims[k]`
/// moved to the front, the others in their order) and a `linalg.transpose`
/// at the entry gives the body its old layout. With `moveResults`, the
/// batch is then followed from the inputs to the results by re-batching's
/// analysis (`rebatch`'s rules: an op that mixes examples is an error), and
/// a result that holds it in dimension p > 0 ([S, B, E]) is transposed to
/// [B, S, E] before the return; a result that does not derive from the
/// batch (a loss) is left. The training-step contract, amp-run's data and
/// `rebatch` then see the batch in dimension 0. A dynamic batch is moved
/// too (the analysis then allows `tensor.dim` of it: nothing is resized).
///
/// Errors (located; each starts with `prefix` and `option`, the option as
/// the user wrote it, by default "batch-dim=" and `dims`): an
/// input that is not a ranked tensor of rank dims[k] + 1 or more, inputs
/// that disagree on the traced batch, a model other ops refer to, and
/// re-batching's analysis errors (the batch mixed, merged into a result,
/// or collapsed away). All zero: success, nothing changes. The model is
/// unchanged on error.
LogicalResult moveBatchFirst(func::FuncOp model, ArrayRef<unsigned> inputs,
                             ArrayRef<unsigned> dims, bool moveResults,
                             StringRef prefix, StringRef option = {});

/// Whether re-batching's analysis follows a batch in dimension `dims[k]`
/// of each argument `inputs[k]` to the results with no op mixing examples
/// along it (and no other error), quietly: no diagnostics, `model`
/// unchanged. amp-build-train-step asks it to suggest batch-dim=1 for a
/// sequence-first model built without it.
bool followsBatch(func::FuncOp model, ArrayRef<unsigned> inputs,
                  ArrayRef<unsigned> dims);

} // namespace mlir::amp::trainstep

#endif // AMP_TRAINSTEP_REBATCH_H
