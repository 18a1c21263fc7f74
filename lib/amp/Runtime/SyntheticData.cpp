//===- SyntheticData.cpp - random data of a step's own shapes -------------===//

#include "amp/Runtime/SyntheticData.h"

#include <cmath>
#include <random>

using namespace mlir::amp::runtime;

/// Teacher labels: argmax_c sum_t w[c][t] (value(e, k[c][t]) - 0.5) over
/// kTeacherTerms positions k[c][t] per class drawn uniformly from the
/// example's values, w ~ N(0, 1), all from `functionSeed`; `value(e, k)` is
/// value k of example e in [0, 1). Sparse, so that a small model learns it
/// within a few epochs.
template <typename Value>
static void teacherLabels(std::vector<int32_t> &labels, int64_t numExamples,
                          int64_t values, int32_t numClasses,
                          uint64_t functionSeed, Value value) {
  constexpr int64_t kTeacherTerms = 8;
  std::mt19937_64 fn(functionSeed);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::uniform_int_distribution<int64_t> position(0, values - 1);
  std::vector<int64_t> at(static_cast<size_t>(numClasses * kTeacherTerms));
  std::vector<double> w(at.size());
  for (size_t t = 0; t < at.size(); ++t) {
    at[t] = position(fn);
    w[t] = normal(fn);
  }
  labels.resize(static_cast<size_t>(numExamples));
  for (int64_t e = 0; e < numExamples; ++e) {
    int32_t best = 0;
    double bestScore = 0;
    for (int32_t c = 0; c < numClasses; ++c) {
      double score = 0;
      for (int64_t t = c * kTeacherTerms; t < (c + 1) * kTeacherTerms; ++t)
        score += w[t] * (value(e, at[t]) - 0.5);
      if (c == 0 || score > bestScore) {
        best = c;
        bestScore = score;
      }
    }
    labels[e] = best;
  }
}

Dataset mlir::amp::runtime::makeSyntheticDataset(
    int64_t numExamples, int64_t exampleSize, int32_t numClasses, uint64_t seed,
    SyntheticLabels labels, uint64_t functionSeed) {
  Dataset ds;
  ds.numExamples = numExamples;
  ds.exampleSize = exampleSize;
  ds.numClasses = numClasses;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> pixel(0.0f, 1.0f);
  ds.images.resize(static_cast<size_t>(numExamples * exampleSize));
  for (float &v : ds.images)
    v = pixel(rng);
  if (labels == SyntheticLabels::Teacher) {
    teacherLabels(ds.labels, numExamples, exampleSize, numClasses, functionSeed,
                  [&](int64_t e, int64_t k) -> double {
                    return ds.images[e * exampleSize + k];
                  });
    return ds;
  }
  std::uniform_int_distribution<int32_t> label(0, numClasses - 1);
  ds.labels.resize(static_cast<size_t>(numExamples));
  for (int64_t i = 0; i < numExamples; ++i)
    // The first numClasses examples cover every class once.
    ds.labels[i] = i < numClasses ? static_cast<int32_t>(i) : label(rng);
  return ds;
}

Dataset mlir::amp::runtime::makeSyntheticStepDataset(
    int64_t numExamples, const std::vector<SyntheticInput> &inputs,
    std::optional<int64_t> targetValues, int32_t numClasses, uint64_t seed,
    uint64_t functionSeed, SyntheticLabels labels) {
  Dataset ds;
  ds.numExamples = numExamples;
  ds.numClasses = numClasses;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> uniform(0.0f, 1.0f);
  for (const SyntheticInput &in : inputs) {
    DataField field;
    field.integer = in.integer;
    field.valuesPerExample = in.valuesPerExample;
    size_t n = static_cast<size_t>(numExamples * in.valuesPerExample);
    if (in.integer && in.maskRow > 0 && n % in.maskRow == 0) {
      std::uniform_int_distribution<int64_t> split(
          1, std::max<int64_t>(1, in.maskRow - 1));
      field.ints.resize(n);
      for (size_t row = 0; row < n; row += in.maskRow) {
        int64_t k = split(rng);
        for (int64_t j = 0; j < in.maskRow; ++j)
          field.ints[row + j] = (j < k) == in.attendMask;
      }
    } else if (in.integer) {
      std::uniform_int_distribution<int64_t> id(0, in.intRange - 1);
      field.ints.resize(n);
      for (int64_t &v : field.ints)
        v = id(rng);
    } else {
      field.floats.resize(n);
      for (float &v : field.floats)
        v = uniform(rng);
    }
    ds.inputs.push_back(std::move(field));
  }
  if (!ds.inputs.empty())
    ds.exampleSize = ds.inputs.front().valuesPerExample;
  if (labels == SyntheticLabels::Teacher) {
    // Every value of every input, in order; integers scaled by their range.
    std::vector<std::pair<size_t, int64_t>> at;
    for (size_t f = 0; f < inputs.size(); ++f)
      for (int64_t k = 0; k < inputs[f].valuesPerExample; ++k)
        at.push_back({f, k});
    teacherLabels(ds.labels, numExamples, static_cast<int64_t>(at.size()),
                  numClasses, functionSeed ^ 0x7eac4e5ull,
                  [&](int64_t e, int64_t k) -> double {
                    auto [f, offset] = at[static_cast<size_t>(k)];
                    const DataField &field = ds.inputs[f];
                    int64_t i = e * field.valuesPerExample + offset;
                    return field.integer
                               ? static_cast<double>(field.ints[i]) /
                                     static_cast<double>(inputs[f].intRange)
                               : field.floats[i];
                  });
  } else {
    std::uniform_int_distribution<int32_t> label(0, numClasses - 1);
    ds.labels.resize(static_cast<size_t>(numExamples));
    for (int64_t i = 0; i < numExamples; ++i)
      ds.labels[i] = i < numClasses ? static_cast<int32_t>(i) : label(rng);
  }
  if (!targetValues)
    return ds;

  // The target function: every target value reads 4 input values (over
  // all inputs of the example, integers scaled by their range).
  struct Source {
    size_t field;
    int64_t offset;
  };
  std::vector<Source> sources;
  for (size_t f = 0; f < inputs.size(); ++f)
    for (int64_t k = 0; k < inputs[f].valuesPerExample; ++k)
      sources.push_back({f, k});
  constexpr int kTerms = 4;
  std::mt19937_64 fn(functionSeed);
  std::normal_distribution<double> weight(0.0, 1.0);
  std::vector<Source> picks;
  std::vector<double> weights;
  if (!sources.empty()) {
    std::uniform_int_distribution<size_t> any(0, sources.size() - 1);
    for (int64_t j = 0; j < *targetValues * kTerms; ++j) {
      picks.push_back(sources[any(fn)]);
      weights.push_back(weight(fn));
    }
  }
  DataField target;
  target.valuesPerExample = *targetValues;
  target.floats.resize(static_cast<size_t>(numExamples * *targetValues));
  for (int64_t e = 0; e < numExamples; ++e)
    for (int64_t j = 0; j < *targetValues; ++j) {
      double sum = 0;
      size_t first = static_cast<size_t>(j) * kTerms;
      for (size_t t = first; t < picks.size() && t < first + kTerms; ++t) {
        const DataField &f = ds.inputs[picks[t].field];
        int64_t at = e * f.valuesPerExample + picks[t].offset;
        double x =
            f.integer ? static_cast<double>(f.ints[at]) /
                            static_cast<double>(inputs[picks[t].field].intRange)
                      : f.floats[at];
        sum += weights[t] * x;
      }
      target.floats[e * *targetValues + j] = static_cast<float>(std::tanh(sum));
    }
  ds.target = std::move(target);
  return ds;
}
