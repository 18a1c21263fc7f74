//===- Batches.h - batches of a dataset, and scoring logits -----*- C++ -*-===//
//
// What a driver does with a Dataset (IdxDataset.h) between step calls: copy
// a batch of examples into the input (or inputs) and label buffers, and
// count the correct predictions of a batch of logits.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNTIME_BATCHES_H
#define AMP_RUNTIME_BATCHES_H

#include "amp/Runtime/HostTensor.h"
#include "amp/Runtime/IdxDataset.h"

#include <cstdint>
#include <vector>

namespace mlir::amp::runtime {

/// Copies examples `indices[first, first + batch)` of `ds` into `input`
/// (f32, batch x exampleSize values) and, if given, `label` (i32 or i64,
/// batch; or a target, f32 or f64 batch x classes, which gets the one-hot
/// encoding of the labels); input rows past the end of `indices` are zero.
void fillBatch(const Dataset &ds, const std::vector<int64_t> &indices,
               int64_t first, int64_t batch, HostTensor &input,
               HostTensor *label);

/// The general form for a step with any inputs: examples
/// `indices[first, first + batch)` of `ds` into `inputs` (one buffer per
/// input of the step, in order; each of kind F32, F64, I1, I8, I32 or I64)
/// and, if given, `supervision` (the label, or the target: the dataset's
/// regression target when it has one, else the one-hot labels). A dataset
/// with `Dataset::inputs` feeds input k from field k (converted to the
/// buffer's kind); one without feeds its images to the only input (an f32
/// buffer exactly as fillBatch does). Rows past the end of `indices` are
/// zero. The sizes must match (checkRunAgainstData, Trainer.h).
void fillStepBatch(const Dataset &ds, const std::vector<int64_t> &indices,
                   int64_t first, int64_t batch,
                   const std::vector<HostTensor *> &inputs,
                   HostTensor *supervision);

/// How many of the `batch` rows of `logits` (f32, batch x classes) starting
/// at example `first` of `ds` have their arg-max at the example's label
/// (rows past the end of `ds` are not counted; ties pick the first class).
int64_t countCorrect(const HostTensor &logits, const Dataset &ds, int64_t first,
                     int64_t batch, int64_t classes);

} // namespace mlir::amp::runtime

#endif // AMP_RUNTIME_BATCHES_H
