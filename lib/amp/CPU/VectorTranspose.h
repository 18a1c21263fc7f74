//===- VectorTranspose.h - square transposes in registers -------*- C++ -*-===//
//
// A square block of vectors transposed by two-source shuffles, for the
// packs of amp-cpu-tile-contractions (PackBF16Pairs.cpp, the transposed
// operand packs of CPUTileContractions.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef AMP_CPU_VECTORTRANSPOSE_H
#define AMP_CPU_VECTORTRANSPOSE_H

#include "mlir/IR/Builders.h"

namespace mlir::amp {

/// Transposes, in place, the n x n matrix whose rows are `rows`: n 1-D
/// vectors of n lanes of one type, n a power of two. log2(n) stages of
/// `vector.shuffle` of two rows (one `vpermt2d` / `vpermt2ps` each on
/// AVX-512 for n = 16 lanes of 32 bits): the stage of block size s swaps
/// the off-diagonal s x s blocks of every 2s x 2s block (rows i and i + s
/// exchange halves), for s = n/2, ..., 1. n log2(n) shuffles in all, where
/// `vector.transpose`'s default lowering moves one element at a time.
void transposeInRegisters(OpBuilder &b, Location loc,
                          SmallVectorImpl<Value> &rows);

} // namespace mlir::amp

#endif // AMP_CPU_VECTORTRANSPOSE_H
