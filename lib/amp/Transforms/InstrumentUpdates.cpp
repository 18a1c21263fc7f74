//===- InstrumentUpdates.cpp - amp-instrument-updates ---------------------===//
//
// Per step and parameter: how large the update was relative to the
// parameter (||w' - w|| / ||w||) and how many intended updates the
// rounding to the storage type lost (w' == w although v != w), plus how
// many round-to-nearest bf16 storage would lose. bf16 has 7 mantissa bits:
// once |u| < |w| * 2^-9 the sum w + u rounds back to w (shared
// REFERENCE.md, number formats; Zamirai et al., "Revisiting BFloat16
// Training", 2020). Contract and result layout: Passes.td.
//
//===----------------------------------------------------------------------===//

#include "amp/Analysis/TrainingStep.h"
#include "amp/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace mlir::amp {
#define GEN_PASS_DEF_INSTRUMENTUPDATES
#include "amp/Transforms/Passes.h.inc"
} // namespace mlir::amp

using namespace mlir;
using namespace mlir::amp;

namespace {
/// The five sums of one parameter, in the order of the result's columns.
enum class UpdateSum { DiffSquared, ParamSquared, Changed, Lost, BF16Lost };
constexpr unsigned kNumSums = 5;
} // namespace

/// `v` as f32 (an arith.extf when it is bf16).
static Value asF32(OpBuilder &b, Location loc, Value v) {
  auto type = cast<RankedTensorType>(v.getType());
  if (type.getElementType().isF32())
    return v;
  return arith::ExtFOp::create(b, loc, type.clone(b.getF32Type()), v);
}

/// One f64 sum over every element of the f32 tensors `w` (old stored
/// value), `v` (intended new value) and `s` (new stored value).
static Value sumOver(OpBuilder &b, Location loc, Value w, Value v, Value s,
                     UpdateSum what) {
  MLIRContext *ctx = b.getContext();
  auto type = cast<RankedTensorType>(w.getType());
  unsigned rank = type.getRank();
  auto scalarType = RankedTensorType::get({}, b.getF64Type());
  Value zero = arith::ConstantOp::create(b, loc, b.getF64FloatAttr(0.0));
  Value init =
      linalg::FillOp::create(b, loc, zero,
                             ValueRange{tensor::EmptyOp::create(
                                 b, loc, ArrayRef<int64_t>{}, b.getF64Type())})
          .getResult(0);
  AffineMap id = AffineMap::getMultiDimIdentityMap(rank, ctx);
  SmallVector<AffineMap> maps{id, id, id, AffineMap::get(rank, 0, {}, ctx)};
  SmallVector<utils::IteratorType> iters(rank, utils::IteratorType::reduction);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{scalarType}, ValueRange{w, v, s}, ValueRange{init},
      maps, iters, [&](OpBuilder &nb, Location l, ValueRange a) {
        Type f64 = nb.getF64Type();
        auto toF64 = [&](Value x) {
          return arith::ExtFOp::create(nb, l, f64, x);
        };
        auto count = [&](Value flag) {
          return arith::UIToFPOp::create(nb, l, f64, flag);
        };
        Value wOld = a[0], intended = a[1], stored = a[2], term;
        Value changed = arith::CmpFOp::create(nb, l, arith::CmpFPredicate::UNE,
                                              intended, wOld);
        switch (what) {
        case UpdateSum::DiffSquared: {
          Value d = toF64(arith::SubFOp::create(nb, l, stored, wOld));
          term = arith::MulFOp::create(nb, l, d, d);
          break;
        }
        case UpdateSum::ParamSquared: {
          Value x = toF64(wOld);
          term = arith::MulFOp::create(nb, l, x, x);
          break;
        }
        case UpdateSum::Changed:
          term = count(changed);
          break;
        case UpdateSum::Lost: {
          Value same = arith::CmpFOp::create(nb, l, arith::CmpFPredicate::OEQ,
                                             stored, wOld);
          term = count(arith::AndIOp::create(nb, l, changed, same));
          break;
        }
        case UpdateSum::BF16Lost: {
          // Compared in f32 after the round trip (exact).
          auto roundTrip = [&](Value x) {
            Value narrow = arith::TruncFOp::create(nb, l, nb.getBF16Type(), x);
            return arith::ExtFOp::create(nb, l, nb.getF32Type(), narrow);
          };
          Value same =
              arith::CmpFOp::create(nb, l, arith::CmpFPredicate::OEQ,
                                    roundTrip(intended), roundTrip(wOld));
          term = count(arith::AndIOp::create(nb, l, changed, same));
          break;
        }
        }
        linalg::YieldOp::create(
            nb, l, ValueRange{arith::AddFOp::create(nb, l, a[3], term)});
      });
  return tensor::ExtractOp::create(b, loc, generic.getResult(0), ValueRange{});
}

static LogicalResult instrumentStep(func::FuncOp func) {
  FailureOr<TrainingStep> step =
      TrainingStep::analyze(func, /*requireMarkers=*/false);
  if (failed(step))
    return failure();
  if (step->updateStatsResult)
    return emitError(func.getLoc(), "training step '")
           << func.getSymName()
           << "' is already instrumented (it has an \"update_stats\" "
              "result); run amp-instrument-updates once";
  Block &entry = func.getBody().front();
  Operation *ret = entry.getTerminator();
  Location loc = func.getLoc();
  OpBuilder b(ret);
  SmallVector<Value> sums;
  for (unsigned p : step->params) {
    Value stored = ret->getOperand(step->updateOfArg.lookup(p));
    Value intended = stored;
    if (Operation *def = stored.getDefiningOp();
        def && def->hasAttr(kRoundsUpdateAttr))
      intended = def->getOperand(0);
    Value w = asF32(b, loc, func.getArgument(p));
    Value s = asF32(b, loc, stored);
    Value v = asF32(b, loc, intended);
    for (unsigned k = 0; k < kNumSums; ++k)
      sums.push_back(sumOver(b, loc, w, v, s, UpdateSum(k)));
  }
  auto statsType = RankedTensorType::get(
      {int64_t(step->params.size()), int64_t(kNumSums)}, b.getF64Type());
  Value stats = tensor::FromElementsOp::create(b, loc, statsType, sums);
  unsigned idx = func.getNumResults();
  ret->insertOperands(ret->getNumOperands(), {stats});
  Builder attrs(func.getContext());
  if (failed(func.insertResult(
          idx, statsType,
          attrs.getDictionaryAttr(attrs.getNamedAttr(
              kRoleAttr, attrs.getStringAttr(kUpdateStatsRole))))))
    return emitError(loc, "cannot add the update_stats result");
  return success();
}

namespace {
struct InstrumentUpdatesPass
    : amp::impl::InstrumentUpdatesBase<InstrumentUpdatesPass> {
  using InstrumentUpdatesBase::InstrumentUpdatesBase;

  void runOnOperation() override {
    if (failed(forEachTrainStep(getOperation(), "amp-instrument-updates",
                                instrumentStep)))
      signalPassFailure();
  }
};
} // namespace
