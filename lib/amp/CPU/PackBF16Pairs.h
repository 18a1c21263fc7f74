//===- PackBF16Pairs.h - bf16 operand packs for vdpbf16ps -------*- C++ -*-===//
//
// The packed operand layout of the AVX512_BF16 micro-kernel of
// amp-cpu-tile-contractions (CPUTileContractions.cpp): pairs of bf16
// elements along the contraction dimension k, one 32-bit pair per
// (pair index kk, other index x), as `vdpbf16ps` (x86vector.avx512.dot)
// reads them: lane l of the f32 accumulator adds a[2l+1] * b[2l+1] first,
// then a[2l] * b[2l] (Intel SDM, VDPBF16PS; the same on AMD Zen 4). The
// pair of kk therefore holds k = 2kk + 1 in its first (even) slot and
// k = 2kk in its second (odd) slot, so that each accumulator adds its
// products in increasing k, as the FMA kernel does: the dot product of a
// bf16 pair is exact in f32 and each addition rounds once, so the results
// are the FMA kernel's bit for bit, but for denormals (the instruction
// reads and writes as zero every denormal: an input, a product, a partial
// sum) and for the payload of a NaN made from two NaNs. An odd k gets a
// last pair whose k = K slot is zero.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_CPU_PACKBF16PAIRS_H
#define AMP_CPU_PACKBF16PAIRS_H

#include "mlir/IR/Builders.h"

namespace mlir::amp {

/// Where the pairs of a packed operand go.
enum class PairLayout {
  /// P[kk][x] from a source S[k][x] (B of C = A * B; A read as A[k, i]):
  /// two source rows interleaved.
  KMajorFromRows,
  /// P[kk][x] from a source S[x][k] (B read as B[j, k]): the pairs of a
  /// source row are contiguous; blocks of 16 x 16 pairs are transposed in
  /// registers.
  KMajorFromColumns,
  /// P[x][kk] from a source S[x][k] (A read as A[i, k]): each source row
  /// with its pairs' halves swapped.
  XMajor,
};

/// Packs `src` (a 2-D memref of bf16, or of f32 with `roundToBF16`: each
/// element is first rounded to bf16 with arith.truncf, the cast the pack
/// replaces) into a new 64-byte aligned memref<R x 2C x bf16> in
/// `layout`, where K = `kSize`, X = `xSize`, K2 = ceil(K / 2) and
///   - KMajor*: R = K2, C = X rounded up to `padX` (a multiple of 16);
///     the pairs of columns x >= X are left unwritten (the kernel's
///     masked edge computes with them and stores nothing they affect);
///   - XMajor: R = X, C = K2 rounded up to 16; the pairs of kk >= K2 hold
///     zeros.
/// The k = K slot of an odd K's last pair is zero: -0.0 with
/// `padNegativeZero` (the kernel's A, +0.0 for B), so that its product is
/// -0.0 and adding it leaves every accumulator as it is, -0.0 included
/// (+0.0 * +0.0 would turn a -0.0 sum into +0.0). `src`'s last dimension
/// must be unit-stride. The caller frees the result.
Value packBF16Pairs(OpBuilder &b, Location loc, Value src, PairLayout layout,
                    Value kSize, Value xSize, int64_t padX, bool roundToBF16,
                    bool padNegativeZero);

} // namespace mlir::amp

#endif // AMP_CPU_PACKBF16PAIRS_H
