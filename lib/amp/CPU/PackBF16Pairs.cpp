//===- PackBF16Pairs.cpp - bf16 operand packs for vdpbf16ps ---------------===//
//
// See PackBF16Pairs.h for the layout and why the halves of each pair are
// swapped.
//
//===----------------------------------------------------------------------===//

#include "PackBF16Pairs.h"
#include "VectorTranspose.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::amp;

namespace {
/// Index arithmetic and the masked, rounding loads of one pack.
struct PackEmitter {
  OpBuilder &b;
  Location loc;
  Value src;
  bool round;
  bool negativeZero;

  Value index(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value add(Value x, Value y) {
    return b.createOrFold<arith::AddIOp>(loc, x, y);
  }
  Value sub(Value x, Value y) {
    return b.createOrFold<arith::SubIOp>(loc, x, y);
  }
  Value mul(Value x, int64_t y) {
    return b.createOrFold<arith::MulIOp>(loc, x, index(y));
  }
  Value roundUp(Value x, int64_t multiple) {
    return mul(b.createOrFold<arith::CeilDivUIOp>(loc, x, index(multiple)),
               multiple);
  }
  /// `lanes` elements of `src` from `indices` on, as bf16; lanes at or
  /// beyond `count` (an index value, clamped to [0, lanes]) read zero
  /// (-0.0 with `negativeZero`).
  Value load(ValueRange indices, int64_t lanes, Value count) {
    Type elem = cast<MemRefType>(src.getType()).getElementType();
    auto type = VectorType::get({lanes}, elem);
    auto maskType = VectorType::get({lanes}, b.getI1Type());
    Value mask = vector::CreateMaskOp::create(b, loc, maskType, count);
    auto floatType = cast<FloatType>(elem);
    Value zero = arith::ConstantOp::create(
        b, loc, type,
        DenseElementsAttr::get(
            type, b.getFloatAttr(floatType,
                                 APFloat::getZero(floatType.getFloatSemantics(),
                                                  /*Negative=*/negativeZero))));
    Value v =
        vector::MaskedLoadOp::create(b, loc, type, src, indices, mask, zero);
    if (round)
      v = arith::TruncFOp::create(b, loc,
                                  VectorType::get({lanes}, b.getBF16Type()), v);
    return v;
  }
  /// `v` with the two halves of every pair swapped.
  Value swapPairs(Value v) {
    int64_t lanes = cast<VectorType>(v.getType()).getNumElements();
    SmallVector<int64_t> order;
    for (int64_t i = 0; i < lanes; ++i)
      order.push_back(i ^ 1);
    return vector::ShuffleOp::create(b, loc, v, v, order);
  }
  /// A 64-byte aligned memref<rows x 2*cols x bf16>.
  Value alloc(Value rows, Value cols) {
    Value width = mul(cols, 2);
    SmallVector<int64_t> shape;
    SmallVector<Value> dynamic;
    for (Value size : {rows, width}) {
      std::optional<int64_t> c = getConstantIntValue(size);
      shape.push_back(c ? *c : ShapedType::kDynamic);
      if (!c)
        dynamic.push_back(size);
    }
    return memref::AllocOp::create(b, loc,
                                   MemRefType::get(shape, b.getBF16Type()),
                                   dynamic, b.getI64IntegerAttr(64));
  }
  /// for (iv = lower; iv < upper; iv += step) body(iv)
  void loop(Value lower, Value upper, int64_t step,
            llvm::function_ref<void(Value)> body) {
    scf::ForOp::create(b, loc, lower, upper, index(step), ValueRange{},
                       [&](OpBuilder &, Location, Value iv, ValueRange) {
                         body(iv);
                         scf::YieldOp::create(b, loc);
                       });
  }
};
} // namespace

Value mlir::amp::packBF16Pairs(OpBuilder &b, Location loc, Value src,
                               PairLayout layout, Value kSize, Value xSize,
                               int64_t padX, bool roundToBF16,
                               bool padNegativeZero) {
  PackEmitter e{b, loc, src, roundToBF16, padNegativeZero};
  constexpr int64_t kLanes = 16; // pairs per vector<32xbf16>
  Value pairs = b.createOrFold<arith::CeilDivUIOp>(loc, kSize, e.index(2));
  Value zero = e.index(0);
  switch (layout) {
  case PairLayout::KMajorFromRows: {
    Value cols = e.roundUp(xSize, padX);
    Value packed = e.alloc(pairs, cols);
    e.loop(zero, pairs, 1, [&](Value kk) {
      Value even = e.mul(kk, 2);
      Value odd = e.add(even, e.index(1));
      Value hasOdd =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, odd, kSize);
      Value oddRow = arith::SelectOp::create(b, loc, hasOdd, odd, even);
      e.loop(zero, cols, kLanes, [&](Value x0) {
        Value count = e.sub(xSize, x0);
        Value oddCount =
            arith::SelectOp::create(b, loc, hasOdd, count, e.index(0));
        Value first = e.load(ValueRange{even, x0}, kLanes, count);
        Value second = e.load(ValueRange{oddRow, x0}, kLanes, oddCount);
        Value both = vector::InterleaveOp::create(b, loc, second, first);
        vector::StoreOp::create(b, loc, both, packed,
                                ValueRange{kk, e.mul(x0, 2)});
      });
    });
    return packed;
  }
  case PairLayout::KMajorFromColumns: {
    // Blocks of 16 source rows x 16 pairs: each row's pairs as the i32
    // lanes of one vector (halves swapped: rotated by 16 bits), the block
    // transposed in registers (transposeInRegisters), each of its rows stored
    // as the pairs of P[kk][x0 .. x0 + 15]. Rows x >= X load zeros into padding
    // columns; rows kk >= K2 of the last block are not stored.
    Value cols = e.roundUp(xSize, padX);
    Value packed = e.alloc(pairs, cols);
    auto row = VectorType::get({kLanes}, b.getI32Type());
    auto bf16Row = VectorType::get({2 * kLanes}, b.getBF16Type());
    Value sixteen = arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(row, b.getI32IntegerAttr(16)));
    e.loop(zero, xSize, kLanes, [&](Value x0) {
      e.loop(zero, pairs, kLanes, [&](Value kk0) {
        Value k = e.mul(kk0, 2);
        Value count = e.sub(kSize, k);
        SmallVector<Value> rows;
        for (int64_t r = 0; r < kLanes; ++r) {
          Value x = e.add(x0, e.index(r));
          Value inside = arith::CmpIOp::create(
              b, loc, arith::CmpIPredicate::ult, x, xSize);
          Value rowCount =
              arith::SelectOp::create(b, loc, inside, count, e.index(0));
          Value at = arith::SelectOp::create(b, loc, inside, x, x0);
          Value pairBits = vector::BitCastOp::create(
              b, loc, row, e.load(ValueRange{at, k}, 2 * kLanes, rowCount));
          rows.push_back(arith::OrIOp::create(
              b, loc, arith::ShLIOp::create(b, loc, pairBits, sixteen),
              arith::ShRUIOp::create(b, loc, pairBits, sixteen)));
        }
        transposeInRegisters(b, loc, rows);
        for (int64_t r = 0; r < kLanes; ++r) {
          Value kk = e.add(kk0, e.index(r));
          Value exists = arith::CmpIOp::create(
              b, loc, arith::CmpIPredicate::ult, kk, pairs);
          scf::IfOp::create(b, loc, exists, [&](OpBuilder &, Location) {
            vector::StoreOp::create(
                b, loc, vector::BitCastOp::create(b, loc, bf16Row, rows[r]),
                packed, ValueRange{kk, e.mul(x0, 2)});
            scf::YieldOp::create(b, loc);
          });
        }
      });
    });
    return packed;
  }
  case PairLayout::XMajor: {
    Value cols = e.roundUp(pairs, kLanes);
    Value packed = e.alloc(xSize, cols);
    e.loop(zero, xSize, 1, [&](Value x) {
      e.loop(zero, cols, kLanes, [&](Value kk0) {
        Value k = e.mul(kk0, 2);
        Value row = e.load(ValueRange{x, k}, 2 * kLanes, e.sub(kSize, k));
        vector::StoreOp::create(b, loc, e.swapPairs(row), packed,
                                ValueRange{x, k});
      });
    });
    return packed;
  }
  }
  llvm_unreachable("unknown PairLayout");
}
