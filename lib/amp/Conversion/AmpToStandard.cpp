//===- AmpToStandard.cpp - amp-lower-to-standard --------------------------===//
//
// Lowers the amp ops to upstream linalg/tensor/arith/math so that any
// upstream pipeline (CPU or GPU) can take the step from here.
//
//===----------------------------------------------------------------------===//

#include "amp/Dialect/Amp/IR/AmpOps.h"
#include "amp/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

#include <limits>

namespace mlir::amp {
#define GEN_PASS_DEF_LOWERAMPTOSTANDARD
#include "amp/Transforms/Passes.h.inc"
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
          Value x = args[0];
          Value xf = elemType.isF32()
                         ? x
                         : arith::ExtFOp::create(b, l, b.getF32Type(), x);
          Value y = arith::MulFOp::create(b, l, xf, args[1]);
          if (!elemType.isF32())
            y = arith::TruncFOp::create(b, l, elemType, y);
          Value abs = math::AbsFOp::create(b, l, xf);
          Value inf = arith::ConstantOp::create(
              b, l, b.getF32FloatAttr(std::numeric_limits<float>::infinity()));
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

/// PyTorch's `_amp_update_scale_` on scalars (shared REFERENCE.md).
static void lowerUpdateScale(RewriterBase &rewriter, UpdateScaleOp op) {
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  Value s = extractScalar(rewriter, loc, op.getScale());
  Value t = extractScalar(rewriter, loc, op.getGrowthTracker());
  Value found = extractScalar(rewriter, loc, op.getFoundInf());
  auto f32 = [&](float v) {
    return arith::ConstantOp::create(rewriter, loc,
                                     rewriter.getF32FloatAttr(v));
  };
  auto i32 = [&](int32_t v) {
    return arith::ConstantOp::create(rewriter, loc,
                                     rewriter.getI32IntegerAttr(v));
  };
  Value zero = i32(0);
  Value backedOff = arith::MulFOp::create(
      rewriter, loc, s, f32(op.getBackoffFactor().convertToFloat()));
  Value t1 = arith::AddIOp::create(rewriter, loc, t, i32(1));
  Value grow = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                     t1, i32(op.getGrowthInterval()));
  Value candidate = arith::MulFOp::create(
      rewriter, loc, s, f32(op.getGrowthFactor().convertToFloat()));
  Value absCandidate = math::AbsFOp::create(rewriter, loc, candidate);
  Value finite = arith::CmpFOp::create(
      rewriter, loc, arith::CmpFPredicate::OLT, absCandidate,
      f32(std::numeric_limits<float>::infinity()));
  Value grown = arith::SelectOp::create(rewriter, loc, finite, candidate, s);
  Value cleanScale = arith::SelectOp::create(rewriter, loc, grow, grown, s);
  Value cleanTracker = arith::SelectOp::create(rewriter, loc, grow, zero, t1);
  Value newScale =
      arith::SelectOp::create(rewriter, loc, found, backedOff, cleanScale);
  Value newTracker =
      arith::SelectOp::create(rewriter, loc, found, zero, cleanTracker);
  rewriter.replaceOp(op, ValueRange{toTensor(rewriter, loc, newScale),
                                    toTensor(rewriter, loc, newTracker)});
}

namespace {
struct LowerAmpToStandardPass
    : amp::impl::LowerAmpToStandardBase<LowerAmpToStandardPass> {
  void runOnOperation() override {
    SmallVector<Operation *> ops;
    getOperation().walk([&](Operation *op) {
      if (isa<LossGradOp, GradOp, UnscaleAndCheckOp, UpdateScaleOp>(op))
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
      }
    }
  }
};

} // namespace
