//===- ParameterInit.cpp - the initial value of a parameter ---------------===//

#include "amp/Runtime/ParameterInit.h"

#include <cmath>
#include <cstring>

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
  for (int64_t i = 0; i < spec.numElements(); ++i) {
    float v = dist(rng);
    if (spec.kind == ElementKind::BF16)
      t.as<uint16_t>()[i] = roundToBF16(v);
    else
      t.as<float>()[i] = v;
  }
}

uint16_t mlir::amp::runtime::roundToBF16(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  if (std::isnan(value))
    return static_cast<uint16_t>((bits >> 16) | 0x40);
  // Round to nearest, ties to even, on the 16 bits that are dropped.
  bits += 0x7fff + ((bits >> 16) & 1);
  return static_cast<uint16_t>(bits >> 16);
}
