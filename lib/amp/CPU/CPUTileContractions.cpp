//===- CPUTileContractions.cpp - amp-cpu-tile-contractions ----------------===//
//
// Register-tiled micro-kernels for the contractions of a bufferized
// training step on the CPU: each MR x NR block of C stays in vector
// registers for the whole k loop, which multiplies one broadcast element of
// A by one NR-wide row of B per row (the outer-product micro-kernel of
// BLIS, Van Zee and van de Geijn, TOMS 2015). See the pass description in
// Passes.td and docs/performance.md.
//
//===----------------------------------------------------------------------===//

#include "PackBF16Pairs.h"
#include "VectorTranspose.h"
#include "amp/Analysis/BufferUses.h"
#include "amp/Analysis/Contraction.h"
#include "amp/CPU/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/X86Vector/X86VectorDialect.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/bit.h"

namespace mlir::amp {
#define GEN_PASS_DEF_CPUTILECONTRACTIONS
#include "amp/CPU/Passes.h.inc"
} // namespace mlir::amp

using namespace mlir;
using namespace mlir::amp;

namespace {
/// One contraction being rewritten: its operands by role (B already in
/// (k, j) layout), sizes as index values, the micro-tile and the builder's
/// cache of index constants.
struct Kernel {
  BufferContraction match;
  Value a, b, c;
  Value m, n, k;
  /// A is read as A[k, i] (transposed or packed) rather than A[i, k].
  bool aKMajor = false;
  /// The AVX512_BF16 kernel (emitDotTile): A and B are bf16 pair packs
  /// (packBF16Pairs), B's as P[kk][j], A's as P[kk][i] with `aKMajor`
  /// and P[i][kk] without; `k` counts pairs.
  bool dot = false;
  /// C's initial value, the same for every element (findConstantInit):
  /// the first depth slice starts its accumulators from it instead of
  /// loading C. Null: C is loaded.
  Value init;
  /// A 16-bit buffer of C's shape that the last depth slice stores its
  /// accumulators into, rounded (arith.truncf), instead of into C
  /// (findNarrowing). Null: C holds the result.
  Value narrow;
  /// The stores of rounded accumulators into `narrow` (storeAccumulators),
  /// for widenInKernel.
  SmallVector<Operation *> narrowStores;
  /// k fits in one depth slice: the first slice is the last.
  bool singleSlice = false;
  int64_t rows = 0, cols = 0;
  VectorType accType;
  OpBuilder &builder;
  Location loc;
  llvm::SmallDenseMap<int64_t, Value> constants;

  Kernel(const BufferContraction &match, OpBuilder &builder, Location loc)
      : match(match), a(match.a), b(match.b), c(match.c), builder(builder),
        loc(loc) {}

  /// Index constant `v`, created once, before the contraction.
  Value index(int64_t v) {
    Value &constant = constants[v];
    if (!constant) {
      OpBuilder::InsertionGuard guard(builder);
      builder.setInsertionPoint(match.op);
      constant = arith::ConstantIndexOp::create(builder, loc, v);
    }
    return constant;
  }
};
} // namespace

namespace {
/// The pass options: micro-tile MR x NR, depth slice KC, block MC x NC
/// (multiples of the micro-tile), and the work below which the blocks run
/// in one thread. For the AVX512_BF16 kernel KC counts pairs of k.
struct KernelShape {
  int64_t rows, cols, depth, blockRows, blockCols, minParallelWork;
};

/// The shapes of the FMA kernel and, with bf16-dot, of the AVX512_BF16
/// kernel.
struct KernelShapes {
  KernelShape fma;
  std::optional<KernelShape> dot;
  /// The pass's `writer-distance` (widenInWriter).
  int64_t writerDistance = 0;
};
} // namespace

/// Size of dimension `d` of `buffer` as an index value.
static Value dimSize(OpBuilder &b, Location loc, Value buffer, int64_t d) {
  auto type = cast<MemRefType>(buffer.getType());
  if (!type.isDynamicDim(d))
    return arith::ConstantIndexOp::create(b, loc, type.getDimSize(d));
  return memref::DimOp::create(b, loc, buffer, d);
}

/// `v` (a vector of `src` elements) as the pack's `elem`: rounded to
/// `roundTo` first where given (the cast the pack replaces), then widened.
static Value convertForPack(OpBuilder &b, Location loc, Value v, Type elem,
                            Type roundTo) {
  auto type = cast<VectorType>(v.getType());
  if (roundTo)
    v = arith::TruncFOp::create(b, loc, type.clone(roundTo), v);
  if (cast<VectorType>(v.getType()).getElementType() != elem)
    v = arith::ExtFOp::create(b, loc, type.clone(elem), v);
  return v;
}

/// dst[k, x] = src[x, k] (converted as convertForPack) for the (K, X)
/// buffer `dst`, in blocks of 16 x 16: 16 rows of src read along k (one
/// vector each, converted), transposed in registers
/// (transposeInRegisters), stored as 16 rows of dst. Blocks inside both
/// edges use plain loads and stores; the others masked ones (the lanes
/// past X or K read as zeros and are not stored). A transposing copy one
/// element at a time was a strided load, a conversion and a store per
/// element (`vpinsrw` + `vcvtph2ps` for f16: 8% of the transformer
/// block's f16 step).
static void transposeIntoPack(OpBuilder &b, Location loc, Value src, Value dst,
                              Value kSize, Value xSize, Type elem,
                              Type roundTo) {
  constexpr int64_t n = 16;
  Type srcElem = cast<MemRefType>(src.getType()).getElementType();
  auto index = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  auto srcRow = VectorType::get({n}, srcElem);
  auto mask = VectorType::get({n}, b.getI1Type());
  Value zeros = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(srcRow, b.getFloatAttr(srcElem, 0.0)));
  auto ult = [&](Value x, Value y) -> Value {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, x, y);
  };
  auto forEach = [&](Value upper, llvm::function_ref<void(Value)> body) {
    scf::ForOp::create(b, loc, index(0), upper, index(n), ValueRange{},
                       [&](OpBuilder &, Location, Value iv, ValueRange) {
                         body(iv);
                         scf::YieldOp::create(b, loc);
                       });
  };
  forEach(xSize, [&](Value x0) {
    forEach(kSize, [&](Value k0) {
      Value xLeft = arith::SubIOp::create(b, loc, xSize, x0);
      Value kLeft = arith::SubIOp::create(b, loc, kSize, k0);
      Value kFull = ult(index(n - 1), kLeft);
      Value full =
          arith::AndIOp::create(b, loc, ult(index(n - 1), xLeft), kFull);
      // A block at the edge of X only (all n k's there): rows past X are
      // zeros, the others whole loads. Masked loads would be lane by lane
      // for 16-bit elements on AVX2, which has no 16-bit masked load.
      auto block = [&](bool edge, bool xEdgeOnly) {
        SmallVector<Value> rows;
        for (int64_t r = 0; r < n; ++r) {
          Value x = arith::AddIOp::create(b, loc, x0, index(r));
          Value v;
          if (!edge) {
            v = vector::LoadOp::create(b, loc, srcRow, src, ValueRange{x, k0});
          } else if (xEdgeOnly) {
            // (An in-bounds row, read and dropped, past X.)
            Value inside = ult(x, xSize);
            Value at = arith::SelectOp::create(b, loc, inside, x, x0);
            v = arith::SelectOp::create(
                b, loc, inside,
                vector::LoadOp::create(b, loc, srcRow, src, ValueRange{at, k0}),
                zeros);
          } else {
            // Rows past X read nothing (an in-bounds row, no lanes).
            Value inside = ult(x, xSize);
            Value count =
                arith::SelectOp::create(b, loc, inside, kLeft, index(0));
            Value at = arith::SelectOp::create(b, loc, inside, x, x0);
            v = vector::MaskedLoadOp::create(
                b, loc, srcRow, src, ValueRange{at, k0},
                vector::CreateMaskOp::create(b, loc, mask, count), zeros);
          }
          rows.push_back(convertForPack(b, loc, v, elem, roundTo));
        }
        transposeInRegisters(b, loc, rows);
        Value columns =
            edge ? vector::CreateMaskOp::create(b, loc, mask, xLeft).getResult()
                 : Value();
        for (int64_t r = 0; r < n; ++r) {
          Value k = arith::AddIOp::create(b, loc, k0, index(r));
          if (!edge) {
            vector::StoreOp::create(b, loc, rows[r], dst, ValueRange{k, x0});
            continue;
          }
          if (xEdgeOnly) {
            vector::MaskedStoreOp::create(b, loc, dst, ValueRange{k, x0},
                                          columns, rows[r]);
            continue;
          }
          scf::IfOp::create(b, loc, ult(k, kSize), [&](OpBuilder &, Location) {
            vector::MaskedStoreOp::create(b, loc, dst, ValueRange{k, x0},
                                          columns, rows[r]);
            scf::YieldOp::create(b, loc);
          });
        }
      };
      scf::IfOp::create(
          b, loc, full,
          [&](OpBuilder &, Location) {
            block(/*edge=*/false, /*xEdgeOnly=*/false);
            scf::YieldOp::create(b, loc);
          },
          [&](OpBuilder &, Location) {
            scf::IfOp::create(
                b, loc, kFull,
                [&](OpBuilder &, Location) {
                  block(/*edge=*/true, /*xEdgeOnly=*/true);
                  scf::YieldOp::create(b, loc);
                },
                [&](OpBuilder &, Location) {
                  block(/*edge=*/true, /*xEdgeOnly=*/false);
                  scf::YieldOp::create(b, loc);
                });
            scf::YieldOp::create(b, loc);
          });
    });
  });
}

/// A new 64-byte aligned (K, X) buffer of `elem` holding operand `src`,
/// which is read as src[k, x] when `kMajor` and as src[x, k] otherwise,
/// widened with arith.extf if its elements are narrower (with `roundTo`:
/// f32 elements first rounded to it, as the cast they replace). A
/// transposing pack of a unit-stride `src` runs in 16 x 16 register blocks
/// (transposeIntoPack). The caller frees it.
static Value pack(OpBuilder &b, Location loc, Value src, bool kMajor,
                  Value kSize, Value xSize, Type elem, Type roundTo = {}) {
  auto srcType = cast<MemRefType>(src.getType());
  int64_t kDim = kMajor ? 0 : 1;
  auto type = MemRefType::get(
      {srcType.getDimSize(kDim), srcType.getDimSize(1 - kDim)}, elem);
  SmallVector<Value> dynamic;
  if (type.isDynamicDim(0))
    dynamic.push_back(kSize);
  if (type.isDynamicDim(1))
    dynamic.push_back(xSize);
  Value dst =
      memref::AllocOp::create(b, loc, type, dynamic, b.getI64IntegerAttr(64));
  if (!kMajor && srcType.isLastDimUnitStride()) {
    transposeIntoPack(b, loc, src, dst, kSize, xSize, elem, roundTo);
    return dst;
  }
  MLIRContext *ctx = b.getContext();
  AffineMap identity = AffineMap::getMultiDimIdentityMap(2, ctx);
  AffineMap srcMap =
      kMajor ? identity
             : AffineMap::getPermutationMap(ArrayRef<unsigned>{1, 0}, ctx);
  linalg::GenericOp::create(
      b, loc, ValueRange{src}, ValueRange{dst},
      ArrayRef<AffineMap>{srcMap, identity},
      ArrayRef<utils::IteratorType>{utils::IteratorType::parallel,
                                    utils::IteratorType::parallel},
      [&](OpBuilder &gb, Location gl, ValueRange args) {
        Value v = args[0];
        if (roundTo)
          v = arith::TruncFOp::create(gb, gl, roundTo, v);
        if (v.getType() != elem)
          v = arith::ExtFOp::create(gb, gl, elem, v);
        linalg::YieldOp::create(gb, gl, v);
      });
  return dst;
}

/// Whether `v` is an argument of its function (of the entry block: a
/// later block's argument can be any value a branch passes).
static bool isFunctionArgument(Value v) {
  auto arg = dyn_cast<BlockArgument>(v);
  return arg && arg.getOwner()->isEntryBlock() &&
         isa<FunctionOpInterface>(arg.getOwner()->getParentOp());
}

/// Whether `buffer` (a function argument) is written nowhere in the
/// function: no linalg op has it (or a view of it) as an init, and it is
/// not stored to, copied into or passed to anything else.
static bool isNeverWritten(Value buffer) {
  return !anyUseThroughViews(buffer, [](OpOperand &use) {
    Operation *user = use.getOwner();
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(user))
      return linalgOp.isDpsInit(&use);
    if (isa<memref::LoadOp, memref::DimOp>(user))
      return false;
    auto copy = dyn_cast<memref::CopyOp>(user);
    return !copy || copy.getSource() != use.get();
  });
}

/// Whether `g` is autocast's rounding cast: one input and one init, all
/// loops parallel, identity maps, and a body of one `arith.truncf` of the
/// input element from f32 to nearest (no rounding mode) and the yield
/// (nothing else that erasing or folding the cast would lose).
static bool isRoundingCast(linalg::GenericOp g) {
  if (g.getNumDpsInputs() != 1 || g.getNumDpsInits() != 1 ||
      g.getNumReductionLoops() ||
      !llvm::all_of(g.getIndexingMapsArray(),
                    [](AffineMap m) { return m.isIdentity(); }))
    return false;
  Block *body = g.getBody();
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  auto trunc = yield.getValues()[0].getDefiningOp<arith::TruncFOp>();
  return trunc && &body->front() == trunc.getOperation() &&
         body->getOperations().size() == 2 &&
         trunc.getIn() == body->getArgument(0) &&
         !trunc.getRoundingmodeAttr() && trunc.getIn().getType().isF32();
}

/// If `operand` (a 16-bit contraction operand) is a buffer that one
/// all-parallel generic fills with `arith.truncf` of a function argument of
/// the same shape that is never written (a parameter or the input, cast by
/// autocast), returns that generic: the pack can read the f32 argument and
/// round it itself, and the cast pass over memory goes if nothing else
/// reads its buffer.
static linalg::GenericOp findCastOfArgument(Value operand) {
  auto alloc = operand.getDefiningOp<memref::AllocOp>();
  if (!alloc)
    return {};
  // The buffer must be written by exactly one op, a generic with it as its
  // only init, and otherwise only read by linalg ops (no views, copies or
  // other writers, which could change it between the cast and the
  // contraction) or freed.
  linalg::GenericOp castOp;
  for (OpOperand &use : alloc->getUses()) {
    Operation *user = use.getOwner();
    if (isa<memref::DeallocOp>(user))
      continue;
    auto linalgOp = dyn_cast<linalg::LinalgOp>(user);
    if (!linalgOp)
      return {};
    if (!linalgOp.isDpsInit(&use))
      continue;
    auto g = dyn_cast<linalg::GenericOp>(user);
    if (castOp || !g || g.getNumDpsInits() != 1)
      return {}; // written twice, or by something else
    castOp = g;
  }
  if (!castOp || !isRoundingCast(castOp))
    return {};
  Value src = castOp.getDpsInputs()[0];
  auto arg = dyn_cast<BlockArgument>(src);
  if (!arg || !isFunctionArgument(src) ||
      castOp->getBlock() != arg.getOwner() ||
      cast<MemRefType>(src.getType()).getShape() !=
          cast<MemRefType>(operand.getType()).getShape() ||
      !isNeverWritten(src))
    return {};
  return castOp;
}

/// The `count` accumulators of `type` a micro-tile's depth slice starts
/// from: without kernel.init what `loadC` loads from C; with it, C's
/// initial value broadcast in the first slice (`kBegin` = 0) and what the
/// slices before stored (`loadC`, in the other branch) in the later ones.
static SmallVector<Value>
startAccumulators(Kernel &kernel, OpBuilder &b, Value kBegin, VectorType type,
                  int64_t count,
                  llvm::function_ref<SmallVector<Value>()> loadC) {
  if (!kernel.init)
    return loadC();
  Location loc = kernel.loc;
  if (kernel.singleSlice) // (no other slice to load from)
    return SmallVector<Value>(
        count, vector::BroadcastOp::create(b, loc, type, kernel.init));
  Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, kBegin,
                                      kernel.index(0));
  auto ifOp = scf::IfOp::create(b, loc, SmallVector<Type>(count, type), first,
                                /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifOp.thenBlock());
  Value splat = vector::BroadcastOp::create(b, loc, type, kernel.init);
  scf::YieldOp::create(b, loc, SmallVector<Value>(count, splat));
  b.setInsertionPointToStart(ifOp.elseBlock());
  scf::YieldOp::create(b, loc, loadC());
  return SmallVector<Value>(ifOp.getResults());
}

/// Stores a micro-tile's accumulators `accs[t]` at `at[t]` (with
/// `masks[t]`, if not null, only the enabled lanes): into C, or, with
/// kernel.narrow, in the last depth slice (the one that ends at `kEnd` =
/// k) rounded into kernel.narrow instead.
static void storeAccumulators(Kernel &kernel, OpBuilder &b, Value kEnd,
                              ArrayRef<Value> accs,
                              ArrayRef<SmallVector<Value, 2>> at,
                              ArrayRef<Value> masks) {
  Location loc = kernel.loc;
  auto storeAll = [&](OpBuilder &sb, Value buffer, bool round) {
    for (auto [acc, indices, mask] : llvm::zip_equal(accs, at, masks)) {
      Value v = acc;
      if (round) {
        auto type = cast<VectorType>(acc.getType());
        v = arith::TruncFOp::create(
            sb, loc,
            type.clone(cast<MemRefType>(buffer.getType()).getElementType()),
            acc);
      }
      Operation *store =
          mask
              ? vector::MaskedStoreOp::create(sb, loc, buffer, indices, mask, v)
                    .getOperation()
              : vector::StoreOp::create(sb, loc, v, buffer, indices)
                    .getOperation();
      if (round)
        kernel.narrowStores.push_back(store);
    }
  };
  if (!kernel.narrow)
    return storeAll(b, kernel.c, /*round=*/false);
  if (kernel.singleSlice)
    return storeAll(b, kernel.narrow, /*round=*/true);
  Value last =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, kEnd, kernel.k);
  auto ifOp = scf::IfOp::create(b, loc, last, /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifOp.thenBlock());
  storeAll(b, kernel.narrow, /*round=*/true);
  b.setInsertionPointToStart(ifOp.elseBlock());
  storeAll(b, kernel.c, /*round=*/false);
}

/// The micro-tile with rows [i0, i0 + rows) and columns [j0, j0 + cols) of
/// C (`rows` <= kernel.rows). With `mask` (a vector<cols x i1>) only the
/// columns it enables are read and written: the right edge of C.
static void emitTile(Kernel &kernel, OpBuilder &b, Value i0, Value j0,
                     int64_t rows, Value mask, Value kBegin, Value kEnd) {
  Location loc = kernel.loc;
  auto bType = VectorType::get(
      {kernel.cols}, cast<MemRefType>(kernel.b.getType()).getElementType());
  auto zeroOf = [&](VectorType type) -> Value {
    return arith::ConstantOp::create(
        b, loc, type,
        DenseElementsAttr::get(type, b.getZeroAttr(type.getElementType())));
  };
  // Masked-off lanes read as zero (never stored back).
  llvm::SmallDenseMap<Type, Value> zeros;
  auto load = [&](VectorType type, Value buffer, ValueRange indices) -> Value {
    if (!mask)
      return vector::LoadOp::create(b, loc, type, buffer, indices);
    Value &zero = zeros[type];
    if (!zero)
      zero = zeroOf(type);
    return vector::MaskedLoadOp::create(b, loc, type, buffer, indices, mask,
                                        zero);
  };
  auto rowOf = [&](Value base, int64_t r) -> Value {
    return r == 0 ? base : arith::AddIOp::create(b, loc, base, kernel.index(r));
  };
  SmallVector<Value> rowIndex, accs;
  for (int64_t r = 0; r < rows; ++r)
    rowIndex.push_back(rowOf(i0, r));
  auto loadC = [&] {
    SmallVector<Value> loaded;
    for (int64_t r = 0; r < rows; ++r)
      loaded.push_back(
          load(kernel.accType, kernel.c, ValueRange{rowIndex[r], j0}));
    return loaded;
  };
  accs = startAccumulators(kernel, b, kBegin, kernel.accType, rows, loadC);
  zeros.clear(); // (with kernel.init the masked loads' zeros are in a branch)
  auto loop = scf::ForOp::create(
      b, loc, kBegin, kEnd, kernel.index(1), accs,
      [&](OpBuilder &, Location l, Value k, ValueRange iterAccs) {
        // (The body builder is `b` itself, placed in the loop body.)
        // Operands are f32 here: 16-bit ones were packed (widened) first.
        Value bRow = load(bType, kernel.b, ValueRange{k, j0});
        SmallVector<Value> next;
        for (int64_t r = 0; r < rows; ++r) {
          SmallVector<Value, 2> aIndex{rowIndex[r], k};
          if (kernel.aKMajor)
            std::swap(aIndex[0], aIndex[1]);
          Value aElem = memref::LoadOp::create(b, l, kernel.a, aIndex);
          Value aSplat =
              vector::BroadcastOp::create(b, l, kernel.accType, aElem);
          next.push_back(vector::FMAOp::create(b, l, kernel.accType, aSplat,
                                               bRow, iterAccs[r]));
        }
        scf::YieldOp::create(b, l, next);
      });
  SmallVector<SmallVector<Value, 2>> at;
  for (int64_t r = 0; r < rows; ++r)
    at.push_back({rowIndex[r], j0});
  storeAccumulators(kernel, b, kEnd, SmallVector<Value>(loop.getResults()), at,
                    SmallVector<Value>(rows, mask));
}

/// The AVX512_BF16 micro-tile (kernel.dot): rows [i0, i0 + rows) and
/// columns [j0, j0 + cols) of C as rows x cols/16 accumulators of
/// vector<16xf32>; for each pair kk in [kBegin, kEnd) of k, every
/// accumulator adds the dot products of A's pair of its row (one 32-bit
/// pair broadcast to all 16 lanes) with the 16 pairs of B's packed row
/// kk for its columns (x86vector.avx512.dot, vdpbf16ps). With `mask`
/// (a vector<cols x i1>) only the enabled columns of C are read and
/// written; the packed B holds (unwritten) pairs for the others.
static void emitDotTile(Kernel &kernel, OpBuilder &b, Value i0, Value j0,
                        int64_t rows, Value mask, Value kBegin, Value kEnd) {
  constexpr int64_t kLanes = 16;
  Location loc = kernel.loc;
  int64_t chunks = kernel.cols / kLanes;
  auto accType = VectorType::get({kLanes}, b.getF32Type());
  auto pairsType = VectorType::get({2 * kLanes}, b.getBF16Type());
  auto pairType = VectorType::get({2}, b.getBF16Type());
  auto add = [&](Value x, int64_t y) -> Value {
    return y == 0 ? x : arith::AddIOp::create(b, loc, x, kernel.index(y));
  };
  auto twice = [&](Value x) -> Value {
    return arith::MulIOp::create(b, loc, x, kernel.index(2));
  };
  SmallVector<Value> rowIndex, colIndex, masks;
  for (int64_t r = 0; r < rows; ++r)
    rowIndex.push_back(add(i0, r));
  for (int64_t c = 0; c < chunks; ++c) {
    colIndex.push_back(add(j0, c * kLanes));
    if (mask)
      masks.push_back(vector::ExtractStridedSliceOp::create(
          b, loc, mask, ArrayRef<int64_t>{c * kLanes},
          ArrayRef<int64_t>{kLanes}, ArrayRef<int64_t>{1}));
  }
  auto loadC = [&] {
    SmallVector<Value> loaded;
    Value zero;
    if (mask)
      zero = arith::ConstantOp::create(
          b, loc, accType,
          DenseElementsAttr::get(accType, b.getZeroAttr(b.getF32Type())));
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = 0; c < chunks; ++c) {
        SmallVector<Value, 2> at{rowIndex[r], colIndex[c]};
        loaded.push_back(
            mask ? vector::MaskedLoadOp::create(b, loc, accType, kernel.c, at,
                                                masks[c], zero)
                       .getResult()
                 : vector::LoadOp::create(b, loc, accType, kernel.c, at)
                       .getResult());
      }
    return loaded;
  };
  SmallVector<Value> accs =
      startAccumulators(kernel, b, kBegin, accType, rows * chunks, loadC);
  // Element offsets of the packed rows: a pair is two elements.
  SmallVector<Value> bColumn, aColumn;
  for (int64_t c = 0; c < chunks; ++c)
    bColumn.push_back(twice(colIndex[c]));
  if (kernel.aKMajor)
    for (int64_t r = 0; r < rows; ++r)
      aColumn.push_back(twice(rowIndex[r]));
  auto loop = scf::ForOp::create(
      b, loc, kBegin, kEnd, kernel.index(1), accs,
      [&](OpBuilder &, Location l, Value kk, ValueRange iterAccs) {
        SmallVector<Value> bPairs;
        for (int64_t c = 0; c < chunks; ++c)
          bPairs.push_back(vector::LoadOp::create(b, l, pairsType, kernel.b,
                                                  ValueRange{kk, bColumn[c]}));
        Value kk2 = kernel.aKMajor ? Value() : twice(kk);
        SmallVector<Value> next;
        for (int64_t r = 0; r < rows; ++r) {
          SmallVector<Value, 2> at{rowIndex[r], kk2};
          if (kernel.aKMajor)
            at = {kk, aColumn[r]};
          Value pair = vector::LoadOp::create(b, l, pairType, kernel.a, at);
          Value word = vector::BitCastOp::create(
              b, l, VectorType::get({1}, b.getI32Type()), pair);
          Value scalar = vector::ExtractOp::create(b, l, word, 0);
          Value splat = vector::BroadcastOp::create(
              b, l, VectorType::get({kLanes}, b.getI32Type()), scalar);
          Value aPairs = vector::BitCastOp::create(b, l, pairsType, splat);
          for (int64_t c = 0; c < chunks; ++c)
            next.push_back(x86vector::DotBF16Op::create(
                b, l, accType, iterAccs[r * chunks + c], aPairs, bPairs[c]));
        }
        scf::YieldOp::create(b, l, next);
      });
  SmallVector<SmallVector<Value, 2>> at;
  SmallVector<Value> storeMasks;
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < chunks; ++c) {
      at.push_back({rowIndex[r], colIndex[c]});
      storeMasks.push_back(mask ? masks[c] : Value());
    }
  storeAccumulators(kernel, b, kEnd, SmallVector<Value>(loop.getResults()), at,
                    storeMasks);
}

/// The micro-tile of the kernel `kernel` is (emitTile or emitDotTile).
static void emitAnyTile(Kernel &kernel, OpBuilder &b, Value i0, Value j0,
                        int64_t rows, Value mask, Value kBegin, Value kEnd) {
  if (kernel.dot)
    emitDotTile(kernel, b, i0, j0, rows, mask, kBegin, kEnd);
  else
    emitTile(kernel, b, i0, j0, rows, mask, kBegin, kEnd);
}

/// All micro-tiles of the `rows` rows starting at `i0` and the columns
/// [j0, jEnd), for k in [kBegin, kEnd): full NR-wide tiles up to
/// `fullColsEnd`, then one masked tile for the `edgeCols` columns after it,
/// if any (`hasEdge` false: statically none).
static void emitRowPanel(Kernel &kernel, OpBuilder &b, Value i0, int64_t rows,
                         Value j0, Value fullColsEnd, Value edgeCols,
                         bool hasEdge, Value kBegin, Value kEnd) {
  Location loc = kernel.loc;
  scf::ForOp::create(
      b, loc, j0, fullColsEnd, kernel.index(kernel.cols), ValueRange{},
      [&](OpBuilder &, Location, Value j, ValueRange) {
        emitAnyTile(kernel, b, i0, j, rows, Value(), kBegin, kEnd);
        scf::YieldOp::create(b, loc);
      });
  if (!hasEdge)
    return;
  Value any = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, edgeCols,
                                    kernel.index(0));
  auto ifOp = scf::IfOp::create(b, loc, any, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifOp.thenBlock());
  auto maskType = VectorType::get({kernel.cols}, b.getI1Type());
  Value mask =
      vector::CreateMaskOp::create(b, loc, maskType, ValueRange{edgeCols});
  emitAnyTile(kernel, b, i0, fullColsEnd, rows, mask, kBegin, kEnd);
}

/// The block of C with rows [i0, iEnd) and columns [j0, jEnd): for each
/// depth slice [kc, kc + KC) of k, in increasing order, the row panels of
/// MR rows, then the rows left (`hasRowRest`: one panel of them, or panels
/// of 4, 2 and 1 rows when their number is dynamic), each over all column
/// tiles of the block.
static void emitBlock(Kernel &kernel, const KernelShape &shape, OpBuilder &b,
                      Value i0, Value iEnd, Value j0, Value jEnd,
                      bool hasRowRest, bool hasEdge) {
  Location loc = kernel.loc;
  auto sub = [&](Value x, Value y) {
    return b.createOrFold<arith::SubIOp>(loc, x, y);
  };
  auto rem = [&](Value x, int64_t y) {
    return b.createOrFold<arith::RemUIOp>(loc, x, kernel.index(y));
  };
  Value rowRest = rem(sub(iEnd, i0), shape.rows);
  Value fullRowsEnd = sub(iEnd, rowRest);
  Value edgeCols = rem(sub(jEnd, j0), shape.cols);
  Value fullColsEnd = sub(jEnd, edgeCols);
  scf::ForOp::create(
      b, loc, kernel.index(0), kernel.k, kernel.index(shape.depth),
      ValueRange{}, [&](OpBuilder &, Location, Value kc, ValueRange) {
        Value kEnd = b.createOrFold<arith::MinUIOp>(
            loc,
            b.createOrFold<arith::AddIOp>(loc, kc, kernel.index(shape.depth)),
            kernel.k);
        auto panels = [&](Value from, Value to, int64_t rows) {
          scf::ForOp::create(b, loc, from, to, kernel.index(rows), ValueRange{},
                             [&](OpBuilder &, Location, Value i, ValueRange) {
                               emitRowPanel(kernel, b, i, rows, j0, fullColsEnd,
                                            edgeCols, hasEdge, kc, kEnd);
                               scf::YieldOp::create(b, loc);
                             });
        };
        panels(i0, fullRowsEnd, shape.rows);
        if (hasRowRest) {
          // The rows left as one panel when their number is known, else as
          // panels of 4, 2 and 1 rows (its binary digits): a panel of one
          // row has only NR / 16 accumulators, too few to hide the latency
          // of an FMA or vdpbf16ps (the 4 rows left of M = 16 took as long
          // as the other 12 in the CNN's weight gradients). Each element of
          // C adds its products in the same order whatever the panel.
          if (std::optional<int64_t> rest = getConstantIntValue(rowRest)) {
            if (*rest > 0)
              panels(fullRowsEnd, iEnd, *rest);
          } else {
            Value from = fullRowsEnd;
            for (int64_t rows = static_cast<int64_t>(
                     llvm::bit_floor(static_cast<uint64_t>(shape.rows - 1)));
                 rows >= 1; rows /= 2) {
              Value to = rows == 1 ? iEnd
                                   : b.createOrFold<arith::AddIOp>(
                                         loc, from,
                                         b.createOrFold<arith::AndIOp>(
                                             loc, rowRest, kernel.index(rows)));
              panels(from, to, rows);
              from = to;
            }
          }
        }
        scf::YieldOp::create(b, loc);
      });
}

namespace {
/// What one use does to a buffer, for the checks below.
enum class UseKind { Read, Free, Write, Other };
} // namespace

/// A read (a load, a linalg input, a copy's source), a free, a write (a
/// linalg init, a store into it, a copy's target) or anything else (a
/// view, a select, a call, a branch or yield that passes the buffer on,
/// storing the buffer itself): a use that could give the buffer a second
/// name, written unseen.
static UseKind classifyUse(OpOperand &use) {
  Operation *user = use.getOwner();
  Value buffer = use.get();
  if (isa<memref::LoadOp, memref::DimOp, vector::LoadOp, vector::MaskedLoadOp>(
          user))
    return UseKind::Read;
  if (isa<memref::DeallocOp>(user))
    return UseKind::Free;
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(user))
    return linalgOp.isDpsInit(&use) ? UseKind::Write : UseKind::Read;
  if (auto copy = dyn_cast<memref::CopyOp>(user))
    return copy.getTarget() == buffer ? UseKind::Write : UseKind::Read;
  if (auto store = dyn_cast<memref::StoreOp>(user))
    return store.getValueToStore() == buffer ? UseKind::Other : UseKind::Write;
  if (isa<vector::StoreOp, vector::MaskedStoreOp>(user))
    return UseKind::Write;
  return UseKind::Other;
}

/// Whether an op within [from, to] (ops of one block, `from` first, and
/// everything nested in them) may write memory that could be a function
/// argument under another name: a call, an op with unknown effects, or a
/// write or free whose target is not, through views, an allocation or an
/// argument itself (arguments do not alias each other; a `memref.get_global`
/// or a call's result may be any argument's memory).
static bool mayWriteAnArgumentUnseen(Operation *from, Operation *to) {
  auto rootIsKnown = [](Value v) {
    v = viewRoot(v);
    return isFunctionArgument(v) ||
           isa_and_nonnull<memref::AllocOp, memref::AllocaOp>(
               v.getDefiningOp());
  };
  for (Operation *op = from;; op = op->getNextNode()) {
    WalkResult result = op->walk([&](Operation *inner) {
      if (isa<CallOpInterface>(inner))
        return WalkResult::interrupt();
      auto effects = dyn_cast<MemoryEffectOpInterface>(inner);
      if (!effects)
        return inner->hasTrait<OpTrait::HasRecursiveMemoryEffects>()
                   ? WalkResult::advance()
                   : WalkResult::interrupt();
      SmallVector<MemoryEffects::EffectInstance> instances;
      effects.getEffects(instances);
      for (const MemoryEffects::EffectInstance &e : instances)
        if (isa<MemoryEffects::Write, MemoryEffects::Free>(e.getEffect()) &&
            (!e.getValue() || !rootIsKnown(e.getValue())))
          return WalkResult::interrupt();
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      return true;
    if (op == to)
      return false;
  }
}

/// Whether `buffer`, or the buffer it is a view of (followed through
/// view ops), is a whole allocation or an argument of the function
/// (out-parameters never alias arguments; for an argument, nothing in
/// [from, to] may write memory unseen: mayWriteAnArgumentUnseen) whose
/// every use, direct or through views of it, classifyUse sees through, and
/// none of the uses for which `counts` holds lies, through its ancestor in
/// the block of `from`, within [from, to] (ops of one block, `from` first).
static bool noUseWithin(Value buffer, Operation *from, Operation *to,
                        llvm::function_ref<bool(OpOperand &, UseKind)> counts) {
  // A view (the expand_shape a contraction reads its operand through)
  // stands for its whole buffer: every use of the buffer and of its views
  // is looked at below, which covers the view's.
  buffer = viewRoot(buffer);
  if (!isFunctionArgument(buffer) && !buffer.getDefiningOp<memref::AllocOp>())
    return false;
  // An argument's memory may also be reached without its uses (a global
  // passed in, written by a call or through memref.get_global).
  if (isFunctionArgument(buffer) && mayWriteAnArgumentUnseen(from, to))
    return false;
  Block *block = from->getBlock();
  // The buffer's uses and, through views of it (a collapse_shape, a
  // subview), theirs: a view only names memory, its uses touch it.
  return !anyUseThroughViews(buffer, [&](OpOperand &use) {
    UseKind kind = classifyUse(use);
    if (kind == UseKind::Other)
      return true;
    if (!counts(use, kind))
      return false;
    Operation *at = block->findAncestorOpInBlock(*use.getOwner());
    return !at || (!at->isBeforeInBlock(from) && !to->isBeforeInBlock(at));
  });
}

/// Whether nothing can write `buffer` between `from` and `to` (ops of one
/// block, `from` first): noUseWithin for its writes, and with `orFreed`
/// its frees.
static bool isUnchangedBetween(Value buffer, Operation *from, Operation *to,
                               bool orFreed = false) {
  return noUseWithin(buffer, from, to, [&](OpOperand &, UseKind kind) {
    return kind == UseKind::Write || (orFreed && kind == UseKind::Free);
  });
}

/// The last op before `op` in its block that writes all of `buffer` with
/// one value: a `linalg.fill` of it or a `memref.copy` into it from
/// another buffer. Null if none.
static Operation *lastWholeWriteBefore(Value buffer, Operation *op) {
  Operation *last = nullptr;
  for (OpOperand &use : buffer.getUses()) {
    Operation *user = use.getOwner();
    if (user->getBlock() != op->getBlock() || !user->isBeforeInBlock(op))
      continue;
    auto fill = dyn_cast<linalg::FillOp>(user);
    auto copy = dyn_cast<memref::CopyOp>(user);
    bool whole =
        (fill && fill.getDpsInits()[0] == buffer) ||
        (copy && copy.getTarget() == buffer && copy.getSource() != buffer);
    if (whole && (!last || last->isBeforeInBlock(user)))
      last = user;
  }
  return last;
}

namespace {
/// C as one batch of a whole buffer: CPUSplitBatchContractions' loop over
/// a batched contraction's batches, `for b in [0, B) { C = whole[b]; ... }`.
struct BatchSlice {
  Value whole;
  /// The expand_shape of `whole` that `slice` reads, or null (it reads
  /// `whole`).
  memref::ExpandShapeOp expand;
  memref::SubViewOp slice;
  /// The collapse_shapes from `slice` to C, in order.
  SmallVector<memref::CollapseShapeOp> reshapes;
  scf::ForOp loop;
};
} // namespace

/// C as the batch slice of a whole allocation that the loop around the
/// contraction `op` walks, each element of `whole` in exactly one
/// iteration's C: `op` in an scf.for from 0 to whole's first dimension by
/// 1 (no results), C = subview whole[iv, 0, ...] [1, all...] [1, ...]
/// rank-reduced (of `whole` or of an expand_shape of it that keeps its
/// first dimension alone; C may be collapse_shapes of that slice: a
/// convolution's per-image GEMM), `whole` a static identity-layout
/// allocation of the loop's block, and no use of `whole` in the loop but
/// `op`'s of C. Then whatever holds for all of `whole` around the loop
/// holds for each C around `op`. Null if C is not such a slice.
static std::optional<BatchSlice> findBatchSlice(Value c, Operation *op) {
  auto loop = dyn_cast_or_null<scf::ForOp>(op->getParentOp());
  if (!loop || loop.getNumResults())
    return std::nullopt;
  SmallVector<memref::CollapseShapeOp> reshapes;
  Value view = c;
  while (auto collapse = view.getDefiningOp<memref::CollapseShapeOp>()) {
    if (collapse->getBlock() != op->getBlock())
      return std::nullopt;
    reshapes.insert(reshapes.begin(), collapse);
    view = collapse.getSrc();
  }
  auto slice = view.getDefiningOp<memref::SubViewOp>();
  if (!slice || slice->getBlock() != op->getBlock())
    return std::nullopt;
  Value sliced = slice.getSource();
  auto expand = sliced.getDefiningOp<memref::ExpandShapeOp>();
  if (expand &&
      (expand.getReassociationIndices().front() != ReassociationIndices{0} ||
       !(expand->getBlock() == op->getBlock() ||
         (expand->getBlock() == loop->getBlock() &&
          expand->isBeforeInBlock(loop)))))
    return std::nullopt;
  Value whole = expand ? expand.getSrc() : sliced;
  auto wholeType = cast<MemRefType>(whole.getType());
  auto slicedType = cast<MemRefType>(sliced.getType());
  auto alloc = whole.getDefiningOp<memref::AllocOp>();
  if (!alloc || alloc->getBlock() != loop->getBlock() ||
      !wholeType.hasStaticShape() || !wholeType.getLayout().isIdentity() ||
      !slicedType.hasStaticShape() ||
      slice.getType().getRank() + 1 != slicedType.getRank())
    return std::nullopt;
  // The loop: [0, whole's first dimension) by 1.
  Value upper = loop.getUpperBound();
  std::optional<int64_t> upperConstant = getConstantIntValue(upper);
  auto dim = upper.getDefiningOp<memref::DimOp>();
  std::optional<int64_t> dimIndex =
      dim ? getConstantIntValue(dim.getIndex()) : std::nullopt;
  bool dimOfWhole = dim &&
                    (dim.getSource() == whole || dim.getSource() == sliced) &&
                    dimIndex && *dimIndex == 0;
  if (!isConstantIntValue(loop.getLowerBound(), 0) ||
      !isConstantIntValue(loop.getStep(), 1) ||
      !(upperConstant ? *upperConstant == wholeType.getDimSize(0) : dimOfWhole))
    return std::nullopt;
  // The slice: [iv, 0, ...] [1, all...] [1, ...].
  SmallVector<OpFoldResult> offsets = slice.getMixedOffsets(),
                            sizes = slice.getMixedSizes(),
                            strides = slice.getMixedStrides();
  for (int64_t d = 0; d < slicedType.getRank(); ++d) {
    bool offsetOk = d == 0 ? (isa<Value>(offsets[d]) &&
                              cast<Value>(offsets[d]) == loop.getInductionVar())
                           : isConstantIntValue(offsets[d], 0);
    if (!offsetOk ||
        !isConstantIntValue(sizes[d], d == 0 ? 1 : slicedType.getDimSize(d)) ||
        !isConstantIntValue(strides[d], 1))
      return std::nullopt;
  }
  // Nothing else in the loop uses `whole`.
  if (anyUseThroughViews(whole, [&](OpOperand &use) {
        return loop->isAncestor(use.getOwner()) && use.getOwner() != op;
      }))
    return std::nullopt;
  return BatchSlice{whole, expand, slice, std::move(reshapes), loop};
}

/// The views of a batch slice from C back to the whole buffer, for the
/// dead-view sweep at the end of the pass (each erased once unused, C's
/// first).
static void insertBatchViews(const BatchSlice &batch, Value c,
                             llvm::SetVector<Value> &maybeDead) {
  maybeDead.insert(c);
  for (memref::CollapseShapeOp reshape : llvm::reverse(batch.reshapes))
    maybeDead.insert(reshape.getSrc());
  if (memref::ExpandShapeOp expand = batch.expand)
    maybeDead.insert(expand.getResult());
}

namespace {
/// C's elements all hold `value` when the contraction starts, put there by
/// `writer` (a fill of C, or a copy into C from a buffer so filled) and
/// read by nothing else.
struct ConstantInit {
  Value value;
  Operation *writer = nullptr;
};
} // namespace

/// C's constant initial value, if the kernel can start its accumulators
/// from it instead of loading C and `writer` can go: the beta = 0 case of
/// a BLAS gemm. On a bufferized step every contraction's init is a zero
/// fill, and where CSE merged the fills of two contractions bufferization
/// copies the shared zeros into each: a memset and a memcpy of C per
/// contraction. Requires `writer` the last whole write of C before `op`
/// (lastWholeWriteBefore), no use of C between them, and for a copy a fill
/// of its source that nothing overwrites before the copy.
static ConstantInit findConstantInit(Value c, Operation *op) {
  Operation *writer = lastWholeWriteBefore(c, op);
  if (!writer || !noUseWithin(c, writer, op, [&](OpOperand &use, UseKind) {
        // (A memref.dim reads the shape, not the elements.)
        return use.getOwner() != writer && !op->isAncestor(use.getOwner()) &&
               !isa<memref::DimOp>(use.getOwner());
      }))
    return {};
  Operation *fill = writer;
  if (auto copy = dyn_cast<memref::CopyOp>(writer)) {
    Value src = copy.getSource();
    fill = lastWholeWriteBefore(src, copy);
    if (!fill ||
        !noUseWithin(src, fill, copy, [&](OpOperand &use, UseKind kind) {
          return kind == UseKind::Write && use.getOwner() != fill;
        }))
      return {};
  }
  auto fillOp = dyn_cast<linalg::FillOp>(fill);
  if (!fillOp)
    return {};
  Value value = fillOp.getDpsInputs()[0];
  if (value.getType() != cast<MemRefType>(c.getType()).getElementType())
    return {};
  return {value, writer};
}

namespace {
/// C's rounding to 16 bits that the kernel can do in its last store:
/// `castOp` rounds all of C (or a reshaped view of all of it) into `out`.
struct Narrowing {
  linalg::GenericOp castOp;
  Value out;
};
} // namespace

/// Whether `g` rounds all of `src` to f16 or bf16 (isRoundingCast) into a
/// fresh, statically shaped, identity-layout allocation of its block with
/// `src`'s shape.
static bool isNarrowingOf(linalg::GenericOp g, Value src) {
  if (!isRoundingCast(g) || g.getDpsInputs()[0] != src)
    return false;
  Value out = g.getDpsInits()[0];
  auto alloc = out.getDefiningOp<memref::AllocOp>();
  auto outType = cast<MemRefType>(out.getType());
  return alloc && alloc->getBlock() == g->getBlock() &&
         outType.hasStaticShape() && outType.getLayout().isIdentity() &&
         outType.getShape() == cast<MemRefType>(src.getType()).getShape() &&
         (outType.getElementType().isF16() ||
          outType.getElementType().isBF16());
}

/// The cast that rounds C after the contraction `op` (C here a whole
/// allocation, or the `whole` of a batch slice, findBatchSlice, with `op`
/// its loop), if the kernel can round in its last store instead (the cast
/// and, unless k spans several depth slices, C itself go): on a 16-bit
/// step every contraction's f32 accumulator is rounded so, a pass over
/// memory per contraction. Requires C a static, identity-layout allocation
/// of `op`'s block that nothing but `op` uses, directly or through views,
/// between `op` and the cast, nor reads after it (C dies there); the
/// cast's input C or a collapse/expand_shape of it; its output
/// (isNarrowingOf) used only after the cast. Null if none.
static Narrowing findNarrowing(Value c, Operation *op) {
  auto cType = cast<MemRefType>(c.getType());
  auto cAlloc = c.getDefiningOp<memref::AllocOp>();
  Block *block = op->getBlock();
  if (!cAlloc || cAlloc->getBlock() != block || !cType.hasStaticShape() ||
      !cType.getLayout().isIdentity())
    return {};
  linalg::GenericOp castOp;
  SmallVector<Value> names{c};
  for (Operation *user : c.getUsers())
    if (isa<memref::CollapseShapeOp, memref::ExpandShapeOp>(user))
      names.push_back(user->getResult(0));
  for (Value name : names)
    for (Operation *user : name.getUsers()) {
      auto g = dyn_cast<linalg::GenericOp>(user);
      if (g && g->getBlock() == block && op->isBeforeInBlock(g) &&
          isNarrowingOf(g, name) && (!castOp || g->isBeforeInBlock(castOp)))
        castOp = g;
    }
  if (!castOp)
    return {};
  Value out = castOp.getDpsInits()[0];
  auto others = [&](OpOperand &use, UseKind) {
    return !op->isAncestor(use.getOwner()) && use.getOwner() != castOp;
  };
  if (!noUseWithin(c, op, castOp, others))
    return {};
  // C is dead after the cast, and `out` is not used before it.
  bool cReadAfter = anyUseThroughViews(c, [&](OpOperand &use) {
    Operation *at = block->findAncestorOpInBlock(*use.getOwner());
    return !at ||
           (castOp->isBeforeInBlock(at) && classifyUse(use) != UseKind::Free);
  });
  bool outUsedBefore = anyUseThroughViews(out, [&](OpOperand &use) {
    Operation *at = block->findAncestorOpInBlock(*use.getOwner());
    return !at || (at != castOp && !castOp->isBeforeInBlock(at));
  });
  if (cReadAfter || outUsedBefore)
    return {};
  return {castOp, out};
}

/// An op before `point` in its block that already widens all of `src` into
/// a buffer of its shape with the identity layout and element `elem` (an
/// all-parallel generic whose body is one arith.extf), where neither
/// buffer can change between that op and `point`: its output is the
/// contraction's pack as it is. On a 16-bit step, the output gradient of a
/// layer is widened so for the bias gradient's sum. Null if none.
static Value findWidening(Value src, Type elem, Operation *point) {
  auto srcType = cast<MemRefType>(src.getType());
  for (Operation *user : src.getUsers()) {
    auto g = dyn_cast<linalg::GenericOp>(user);
    if (!g || g->getBlock() != point->getBlock() ||
        !g->isBeforeInBlock(point) || g.getNumDpsInputs() != 1 ||
        g.getNumDpsInits() != 1 || g.getDpsInputs()[0] != src ||
        g.getNumReductionLoops() ||
        !llvm::all_of(g.getIndexingMapsArray(),
                      [](AffineMap m) { return m.isIdentity(); }))
      continue;
    Value out = g.getDpsInits()[0];
    auto outType = dyn_cast<MemRefType>(out.getType());
    Block *body = g.getBody();
    auto yield = cast<linalg::YieldOp>(body->getTerminator());
    auto ext = yield.getValues()[0].getDefiningOp<arith::ExtFOp>();
    if (!outType || outType.getShape() != srcType.getShape() ||
        outType.getElementType() != elem || !outType.getLayout().isIdentity() ||
        !ext || &body->front() != ext.getOperation() ||
        ext.getIn() != body->getArgument(0) ||
        !isUnchangedBetween(src, g, point) ||
        !isUnchangedBetween(out, g->getNextNode(), point, /*orFreed=*/true))
      continue;
    return out;
  }
  return {};
}

/// `v` followed up through memref.expand_shape and collapse_shape (views
/// that keep an identity-layout buffer's element order) to the buffer they
/// reshape.
static Value reshapeRoot(Value v) {
  while (Operation *def = v.getDefiningOp()) {
    if (!isa<memref::ExpandShapeOp, memref::CollapseShapeOp>(def))
      break;
    v = def->getOperand(0);
  }
  return v;
}

/// The reassociation that groups all `rank` dimensions into one.
static SmallVector<ReassociationIndices> allDimsInOne(int64_t rank) {
  return {llvm::to_vector(llvm::seq<int64_t>(0, rank))};
}

/// `buffer` (static shape, identity layout) viewed with `like`'s shape:
/// collapsed to one dimension, then expanded.
static Value reshapeLike(OpBuilder &b, Location loc, Value buffer,
                         MemRefType like) {
  auto type = cast<MemRefType>(buffer.getType());
  if (type.getShape() == like.getShape())
    return buffer;
  Value flat = buffer;
  if (type.getRank() != 1)
    flat = memref::CollapseShapeOp::create(b, loc, buffer,
                                           allDimsInOne(type.getRank()));
  if (like.getRank() == 1)
    return flat;
  return memref::ExpandShapeOp::create(
      b, loc, MemRefType::get(like.getShape(), type.getElementType()), flat,
      allDimsInOne(like.getRank()));
}

/// Ops with memory effects between a kernel that writes a 16-bit operand
/// and the contraction that reads it, or between a shared pack's last
/// reader and its next one, beyond which the contraction makes a pack of
/// its own: the f32 copy would live across them, and the arena's peak
/// grows (see the pass description; widenInWriter's limit is the pass's
/// `writer-distance`).
constexpr int64_t kMaxOpsBetweenWriterAndReader = 3;

/// Whether more than `limit` ops with memory effects (views, allocations
/// and frees aside) lie strictly between `from` and `to` (ops of one
/// block, `from` first); always with a negative `limit`.
static bool tooFarApart(Operation *from, Operation *to,
                        int64_t limit = kMaxOpsBetweenWriterAndReader) {
  if (limit < 0)
    return true;
  int64_t between = 0;
  for (Operation *op = from->getNextNode(); op && op != to;
       op = op->getNextNode())
    if (!isMemoryEffectFree(op) && !isa<ViewLikeOpInterface>(op) &&
        !isa<memref::AllocOp, memref::DeallocOp>(op) && ++between > limit)
      return true;
  return false;
}

/// The allocation that `src` (a contraction operand to be widened to
/// `elem`) reshapes, when both have static shapes and identity layouts and
/// its elements are floats narrower than `elem`; null otherwise.
static Value narrowAllocationOf(Value src, Type elem) {
  auto srcType = cast<MemRefType>(src.getType());
  Value root = reshapeRoot(src);
  auto rootType = cast<MemRefType>(root.getType());
  if (!srcType.hasStaticShape() || !srcType.getLayout().isIdentity() ||
      !root.getDefiningOp<memref::AllocOp>() || !rootType.hasStaticShape() ||
      !rootType.getLayout().isIdentity() ||
      !isa<FloatType>(rootType.getElementType()) ||
      rootType.getElementTypeBitWidth() >= elem.getIntOrFloatBitWidth())
    return {};
  return root;
}

/// The op of `point`'s block that writes `buffer` (directly or through
/// views) last before `point`; null if none, or if a use of the buffer is
/// not one classifyUse sees through or lies outside the block.
static Operation *lastWriterBefore(Value buffer, Operation *point) {
  Block *block = point->getBlock();
  Operation *last = nullptr;
  bool unknown = anyUseThroughViews(buffer, [&](OpOperand &use) {
    UseKind kind = classifyUse(use);
    if (kind == UseKind::Other)
      return true;
    Operation *at = block->findAncestorOpInBlock(*use.getOwner());
    if (!at)
      return true;
    if (kind == UseKind::Write && at->isBeforeInBlock(point) &&
        (!last || last->isBeforeInBlock(at)))
      last = at;
    return false;
  });
  return unknown ? nullptr : last;
}

/// The contraction operand `src` (16-bit, static shape, identity layout, a
/// reshape of an allocation) widened to `elem` by the op that writes it:
/// when the last write of `src`'s buffer before `point` is an all-parallel
/// generic that writes all of it through an identity map (a ReLU, a
/// residual add, a broadcast, a rounding cast whose f32 source is not an
/// argument), that generic is rebuilt with one more output, `arith.extf` of
/// the value it stores, into a new f32 buffer: the pack, made in the same
/// pass instead of a pass of its own that reads the 16-bit values back
/// (the same bits: extf of the stored value is what the pack's copy
/// computes). Requires nothing to write the buffer between the generic and
/// `point`, and at most `distance` ops with memory effects between them
/// (tooFarApart). Null otherwise; the caller frees the result's buffer
/// (reshapeRoot).
static Value widenInWriter(Value src, Type elem, Operation *point,
                           int64_t distance,
                           const llvm::SetVector<Operation *> &castsFolded,
                           llvm::SetVector<Operation *> &rebuiltWriters) {
  auto srcType = cast<MemRefType>(src.getType());
  Value root = narrowAllocationOf(src, elem);
  if (!root)
    return {};
  auto rootType = cast<MemRefType>(root.getType());
  auto writer =
      dyn_cast_or_null<linalg::GenericOp>(lastWriterBefore(root, point));
  if (!writer || castsFolded.contains(writer) ||
      writer.getNumReductionLoops() ||
      !isUnchangedBetween(root, writer->getNextNode(), point))
    return {};
  if (tooFarApart(writer, point, distance))
    return {};
  // The one init that is (a reshape of) the buffer, written whole.
  std::optional<unsigned> which;
  for (OpOperand &init : writer.getDpsInitsMutable()) {
    if (reshapeRoot(init.get()) != root)
      continue;
    auto initType = cast<MemRefType>(init.get().getType());
    if (which || !writer.getMatchingIndexingMap(&init).isIdentity() ||
        !initType.hasStaticShape() || !initType.getLayout().isIdentity() ||
        initType.getNumElements() != rootType.getNumElements())
      return {};
    which = init.getOperandNumber() - writer.getNumDpsInputs();
  }
  if (!which)
    return {};
  Location loc = writer.getLoc();
  OpBuilder b(writer);
  auto initType = cast<MemRefType>(writer.getDpsInits()[*which].getType());
  Value packed = memref::AllocOp::create(
      b, loc, MemRefType::get(initType.getShape(), elem), ValueRange{},
      b.getI64IntegerAttr(64));
  SmallVector<Value> inits(writer.getDpsInits());
  inits.push_back(packed);
  SmallVector<AffineMap> maps = writer.getIndexingMapsArray();
  maps.push_back(maps[writer.getNumDpsInputs() + *which]);
  auto rebuilt =
      linalg::GenericOp::create(b, loc, TypeRange{}, writer.getDpsInputs(),
                                inits, maps, writer.getIteratorTypesArray());
  rebuilt->setDiscardableAttrs(writer->getDiscardableAttrDictionary());
  rebuilt.getRegion().takeBody(writer.getRegion());
  Block *body = rebuilt.getBody();
  body->addArgument(elem, loc);
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  OpBuilder yb(yield);
  SmallVector<Value> values(yield.getValues());
  values.push_back(arith::ExtFOp::create(yb, loc, elem, values[*which]));
  yield->setOperands(values);
  rebuiltWriters.remove(writer);
  rebuiltWriters.insert(rebuilt);
  writer.erase();
  b.setInsertionPointAfter(rebuilt);
  return reshapeLike(b, loc, packed, cast<MemRefType>(srcType.clone(elem)));
}

/// Erases the allocation `root`, the views derived from it and the other
/// ops that use them (its free; the callers have checked that nothing else
/// does), users before what they use.
static void eraseWithViews(Value root) {
  llvm::SetVector<Operation *> users;
  SmallVector<Value> worklist{root};
  while (!worklist.empty())
    for (Operation *user : worklist.pop_back_val().getUsers()) {
      if (!users.insert(user))
        continue;
      if (isa<ViewLikeOpInterface>(user))
        worklist.push_back(user->getResult(0));
    }
  for (Operation *user : llvm::reverse(users))
    user->erase();
  root.getDefiningOp()->erase();
}

/// Removes the outputs of `g` (an all-parallel generic, widenInWriter's)
/// whose allocation nothing but `g` and its free use, directly or through
/// views: `g` is rebuilt without them, and the allocation, its views and
/// its free go.
static void dropUnreadOutputs(linalg::GenericOp g) {
  SmallVector<unsigned> dead; // init positions
  for (OpOperand &init : g.getDpsInitsMutable()) {
    Value root = reshapeRoot(init.get());
    if (!root.getDefiningOp<memref::AllocOp>() ||
        !g.getMatchingBlockArgument(&init).use_empty() ||
        anyUseThroughViews(root, [&](OpOperand &use) {
          return use.getOwner() != g.getOperation() &&
                 !isa<memref::DeallocOp>(use.getOwner());
        }))
      continue;
    dead.push_back(init.getOperandNumber() - g.getNumDpsInputs());
  }
  if (dead.empty() || static_cast<int64_t>(dead.size()) == g.getNumDpsInits())
    return;
  SmallVector<Value> inits;
  llvm::SetVector<Value> roots;
  SmallVector<AffineMap> maps(g.getIndexingMapsArray());
  unsigned numInputs = g.getNumDpsInputs();
  for (unsigned i = 0, e = g.getNumDpsInits(); i < e; ++i) {
    if (llvm::is_contained(dead, i))
      roots.insert(reshapeRoot(g.getDpsInits()[i]));
    else
      inits.push_back(g.getDpsInits()[i]);
  }
  for (unsigned i : llvm::reverse(dead))
    maps.erase(maps.begin() + numInputs + i);
  OpBuilder b(g);
  auto rebuilt =
      linalg::GenericOp::create(b, g.getLoc(), TypeRange{}, g.getDpsInputs(),
                                inits, maps, g.getIteratorTypesArray());
  rebuilt->setDiscardableAttrs(g->getDiscardableAttrDictionary());
  rebuilt.getRegion().takeBody(g.getRegion());
  Block *body = rebuilt.getBody();
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  SmallVector<Value> values;
  for (auto [i, v] : llvm::enumerate(yield.getValues()))
    if (!llvm::is_contained(dead, i))
      values.push_back(v);
  yield->setOperands(values);
  for (unsigned i : llvm::reverse(dead))
    body->eraseArgument(numInputs + i);
  g.erase();
  for (Value root : roots)
    eraseWithViews(root);
}

namespace {
/// The packed copies made so far in one function. A contraction that
/// would pack the same buffer the same way (layout, element type,
/// rounding) as an earlier one in its block reads the earlier copy instead,
/// when nothing can have written the buffer in between
/// (isUnchangedBetween); the copy is then freed after its last reader. On the
/// MLP's f16 step this shares the widened input, activations and output
/// gradients between the forward contraction and the weight gradient's (A is
/// packed in its own layout in both), and between the weight gradient and the
/// input gradient.
struct PackCache {
  using Key = std::tuple<Block *, Value, unsigned, Type, Type>;
  struct Entry {
    Value packed;
    memref::DeallocOp dealloc;
  };
  llvm::DenseMap<Key, Entry> packs;
  /// The kernels' rounding stores (Kernel::narrowStores) per buffer they
  /// round into (its allocation, reshapeRoot), for widenInKernel.
  llvm::DenseMap<Value, SmallVector<Operation *>> narrowed;
};
} // namespace

/// Erases `stores` (a kernel's rounding stores, Kernel::narrowStores)
/// and the allocation `root` they store into, with its views and free,
/// when nothing else uses it.
static void dropUnreadRoundedStores(Value root, ArrayRef<Operation *> stores) {
  llvm::SmallPtrSet<Operation *, 16> storeSet(stores.begin(), stores.end());
  if (!root.getDefiningOp<memref::AllocOp>() ||
      anyUseThroughViews(root, [&](OpOperand &use) {
        return !storeSet.contains(use.getOwner()) &&
               !isa<memref::DeallocOp>(use.getOwner());
      }))
    return;
  for (Operation *store : stores)
    store->erase();
  eraseWithViews(root);
}

/// The contraction operand `src` (16-bit, static shape, identity layout, a
/// reshape of an allocation) widened to `elem` by the micro-kernel that
/// wrote it: when the last write of `src`'s buffer before `point` is a
/// kernel of this pass that rounded its accumulators into it
/// (`narrowStores`, a contraction whose f16/bf16 result another
/// contraction reads, as the attention's input projections read the
/// previous layer's), each of those stores is followed by a store of the
/// rounded value widened (`arith.extf`) into a new f32 buffer of the same
/// shape, through the same views: the pack, made by the kernel instead of
/// a pass that reads the 16-bit values back (the same bits). Requires
/// nothing to write the buffer between the kernel and `point`, and at most
/// kMaxOpsBetweenWriterAndReader ops with memory effects between them. Null
/// otherwise; the caller frees the result's buffer (reshapeRoot).
static Value widenInKernel(Value src, Type elem, Operation *point,
                           ArrayRef<Operation *> narrowStores) {
  auto srcType = cast<MemRefType>(src.getType());
  Value root = narrowAllocationOf(src, elem);
  if (!root || narrowStores.empty())
    return {};
  auto rootType = cast<MemRefType>(root.getType());
  Block *block = point->getBlock();
  Operation *kernel = block->findAncestorOpInBlock(*narrowStores.front());
  if (!kernel || !kernel->isBeforeInBlock(point) ||
      !llvm::all_of(narrowStores, [&](Operation *store) {
        return block->findAncestorOpInBlock(*store) == kernel;
      }))
    return {};
  // The kernel, which writes all of the buffer, is its last writer before
  // `point`.
  if (lastWriterBefore(root, point) != kernel ||
      !isUnchangedBetween(root, kernel->getNextNode(), point))
    return {};
  if (tooFarApart(kernel, point))
    return {};
  // The views from the buffer to each store's memref: all of them
  // reshapes or subviews, replayed on the f32 buffer.
  SmallVector<Operation *> views;
  for (Operation *store : narrowStores) {
    Value m;
    if (auto st = dyn_cast<vector::StoreOp>(store))
      m = st.getBase();
    else
      m = cast<vector::MaskedStoreOp>(store).getBase();
    while (m != root) {
      Operation *def = m.getDefiningOp();
      if (!isa_and_nonnull<memref::ExpandShapeOp, memref::CollapseShapeOp,
                           memref::SubViewOp>(def))
        return {};
      views.push_back(def);
      m = def->getOperand(0);
    }
  }
  // The f32 buffer, before the first of those views and the kernel.
  Operation *first = kernel;
  for (Operation *view : views)
    if (Operation *at = block->findAncestorOpInBlock(*view);
        at && at->isBeforeInBlock(first))
      first = at;
  OpBuilder b(first);
  Location loc = kernel->getLoc();
  Value wide = memref::AllocOp::create(
      b, loc, MemRefType::get(rootType.getShape(), elem), ValueRange{},
      b.getI64IntegerAttr(64));
  llvm::DenseMap<Value, Value> mapped{{root, wide}};
  std::function<Value(Value)> mapView = [&](Value m) -> Value {
    if (Value known = mapped.lookup(m))
      return known;
    Operation *def = m.getDefiningOp();
    Value source = mapView(def->getOperand(0));
    OpBuilder vb(def->getContext());
    vb.setInsertionPointAfter(def);
    Operation *clone = vb.clone(*def);
    clone->setOperand(0, source);
    auto type = cast<MemRefType>(m.getType());
    clone->getResult(0).setType(MemRefType::get(
        type.getShape(), elem, type.getLayout(), type.getMemorySpace()));
    return mapped[m] = clone->getResult(0);
  };
  for (Operation *store : narrowStores) {
    OpBuilder sb(store->getContext());
    sb.setInsertionPointAfter(store);
    if (auto st = dyn_cast<vector::StoreOp>(store)) {
      Value v = st.getValueToStore();
      Value w = arith::ExtFOp::create(
          sb, loc, cast<VectorType>(v.getType()).clone(elem), v);
      vector::StoreOp::create(sb, loc, w, mapView(st.getBase()),
                              st.getIndices());
    } else {
      auto ms = cast<vector::MaskedStoreOp>(store);
      Value v = ms.getValueToStore();
      Value w = arith::ExtFOp::create(
          sb, loc, cast<VectorType>(v.getType()).clone(elem), v);
      vector::MaskedStoreOp::create(sb, loc, mapView(ms.getBase()),
                                    ms.getIndices(), ms.getMask(), w);
    }
  }
  OpBuilder pb(point);
  return reshapeLike(pb, loc, wide, cast<MemRefType>(srcType.clone(elem)));
}

/// What the AVX512_BF16 kernel reads for one operand: the buffer it packs
/// and whether the pack rounds it (a bf16 cast of an f32 argument,
/// findCastOfArgument, read from the argument), or null when the operand
/// is not bf16 or its source is not unit-stride in its last dimension.
struct DotSource {
  Value buffer;
  linalg::GenericOp castOp;
};
static std::optional<DotSource> findDotSource(Value operand) {
  if (!cast<MemRefType>(operand.getType()).getElementType().isBF16())
    return std::nullopt;
  DotSource source{operand, findCastOfArgument(operand)};
  if (source.castOp)
    source.buffer = source.castOp.getDpsInputs()[0];
  if (!cast<MemRefType>(source.buffer.getType()).isLastDimUnitStride())
    return std::nullopt;
  return source;
}

/// Replaces `match.op` by its micro-kernels (see the pass description).
static void rewrite(BufferContraction match, const KernelShapes &shapes,
                    llvm::SetVector<Operation *> &castsFolded, PackCache &cache,
                    llvm::SetVector<Value> &maybeDead,
                    llvm::SetVector<Operation *> &rebuiltWriters) {
  OpBuilder b(match.op);
  Location loc = match.op.getLoc();
  auto cType = cast<MemRefType>(match.c.getType());
  // The AVX512_BF16 kernel when asked for and both operands are bf16.
  std::optional<DotSource> dotA, dotB;
  if (shapes.dot) {
    dotA = findDotSource(match.a);
    dotB = findDotSource(match.b);
  }
  bool dot = dotA && dotB;
  const KernelShape &shape = dot ? *shapes.dot : shapes.fma;
  Kernel kernel(match, b, loc);
  kernel.rows = shape.rows;
  kernel.cols = shape.cols;
  kernel.accType = VectorType::get({shape.cols}, cType.getElementType());
  kernel.m = dimSize(b, loc, match.c, 0);
  kernel.n = dimSize(b, loc, match.c, 1);
  kernel.k = dimSize(b, loc, match.a, match.transposeA ? 0 : 1);
  // The multiply-adds, for the parallel decision (k counts pairs below).
  Value kElements = kernel.k;

  // Operands the kernel cannot read as they are get copied once into f32
  // buffers, as a BLAS packs its panels: 16-bit operands (widened once
  // here instead of once per micro-tile that reads them: N/NR times for A,
  // M/MR times for B) and B read as B[j, k] (input gradients dY * W^T; the
  // kernel reads rows of B, so that copy transposes into (k, j)). K * (M + N)
  // copies against M * N * K multiply-adds.
  Type accElem = cType.getElementType();
  kernel.aKMajor = match.transposeA;
  // Packs made here with their cache keys (freed after this kernel), and
  // the frees of packs reused from the cache (moved after this kernel).
  SmallVector<std::pair<Value, PackCache::Key>> made;
  SmallVector<memref::DeallocOp> reused;
  Block *block = match.op->getBlock();
  // The pack `key` of buffer `src`: an earlier pack of the block if still
  // valid (nothing wrote `src` since), else what `makePack` returns, which
  // sets `fresh` when it made a new pack (freed after this kernel).
  auto lookupOrPack = [&](const PackCache::Key &key, Value src,
                          llvm::function_ref<Value(bool &fresh)> makePack) {
    if (auto it = cache.packs.find(key);
        it != cache.packs.end() &&
        isUnchangedBetween(src, it->second.packed.getDefiningOp(), match.op) &&
        !tooFarApart(it->second.dealloc, match.op)) {
      reused.push_back(it->second.dealloc);
      return it->second.packed;
    }
    bool fresh = true;
    Value packed = makePack(fresh);
    if (fresh)
      made.emplace_back(packed, key);
    return packed;
  };
  // `src` widened: an earlier pack, else a widened copy some op already
  // made, else a new pack.
  auto packCached = [&](Value src, bool kMajor, Value kSize, Value xSize,
                        Type roundTo) -> Value {
    PackCache::Key key{block, src, kMajor, accElem, roundTo};
    return lookupOrPack(key, src, [&](bool &fresh) {
      if (kMajor && !roundTo) {
        if (Value widened = findWidening(src, accElem, match.op)) {
          fresh = false; // another op's buffer
          return widened;
        }
        if (Value widened =
                widenInWriter(src, accElem, match.op, shapes.writerDistance,
                              castsFolded, rebuiltWriters))
          return widened;
        if (auto it = cache.narrowed.find(reshapeRoot(src));
            it != cache.narrowed.end())
          if (Value widened = widenInKernel(src, accElem, match.op, it->second))
            return widened;
      }
      return pack(b, loc, src, kMajor, kSize, xSize, accElem, roundTo);
    });
  };
  // A bf16 pair pack (packBF16Pairs). A's pad is -0.0, B's +0.0: the
  // layout code of the key tells them apart.
  auto packPairs = [&](const DotSource &source, PairLayout layout, Value kSize,
                       Value xSize, bool isA) -> Value {
    Type bf16 = b.getBF16Type();
    Type roundTo = source.castOp ? bf16 : Type();
    if (source.castOp)
      castsFolded.insert(source.castOp);
    PackCache::Key key{block, source.buffer,
                       2 + 2 * static_cast<unsigned>(layout) + isA, bf16,
                       roundTo};
    return lookupOrPack(key, source.buffer, [&](bool &) {
      return packBF16Pairs(b, loc, source.buffer, layout, kSize, xSize,
                           shape.cols, /*roundToBF16=*/bool(roundTo),
                           /*padNegativeZero=*/isA);
    });
  };
  // A parameter's or the input's f16 cast (findCastOfArgument) is done
  // by the pack itself, from the f32 argument.
  auto packWidened = [&](Value operand) {
    Type narrow = cast<MemRefType>(operand.getType()).getElementType();
    Type roundTo;
    if (linalg::GenericOp castOp = findCastOfArgument(operand)) {
      castsFolded.insert(castOp);
      operand = castOp.getDpsInputs()[0];
      roundTo = narrow;
    }
    return packCached(operand, /*kMajor=*/true, dimSize(b, loc, operand, 0),
                      dimSize(b, loc, operand, 1), roundTo);
  };
  if (dot) {
    // A as P[i][kk] (from A[i, k]) or P[kk][i] (from A[k, i]), B as
    // P[kk][j]; the kernel's k loop runs over pairs.
    kernel.dot = true;
    kernel.a = packPairs(*dotA,
                         match.transposeA ? PairLayout::KMajorFromRows
                                          : PairLayout::XMajor,
                         kernel.k, kernel.m, /*isA=*/true);
    kernel.b = packPairs(*dotB,
                         match.transposeB ? PairLayout::KMajorFromColumns
                                          : PairLayout::KMajorFromRows,
                         kernel.k, kernel.n, /*isA=*/false);
    kernel.k =
        b.createOrFold<arith::CeilDivUIOp>(loc, kernel.k, kernel.index(2));
  }
  if (!dot && match.extendA) {
    // In A's own layout: a contiguous copy that widens 8 elements per
    // instruction, where a transposing one gathers them one at a time.
    kernel.a = packWidened(match.a);
  }
  if (!dot && match.transposeB) {
    Value src = match.b;
    Type roundTo;
    if (linalg::GenericOp castOp;
        match.extendB && (castOp = findCastOfArgument(match.b))) {
      castsFolded.insert(castOp);
      src = castOp.getDpsInputs()[0];
      roundTo = cast<MemRefType>(match.b.getType()).getElementType();
    }
    kernel.b = packCached(src, /*kMajor=*/false, kernel.k, kernel.n, roundTo);
  } else if (!dot && match.extendB) {
    kernel.b = packWidened(match.b);
  }

  auto staticSize = [](Value v) -> std::optional<int64_t> {
    if (auto c = v.getDefiningOp<arith::ConstantIndexOp>())
      return c.value();
    return std::nullopt;
  };
  std::optional<int64_t> staticM = staticSize(kernel.m),
                         staticN = staticSize(kernel.n),
                         staticK = staticSize(kElements);
  // Blocks are multiples of the micro-tile, so only the last block of a
  // row (column) has rows (columns) left over.
  bool hasRowRest = shape.rows > 1 && !(staticM && *staticM % shape.rows == 0);
  bool hasEdge = !(staticN && *staticN % shape.cols == 0);
  // C's constant init (findConstantInit) and its rounding to 16 bits by
  // the last depth slice's stores, the cast going (findNarrowing): for a
  // batch slice (findBatchSlice), those of the whole buffer around the
  // loop. Only with k > 0: with no depth slice C keeps its initial value,
  // which `writer` put there, and nothing would store the rounded one.
  std::optional<BatchSlice> batch = findBatchSlice(match.c, match.op);
  Value whole = batch ? batch->whole : match.c;
  Operation *anchor = batch ? batch->loop.getOperation() : match.op;
  auto wholeType = cast<MemRefType>(whole.getType());
  ConstantInit init;
  Narrowing narrowing;
  if (staticK && *staticK > 0) {
    init = findConstantInit(match.c, match.op);
    if (!init.value && batch)
      init = findConstantInit(whole, anchor);
    narrowing = findNarrowing(whole, anchor);
  }
  kernel.init = init.value;
  // (The AVX512_BF16 kernel's slices count pairs of k.)
  kernel.singleSlice =
      staticK && *staticK <= (dot ? 2 * shape.depth : shape.depth);
  // The cast's output must be viewable in C's shape.
  auto outType = narrowing.castOp ? cast<MemRefType>(narrowing.out.getType())
                                  : MemRefType();
  if (outType && outType.getShape() != wholeType.getShape() &&
      outType.getRank() != 1 && wholeType.getRank() != 1)
    narrowing = {};
  if (narrowing.castOp) {
    Value out = narrowing.out;
    Operation *outAlloc = out.getDefiningOp();
    if (anchor->isBeforeInBlock(outAlloc))
      outAlloc->moveBefore(anchor);
    OpBuilder before(anchor);
    if (outType.getShape() != wholeType.getShape() && outType.getRank() == 1)
      out = memref::ExpandShapeOp::create(
          before, loc,
          MemRefType::get(wholeType.getShape(), outType.getElementType(),
                          MemRefLayoutAttrInterface(),
                          outType.getMemorySpace()),
          out, allDimsInOne(wholeType.getRank()));
    else if (outType.getShape() != wholeType.getShape())
      out = memref::CollapseShapeOp::create(before, loc, out,
                                            allDimsInOne(outType.getRank()));
    if (batch) {
      // The views from `whole` to C, replayed on the output's view.
      if (memref::ExpandShapeOp expand = batch->expand)
        out = memref::ExpandShapeOp::create(
            before, loc,
            MemRefType::get(
                expand.getResultType().getShape(), outType.getElementType(),
                MemRefLayoutAttrInterface(), outType.getMemorySpace()),
            out, expand.getReassociationIndices());
      memref::SubViewOp slice = batch->slice;
      auto sliceType = memref::SubViewOp::inferRankReducedResultType(
          slice.getType().getShape(), cast<MemRefType>(out.getType()),
          slice.getMixedOffsets(), slice.getMixedSizes(),
          slice.getMixedStrides());
      out = memref::SubViewOp::create(
          b, loc, sliceType, out, slice.getMixedOffsets(),
          slice.getMixedSizes(), slice.getMixedStrides());
      for (memref::CollapseShapeOp reshape : batch->reshapes)
        out = memref::CollapseShapeOp::create(
            b, loc, out, reshape.getReassociationIndices());
    }
    kernel.narrow = out;
  }
  int64_t blockRows = shape.blockRows, blockCols = shape.blockCols;
  auto ceilDiv = [&](Value x, int64_t y) {
    return b.createOrFold<arith::CeilDivUIOp>(loc, x, kernel.index(y));
  };
  Value rowBlocks = ceilDiv(kernel.m, blockRows);
  Value colBlocks = ceilDiv(kernel.n, blockCols);
  auto body = [&](Value ib, Value jb) {
    auto blockStart = [&](Value block, int64_t size, Value total) {
      Value start =
          b.createOrFold<arith::MulIOp>(loc, block, kernel.index(size));
      Value end = b.createOrFold<arith::MinUIOp>(
          loc, b.createOrFold<arith::AddIOp>(loc, start, kernel.index(size)),
          total);
      return std::pair{start, end};
    };
    auto [i0, iEnd] = blockStart(ib, blockRows, kernel.m);
    auto [j0, jEnd] = blockStart(jb, blockCols, kernel.n);
    emitBlock(kernel, shape, b, i0, iEnd, j0, jEnd, hasRowRest, hasEdge);
  };
  // Blocks are independent (each C element is in one): an scf.parallel
  // that amp-lower-to-llvm runs on threads, unless the contraction is too
  // small to pay for a fork.
  bool parallel = !(staticM && staticN && staticK &&
                    *staticM * *staticN * *staticK < shape.minParallelWork);
  if (parallel) {
    scf::ParallelOp::create(
        b, loc, ValueRange{kernel.index(0), kernel.index(0)},
        ValueRange{rowBlocks, colBlocks},
        ValueRange{kernel.index(1), kernel.index(1)},
        [&](OpBuilder &, Location, ValueRange ivs) { body(ivs[0], ivs[1]); });
  } else {
    scf::ForOp::create(
        b, loc, kernel.index(0), rowBlocks, kernel.index(1), ValueRange{},
        [&](OpBuilder &, Location, Value ib, ValueRange) {
          scf::ForOp::create(b, loc, kernel.index(0), colBlocks,
                             kernel.index(1), ValueRange{},
                             [&](OpBuilder &, Location, Value jb, ValueRange) {
                               body(ib, jb);
                               scf::YieldOp::create(b, loc);
                             });
          scf::YieldOp::create(b, loc);
        });
  }
  if (narrowing.castOp && !kernel.narrowStores.empty())
    cache.narrowed[narrowing.out] = kernel.narrowStores;
  for (auto &[packed, key] : made)
    cache.packs[key] = {packed,
                        memref::DeallocOp::create(b, loc, reshapeRoot(packed))};
  for (memref::DeallocOp dealloc : reused)
    dealloc->moveBefore(match.op);
  match.op.erase();
  if (init.writer) {
    if (auto copy = dyn_cast<memref::CopyOp>(init.writer))
      maybeDead.insert(copy.getSource());
    init.writer->erase();
  }
  if (narrowing.castOp) {
    // The cast; its view of C and C itself go at the end of the pass if
    // nothing uses them (the pack cache may name them until then).
    Value read = narrowing.castOp.getDpsInputs()[0];
    narrowing.castOp->erase();
    if (batch)
      insertBatchViews(*batch, match.c, maybeDead);
    if (read != whole)
      maybeDead.insert(read);
    maybeDead.insert(whole);
  } else if (batch && init.writer) {
    // The views, if the kernel no longer needs them.
    insertBatchViews(*batch, match.c, maybeDead);
  }
}

/// Whether the kernel handles `match`: C f32 with a unit-stride last
/// dimension (rows are vector-loaded), B's element f32, f16 or bf16 with a
/// unit-stride last dimension unless it gets packed, A any f32/f16/bf16.
static bool isSupported(const BufferContraction &match) {
  auto typeOf = [](Value v) { return cast<MemRefType>(v.getType()); };
  auto isOperandType = [](Type t) {
    return t.isF32() || t.isF16() || t.isBF16();
  };
  MemRefType a = typeOf(match.a), b = typeOf(match.b), c = typeOf(match.c);
  return c.getElementType().isF32() && isOperandType(a.getElementType()) &&
         isOperandType(b.getElementType()) && c.isLastDimUnitStride() &&
         (match.transposeB || b.isLastDimUnitStride());
}

namespace {
struct CPUTileContractionsPass
    : amp::impl::CPUTileContractionsBase<CPUTileContractionsPass> {
  using Base::Base;
  void runOnOperation() override {
    // (Located, but without the whole function as a note.)
    if (tileRows < 1 || tileRows > 32) {
      mlir::emitError(getOperation().getLoc())
          << "amp-cpu-tile-contractions: tile-rows = "
          << static_cast<int64_t>(tileRows)
          << " must be in [1, 32] (a micro-tile lives in vector registers)";
      return signalPassFailure();
    }
    if (tileCols < 1 || tileCols > 256) {
      mlir::emitError(getOperation().getLoc())
          << "amp-cpu-tile-contractions: tile-cols (amp-lower-to-llvm's "
             "fma-tile-cols) = "
          << static_cast<int64_t>(tileCols)
          << " must be in [1, 256] (a micro-tile lives in vector registers)";
      return signalPassFailure();
    }
    if (tileDepth < 1 || blockRows < 1 || blockCols < 1) {
      mlir::emitError(getOperation().getLoc(),
                      "amp-cpu-tile-contractions: tile-depth, block-rows and "
                      "block-cols must be at least 1");
      return signalPassFailure();
    }
    if (bf16Dot && (dotTileRows < 1 || dotTileRows > 32 || dotTileCols < 16 ||
                    dotTileCols > 128 || dotTileCols % 16 != 0)) {
      mlir::emitError(getOperation().getLoc(),
                      "amp-cpu-tile-contractions: dot-tile-rows must be in "
                      "[1, 32] and dot-tile-cols a multiple of 16 in "
                      "[16, 128] (16 f32 lanes per accumulator)");
      return signalPassFailure();
    }
    auto shapeOf = [&](int64_t rows, int64_t cols, int64_t depth) {
      return KernelShape{rows,
                         cols,
                         depth,
                         static_cast<int64_t>(llvm::alignTo(blockRows, rows)),
                         static_cast<int64_t>(llvm::alignTo(blockCols, cols)),
                         minParallelWork};
    };
    KernelShapes shapes{shapeOf(tileRows, tileCols, tileDepth), std::nullopt,
                        writerDistance};
    if (bf16Dot) // KC in pairs of k
      shapes.dot = shapeOf(dotTileRows, dotTileCols, (tileDepth + 1) / 2);
    SmallVector<BufferContraction> matches;
    getOperation().walk([&](linalg::GenericOp op) {
      std::optional<BufferContraction> match = matchBufferContraction(op);
      if (match && isSupported(*match))
        matches.push_back(*match);
    });
    llvm::SetVector<Operation *> castsFolded;
    PackCache cache;
    llvm::SetVector<Value> maybeDead;
    llvm::SetVector<Operation *> rebuiltWriters;
    for (const BufferContraction &match : matches)
      rewrite(match, shapes, castsFolded, cache, maybeDead, rebuiltWriters);
    cache.packs.clear();
    // A kernel's rounded output that only its widened twin was read for
    // (widenInKernel) is no longer stored.
    for (auto &[root, stores] : cache.narrowed)
      dropUnreadRoundedStores(root, stores);
    cache.narrowed.clear();
    // Views of C that only a narrowing cast read (findNarrowing), then
    // buffers now only filled and freed: a buffer of zeros whose copies
    // into C all went (findConstantInit), a C that the kernel no longer
    // needs (its last slice stores into the narrowed buffer).
    SmallVector<Value> buffers;
    for (Value src : maybeDead) {
      Operation *def = src.getDefiningOp();
      if (!def || !isa<ViewLikeOpInterface>(def))
        buffers.push_back(src);
      else if (src.use_empty())
        def->erase();
    }
    for (Value src : buffers) {
      auto alloc = src.getDefiningOp<memref::AllocOp>();
      // (A static dimension, a batch loop's bound, becomes a constant.)
      auto staticDim = [&](Operation *user) -> std::optional<int64_t> {
        auto dim = dyn_cast<memref::DimOp>(user);
        std::optional<int64_t> d =
            dim ? getConstantIntValue(dim.getIndex()) : std::nullopt;
        auto type = cast<MemRefType>(src.getType());
        if (!d || *d < 0 || *d >= type.getRank() || type.isDynamicDim(*d))
          return std::nullopt;
        return type.getDimSize(*d);
      };
      if (!alloc || !llvm::all_of(src.getUsers(), [&](Operation *user) {
            return isa<linalg::FillOp, memref::DeallocOp>(user) ||
                   staticDim(user);
          }))
        continue;
      for (Operation *user : llvm::make_early_inc_range(src.getUsers())) {
        if (std::optional<int64_t> size = staticDim(user)) {
          OpBuilder ob(user);
          user->getResult(0).replaceAllUsesWith(
              arith::ConstantIndexOp::create(ob, user->getLoc(), *size));
        }
        user->erase();
      }
      alloc->erase();
    }
    // A cast whose buffer nothing reads any more (every reader was a
    // contraction that now packs from the f32 argument) is dead.
    for (Operation *castOp : castsFolded) {
      Value out = cast<linalg::GenericOp>(castOp).getDpsInits()[0];
      if (llvm::all_of(out.getUsers(), [&](Operation *user) {
            return user == castOp || isa<memref::DeallocOp>(user);
          }))
        castOp->erase();
    }
    // A writer's 16-bit output that only its new f32 output was read
    // through (the forward's ReLU output, which the backward recomputes;
    // the input batch's cast) is no longer written.
    for (Operation *writer : rebuiltWriters)
      dropUnreadOutputs(cast<linalg::GenericOp>(writer));
  }
};
} // namespace
