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
#include "amp/Analysis/BufferUses.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"

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
/// nothing).
constexpr int64_t kShortestRow = 4;

/// Rows at least this long whose values are not f16 are left to LLVM's
/// loop vectorizer, which handles them (the contiguous elementwise ops
/// that amp-cpu-collapse-contiguous-loops merged into long loops).
constexpr int64_t kLongRow = 64;

/// How `expr` (one result of an indexing map) depends on loop `dim`.
enum class RowAccess { None, Unit, Other };

static RowAccess rowAccess(AffineExpr expr, unsigned dim) {
  if (!expr.isFunctionOfDim(dim))
    return RowAccess::None;
  if (!expr.isPureAffine())
    return RowAccess::Other;
  // Affine in `dim`: one step of `dim` moves the index by a constant.
  AffineExpr d = getAffineDimExpr(dim, expr.getContext());
  AffineExpr step = simplifyAffineExpr(expr.replace(d, d + 1) - expr,
                                       /*numDims=*/dim + 1, /*numSymbols=*/0);
  auto constant = dyn_cast<AffineConstantExpr>(step);
  return constant && constant.getValue() == 1 ? RowAccess::Unit
                                              : RowAccess::Other;
}

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

static bool hasInnermostUnitStride(MemRefType type) {
  SmallVector<int64_t> strides;
  int64_t offset;
  if (type.getRank() == 0 || failed(type.getStridesAndOffset(strides, offset)))
    return false;
  return strides.back() == 1;
}

/// The innermost row's extent (ShapedType::kDynamic where it is not
/// static) when `op` is lowered by this pass, else nullopt (the conditions
/// of the pass description).
static std::optional<int64_t> rowToVectorize(linalg::GenericOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumLoops() == 0 ||
      op.getNumDpsInits() == 0)
    return std::nullopt;
  unsigned row = op.getNumLoops() - 1;
  if (op.getIteratorTypesArray().back() != utils::IteratorType::parallel)
    return std::nullopt;
  int64_t width = op.getStaticLoopRanges().back();
  bool dynamic = ShapedType::isDynamic(width);
  if (!dynamic && width < kShortestRow)
    return std::nullopt;

  bool f16 = false;
  auto noteType = [&](Type type) { f16 |= getElementTypeOrSelf(type).isF16(); };
  Block *body = op.getBlock();
  for (Operation &inner : body->without_terminator()) {
    if (isa<linalg::IndexOp>(inner))
      continue;
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

  for (OpOperand &operand : op->getOpOperands()) {
    Type type = operand.get().getType();
    noteType(type);
    auto memref = dyn_cast<MemRefType>(type);
    bool isInit = op.isDpsInit(&operand);
    if (!memref) {
      if (isInit)
        return std::nullopt;
      continue; // a scalar input: broadcast
    }
    // `i1` is read one element at a time (static rows only), never
    // written: a vector of it is packed into bits in memory.
    Type element = memref.getElementType();
    if (!isVectorMemoryType(element) &&
        !(element.isInteger(1) && !isInit && !dynamic))
      return std::nullopt;
    ArrayRef<AffineExpr> results =
        op.getMatchingIndexingMap(&operand).getResults();
    RowAccess last =
        results.empty() ? RowAccess::None : rowAccess(results.back(), row);
    if (!results.empty() &&
        llvm::any_of(results.drop_back(), [&](AffineExpr expr) {
          return expr.isFunctionOfDim(row);
        }))
      return std::nullopt;
    if (last == RowAccess::Other || (isInit && last != RowAccess::Unit))
      return std::nullopt;
    if (last == RowAccess::Unit && !hasInnermostUnitStride(memref))
      return std::nullopt;
  }

  // A vector reads its W elements of every operand before it writes any.
  for (OpOperand &init : op.getDpsInitsMutable())
    for (OpOperand &other : op->getOpOperands()) {
      if (&other == &init || !isa<MemRefType>(other.get().getType()))
        continue;
      bool sameElements =
          other.get() == init.get() && !op.isDpsInit(&other) &&
          op.getMatchingIndexingMap(&other) == op.getMatchingIndexingMap(&init);
      if (!sameElements && mayShareBytes(other.get(), init.get()))
        return std::nullopt;
    }

  if ((dynamic || width >= kLongRow) && !f16)
    return std::nullopt;
  return width;
}

/// Emits one vector of `width` elements of `op`'s row starting at
/// `ivs.back()`: the operands loaded (or broadcast), the body, the yielded
/// values stored. Body values that do not depend on the row (a per-channel
/// scale, a window's row bounds) stay scalars, computed once per vector;
/// the others are vectors.
static void emitRowVector(OpBuilder &b, Location loc, linalg::GenericOp op,
                          ArrayRef<Value> ivs, int64_t width) {
  unsigned row = op.getNumLoops() - 1;
  Block *body = op.getBlock();
  IRMapping scalars, vectors;
  auto vectorOf = [&](Type scalar) { return VectorType::get({width}, scalar); };
  // A body value as a vector: its vector, or its scalar broadcast.
  auto asVector = [&](Value value) -> Value {
    if (Value vector = vectors.lookupOrNull(value))
      return vector;
    Value scalar = scalars.lookupOrDefault(value);
    return vector::BroadcastOp::create(b, loc, vectorOf(scalar.getType()),
                                       scalar);
  };
  for (OpOperand &operand : op->getOpOperands()) {
    BlockArgument arg = body->getArgument(operand.getOperandNumber());
    if (arg.use_empty())
      continue;
    Value source = operand.get();
    if (!isa<MemRefType>(source.getType())) {
      scalars.map(arg, source);
      continue;
    }
    AffineMap map = op.getMatchingIndexingMap(&operand);
    SmallVector<Value> indices = indicesAtLoops(b, loc, map, ivs);
    bool alongRow =
        map.getNumResults() && map.getResults().back().isFunctionOfDim(row);
    if (!alongRow) {
      scalars.map(arg, memref::LoadOp::create(b, loc, source, indices));
    } else if (arg.getType().isInteger(1)) {
      // One element at a time: in memory an i1 takes a byte, in a vector a
      // bit.
      SmallVector<Value> elements;
      for (int64_t i = 0; i < width; ++i) {
        SmallVector<Value> at = indices;
        at.back() = affine::AffineApplyOp::create(
            b, loc, getAffineDimExpr(0, b.getContext()) + i, at.back());
        elements.push_back(memref::LoadOp::create(b, loc, source, at));
      }
      vectors.map(arg, vector::FromElementsOp::create(
                           b, loc, vectorOf(arg.getType()), elements));
    } else {
      vectors.map(arg, vector::LoadOp::create(b, loc, vectorOf(arg.getType()),
                                              source, indices));
    }
  }
  for (Operation &inner : body->without_terminator()) {
    if (auto index = dyn_cast<linalg::IndexOp>(inner)) {
      if (index.getDim() != row) {
        scalars.map(index.getResult(), ivs[index.getDim()]);
        continue;
      }
      // The row's indices: its start plus 0, 1, ..., width - 1.
      Value start = vector::BroadcastOp::create(
          b, loc, vectorOf(b.getIndexType()), ivs.back());
      Value step = vector::StepOp::create(b, loc, vectorOf(b.getIndexType()));
      vectors.map(index.getResult(),
                  arith::AddIOp::create(b, loc, start, step));
      continue;
    }
    bool varying = llvm::any_of(inner.getOperands(), [&](Value operand) {
      return vectors.contains(operand);
    });
    if (!varying) {
      b.clone(inner, scalars);
      continue;
    }
    OperationState state(loc, inner.getName());
    for (OpOperand &operand : inner.getOpOperands()) {
      // arith.select takes one scalar condition for whole vectors.
      bool scalarCondition = isa<arith::SelectOp>(inner) &&
                             operand.getOperandNumber() == 0 &&
                             !vectors.contains(operand.get());
      state.addOperands(scalarCondition ? scalars.lookupOrDefault(operand.get())
                                        : asVector(operand.get()));
    }
    state.addTypes(vectorOf(inner.getResult(0).getType()));
    state.addAttributes(inner.getAttrs());
    vectors.map(inner.getResult(0), b.create(state)->getResult(0));
  }
  for (auto [k, yielded] :
       llvm::enumerate(body->getTerminator()->getOperands())) {
    OpOperand &init = op.getDpsInitsMutable()[k];
    vector::StoreOp::create(
        b, loc, asVector(yielded), init.get(),
        indicesAtLoops(b, loc, op.getMatchingIndexingMap(&init), ivs));
  }
}

/// Lowers `op`, whose innermost row has `width` elements (kDynamic: as
/// many as its operands say).
static void lowerToRowVectors(linalg::GenericOp op, int64_t width,
                              RewriterBase &rewriter) {
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  SmallVector<Range> ranges =
      cast<linalg::LinalgOp>(op.getOperation()).createLoopRanges(rewriter, loc);
  // createLoopRanges starts every loop at 0, step 1.
  SmallVector<Value> lbs, ubs, steps;
  for (const Range &range : ArrayRef(ranges).drop_back()) {
    lbs.push_back(getValueOrCreateConstantIndexOp(rewriter, loc, range.offset));
    ubs.push_back(getValueOrCreateConstantIndexOp(rewriter, loc, range.size));
    steps.push_back(
        getValueOrCreateConstantIndexOp(rewriter, loc, range.stride));
  }
  Value rowSize =
      getValueOrCreateConstantIndexOp(rewriter, loc, ranges.back().size);
  // `width` elements from `start` to `end` at a time, by an scf.for.
  auto vectorLoop = [&](OpBuilder &b, Location l, SmallVector<Value> ivs,
                        Value start, Value end, int64_t lanes) {
    Value step = arith::ConstantIndexOp::create(b, l, lanes);
    scf::ForOp::create(b, l, start, end, step, ValueRange(),
                       [&](OpBuilder &fb, Location fl, Value iv, ValueRange) {
                         ivs.back() = iv;
                         emitRowVector(fb, fl, op, ivs, lanes);
                         scf::YieldOp::create(fb, fl);
                       });
  };
  int64_t full = width / kLanes, tail = width % kLanes;
  scf::buildLoopNest(
      rewriter, loc, lbs, ubs, steps,
      [&](OpBuilder &b, Location l, ValueRange outer) {
        SmallVector<Value> ivs(outer.begin(), outer.end());
        ivs.push_back(Value());
        if (ShapedType::isDynamic(width)) {
          // Vectors of 16, then the rest one element at a time.
          Value zero = arith::ConstantIndexOp::create(b, l, 0);
          Value lanes = arith::ConstantIndexOp::create(b, l, kLanes);
          Value rest = arith::RemUIOp::create(b, l, rowSize, lanes);
          Value split = arith::SubIOp::create(b, l, rowSize, rest);
          vectorLoop(b, l, ivs, zero, split, kLanes);
          vectorLoop(b, l, ivs, split, rowSize, 1);
          return;
        }
        if (full == 1) {
          ivs.back() = arith::ConstantIndexOp::create(b, l, 0);
          emitRowVector(b, l, op, ivs, kLanes);
        } else if (full > 1) {
          vectorLoop(b, l, ivs, arith::ConstantIndexOp::create(b, l, 0),
                     arith::ConstantIndexOp::create(b, l, full * kLanes),
                     kLanes);
        }
        if (tail) {
          ivs.back() = arith::ConstantIndexOp::create(b, l, full * kLanes);
          emitRowVector(b, l, op, ivs, tail);
        }
      });
  rewriter.eraseOp(op);
}

namespace {
struct CPUVectorizeRowsPass
    : amp::impl::CPUVectorizeRowsBase<CPUVectorizeRowsPass> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    // Copies, fills and maps as the generics they are (a padding copy of
    // an f16 image is a row of 16-bit moves).
    SmallVector<linalg::LinalgOp> named;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (isa<linalg::CopyOp, linalg::FillOp, linalg::MapOp>(op) &&
          op.hasPureBufferSemantics())
        named.push_back(op);
    });
    for (linalg::LinalgOp op : named) {
      rewriter.setInsertionPoint(op);
      (void)linalg::generalizeNamedOp(rewriter, op);
    }
    std::vector<std::pair<linalg::GenericOp, int64_t>> work;
    getOperation().walk([&](linalg::GenericOp op) {
      if (std::optional<int64_t> width = rowToVectorize(op))
        work.emplace_back(op, *width);
    });
    for (auto [op, width] : work)
      lowerToRowVectors(op, width, rewriter);
  }
};
} // namespace
