//===- ParameterInit.h - the initial value of a parameter -------*- C++ -*-===//
//
// How amp-run (and every driver of a BoundStep) draws the parameters a run
// starts from, the same sequence on every device for the same seed.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNTIME_PARAMETERINIT_H
#define AMP_RUNTIME_PARAMETERINIT_H

#include "amp/Runtime/HostTensor.h"

#include <cstdint>
#include <optional>
#include <random>

namespace mlir::amp::runtime {

/// PyTorch nn.Linear's and nn.Conv2d's default init (kaiming_uniform with
/// a = sqrt(5)): an f32 parameter of rank >= 2 from U(-1/sqrt(fan_in),
/// 1/sqrt(fan_in)); rank 0/1 (biases) zero. `fanIn` is what the step's
/// contraction reduces over (Analysis/ParameterFanIn.h: 784 for a 784 x 128
/// weight in X * W and for PyTorch's 128 x 784 read transposed, C * KH * KW
/// for a convolution filter); without it, the product of all but the last
/// dimension (an `in x out` weight). Values are drawn from `rng` in
/// row-major order. A bf16 parameter (stored so by amp-master-weights)
/// draws the same f32 values and stores them rounded to nearest even.
void initParameter(HostTensor &t, std::mt19937_64 &rng,
                   std::optional<int64_t> fanIn = std::nullopt);

/// `value` rounded to nearest even bfloat16, as its bit pattern (NaN stays
/// a quiet NaN); what arith.truncf f32 -> bf16 computes.
uint16_t roundToBF16(float value);

} // namespace mlir::amp::runtime

#endif // AMP_RUNTIME_PARAMETERINIT_H
