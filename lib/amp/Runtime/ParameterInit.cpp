//===- ParameterInit.cpp - the initial value of a parameter ---------------===//

#include "amp/Runtime/ParameterInit.h"

#include <cmath>

using namespace mlir::amp::runtime;

void mlir::amp::runtime::initParameter(HostTensor &t, std::mt19937_64 &rng,
                                       std::optional<int64_t> fanIn) {
  const TensorSpec &spec = t.spec();
  if (spec.shape.size() < 2)
    return t.fillZero();
  if (!fanIn || *fanIn < 1) {
    fanIn = 1;
    for (size_t i = 0; i + 1 < spec.shape.size(); ++i)
      *fanIn *= spec.shape[i];
  }
  float bound = 1.0f / std::sqrt(static_cast<float>(*fanIn));
  std::uniform_real_distribution<float> dist(-bound, bound);
  float *p = t.as<float>();
  for (int64_t i = 0; i < spec.numElements(); ++i)
    p[i] = dist(rng);
}
