//===- SyntheticData.h - random data of a step's own shapes -----*- C++ -*-===//
//
// `amp-run --data=synthetic`: a Dataset of seeded random examples shaped
// like the step's input, for throughput runs and for models whose inputs
// are not Fashion-MNIST's 28 x 28 pixels.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNTIME_SYNTHETICDATA_H
#define AMP_RUNTIME_SYNTHETICDATA_H

#include "amp/Runtime/IdxDataset.h"

#include <cstdint>

namespace mlir::amp::runtime {

/// `numExamples` examples of `exampleSize` values drawn from U[0, 1) (like
/// pixels scaled to [0, 1]) and labels drawn uniformly from
/// [0, numClasses), all from a generator seeded with `seed`. Every class
/// occurs (numClasses is the dataset's class count) when numExamples >=
/// numClasses.
Dataset makeSyntheticDataset(int64_t numExamples, int64_t exampleSize,
                             int32_t numClasses, uint64_t seed);

} // namespace mlir::amp::runtime

#endif // AMP_RUNTIME_SYNTHETICDATA_H
