//===- IndexBound.h - how far an integer input may index --------*- C++ -*-===//
//
// Read-only. For an integer input of a step (token ids), the number of rows
// of the tables its values index, so that a driver feeding synthetic ids
// draws them in range: an embedding lookup written as a linalg.generic
// whose body does `tensor.extract %weight[%id, %j]` (torch-mlir's form of
// aten.embedding) reads out of bounds for an id >= dim 0 of %weight.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_ANALYSIS_INDEXBOUND_H
#define AMP_ANALYSIS_INDEXBOUND_H

#include "mlir/IR/Value.h"

#include <cstdint>
#include <optional>

namespace mlir::amp {

/// The smallest static size of a dimension that a value derived from
/// `input` indexes in a `tensor.extract` (or `tensor.insert`), followed
/// through linalg.generic operands into their bodies, tensor reshapes and
/// slices, tensor.extract of an element, and the integer casts
/// (arith.index_cast, index_castui, extsi, extui, trunci); also the static
/// size of the loop dimension d that such a value is compared equal with
/// as `linalg.index d` (a one-hot encoding of labels). nullopt when no
/// such index is found (the values index nothing the analysis sees) or the
/// sizes indexed are all dynamic.
std::optional<int64_t> indexBound(Value input);

} // namespace mlir::amp

#endif // AMP_ANALYSIS_INDEXBOUND_H
