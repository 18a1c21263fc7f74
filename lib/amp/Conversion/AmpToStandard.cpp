//===- AmpToStandard.cpp - amp-lower-to-standard --------------------------===//
//
// Lowers the amp ops to upstream linalg/tensor/arith/math so that any
// upstream pipeline (CPU or GPU) can take the step from here.
//
//===----------------------------------------------------------------------===//

#include "amp/Conversion/Passes.h"
#include "amp/Dialect/Amp/IR/AmpOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

#include <limits>

namespace mlir::amp {
#define GEN_PASS_DEF_LOWERAMPTOSTANDARD
#include "amp/Conversion/Passes.h.inc"
} // namespace mlir::amp

using namespace mlir;
using namespace mlir::amp;

static Value extractScalar(OpBuilder &b, Location loc, Value tensor0d) {
  return tensor::ExtractOp::create(b, loc, tensor0d, ValueRange{});
}

static Value toTensor(OpBuilder &b, Location loc, Value scalar) {
  return tensor::FromElementsOp::create(
      b, loc, RankedTensorType::get({}, scalar.getType()), scalar);
}

/// One linalg.generic per gradient: reads g once, writes g * inv_scale and
/// or-reduces "g is non-finite" into the running found_inf flag.
/// Non-finite test: |g| >= +inf with an unordered compare (`uge`), true for
/// +-inf and for NaN.
static void lowerUnscaleAndCheck(RewriterBase &rewriter, UnscaleAndCheckOp op) {
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  auto flagType = RankedTensorType::get({}, rewriter.getI1Type());
  Value flag = arith::ConstantOp::create(
      rewriter, loc, DenseElementsAttr::get(flagType, false));
  SmallVector<Value> unscaled;
  for (Value grad : op.getGrads()) {
    auto type = cast<RankedTensorType>(grad.getType());
    auto elemType = cast<FloatType>(type.getElementType());
    int64_t rank = type.getRank();
    SmallVector<Value> dynDims;
    for (int64_t d = 0; d < rank; ++d)
      if (type.isDynamicDim(d))
        dynDims.push_back(tensor::DimOp::create(rewriter, loc, grad, d));
    Value empty = tensor::EmptyOp::create(rewriter, loc, type.getShape(),
                                          elemType, dynDims);
    AffineMap id = rewriter.getMultiDimIdentityMap(rank);
    AffineMap scalar = AffineMap::get(rank, 0, rewriter.getContext());
    SmallVector<utils::IteratorType> iters(rank,
                                           utils::IteratorType::reduction);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{type, flagType},
        ValueRange{grad, op.getInvScale()}, ValueRange{empty, flag},
        ArrayRef<AffineMap>{id, scalar, id, scalar}, iters,
        [&](OpBuilder &b, Location l, ValueRange args) {
          // PyTorch's opmath type: f32 for f16/bf16/f32 gradients, the
          // gradient's own type when it is wider (f64: the f32 inverse
          // scale is extended instead).
          Value x = args[0], invScale = args[1];
          FloatType opmath = elemType.getWidth() > 32
                                 ? elemType
                                 : cast<FloatType>(b.getF32Type());
          Value xf =
              elemType == opmath ? x : arith::ExtFOp::create(b, l, opmath, x);
          if (opmath != b.getF32Type())
            invScale = arith::ExtFOp::create(b, l, opmath, invScale);
          Value y = arith::MulFOp::create(b, l, xf, invScale);
          if (elemType != opmath)
            y = arith::TruncFOp::create(b, l, elemType, y);
          Value abs = math::AbsFOp::create(b, l, xf);
          Value inf = arith::ConstantOp::create(
              b, l,
              b.getFloatAttr(opmath, std::numeric_limits<double>::infinity()));
          Value nonFinite =
              arith::CmpFOp::create(b, l, arith::CmpFPredicate::UGE, abs, inf);
          Value any = arith::OrIOp::create(b, l, args[3], nonFinite);
          linalg::YieldOp::create(b, l, ValueRange{y, any});
        });
    unscaled.push_back(generic.getResult(0));
    flag = generic.getResult(1);
  }
  unscaled.push_back(flag);
  rewriter.replaceOp(op, unscaled);
}

/// PyTorch's `_amp_update_scale_` on scalars with min/max clamps and
/// hysteresis (shared REFERENCE.md; the rule is spelled out on the op).
static void lowerUpdateScale(RewriterBase &rewriter, UpdateScaleOp op) {
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  Value s = extractScalar(rewriter, loc, op.getScale());
  Value t = extractScalar(rewriter, loc, op.getGrowthTracker());
  Value h = extractScalar(rewriter, loc, op.getHysteresisTracker());
  Value found = extractScalar(rewriter, loc, op.getFoundInf());
  auto f32 = [&](float v) {
    return arith::ConstantOp::create(rewriter, loc,
                                     rewriter.getF32FloatAttr(v));
  };
  auto i32 = [&](int32_t v) {
    return arith::ConstantOp::create(rewriter, loc,
                                     rewriter.getI32IntegerAttr(v));
  };
  auto select = [&](Value c, Value a, Value b) {
    return arith::SelectOp::create(rewriter, loc, c, a, b).getResult();
  };
  Value zero = i32(0);
  // Overflow: count it (saturating at N); back off once N are reached,
  // never below min_scale.
  Value n = i32(op.getHysteresis());
  Value h1 = arith::MinSIOp::create(
      rewriter, loc, arith::AddIOp::create(rewriter, loc, h, i32(1)), n);
  Value backOff =
      arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::sge, h1, n);
  Value backedOff = arith::MaximumFOp::create(
      rewriter, loc,
      arith::MulFOp::create(rewriter, loc, s,
                            f32(op.getBackoffFactor().convertToFloat())),
      f32(op.getMinScale().convertToFloat()));
  Value overflowScale = select(backOff, backedOff, s);
  // Clean step: grow after growth_interval of them, only to a finite value,
  // never above max_scale; growth refills the hysteresis.
  Value t1 = arith::AddIOp::create(rewriter, loc, t, i32(1));
  Value grow = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                     t1, i32(op.getGrowthInterval()));
  Value candidate = arith::MulFOp::create(
      rewriter, loc, s, f32(op.getGrowthFactor().convertToFloat()));
  Value absCandidate = math::AbsFOp::create(rewriter, loc, candidate);
  Value finite = arith::CmpFOp::create(
      rewriter, loc, arith::CmpFPredicate::OLT, absCandidate,
      f32(std::numeric_limits<float>::infinity()));
  Value capped = arith::MinimumFOp::create(
      rewriter, loc, candidate, f32(op.getMaxScale().convertToFloat()));
  Value grown = select(finite, capped, s);
  Value cleanScale = select(grow, grown, s);
  Value cleanTracker = select(grow, zero, t1);
  Value cleanHysteresis = select(grow, zero, h);
  Value newScale = select(found, overflowScale, cleanScale);
  Value newTracker = select(found, zero, cleanTracker);
  Value newHysteresis = select(found, h1, cleanHysteresis);
  rewriter.replaceOp(op, ValueRange{toTensor(rewriter, loc, newScale),
                                    toTensor(rewriter, loc, newTracker),
                                    toTensor(rewriter, loc, newHysteresis)});
}

/// One linalg.generic that reduces both counts over all elements: x is
/// counted as non-zero when it is finite and != 0, as flushed when in
/// addition |extf(truncf(x))| < smallest normal of the low-precision type.
static void lowerCountUnderflow(RewriterBase &rewriter, CountUnderflowOp op) {
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  auto type = cast<RankedTensorType>(op.getValue().getType());
  auto lowType = cast<FloatType>(op.getPrecision());
  float smallestNormal =
      lowType.isF16() ? 6.103515625e-05f : 1.1754943508222875e-38f;
  auto countType = RankedTensorType::get({}, rewriter.getI64Type());
  Value zeroCount = arith::ConstantOp::create(
      rewriter, loc, DenseElementsAttr::get(countType, int64_t(0)));
  int64_t rank = type.getRank();
  AffineMap id = rewriter.getMultiDimIdentityMap(rank);
  AffineMap scalar = AffineMap::get(rank, 0, rewriter.getContext());
  SmallVector<utils::IteratorType> iters(rank, utils::IteratorType::reduction);
  auto generic = linalg::GenericOp::create(
      rewriter, loc, TypeRange{countType, countType}, ValueRange{op.getValue()},
      ValueRange{zeroCount, zeroCount}, ArrayRef<AffineMap>{id, scalar, scalar},
      iters, [&](OpBuilder &b, Location l, ValueRange args) {
        Value x = args[0];
        Value abs = math::AbsFOp::create(b, l, x);
        auto f = [&](float v) {
          return arith::ConstantOp::create(b, l, b.getF32FloatAttr(v));
        };
        Value nonzero = arith::AndIOp::create(
            b, l,
            arith::CmpFOp::create(b, l, arith::CmpFPredicate::OGT, abs,
                                  f(0.0f)),
            arith::CmpFOp::create(b, l, arith::CmpFPredicate::OLT, abs,
                                  f(std::numeric_limits<float>::infinity())));
        Value truncated =
            arith::TruncFOp::create(b, l, Type(lowType), abs).getResult();
        Value rounded =
            arith::ExtFOp::create(b, l, b.getF32Type(), truncated).getResult();
        Value tiny = arith::CmpFOp::create(b, l, arith::CmpFPredicate::OLT,
                                           rounded, f(smallestNormal));
        Value flushed = arith::AndIOp::create(b, l, nonzero, tiny);
        Value one = arith::ExtUIOp::create(b, l, b.getI64Type(), flushed);
        Value nz = arith::ExtUIOp::create(b, l, b.getI64Type(), nonzero);
        linalg::YieldOp::create(
            b, l,
            ValueRange{arith::AddIOp::create(b, l, args[1], one),
                       arith::AddIOp::create(b, l, args[2], nz)});
      });
  rewriter.replaceOp(op, generic.getResults());
}

namespace {
struct LowerAmpToStandardPass
    : amp::impl::LowerAmpToStandardBase<LowerAmpToStandardPass> {
  void runOnOperation() override {
    SmallVector<Operation *> ops;
    getOperation().walk([&](Operation *op) {
      if (isa<LossGradOp, GradOp, UnscaleAndCheckOp, UpdateScaleOp,
              CountUnderflowOp>(op))
        ops.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (Operation *op : ops) {
      if (auto seed = dyn_cast<LossGradOp>(op)) {
        rewriter.setInsertionPoint(seed);
        rewriter.replaceOpWithNewOp<arith::ConstantOp>(
            seed,
            DenseElementsAttr::get(cast<ShapedType>(seed.getType()), 1.0f));
      } else if (auto grad = dyn_cast<GradOp>(op)) {
        rewriter.replaceOp(grad, grad.getRaw());
      } else if (auto check = dyn_cast<UnscaleAndCheckOp>(op)) {
        lowerUnscaleAndCheck(rewriter, check);
      } else if (auto update = dyn_cast<UpdateScaleOp>(op)) {
        lowerUpdateScale(rewriter, update);
      } else if (auto count = dyn_cast<CountUnderflowOp>(op)) {
        lowerCountUnderflow(rewriter, count);
      }
    }
  }
};

} // namespace
