//===- CPUVectorizeRows.cpp - amp-cpu-vectorize-rows ----------------------===//
//
// Lowers elementwise linalg.generic ops on buffers to scf.for loops over
// their outer dimensions around explicit vectors of their innermost row,
// where LLVM's loop vectorizer would leave the row scalar (short rows, and
// any f16 <-> f32 conversion, which its cost model prices as scalar work).
// See the pass description in CPU/Passes.td.
//
//===----------------------------------------------------------------------===//

#include "amp/CPU/Passes.h"

#include "LoopIndices.h"
#include "VectorTranspose.h"
#include "amp/Analysis/BufferUses.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"

#include <numeric>

namespace mlir::amp {
#define GEN_PASS_DEF_CPUVECTORIZEROWS
#include "amp/CPU/Passes.h.inc"
} // namespace mlir::amp

using namespace mlir;
using namespace mlir::amp;

/// Elements per vector: one AVX-512 register of f32 (two AVX2 registers;
/// LLVM splits wider vectors).
constexpr int64_t kLanes = 16;

/// Rows shorter than this are left as they are (a vector of 2 or 3 saves
/// nothing), unless the next loop out makes them a two-loop row.
constexpr int64_t kShortestRow = 4;

/// Rows at least this long whose values are all f32 (or integers), and
/// that carry no reduction, are left to LLVM's loop vectorizer, which
/// handles them (the contiguous elementwise ops that
/// amp-cpu-collapse-contiguous-loops merged into long loops). Rows with a
/// 16-bit float are not: LLVM prices f16 <-> f32 conversions as scalar
/// work, and on AVX512_BF16 (znver5's cost model) vectorizes bf16 rows
/// 4 lanes at a time (a batch norm over 784-element rows of the CNN's bf16
/// step, 12% of it).
constexpr int64_t kLongRow = 64;

/// Most elements one shuffled load reads (a stride-2 window row of 16
/// lanes reads 31).
constexpr int64_t kMaxSpan = 64;

static bool isScalarValueType(Type type) {
  return isa<FloatType, IntegerType>(type);
}

/// A type a body value may have: a scalar, or an index (loop indices and
/// the arithmetic on them; vectors of them are vectors of i64 in LLVM).
static bool isBodyValueType(Type type) {
  return isScalarValueType(type) || type.isIndex();
}

/// A memref element type a vector can be loaded from and stored to as
/// memory holds it (an `i1` vector is packed into bits).
static bool isVectorMemoryType(Type type) {
  return isScalarValueType(type) && type.getIntOrFloatBitWidth() >= 8;
}

/// Whether `expr` is a sum of dimensions and symbols times constants plus a
/// constant (no floordiv, ceildiv or mod).
static bool isLinear(AffineExpr expr) {
  if (isa<AffineDimExpr, AffineSymbolExpr, AffineConstantExpr>(expr))
    return true;
  auto binary = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!binary)
    return false;
  if (binary.getKind() == AffineExprKind::Add)
    return isLinear(binary.getLHS()) && isLinear(binary.getRHS());
  if (binary.getKind() == AffineExprKind::Mul)
    return (isa<AffineConstantExpr>(binary.getRHS()) &&
            isLinear(binary.getLHS())) ||
           (isa<AffineConstantExpr>(binary.getLHS()) &&
            isLinear(binary.getRHS()));
  return false;
}

/// The coefficient of loop `dim` in the linear `expr`.
static int64_t coefficientOf(AffineExpr expr, unsigned dim, unsigned numDims) {
  AffineExpr d = getAffineDimExpr(dim, expr.getContext());
  AffineExpr step =
      simplifyAffineExpr(expr.replace(d, d + 1) - expr, numDims, 0);
  return cast<AffineConstantExpr>(step).getValue();
}

namespace {
/// How an operand is read or written along the row, from the element of
/// the row's first lane (or of a vector's first lane).
enum class RowAccess {
  Uniform,    ///< one element for every lane: a scalar load
  Contiguous, ///< lane l at +l: a vector.load / vector.store
  Shuffled,   ///< lane l at +offsets[l] >= 0: a wider load and a shuffle
};

/// How an op is lowered.
struct RowPlan {
  /// The row's loops, outermost first: the first output's fastest-varying
  /// dimension, and the one before it when that alone has fewer than
  /// kShortestRow elements and the two are contiguous in the output (a
  /// pooling gradient's (ow, kw)).
  SmallVector<unsigned> row;
  SmallVector<int64_t> rowExtents;
  /// The row's elements (the product of rowExtents), or kDynamic (a row of
  /// one loop of dynamic extent).
  int64_t lanes = 0;
  /// Loops outside the vectors (the op's order): the parallel loops, and
  /// the reduction loops before the row's first.
  SmallVector<unsigned> outer;
  /// Reduction loops after the row's first (the op's order): run inside
  /// each vector, its outputs carried in scf.for iter_args.
  SmallVector<unsigned> inner;
  /// Per operand (by operand number; scalars are Uniform).
  SmallVector<RowAccess> access;
  /// Per operand, for Shuffled: each lane's offset in elements from lane 0.
  SmallVector<SmallVector<int64_t>> offsets;
};
} // namespace

/// The value of row loop `i` (RowPlan::row) at `lane` (row-major over
/// rowExtents).
static int64_t laneValue(const RowPlan &plan, size_t i, int64_t lane) {
  for (size_t r = plan.row.size() - 1; r > i; --r)
    lane /= plan.rowExtents[r];
  return plan.row.size() == 1 ? lane : lane % plan.rowExtents[i];
}

/// The chunks of a static row: (first lane, lanes), kLanes at a time and
/// the rest.
static SmallVector<std::pair<int64_t, int64_t>> chunksOf(int64_t lanes) {
  SmallVector<std::pair<int64_t, int64_t>> chunks;
  int64_t start = 0;
  for (; start + kLanes <= lanes; start += kLanes)
    chunks.push_back({start, kLanes});
  if (start < lanes)
    chunks.push_back({start, lanes - start});
  return chunks;
}

/// Classifies `operand`'s accesses along the row: its memory offset at
/// each lane, from its map's linear results and the memref's static
/// strides. Fails where the offsets are not Uniform, Contiguous or, on a
/// static row, Shuffled within kMaxSpan of each vector's first lane.
static LogicalResult classify(linalg::GenericOp op, OpOperand &operand,
                              RowPlan &plan) {
  auto memref = cast<MemRefType>(operand.get().getType());
  AffineMap map = op.getMatchingIndexingMap(&operand);
  SmallVector<int64_t> strides;
  int64_t memOffset;
  if (failed(memref.getStridesAndOffset(strides, memOffset)))
    return failure();
  // Each row loop's step in elements of this operand.
  SmallVector<int64_t> steps(plan.row.size(), 0);
  for (auto [k, expr] : llvm::enumerate(map.getResults())) {
    bool alongRow = llvm::any_of(
        plan.row, [&](unsigned r) { return expr.isFunctionOfDim(r); });
    if (!alongRow)
      continue;
    if (!isLinear(expr) || ShapedType::isDynamic(strides[k]))
      return failure();
    for (auto [i, r] : llvm::enumerate(plan.row))
      steps[i] += strides[k] * coefficientOf(expr, r, map.getNumDims());
  }
  unsigned number = operand.getOperandNumber();
  if (llvm::all_of(steps, [](int64_t s) { return s == 0; })) {
    plan.access[number] = RowAccess::Uniform;
    return success();
  }
  // vector.load and vector.store read and write along a unit-stride
  // innermost dimension. A Contiguous row runs along it (not along a
  // middle dimension before a unit one: the vector would pass its bound).
  if (strides.empty() || strides.back() != 1)
    return failure();
  bool alongLast = llvm::any_of(plan.row, [&](unsigned r) {
    return map.getResults().back().isFunctionOfDim(r);
  });
  auto contiguous = [&]() -> LogicalResult {
    if (!alongLast)
      return failure();
    plan.access[number] = RowAccess::Contiguous;
    return success();
  };
  if (ShapedType::isDynamic(plan.lanes)) {
    if (steps[0] != 1)
      return failure();
    return contiguous();
  }
  // A one-loop row (any length) is linear: lane l at steps[0] * l. A
  // two-loop row has at most kLongRow lanes.
  if (plan.row.size() == 1) {
    if (steps[0] == 1)
      return contiguous();
    int64_t width = std::min(kLanes, plan.lanes);
    if (getElementTypeOrSelf(memref).isInteger(1) || steps[0] <= 0 ||
        steps[0] * (width - 1) >= kMaxSpan)
      return failure();
    plan.access[number] = RowAccess::Shuffled;
    for (int64_t lane = 0; lane < width; ++lane)
      plan.offsets[number].push_back(steps[0] * lane);
    return success();
  }
  SmallVector<int64_t> offsets;
  for (int64_t lane = 0; lane < plan.lanes; ++lane) {
    int64_t offset = 0;
    for (size_t i = 0; i < plan.row.size(); ++i)
      offset += steps[i] * laneValue(plan, i, lane);
    offsets.push_back(offset);
  }
  bool isContiguous = llvm::all_of(llvm::enumerate(offsets), [](auto pair) {
    return static_cast<int64_t>(pair.index()) == pair.value();
  });
  if (isContiguous)
    return contiguous();
  // A wider load from each vector's first lane, then a shuffle: every
  // lane at or after the first one's element, all within kMaxSpan. An i1
  // (a byte in memory, a bit in a vector) is not loaded that way.
  if (getElementTypeOrSelf(memref).isInteger(1))
    return failure();
  for (auto [start, count] : chunksOf(plan.lanes))
    for (int64_t lane = start; lane < start + count; ++lane) {
      int64_t relative = offsets[lane] - offsets[start];
      if (relative < 0 || relative >= kMaxSpan)
        return failure();
    }
  plan.access[number] = RowAccess::Shuffled;
  plan.offsets[number] = std::move(offsets);
  return success();
}

/// Whether the bf16 values `op` reads or makes (if any) are ones this pass
/// vectorizes. A bf16 vector is an i16 vector of its bits here
/// (emitRowVector): LLVM 22's x86 instruction selection cannot
/// soft-promote some bf16 vector ops ("Do not know how to soft promote
/// this operator's operand": selects and shuffles, which InstCombine also
/// forms from i16 ones on bitcast bf16 loads). So a bf16 value is widened
/// to f32 (`arith.extf`), rounded from f32 (`arith.truncf`), selected or a
/// constant; any other op on bf16 has only bf16 and i1 operands and
/// results (`arith.maximumf`, `arith.cmpf`, `arith.addf`) and is computed
/// in f32 and rounded to bf16, as LLVM promotes scalar bf16 arithmetic.
static bool isEmulatedBF16(Operation &op) {
  auto types = llvm::concat<Type>(op.getOperandTypes(), op.getResultTypes());
  if (llvm::none_of(types, [](Type type) { return type.isBF16(); }))
    return true;
  if (auto ext = dyn_cast<arith::ExtFOp>(op))
    return ext.getType().isF32();
  if (auto trunc = dyn_cast<arith::TruncFOp>(op))
    return trunc.getIn().getType().isF32();
  if (isa<arith::SelectOp, arith::ConstantOp>(op))
    return true;
  return llvm::all_of(
      types, [](Type type) { return type.isBF16() || type.isInteger(1); });
}

/// The plan for `op`, or nullopt when this pass leaves it (the conditions
/// of the pass description).
static std::optional<RowPlan> planRows(linalg::GenericOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumLoops() == 0 ||
      op.getNumDpsInits() == 0)
    return std::nullopt;
  SmallVector<utils::IteratorType> iters = op.getIteratorTypesArray();
  SmallVector<int64_t> extents = op.getStaticLoopRanges();
  unsigned numLoops = op.getNumLoops();

  // Every output is indexed by every parallel loop and by no reduction
  // loop (so that the loops can be reordered around the reductions).
  for (OpOperand &init : op.getDpsInitsMutable()) {
    AffineMap map = op.getMatchingIndexingMap(&init);
    if (!map.isProjectedPermutation() || !isa<MemRefType>(init.get().getType()))
      return std::nullopt;
    for (unsigned loop = 0; loop < numLoops; ++loop)
      if (map.isFunctionOfDim(loop) !=
          (iters[loop] == utils::IteratorType::parallel))
        return std::nullopt;
  }

  // The row: the first output's fastest-varying dimension(s).
  RowPlan plan;
  AffineMap out = op.getMatchingIndexingMap(&*op.getDpsInitsMutable().begin());
  if (out.getNumResults() == 0)
    return std::nullopt;
  unsigned last = cast<AffineDimExpr>(out.getResults().back()).getPosition();
  plan.row = {last};
  plan.rowExtents = {extents[last]};
  plan.lanes = extents[last];
  if (!ShapedType::isDynamic(plan.lanes) && plan.lanes < kShortestRow) {
    // Two loops, when the next dimension out is contiguous with it.
    auto type = cast<MemRefType>(op.getDpsInits()[0].getType());
    SmallVector<int64_t> strides;
    int64_t offset;
    if (out.getNumResults() < 2 ||
        failed(type.getStridesAndOffset(strides, offset)) ||
        strides.back() != 1 || strides[strides.size() - 2] != plan.lanes)
      return std::nullopt;
    unsigned next =
        cast<AffineDimExpr>(out.getResults()[out.getNumResults() - 2])
            .getPosition();
    if (ShapedType::isDynamic(extents[next]))
      return std::nullopt;
    plan.row = {next, last};
    plan.rowExtents = {extents[next], extents[last]};
    plan.lanes = extents[next] * extents[last];
    if (plan.lanes < kShortestRow || plan.lanes > kLongRow)
      return std::nullopt;
  }
  unsigned first = *llvm::min_element(plan.row);
  for (unsigned loop = 0; loop < numLoops; ++loop) {
    if (llvm::is_contained(plan.row, loop))
      continue;
    bool innerReduction =
        iters[loop] == utils::IteratorType::reduction && loop > first;
    (innerReduction ? plan.inner : plan.outer).push_back(loop);
  }

  // The body: elementwise ops, constants, loop indices.
  bool narrow = false;
  auto noteType = [&](Type type) {
    Type element = getElementTypeOrSelf(type);
    narrow |= element.isF16() || element.isBF16();
  };
  Block *body = op.getBlock();
  for (Operation &inner : body->without_terminator()) {
    if (isa<linalg::IndexOp>(inner))
      continue;
    // math.fpowi's exponent stays a scalar in LLVM (llvm.powi).
    if (isa<math::FPowIOp>(inner))
      return std::nullopt;
    if (!isEmulatedBF16(inner))
      return std::nullopt;
    if (auto constant = dyn_cast<arith::ConstantOp>(inner)) {
      if (!isBodyValueType(constant.getType()))
        return std::nullopt;
      continue;
    }
    if (!inner.hasTrait<OpTrait::Elementwise>() ||
        !inner.hasTrait<OpTrait::Vectorizable>() || inner.getNumRegions() ||
        inner.getNumResults() != 1)
      return std::nullopt;
    for (Type type :
         llvm::concat<Type>(inner.getOperandTypes(), inner.getResultTypes())) {
      if (!isBodyValueType(type))
        return std::nullopt;
      noteType(type);
    }
  }
  for (BlockArgument arg : body->getArguments())
    if (!isScalarValueType(arg.getType()))
      return std::nullopt;

  // The operands' accesses along the row.
  plan.access.assign(op->getNumOperands(), RowAccess::Uniform);
  plan.offsets.resize(op->getNumOperands());
  for (OpOperand &operand : op->getOpOperands()) {
    Type type = operand.get().getType();
    noteType(type);
    auto memref = dyn_cast<MemRefType>(type);
    bool isInit = op.isDpsInit(&operand);
    if (!memref)
      continue; // a scalar input: Uniform
    Type element = memref.getElementType();
    if (failed(classify(op, operand, plan)))
      return std::nullopt;
    RowAccess access = plan.access[operand.getOperandNumber()];
    if (isInit && access != RowAccess::Contiguous)
      return std::nullopt;
    // `i1` is read one element at a time (a one-loop static row only),
    // never written: a vector of it is packed into bits in memory.
    if (!isVectorMemoryType(element) && access != RowAccess::Uniform) {
      ArrayRef<AffineExpr> results =
          op.getMatchingIndexingMap(&operand).getResults();
      if (isInit || plan.row.size() != 1 || ShapedType::isDynamic(plan.lanes) ||
          !memref.getLayout().isIdentity() ||
          llvm::any_of(results.drop_back(), [&](AffineExpr expr) {
            return expr.isFunctionOfDim(plan.row[0]);
          }))
        return std::nullopt;
    }
  }

  // A vector reads its lanes of every operand before it writes any. An
  // input that is the output itself, read at the same elements, is fine
  // without inner reductions (each lane is read, then written); with them
  // the output lives in a vector across the reduction while the input
  // would be read from memory at its old value.
  for (OpOperand &init : op.getDpsInitsMutable())
    for (OpOperand &other : op->getOpOperands()) {
      if (&other == &init || !isa<MemRefType>(other.get().getType()))
        continue;
      bool sameElements =
          plan.inner.empty() && other.get() == init.get() &&
          !op.isDpsInit(&other) &&
          op.getMatchingIndexingMap(&other) == op.getMatchingIndexingMap(&init);
      if (!sameElements && mayShareBytes(other.get(), init.get()))
        return std::nullopt;
    }

  bool longRow = ShapedType::isDynamic(plan.lanes) || plan.lanes >= kLongRow;
  if (longRow && !narrow && plan.inner.empty())
    return std::nullopt;
  if (ShapedType::isDynamic(plan.lanes) && !plan.inner.empty())
    return std::nullopt;
  return plan;
}

/// The f32 values of `bits`, a vector of bf16 bit patterns (i16), exactly:
/// each is the upper half of its f32 (arith.extf's meaning, as integer
/// ops).
static Value widenBF16Bits(OpBuilder &b, Location loc, Value bits) {
  auto type = cast<VectorType>(bits.getType());
  VectorType i32 = type.clone(b.getI32Type());
  Value wide = arith::ExtUIOp::create(b, loc, i32, bits);
  Value shift = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(i32, b.getI32IntegerAttr(16)));
  return arith::BitcastOp::create(b, loc, type.clone(b.getF32Type()),
                                  arith::ShLIOp::create(b, loc, wide, shift));
}

/// `v` (a vector of f32, bf16 or f16 loaded from memory) as f32: bf16
/// exactly as its bits (widenBF16Bits), f16 by `arith.extf`.
static Value widenLoaded(OpBuilder &b, Location loc, Value v) {
  auto type = cast<VectorType>(v.getType());
  auto f32 = type.clone(b.getF32Type());
  if (type.getElementType().isBF16())
    return widenBF16Bits(
        b, loc,
        vector::BitCastOp::create(b, loc, type.clone(b.getI16Type()), v));
  if (type.getElementType().isF16())
    return arith::ExtFOp::create(b, loc, f32, v);
  return v;
}

/// Whether `op` is a maximum or minimum: its result is one of its operands
/// (a NaN quieted).
static bool isMaxOrMin(Operation *op) {
  return isa_and_nonnull<arith::MaximumFOp, arith::MinimumFOp, arith::MaxNumFOp,
                         arith::MinNumFOp>(op);
}

/// Whether `v` (f32) is exactly a bf16 value: a widened bf16 (arith.extf),
/// or a maximum or minimum of such values.
static bool isExactBF16InF32(Value v) {
  Operation *def = v.getDefiningOp();
  if (auto ext = dyn_cast_or_null<arith::ExtFOp>(def))
    return ext.getIn().getType().isBF16();
  return isMaxOrMin(def) && llvm::all_of(def->getOperands(), isExactBF16InF32);
}

/// Whether `v` (bf16) is a maximum or minimum of bf16 values: an op on
/// bf16 (computed in f32 and rounded, emitRowVector), or autocast's
/// arith.truncf of one computed in f32 on widened bf16 values
/// (isExactBF16InF32). Its f32 value is one of the operands' (exact bf16
/// values), so rounding it gives back that value's bits (a NaN's payload
/// aside).
static bool isBF16Selection(Value v) {
  if (!v.getType().isBF16())
    return false;
  Operation *def = v.getDefiningOp();
  if (auto trunc = dyn_cast_or_null<arith::TruncFOp>(def))
    return trunc.getIn().getType().isF32() && isExactBF16InF32(trunc.getIn());
  return isMaxOrMin(def);
}

/// The bf16 outputs of `op` that a row vector carries through its inner
/// reduction loops in f32 instead of as bf16 bits: each step's value is a
/// maximum or minimum (isBF16Selection: exact in bf16), and the body reads
/// the output only widened (arith.extf) or by such ops, so rounding once
/// after the loops gives the bits that rounding after every step gives,
/// without a rounding and a widening per step (a bf16 max pooling's window:
/// 1.6x its f32 time).
static SmallVector<bool> outputsCarriedInF32(linalg::GenericOp op) {
  SmallVector<bool> wide;
  Block *body = op.getBlock();
  for (OpOperand &init : op.getDpsInitsMutable()) {
    BlockArgument arg = body->getArgument(init.getOperandNumber());
    Value yielded = op.getMatchingYieldValue(&init)->get();
    // (The yield itself is no such reader: an output passed on unchanged,
    // or as another output's value, needs its bits.)
    wide.push_back(arg.getType().isBF16() && isBF16Selection(yielded) &&
                   llvm::all_of(arg.getUsers(), [](Operation *user) {
                     if (auto ext = dyn_cast<arith::ExtFOp>(user))
                       return ext.getType().isF32();
                     return user->getNumResults() == 1 &&
                            isBF16Selection(user->getResult(0));
                   }));
  }
  return wide;
}

/// Emits the vector of `width` lanes of `op`'s row from lane `start`
/// (a constant, or the iv of a loop over chunks of a one-loop row):
/// `ivs` holds the outer loops' values and the row loops' values at that
/// lane. The outputs are loaded, carried through the inner reduction loops
/// (when there are any), and stored. Body values that do not depend on the
/// row (a per-channel scale, a window's row bounds) stay scalars, computed
/// once per vector; the others are vectors. A bf16 vector is an i16 vector
/// of its bits, computed on in f32 (isEmulatedBF16); only its loads and
/// stores name bf16, as bitcasts that amp-cpu-bf16-memory-as-i16 removes
/// after the LLVM lowering.
static void emitRowVector(OpBuilder &b, Location loc, linalg::GenericOp op,
                          const RowPlan &plan, SmallVector<Value> ivs,
                          std::optional<int64_t> start, int64_t width) {
  Block *body = op.getBlock();
  auto vectorOf = [&](Type scalar) { return VectorType::get({width}, scalar); };
  VectorType bits = vectorOf(b.getI16Type());
  // bf16 bits <-> vectors of bf16 as memory holds them.
  auto toBits = [&](OpBuilder &ib, Value bf16) -> Value {
    auto type = cast<VectorType>(bf16.getType());
    return vector::BitCastOp::create(
        ib, loc, VectorType::get(type.getShape(), ib.getI16Type()), bf16);
  };
  auto fromBits = [&](OpBuilder &ib, Value value) -> Value {
    return vector::BitCastOp::create(ib, loc, vectorOf(ib.getBF16Type()),
                                     value);
  };
  // f32 -> bf16 bits, rounded to nearest even (arith.truncf, which
  // arith-expand's bf16 patterns make integer ops).
  auto round = [&](OpBuilder &ib, Value value) -> Value {
    return toBits(ib, arith::TruncFOp::create(
                          ib, loc, vectorOf(ib.getBF16Type()), value));
  };

  // Each lane's value of the row loop `i` (RowPlan::row), from the first.
  auto rowIndices = [&](OpBuilder &ib, unsigned i) -> Value {
    Value first = vector::BroadcastOp::create(
        ib, loc, vectorOf(ib.getIndexType()), ivs[plan.row[i]]);
    Value step;
    if (plan.row.size() == 1) {
      step = vector::StepOp::create(ib, loc, vectorOf(ib.getIndexType()));
    } else {
      SmallVector<int64_t> lanes;
      for (int64_t lane = *start; lane < *start + width; ++lane)
        lanes.push_back(laneValue(plan, i, lane) - laneValue(plan, i, *start));
      step = arith::ConstantOp::create(
          ib, loc,
          DenseElementsAttr::get(vectorOf(ib.getIndexType()),
                                 ArrayRef<int64_t>(lanes)));
    }
    return arith::AddIOp::create(ib, loc, first, step);
  };

  // Loads `operand` at the vector's first lane as its access says.
  auto load = [&](OpBuilder &ib, OpOperand &operand,
                  ArrayRef<Value> at) -> std::pair<Value, bool> {
    Value source = operand.get();
    BlockArgument arg = body->getArgument(operand.getOperandNumber());
    if (!isa<MemRefType>(source.getType()))
      return {source, false};
    SmallVector<Value> indices =
        indicesAtLoops(ib, loc, op.getMatchingIndexingMap(&operand), at);
    switch (plan.access[operand.getOperandNumber()]) {
    case RowAccess::Uniform:
      return {memref::LoadOp::create(ib, loc, source, indices), false};
    case RowAccess::Contiguous: {
      if (!arg.getType().isInteger(1)) {
        Value loaded = vector::LoadOp::create(ib, loc, vectorOf(arg.getType()),
                                              source, indices);
        return {arg.getType().isBF16() ? toBits(ib, loaded) : loaded, true};
      }
      // One element at a time: in memory an i1 takes a byte, in a vector
      // a bit (a one-loop row: the lanes are the last index's).
      SmallVector<Value> elements;
      for (int64_t i = 0; i < width; ++i) {
        SmallVector<Value> atLane = indices;
        atLane.back() = affine::AffineApplyOp::create(
            ib, loc, getAffineDimExpr(0, ib.getContext()) + i, atLane.back());
        elements.push_back(memref::LoadOp::create(ib, loc, source, atLane));
      }
      return {vector::FromElementsOp::create(ib, loc, vectorOf(arg.getType()),
                                             elements),
              true};
    }
    case RowAccess::Shuffled: {
      // The offsets of a one-loop row are linear, the same from any lane;
      // a two-loop row is emitted lane by lane (`start` is known).
      const SmallVector<int64_t> &offsets =
          plan.offsets[operand.getOperandNumber()];
      int64_t from = start && plan.row.size() > 1 ? *start : 0;
      SmallVector<int64_t> mask;
      for (int64_t lane = from; lane < from + width; ++lane)
        mask.push_back(offsets[lane] - offsets[from]);
      int64_t span = *llvm::max_element(mask) + 1;
      // `n` elements from `offset` past the first lane's.
      auto loadAt = [&](int64_t offset, int64_t n) -> Value {
        SmallVector<Value> at(indices);
        if (offset)
          at.back() = arith::AddIOp::create(
              ib, loc, at.back(),
              arith::ConstantIndexOp::create(ib, loc, offset));
        Value loaded = vector::LoadOp::create(
            ib, loc, VectorType::get({n}, arg.getType()), source, at);
        return arg.getType().isBF16() ? toBits(ib, loaded) : loaded;
      };
      if (span <= 2 || llvm::isPowerOf2_64(span)) {
        Value wide = loadAt(0, span);
        return {vector::ShuffleOp::create(ib, loc, wide, wide, mask), true};
      }
      // Two loads of the next power of two's half, the second ending at
      // the span's end (they overlap), and a two-source shuffle: LLVM
      // splits a load and shuffle of 27 lanes into pieces and moves 16-bit
      // lanes one at a time (vpinsrw), where two loads of 16 and one
      // vpermt2w / vpermt2ps do.
      int64_t half = static_cast<int64_t>(llvm::PowerOf2Ceil(span)) / 2;
      Value low = loadAt(0, half);
      Value high = loadAt(span - half, half);
      SmallVector<int64_t> fromBoth;
      for (int64_t m : mask)
        fromBoth.push_back(m < half ? m : half + m - (span - half));
      return {vector::ShuffleOp::create(ib, loc, low, high, fromBoth), true};
    }
    }
    llvm_unreachable("covered switch");
  };

  // The outputs' vectors at the row (those the body reads, or all when
  // the reductions carry them).
  SmallVector<Value> outInit;
  for (OpOperand &init : op.getDpsInitsMutable()) {
    BlockArgument arg = body->getArgument(init.getOperandNumber());
    if (plan.inner.empty() && arg.use_empty()) {
      outInit.push_back(Value());
      continue;
    }
    Value loaded = vector::LoadOp::create(
        b, loc, vectorOf(arg.getType()), init.get(),
        indicesAtLoops(b, loc, op.getMatchingIndexingMap(&init), ivs));
    outInit.push_back(arg.getType().isBF16() ? toBits(b, loaded) : loaded);
  }

  // One evaluation of the body at `at` (inner reduction ivs set) with the
  // outputs' current vectors `outs`; returns the yielded vectors.
  // The roundings of bf16 body values (their bitcasts to bits), which an
  // output carried in f32 leaves unused: erased at the end.
  SmallVector<Operation *> maybeUnused;
  // Outputs carried in f32 through the inner loops (outputsCarriedInF32).
  SmallVector<bool> carriedWide(op.getNumDpsInits(), false);
  if (!plan.inner.empty())
    carriedWide = outputsCarriedInF32(op);
  auto evaluate = [&](OpBuilder &ib, ArrayRef<Value> at,
                      ValueRange outs) -> SmallVector<Value> {
    IRMapping scalars, vectors;
    // The exact f32 vectors of bf16 body values that have one: outputs
    // carried wide, maxima and minima before their rounding.
    DenseMap<Value, Value> wide;
    auto asVector = [&](Value value) -> Value {
      if (Value vector = vectors.lookupOrNull(value))
        return vector;
      Value scalar = scalars.lookupOrDefault(value);
      if (scalar.getType().isBF16())
        return vector::BroadcastOp::create(
            ib, loc, bits,
            arith::BitcastOp::create(ib, loc, ib.getI16Type(), scalar));
      return vector::BroadcastOp::create(ib, loc, vectorOf(scalar.getType()),
                                         scalar);
    };
    for (OpOperand *input : op.getDpsInputOperands()) {
      BlockArgument arg = body->getArgument(input->getOperandNumber());
      if (arg.use_empty())
        continue;
      auto [value, isVector] = load(ib, *input, at);
      (isVector ? vectors : scalars).map(arg, value);
    }
    for (auto [k, init] : llvm::enumerate(op.getDpsInitsMutable())) {
      if (!outs[k])
        continue;
      BlockArgument arg = body->getArgument(init.getOperandNumber());
      if (carriedWide[k])
        wide[arg] = outs[k];
      else
        vectors.map(arg, outs[k]);
    }
    for (Operation &inner : body->without_terminator()) {
      if (auto index = dyn_cast<linalg::IndexOp>(inner)) {
        auto *it = llvm::find(plan.row, index.getDim());
        if (it == plan.row.end())
          scalars.map(index.getResult(), at[index.getDim()]);
        else
          vectors.map(index.getResult(),
                      rowIndices(ib, std::distance(plan.row.begin(), it)));
        continue;
      }
      bool varying = llvm::any_of(inner.getOperands(), [&](Value operand) {
        return vectors.contains(operand) || wide.contains(operand);
      });
      if (!varying) {
        ib.clone(inner, scalars);
        continue;
      }
      // A select of 16-bit floats moves bits: it selects i16 vectors
      // (bf16 vectors are bits already).
      if (auto select = dyn_cast<arith::SelectOp>(inner)) {
        Type element = select.getType();
        if (element.isF16() || element.isBF16()) {
          auto asBits = [&](Value value) {
            Value vector = asVector(value);
            return element.isBF16()
                       ? vector
                       : vector::BitCastOp::create(ib, loc, bits, vector)
                             .getResult();
          };
          Value condition =
              vectors.contains(select.getCondition())
                  ? vectors.lookup(select.getCondition())
                  : scalars.lookupOrDefault(select.getCondition());
          Value picked = arith::SelectOp::create(
              ib, loc, condition, asBits(select.getTrueValue()),
              asBits(select.getFalseValue()));
          vectors.map(select.getResult(),
                      element.isBF16() ? picked
                                       : vector::BitCastOp::create(
                                             ib, loc, vectorOf(element), picked)
                                             .getResult());
          continue;
        }
      }
      if (auto ext = dyn_cast<arith::ExtFOp>(inner);
          ext && ext.getIn().getType().isBF16()) {
        Value exact = wide.lookup(ext.getIn());
        vectors.map(ext.getResult(),
                    exact ? exact
                          : widenBF16Bits(ib, loc, asVector(ext.getIn())));
        continue;
      }
      if (auto trunc = dyn_cast<arith::TruncFOp>(inner);
          trunc && trunc.getType().isBF16()) {
        // The op itself on a vector (its rounding mode and fast-math
        // flags kept).
        OperationState state(loc, trunc->getName());
        state.addOperands(asVector(trunc.getIn()));
        state.addTypes(vectorOf(ib.getBF16Type()));
        state.addAttributes(trunc->getAttrs());
        if (isBF16Selection(trunc.getResult()))
          wide[trunc.getResult()] = asVector(trunc.getIn());
        Value bits = toBits(ib, ib.create(state)->getResult(0));
        vectors.map(trunc.getResult(), bits);
        maybeUnused.push_back(bits.getDefiningOp());
        continue;
      }
      // Any other op on bf16: in f32, its bf16 results rounded.
      auto wider = [](Type type) -> Type {
        return type.isBF16() ? Float32Type::get(type.getContext()) : type;
      };
      OperationState state(loc, inner.getName());
      for (OpOperand &operand : inner.getOpOperands()) {
        // arith.select takes one scalar condition for whole vectors.
        bool scalarCondition = isa<arith::SelectOp>(inner) &&
                               operand.getOperandNumber() == 0 &&
                               !vectors.contains(operand.get());
        if (Value exact = wide.lookup(operand.get())) {
          state.addOperands(exact);
          continue;
        }
        Value vector = scalarCondition ? scalars.lookupOrDefault(operand.get())
                                       : asVector(operand.get());
        state.addOperands(operand.get().getType().isBF16()
                              ? widenBF16Bits(ib, loc, vector)
                              : vector);
      }
      Type resultType = inner.getResult(0).getType();
      state.addTypes(vectorOf(wider(resultType)));
      state.addAttributes(inner.getAttrs());
      Value result = ib.create(state)->getResult(0);
      if (isBF16Selection(inner.getResult(0)))
        wide[inner.getResult(0)] = result;
      if (resultType.isBF16()) {
        Value bits = round(ib, result);
        maybeUnused.push_back(bits.getDefiningOp());
        result = bits;
      }
      vectors.map(inner.getResult(0), result);
    }
    SmallVector<Value> results;
    for (auto [k, yielded] :
         llvm::enumerate(body->getTerminator()->getOperands()))
      results.push_back(carriedWide[k] ? wide.lookup(yielded)
                                       : asVector(yielded));
    return results;
  };

  SmallVector<Value> outFinal;
  if (plan.inner.empty()) {
    outFinal = evaluate(b, ivs, outInit);
  } else {
    SmallVector<Range> ranges =
        cast<linalg::LinalgOp>(op.getOperation()).createLoopRanges(b, loc);
    SmallVector<Value> lbs, ubs, steps;
    loopBounds(b, loc, ranges, plan.inner, lbs, ubs, steps);
    // f16 vectors cross the loops as i16 vectors too, like bf16 ones.
    SmallVector<Type> outTypes;
    SmallVector<Value> carriedInit;
    for (auto [k, v] : llvm::enumerate(outInit)) {
      if (carriedWide[k]) {
        Value exact = widenBF16Bits(b, loc, v);
        outTypes.push_back(exact.getType());
        carriedInit.push_back(exact);
        continue;
      }
      auto type = cast<VectorType>(v.getType());
      outTypes.push_back(type);
      Type element = type.getElementType();
      carriedInit.push_back(
          element.isF16()
              ? vector::BitCastOp::create(b, loc, bits, v).getResult()
              : v);
    }
    auto fromCarried = [&](OpBuilder &cb, ValueRange values) {
      SmallVector<Value> out;
      for (auto [v, type] : llvm::zip_equal(values, outTypes))
        out.push_back(
            v.getType() == type
                ? v
                : vector::BitCastOp::create(cb, loc, type, v).getResult());
      return out;
    };
    scf::LoopNest nest = scf::buildLoopNest(
        b, loc, lbs, ubs, steps, carriedInit,
        [&](OpBuilder &nb, Location, ValueRange innerIvs,
            ValueRange outs) -> scf::ValueVector {
          SmallVector<Value> at = ivs;
          for (auto [loop, iv] : llvm::zip_equal(plan.inner, innerIvs))
            at[loop] = iv;
          SmallVector<Value> results = evaluate(nb, at, fromCarried(nb, outs));
          scf::ValueVector yielded;
          for (auto [v, init] : llvm::zip_equal(results, carriedInit))
            yielded.push_back(
                v.getType() == init.getType()
                    ? v
                    : vector::BitCastOp::create(nb, loc, init.getType(), v)
                          .getResult());
          return yielded;
        });
    outFinal = fromCarried(b, nest.results);
    for (size_t k = 0; k < outFinal.size(); ++k)
      if (carriedWide[k])
        outFinal[k] = round(b, outFinal[k]);
  }
  for (auto [k, init] : llvm::enumerate(op.getDpsInitsMutable())) {
    Value value = outFinal[k];
    if (getElementTypeOrSelf(init.get().getType()).isBF16())
      value = fromBits(b, value);
    vector::StoreOp::create(
        b, loc, value, init.get(),
        indicesAtLoops(b, loc, op.getMatchingIndexingMap(&init), ivs));
  }
  for (Operation *bitcast : maybeUnused) {
    if (!bitcast->use_empty())
      continue;
    Operation *rounding = bitcast->getOperand(0).getDefiningOp();
    bitcast->erase();
    if (rounding->use_empty())
      rounding->erase();
  }
}

/// Lowers `op` by `plan`.
static void lowerToRowVectors(linalg::GenericOp op, const RowPlan &plan,
                              RewriterBase &rewriter) {
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  SmallVector<Range> ranges =
      cast<linalg::LinalgOp>(op.getOperation()).createLoopRanges(rewriter, loc);
  // createLoopRanges starts every loop at 0, step 1.
  SmallVector<Value> lbs, ubs, steps;
  loopBounds(rewriter, loc, ranges, plan.outer, lbs, ubs, steps);
  Value rowSize = getValueOrCreateConstantIndexOp(rewriter, loc,
                                                  ranges[plan.row.back()].size);
  unsigned numLoops = op.getNumLoops();
  scf::buildLoopNest(
      rewriter, loc, lbs, ubs, steps,
      [&](OpBuilder &b, Location l, ValueRange outerIvs) {
        SmallVector<Value> ivs(numLoops);
        for (auto [loop, iv] : llvm::zip_equal(plan.outer, outerIvs))
          ivs[loop] = iv;
        unsigned rowLoop = plan.row.back();
        // `lanes` lanes at a time from `from` to `to` by an scf.for (a
        // one-loop row).
        auto vectorLoop = [&](Value from, Value to, int64_t lanes) {
          Value step = arith::ConstantIndexOp::create(b, l, lanes);
          scf::ForOp::create(
              b, l, from, to, step, ValueRange(),
              [&](OpBuilder &fb, Location fl, Value iv, ValueRange) {
                SmallVector<Value> at = ivs;
                at[rowLoop] = iv;
                emitRowVector(fb, fl, op, plan, at, std::nullopt, lanes);
                scf::YieldOp::create(fb, fl);
              });
        };
        if (ShapedType::isDynamic(plan.lanes)) {
          // Vectors of 16, then the rest one element at a time.
          Value lanes = arith::ConstantIndexOp::create(b, l, kLanes);
          Value rest = arith::RemUIOp::create(b, l, rowSize, lanes);
          Value split = arith::SubIOp::create(b, l, rowSize, rest);
          vectorLoop(arith::ConstantIndexOp::create(b, l, 0), split, kLanes);
          vectorLoop(split, rowSize, 1);
          return;
        }
        int64_t full = plan.lanes / kLanes;
        int64_t first = 0;
        if (plan.row.size() == 1 && full > 1) {
          vectorLoop(arith::ConstantIndexOp::create(b, l, 0),
                     arith::ConstantIndexOp::create(b, l, full * kLanes),
                     kLanes);
          first = full * kLanes;
        }
        for (auto [start, width] : chunksOf(plan.lanes - first)) {
          SmallVector<Value> at = ivs;
          for (auto [i, loop] : llvm::enumerate(plan.row))
            at[loop] = arith::ConstantIndexOp::create(
                b, l, laneValue(plan, i, first + start));
          emitRowVector(b, l, op, plan, at, first + start, width);
        }
      });
  rewriter.eraseOp(op);
}

/// Whether every op of `body` but `skip` and the terminator is an f32
/// elementwise, vectorizable op with one result (or a constant) or an
/// `arith.extf` of a block argument to f32 (a bf16/f16 input widened).
static bool isF32ElementwiseBody(Block *body, Operation *skip = nullptr) {
  for (Operation &inner : body->without_terminator()) {
    if (&inner == skip)
      continue;
    if (auto ext = dyn_cast<arith::ExtFOp>(inner)) {
      if (!isa<BlockArgument>(ext.getIn()) || !ext.getType().isF32())
        return false;
      continue;
    }
    if (inner.getNumRegions() || inner.getNumResults() != 1 ||
        (!isa<arith::ConstantOp>(inner) &&
         (!inner.hasTrait<OpTrait::Elementwise>() ||
          !inner.hasTrait<OpTrait::Vectorizable>())))
      return false;
    for (Type type :
         llvm::concat<Type>(inner.getOperandTypes(), inner.getResultTypes()))
      if (!type.isF32())
        return false;
  }
  return true;
}

/// An op whose rows run along its reduction: one output, every loop
/// parallel but the last, a reduction of static extent >= kShortestRow
/// that the output does not index, a body that yields
/// `arith.maximumf`/`arith.minimumf` (f32) of the output's element and a
/// value computed from the inputs by f32 elementwise ops (an input of bf16
/// or f16 widened by `arith.extf` first), and inputs read contiguous or
/// uniform along the reduction, sharing no bytes with the output. A
/// softmax's row maximum.
struct ReductionRow {
  unsigned last;
  int64_t extent;
  Operation *combiner;
  RowPlan plan; ///< row = {last}: the inputs' accesses (classify)
};

static std::optional<ReductionRow> planReductionRow(linalg::GenericOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInits() != 1 ||
      op.getNumLoops() < 2)
    return std::nullopt;
  SmallVector<utils::IteratorType> iters = op.getIteratorTypesArray();
  SmallVector<int64_t> extents = op.getStaticLoopRanges();
  unsigned last = op.getNumLoops() - 1;
  for (unsigned loop = 0; loop < last; ++loop)
    if (iters[loop] != utils::IteratorType::parallel)
      return std::nullopt;
  if (iters[last] != utils::IteratorType::reduction ||
      ShapedType::isDynamic(extents[last]) || extents[last] < kShortestRow)
    return std::nullopt;
  OpOperand &init = *op.getDpsInitsMutable().begin();
  if (op.getMatchingIndexingMap(&init).isFunctionOfDim(last) ||
      !isa<MemRefType>(init.get().getType()))
    return std::nullopt;
  Block *body = op.getBlock();
  BlockArgument out = body->getArgument(init.getOperandNumber());
  Operation *combiner = body->getTerminator()->getOperand(0).getDefiningOp();
  if (!combiner || !isa<arith::MaximumFOp, arith::MinimumFOp>(combiner) ||
      combiner->getBlock() != body || !out.getType().isF32() ||
      !out.hasOneUse() || out.getUses().begin()->getOwner() != combiner)
    return std::nullopt;
  if (!isF32ElementwiseBody(body, combiner))
    return std::nullopt;
  ReductionRow row{last, extents[last], combiner, RowPlan()};
  row.plan.row = {last};
  row.plan.rowExtents = {extents[last]};
  row.plan.lanes = extents[last];
  row.plan.access.assign(op->getNumOperands(), RowAccess::Uniform);
  row.plan.offsets.resize(op->getNumOperands());
  for (OpOperand *input : op.getDpsInputOperands()) {
    if (!isa<MemRefType>(input->get().getType()))
      continue;
    if (failed(classify(op, *input, row.plan)) ||
        row.plan.access[input->getOperandNumber()] == RowAccess::Shuffled ||
        mayShareBytes(input->get(), init.get()))
      return std::nullopt;
  }
  return row;
}

/// `value` as a vector of `width` lanes: its vector in `vectors`, else its
/// scalar (in `scalars`, or itself) broadcast.
static Value asVector(OpBuilder &b, Location loc, Value value,
                      IRMapping &scalars, IRMapping &vectors, int64_t width) {
  if (Value v = vectors.lookupOrNull(value))
    return v;
  Value scalar = scalars.lookupOrDefault(value);
  return vector::BroadcastOp::create(
      b, loc, VectorType::get({width}, scalar.getType()), scalar);
}

/// Emits the body op `inner` (one result, elementwise) at `b`: cloned on
/// scalars (`scalars`) where none of its operands is in `vectors`, else
/// rebuilt on vectors of `width` lanes (asVector), its result mapped in
/// `vectors`.
static void emitOnVectors(OpBuilder &b, Location loc, Operation &inner,
                          IRMapping &scalars, IRMapping &vectors,
                          int64_t width) {
  bool varying = llvm::any_of(inner.getOperands(),
                              [&](Value v) { return vectors.contains(v); });
  if (!varying) {
    b.clone(inner, scalars);
    return;
  }
  OperationState state(loc, inner.getName());
  for (Value operand : inner.getOperands())
    state.addOperands(asVector(b, loc, operand, scalars, vectors, width));
  state.addTypes(VectorType::get({width}, inner.getResult(0).getType()));
  state.addAttributes(inner.getAttrs());
  vectors.map(inner.getResult(0), b.create(state)->getResult(0));
}

/// Lowers `op` by `row`: loops over the parallel loops; in each, the
/// reduction in vectors of 16 lanes and the rest, each vector reduced
/// horizontally (`vector.reduction`) and combined into the output element
/// in order. A maximum or minimum is exact and order-independent, so the
/// result is the same bits as the loop's (but for which NaN's payload).
static void lowerReductionRow(linalg::GenericOp op, const ReductionRow &row,
                              RewriterBase &rewriter) {
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  SmallVector<Range> ranges =
      cast<linalg::LinalgOp>(op.getOperation()).createLoopRanges(rewriter, loc);
  SmallVector<unsigned> outer;
  for (unsigned loop = 0; loop < row.last; ++loop)
    outer.push_back(loop);
  SmallVector<Value> lbs, ubs, steps;
  loopBounds(rewriter, loc, ranges, outer, lbs, ubs, steps);
  Block *body = op.getBlock();
  OpOperand &init = *op.getDpsInitsMutable().begin();
  auto kind = isa<arith::MaximumFOp>(row.combiner)
                  ? vector::CombiningKind::MAXIMUMF
                  : vector::CombiningKind::MINIMUMF;
  scf::buildLoopNest(
      rewriter, loc, lbs, ubs, steps,
      [&](OpBuilder &b, Location l, ValueRange outerIvs) {
        // (The output's map does not use the reduction loop; its value
        // here is only an operand that the map ignores.)
        SmallVector<Value> ivs(outerIvs);
        ivs.push_back(arith::ConstantIndexOp::create(b, l, 0));
        SmallVector<Value> outIndices =
            indicesAtLoops(b, l, op.getMatchingIndexingMap(&init), ivs);
        Value acc = memref::LoadOp::create(b, l, init.get(), outIndices);
        for (auto [start, width] : chunksOf(row.extent)) {
          ivs.back() = arith::ConstantIndexOp::create(b, l, start);
          auto vectorOf = [&](Type t) { return VectorType::get({width}, t); };
          IRMapping scalars, vectors;
          for (OpOperand *input : op.getDpsInputOperands()) {
            BlockArgument arg = body->getArgument(input->getOperandNumber());
            if (!isa<MemRefType>(input->get().getType())) {
              scalars.map(arg, input->get());
              continue;
            }
            SmallVector<Value> at =
                indicesAtLoops(b, l, op.getMatchingIndexingMap(input), ivs);
            if (row.plan.access[input->getOperandNumber()] ==
                RowAccess::Uniform) {
              scalars.map(arg, memref::LoadOp::create(b, l, input->get(), at));
              continue;
            }
            Value v = vector::LoadOp::create(b, l, vectorOf(arg.getType()),
                                             input->get(), at);
            if (arg.getType().isBF16()) {
              v = widenLoaded(b, l, v); // exactly, as bits
              // The block argument's extf becomes the identity.
              for (Operation *user : arg.getUsers())
                vectors.map(user->getResult(0), v);
              continue;
            }
            vectors.map(arg, v);
          }
          Value folded;
          for (Operation &inner : body->without_terminator()) {
            if (vectors.contains(inner.getResult(0)))
              continue; // a widened bf16 input
            if (&inner == row.combiner) {
              Value other = inner.getOperand(0) ==
                                    body->getArgument(init.getOperandNumber())
                                ? inner.getOperand(1)
                                : inner.getOperand(0);
              folded = vector::ReductionOp::create(
                  b, l, kind, asVector(b, l, other, scalars, vectors, width));
              continue;
            }
            emitOnVectors(b, l, inner, scalars, vectors, width);
          }
          OperationState combine(l, row.combiner->getName());
          combine.addOperands({acc, folded});
          combine.addTypes(acc.getType());
          combine.addAttributes(row.combiner->getAttrs());
          acc = b.create(combine)->getResult(0);
        }
        memref::StoreOp::create(b, l, acc, init.get(), outIndices);
      });
  rewriter.eraseOp(op);
}

/// Whether no two elements of `type` share an address: static strides
/// and, from the innermost, each dimension's stride at least the span of
/// the dimensions inside it (their sizes static, but the outermost's).
static bool hasDisjointElements(MemRefType type) {
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)) ||
      llvm::any_of(strides, ShapedType::isDynamic))
    return false;
  SmallVector<unsigned> order(type.getRank());
  std::iota(order.begin(), order.end(), 0);
  llvm::stable_sort(
      order, [&](unsigned a, unsigned b) { return strides[a] < strides[b]; });
  int64_t span = 1; // the elements the dimensions inside reach
  for (unsigned d : order) {
    int64_t size = type.getDimSize(d);
    if (size == 1)
      continue;
    if (strides[d] < span)
      return false;
    if (ShapedType::isDynamic(size))
      return d == order.back();
    span = strides[d] * (size - 1) + span;
  }
  return true;
}

/// Longest reduction the transposed form unrolls (its vectors per output
/// block are the reduction's length).
constexpr int64_t kLongestTransposedReduction = 64;

namespace {
/// An op with one reduction loop, which its inputs read contiguously, and
/// a parallel loop along which its output is contiguous: blocks of 16
/// outputs along that loop are computed together, each lane one output's
/// reduction in the loop's order. A softmax's row sum and row maximum over
/// 28 keys, the rowsum(dP * P) of its gradient.
struct TransposedReduction {
  unsigned reduction; ///< the reduction loop
  unsigned lane;      ///< the parallel loop of the output's last dimension
  int64_t extent;     ///< the reduction's (static)
  RowPlan alongReduction, alongLanes; ///< each operand's access (classify)
};
} // namespace

/// The plan for `op`: one output of f32 with a unit-stride last dimension
/// indexed by a parallel loop of dynamic or static extent >= 8 (the
/// lanes: amp-cpu-parallelize's chunks of rows are dynamic); one
/// reduction loop of static extent in [kShortestRow,
/// kLongestTransposedReduction]; every other loop parallel; inputs of f32,
/// bf16 or f16 (the latter two only widened by `arith.extf`) that are read
/// either contiguously along the reduction (any layout along the lanes:
/// one load per lane) or not along the reduction at all (then contiguous
/// or uniform along the lanes), and share no bytes with the output; a body
/// of f32 elementwise ops. Nullopt otherwise.
static std::optional<TransposedReduction>
planTransposedReduction(linalg::GenericOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInits() != 1 ||
      op.getNumReductionLoops() != 1)
    return std::nullopt;
  SmallVector<int64_t> extents = op.getStaticLoopRanges();
  SmallVector<unsigned> reductions;
  op.getReductionDims(reductions);
  unsigned reduction = reductions.front();
  if (ShapedType::isDynamic(extents[reduction]) ||
      extents[reduction] < kShortestRow ||
      extents[reduction] > kLongestTransposedReduction)
    return std::nullopt;
  OpOperand &init = *op.getDpsInitsMutable().begin();
  auto outType = dyn_cast<MemRefType>(init.get().getType());
  AffineMap outMap = op.getMatchingIndexingMap(&init);
  SmallVector<int64_t> outStrides;
  int64_t outOffset;
  if (!outType || !outType.getElementType().isF32() ||
      outMap.getNumResults() == 0 ||
      failed(outType.getStridesAndOffset(outStrides, outOffset)) ||
      outStrides.back() != 1)
    return std::nullopt;
  // The output is indexed by every parallel loop, each a dimension of its
  // own, and not by the reduction (a loop it ignores would accumulate in
  // another order); its elements do not overlap (static strides, each
  // dimension's stride at least the extent of the ones inside it).
  auto laneDim = dyn_cast<AffineDimExpr>(outMap.getResults().back());
  if (!laneDim || !outMap.isProjectedPermutation() ||
      outMap.getNumResults() != op.getNumLoops() - 1 ||
      outMap.isFunctionOfDim(reduction) || !hasDisjointElements(outType))
    return std::nullopt;
  unsigned lane = laneDim.getPosition();
  if (!ShapedType::isDynamic(extents[lane]) && extents[lane] < 8)
    return std::nullopt;
  Block *body = op.getBlock();
  if (!isF32ElementwiseBody(body))
    return std::nullopt;
  TransposedReduction plan{reduction, lane, extents[reduction], RowPlan(),
                           RowPlan()};
  auto start = [&](RowPlan &row, unsigned loop) {
    row.row = {loop};
    row.rowExtents = {extents[loop]};
    row.lanes = extents[loop];
    row.access.assign(op->getNumOperands(), RowAccess::Uniform);
    row.offsets.resize(op->getNumOperands());
  };
  start(plan.alongReduction, reduction);
  start(plan.alongLanes, lane);
  for (OpOperand *input : op.getDpsInputOperands()) {
    BlockArgument arg = body->getArgument(input->getOperandNumber());
    Type elem = arg.getType();
    if (!elem.isF32() && (!(elem.isBF16() || elem.isF16()) ||
                          !llvm::all_of(arg.getUsers(), [](Operation *user) {
                            return isa<arith::ExtFOp>(user);
                          })))
      return std::nullopt;
    if (!isa<MemRefType>(input->get().getType()))
      continue;
    unsigned number = input->getOperandNumber();
    if (failed(classify(op, *input, plan.alongReduction)) ||
        mayShareBytes(input->get(), init.get()))
      return std::nullopt;
    RowAccess along = plan.alongReduction.access[number];
    if (along == RowAccess::Shuffled)
      return std::nullopt;
    if (along == RowAccess::Uniform &&
        (failed(classify(op, *input, plan.alongLanes)) ||
         plan.alongLanes.access[number] == RowAccess::Shuffled))
      return std::nullopt;
  }
  // Worth it only where an input runs along the reduction (else LLVM's
  // loop vectorizer does the same along the lanes).
  if (llvm::none_of(op.getDpsInputOperands(), [&](OpOperand *input) {
        return isa<MemRefType>(input->get().getType()) &&
               plan.alongReduction.access[input->getOperandNumber()] ==
                   RowAccess::Contiguous;
      }))
    return std::nullopt;
  return plan;
}

/// Lowers `op` by `plan`: loops over the other parallel loops; in each,
/// blocks of 16 lanes (and one of the rest). A block loads its outputs as
/// one vector; per chunk of 16 reduction steps, each input read along the
/// reduction is loaded as one vector per lane and transposed in registers
/// (transposeInRegisters), so that vector t holds step t of every lane's
/// reduction; the body then runs on those vectors, step after step, its
/// output vector carried from one to the next. Each output sees the same
/// operations in the same order as in the loop: the same bits.
static void lowerTransposedReduction(linalg::GenericOp op,
                                     const TransposedReduction &plan,
                                     RewriterBase &rewriter) {
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  SmallVector<Range> ranges =
      cast<linalg::LinalgOp>(op.getOperation()).createLoopRanges(rewriter, loc);
  SmallVector<unsigned> outer;
  for (unsigned loop = 0; loop < op.getNumLoops(); ++loop)
    if (loop != plan.reduction && loop != plan.lane)
      outer.push_back(loop);
  SmallVector<Value> lbs, ubs, steps;
  loopBounds(rewriter, loc, ranges, outer, lbs, ubs, steps);
  Block *body = op.getBlock();
  OpOperand &init = *op.getDpsInitsMutable().begin();
  BlockArgument out = body->getArgument(init.getOperandNumber());
  Value yielded = body->getTerminator()->getOperand(0);

  // One block of lanes from lane `first`: 16 (`width` null), or `width`
  // < 16 (the last block; every access masked).
  auto emitBlock = [&](OpBuilder &b, Location l, ArrayRef<Value> outerIvs,
                       Value first, Value width) {
    auto index = [&](int64_t v) {
      return arith::ConstantIndexOp::create(b, l, v).getResult();
    };
    auto maskOf = [&](Value count) -> Value {
      return vector::CreateMaskOp::create(
          b, l, VectorType::get({kLanes}, b.getI1Type()), ValueRange{count});
    };
    SmallVector<Value> ivs(op.getNumLoops());
    for (auto [loop, iv] : llvm::zip_equal(outer, outerIvs))
      ivs[loop] = iv;
    ivs[plan.lane] = first;
    ivs[plan.reduction] = index(0);
    Value mask = width ? maskOf(width) : Value();
    // A vector of 16 lanes along the lanes from `at` (masked to `width`).
    auto loadLanes = [&](Value memref, ArrayRef<Value> at) -> Value {
      auto type =
          VectorType::get({kLanes}, getElementTypeOrSelf(memref.getType()));
      if (!mask)
        return vector::LoadOp::create(b, l, type, memref, at);
      Value zeros = arith::ConstantOp::create(b, l, b.getZeroAttr(type));
      return vector::MaskedLoadOp::create(b, l, type, memref, at, mask, zeros);
    };
    SmallVector<Value> outIndices =
        indicesAtLoops(b, l, op.getMatchingIndexingMap(&init), ivs);
    Value acc = loadLanes(init.get(), outIndices);
    // The inputs that do not run along the reduction: once per block.
    IRMapping fixedScalars, fixedVectors;
    for (OpOperand *input : op.getDpsInputOperands()) {
      BlockArgument arg = body->getArgument(input->getOperandNumber());
      unsigned number = input->getOperandNumber();
      if (!isa<MemRefType>(input->get().getType())) {
        fixedScalars.map(arg, input->get());
        continue;
      }
      if (plan.alongReduction.access[number] != RowAccess::Uniform)
        continue;
      SmallVector<Value> at =
          indicesAtLoops(b, l, op.getMatchingIndexingMap(input), ivs);
      if (plan.alongLanes.access[number] == RowAccess::Uniform) {
        fixedScalars.map(arg, memref::LoadOp::create(b, l, input->get(), at));
        continue;
      }
      Value v = widenLoaded(b, l, loadLanes(input->get(), at));
      if (arg.getType().isF32())
        fixedVectors.map(arg, v);
      else // its extf's become the identity
        for (Operation *user : arg.getUsers())
          fixedVectors.map(user->getResult(0), v);
    }
    for (auto [chunk, count] : chunksOf(plan.extent)) {
      // Per input along the reduction: its `count` steps, transposed.
      DenseMap<unsigned, SmallVector<Value>> steps;
      for (OpOperand *input : op.getDpsInputOperands()) {
        unsigned number = input->getOperandNumber();
        if (!isa<MemRefType>(input->get().getType()) ||
            plan.alongReduction.access[number] != RowAccess::Contiguous)
          continue;
        Type elem = getElementTypeOrSelf(input->get().getType());
        auto type = VectorType::get({kLanes}, elem);
        SmallVector<Value> rows;
        for (int64_t r = 0; r < kLanes; ++r) {
          SmallVector<Value> at = ivs;
          at[plan.lane] = arith::AddIOp::create(b, l, first, index(r));
          at[plan.reduction] = index(chunk);
          SmallVector<Value> indices =
              indicesAtLoops(b, l, op.getMatchingIndexingMap(input), at);
          // Lane r's steps of this chunk: none past the last lane.
          Value chunkMask;
          if (width)
            chunkMask = maskOf(arith::SelectOp::create(
                b, l,
                arith::CmpIOp::create(b, l, arith::CmpIPredicate::ult, index(r),
                                      width),
                index(count), index(0)));
          else if (count < kLanes)
            chunkMask = maskOf(index(count));
          Value row;
          if (!chunkMask)
            row = vector::LoadOp::create(b, l, type, input->get(), indices);
          else
            row = vector::MaskedLoadOp::create(
                b, l, type, input->get(), indices, chunkMask,
                arith::ConstantOp::create(b, l, b.getZeroAttr(type)));
          rows.push_back(widenLoaded(b, l, row));
        }
        transposeInRegisters(b, l, rows);
        steps[number] = std::move(rows);
      }
      for (int64_t t = 0; t < count; ++t) {
        IRMapping scalars = fixedScalars, vectors = fixedVectors;
        vectors.map(out, acc);
        for (auto &[number, columns] : steps) {
          BlockArgument arg = body->getArgument(number);
          if (arg.getType().isF32())
            vectors.map(arg, columns[t]);
          else
            for (Operation *user : arg.getUsers())
              vectors.map(user->getResult(0), columns[t]);
        }
        for (Operation &inner : body->without_terminator())
          if (!vectors.contains(inner.getResult(0)))
            emitOnVectors(b, l, inner, scalars, vectors, kLanes);
        acc = asVector(b, l, yielded, scalars, vectors, kLanes);
      }
    }
    if (mask)
      vector::MaskedStoreOp::create(b, l, init.get(), outIndices, mask, acc);
    else
      vector::StoreOp::create(b, l, acc, init.get(), outIndices);
  };

  Value lanes =
      getValueOrCreateConstantIndexOp(rewriter, loc, ranges[plan.lane].size);
  scf::buildLoopNest(
      rewriter, loc, lbs, ubs, steps,
      [&](OpBuilder &b, Location l, ValueRange outerIvs) {
        SmallVector<Value> ivs(outerIvs);
        Value sixteen = arith::ConstantIndexOp::create(b, l, kLanes);
        Value rest = b.createOrFold<arith::RemUIOp>(l, lanes, sixteen);
        Value full = b.createOrFold<arith::SubIOp>(l, lanes, rest);
        scf::ForOp::create(
            b, l, arith::ConstantIndexOp::create(b, l, 0), full, sixteen,
            ValueRange{},
            [&](OpBuilder &nb, Location nl, Value first, ValueRange) {
              emitBlock(nb, nl, ivs, first, Value());
              scf::YieldOp::create(nb, nl);
            });
        // The last block, where the lanes are not a multiple of 16.
        std::optional<int64_t> staticRest = getConstantIntValue(rest);
        if (staticRest && *staticRest == 0)
          return;
        Value some =
            arith::CmpIOp::create(b, l, arith::CmpIPredicate::ne, rest,
                                  arith::ConstantIndexOp::create(b, l, 0));
        scf::IfOp::create(b, l, some, [&](OpBuilder &nb, Location nl) {
          emitBlock(nb, nl, ivs, full, rest);
          scf::YieldOp::create(nb, nl);
        });
      });
  rewriter.eraseOp(op);
}

namespace {
struct CPUVectorizeRowsPass
    : amp::impl::CPUVectorizeRowsBase<CPUVectorizeRowsPass> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    // Copies, fills, maps and poolings as the generics they are (a
    // padding copy of an f16 image is a row of 16-bit moves; a max pooling
    // a row of window maxima).
    SmallVector<linalg::LinalgOp> named;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (isa<linalg::CopyOp, linalg::FillOp, linalg::MapOp,
              linalg::PoolingNchwMaxOp, linalg::PoolingNchwSumOp,
              linalg::PoolingNhwcMaxOp, linalg::PoolingNhwcSumOp>(op) &&
          op.hasPureBufferSemantics())
        named.push_back(op);
    });
    for (linalg::LinalgOp op : named) {
      rewriter.setInsertionPoint(op);
      (void)linalg::generalizeNamedOp(rewriter, op);
    }
    std::vector<std::pair<linalg::GenericOp, RowPlan>> work;
    std::vector<std::pair<linalg::GenericOp, ReductionRow>> reductions;
    std::vector<std::pair<linalg::GenericOp, TransposedReduction>> transposed;
    getOperation().walk([&](linalg::GenericOp op) {
      if (std::optional<RowPlan> plan = planRows(op))
        work.emplace_back(op, std::move(*plan));
      else if (std::optional<TransposedReduction> t =
                   planTransposedReduction(op))
        transposed.emplace_back(op, std::move(*t));
      else if (std::optional<ReductionRow> row = planReductionRow(op))
        reductions.emplace_back(op, std::move(*row));
    });
    for (auto &[op, plan] : work)
      lowerToRowVectors(op, plan, rewriter);
    for (auto &[op, plan] : transposed)
      lowerTransposedReduction(op, plan, rewriter);
    for (auto &[op, row] : reductions)
      lowerReductionRow(op, row, rewriter);
  }
};
} // namespace
