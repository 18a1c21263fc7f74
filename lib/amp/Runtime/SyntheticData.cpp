//===- SyntheticData.cpp - random data of a step's own shapes -------------===//

#include "amp/Runtime/SyntheticData.h"

#include <random>

using namespace mlir::amp::runtime;

Dataset mlir::amp::runtime::makeSyntheticDataset(int64_t numExamples,
                                                 int64_t exampleSize,
                                                 int32_t numClasses,
                                                 uint64_t seed) {
  Dataset ds;
  ds.numExamples = numExamples;
  ds.exampleSize = exampleSize;
  ds.numClasses = numClasses;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> pixel(0.0f, 1.0f);
  ds.images.resize(static_cast<size_t>(numExamples * exampleSize));
  for (float &v : ds.images)
    v = pixel(rng);
  std::uniform_int_distribution<int32_t> label(0, numClasses - 1);
  ds.labels.resize(static_cast<size_t>(numExamples));
  for (int64_t i = 0; i < numExamples; ++i)
    // The first numClasses examples cover every class once.
    ds.labels[i] = i < numClasses ? static_cast<int32_t>(i) : label(rng);
  return ds;
}
