//===- SyntheticData.h - random data of a step's own shapes -----*- C++ -*-===//
//
// `amp-run --data=synthetic`: a Dataset of seeded random examples shaped
// like the step's inputs (any number, float or integer) and target, for
// throughput runs and for models whose inputs are not Fashion-MNIST's
// 28 x 28 pixels.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNTIME_SYNTHETICDATA_H
#define AMP_RUNTIME_SYNTHETICDATA_H

#include "amp/Runtime/IdxDataset.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace mlir::amp::runtime {

/// How synthetic examples get their labels.
enum class SyntheticLabels {
  /// Drawn uniformly from [0, numClasses), independent of the inputs (no
  /// model can learn them; the first numClasses examples cover every class).
  Random,
  /// From a fixed random teacher: label = argmax_c sum_k W[c][k] (x_k - 0.5)
  /// over the example's values x (integers scaled to [0, 1) by their
  /// range), W sparse (8 N(0, 1) entries per class at random positions)
  /// drawn from the function seed, so that a model can learn it and the
  /// train and test sets share it.
  Teacher,
};

/// `numExamples` examples of `exampleSize` values drawn from U[0, 1) (like
/// pixels scaled to [0, 1]), all from a generator seeded with `seed`, and
/// labels in [0, numClasses) as `labels` says (Teacher: W from
/// `functionSeed`). The dataset's class count is numClasses. Random labels
/// are drawn after the values from the same generator, so the values do not
/// depend on `labels`.
Dataset makeSyntheticDataset(int64_t numExamples, int64_t exampleSize,
                             int32_t numClasses, uint64_t seed,
                             SyntheticLabels labels = SyntheticLabels::Random,
                             uint64_t functionSeed = 0);

/// What one input of a step needs per example.
struct SyntheticInput {
  int64_t valuesPerExample = 0;
  /// Integers drawn uniformly from [0, intRange) (token ids); else floats
  /// from U[0, 1).
  bool integer = false;
  int64_t intRange = 2;
  /// > 0: a boolean mask whose rows (the last dimension) hold this many
  /// values, each row drawn as padding: its first k values keep, the rest
  /// are masked, k uniform in [1, maskRow - 1] (1 for rows of 1 or 2).
  /// Keeping is false for a key padding mask (nn.MultiheadAttention's
  /// key_padding_mask, [B, S]: true = ignore) and true for an attention
  /// mask (`attendMask`; scaled_dot_product_attention's boolean attn_mask,
  /// [B, 1, S, S], or `where(mask, scores, -inf)`: true = attend). Every row
  /// keeps its first key, which a causal query 0 needs: a uniform draw masked
  /// whole rows, and the softmax of -inf gave NaN.
  int64_t maskRow = 0;
  bool attendMask = false;
};

/// Synthetic data for any step (Dataset::inputs): `numExamples` examples
/// with one field per entry of `inputs` (in order, each field drawn whole
/// before the next), then labels as makeSyntheticDataset makes them (the
/// teacher reads every value of every input), from a generator seeded with
/// `seed`. With `targetValues`, also a regression
/// target of that many values per example: t_j = tanh(sum of 4 inputs
/// values (integers scaled to [0, 1)) at random positions with N(0, 1)
/// weights), a fixed function of the example's inputs drawn from
/// `functionSeed`, so that a model can learn it and the train and test sets
/// (seed, seed + 1) share it.
Dataset makeSyntheticStepDataset(
    int64_t numExamples, const std::vector<SyntheticInput> &inputs,
    std::optional<int64_t> targetValues, int32_t numClasses, uint64_t seed,
    uint64_t functionSeed, SyntheticLabels labels = SyntheticLabels::Random);

} // namespace mlir::amp::runtime

#endif // AMP_RUNTIME_SYNTHETICDATA_H
