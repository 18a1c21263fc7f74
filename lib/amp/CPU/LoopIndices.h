//===- LoopIndices.h - Indexing-map results at loop variables ---*- C++ -*-===//
//
// Shared by the CPU passes that lower linalg ops on buffers to their own
// loops (amp-cpu-accumulate-in-registers, amp-cpu-vectorize-rows).
//
//===----------------------------------------------------------------------===//

#ifndef AMP_LIB_CPU_LOOPINDICES_H
#define AMP_LIB_CPU_LOOPINDICES_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace mlir::amp {

/// `map`'s results at the loop induction variables `ivs` (indexed by loop
/// position in the op, one per dimension of `map`): a dimension is its
/// variable, anything else an `affine.apply` (lower-affine expands it
/// later).
inline SmallVector<Value> indicesAtLoops(OpBuilder &b, Location loc,
                                         AffineMap map, ArrayRef<Value> ivs) {
  SmallVector<Value> indices;
  for (AffineExpr expr : map.getResults()) {
    if (auto dim = dyn_cast<AffineDimExpr>(expr)) {
      indices.push_back(ivs[dim.getPosition()]);
      continue;
    }
    AffineMap single = AffineMap::get(map.getNumDims(), map.getNumSymbols(),
                                      expr, b.getContext());
    indices.push_back(affine::AffineApplyOp::create(b, loc, single, ivs));
  }
  return indices;
}

/// The bounds of `loops` (positions in `ranges`, from
/// `LinalgOp::createLoopRanges`) as index values, appended to `lbs`, `ubs`
/// and `steps`.
inline void loopBounds(OpBuilder &b, Location loc, ArrayRef<Range> ranges,
                       ArrayRef<unsigned> loops, SmallVectorImpl<Value> &lbs,
                       SmallVectorImpl<Value> &ubs,
                       SmallVectorImpl<Value> &steps) {
  for (unsigned loop : loops) {
    lbs.push_back(getValueOrCreateConstantIndexOp(b, loc, ranges[loop].offset));
    ubs.push_back(getValueOrCreateConstantIndexOp(b, loc, ranges[loop].size));
    steps.push_back(
        getValueOrCreateConstantIndexOp(b, loc, ranges[loop].stride));
  }
}

} // namespace mlir::amp

#endif // AMP_LIB_CPU_LOOPINDICES_H
