//===- RandomBatches.h - reproducible batches for execution tests -*- C++
//-*-===//
//
// The batches the execution tests in this directory feed a bound step:
// inputs U[0, 1), labels uniform over 10 classes, seeded by the batch's
// index, so that two compilations of one step see the same data.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_UNITTESTS_RUNTIME_RANDOMBATCHES_H
#define AMP_UNITTESTS_RUNTIME_RANDOMBATCHES_H

#include "amp/Runtime/BoundStep.h"

#include <cstddef>
#include <cstdint>
#include <random>
#include <type_traits>

namespace mlir::amp::runtime {

/// Fills batch `index` into the step's input (f32) and label (i32)
/// arguments on the host; `adjust` (if any) may change the input before
/// both are uploaded.
template <typename Adjust = std::nullptr_t>
void fillRandomBatch(BoundStep &step, int index, Adjust adjust = nullptr) {
  const StepLayout &layout = step.layout();
  std::mt19937 rng(1000 + index);
  std::uniform_real_distribution<float> pixel(0, 1);
  HostTensor &x = step.arg(layout.input).host();
  for (size_t i = 0; i < x.sizeInBytes() / sizeof(float); ++i)
    x.as<float>()[i] = pixel(rng);
  if constexpr (!std::is_same_v<Adjust, std::nullptr_t>)
    adjust(x);
  HostTensor &y = step.arg(layout.label).host();
  for (size_t i = 0; i < y.sizeInBytes() / sizeof(int32_t); ++i)
    y.as<int32_t>()[i] = static_cast<int32_t>(rng() % 10);
  step.arg(layout.input).upload();
  step.arg(layout.label).upload();
}

} // namespace mlir::amp::runtime

#endif // AMP_UNITTESTS_RUNTIME_RANDOMBATCHES_H
