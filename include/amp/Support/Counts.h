//===- Counts.h - counts of elements and FLOPs that saturate ---*- C++ -*-===//
//
// Static shapes may hold more elements than int64_t counts
// (tensor<4294967296x4294967296xf32>: 2^64 elements, 2^66 bytes). Counts of
// elements, bytes and FLOPs (autocast's report and statistics) saturate at
// INT64_MAX instead of overflowing (signed overflow is undefined behaviour).
//
//===----------------------------------------------------------------------===//

#ifndef AMP_SUPPORT_COUNTS_H
#define AMP_SUPPORT_COUNTS_H

#include "mlir/IR/BuiltinTypeInterfaces.h"
#include "llvm/Support/MathExtras.h"

#include <cstdint>
#include <limits>

namespace mlir::amp {

/// An unsigned count as int64_t, INT64_MAX if it overflowed or does not fit.
inline int64_t saturateToInt64(uint64_t count, bool overflowed) {
  constexpr int64_t max = std::numeric_limits<int64_t>::max();
  return overflowed || count > uint64_t(max) ? max : int64_t(count);
}

/// a * b for counts >= 0, saturating at INT64_MAX.
inline int64_t saturatingMul(int64_t a, int64_t b) {
  bool overflow = false;
  uint64_t r = llvm::SaturatingMultiply(uint64_t(a), uint64_t(b), &overflow);
  return saturateToInt64(r, overflow);
}

/// a + b for counts >= 0, saturating at INT64_MAX.
inline int64_t saturatingAdd(int64_t a, int64_t b) {
  bool overflow = false;
  uint64_t r = llvm::SaturatingAdd(uint64_t(a), uint64_t(b), &overflow);
  return saturateToInt64(r, overflow);
}

/// Elements of `type` with dynamic dimensions counted as 1 (1 for a type
/// that is not a ranked shaped type), saturating at INT64_MAX.
inline int64_t staticElementCount(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  if (!shaped || !shaped.hasRank())
    return 1;
  int64_t n = 1;
  for (int64_t d : shaped.getShape())
    n = saturatingMul(n, ShapedType::isDynamic(d) ? 1 : d);
  return n;
}

} // namespace mlir::amp

#endif // AMP_SUPPORT_COUNTS_H
