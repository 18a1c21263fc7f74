//===- MasterWeights.cpp - amp-master-weights -----------------------------===//
//
// Stores the parameters of a training step in bf16 between steps: the
// argument and its `amp.updates` result become bf16, the step reads the
// parameter once through arith.extf and rounds its f32 new value back,
// to nearest even, with a Kahan compensation buffer (Zamirai et al.,
// "Revisiting BFloat16 Training", 2020) or stochastically from a
// counter-based random stream (torchao's `bf16_stochastic_round`).
// Semantics and the skip rule: Passes.td and docs/master-weights.md.
//
//===----------------------------------------------------------------------===//

#include "amp/Analysis/TrainingStep.h"
#include "amp/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/DialectResourceBlobManager.h"

namespace mlir::amp {
#define GEN_PASS_DEF_MASTERWEIGHTS
#include "amp/Transforms/Passes.h.inc"
} // namespace mlir::amp

using namespace mlir;
using namespace mlir::amp;

/// murmur3's 32-bit finalizer (fmix32) on i32 values (wrapping).
static Value fmix32(OpBuilder &b, Location loc, Value h) {
  auto c = [&](uint32_t v) {
    return arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(int32_t(v)));
  };
  auto xorShift = [&](Value x, uint32_t s) {
    return arith::XOrIOp::create(b, loc, x,
                                 arith::ShRUIOp::create(b, loc, x, c(s)));
  };
  h = xorShift(h, 16);
  h = arith::MulIOp::create(b, loc, h, c(0x85ebca6bu));
  h = xorShift(h, 13);
  h = arith::MulIOp::create(b, loc, h, c(0xc2b2ae35u));
  return xorShift(h, 16);
}

/// The same function on the host, for the constants of the stream.
static uint32_t fmix32(uint32_t h) {
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  h *= 0xc2b2ae35u;
  h ^= h >> 16;
  return h;
}

/// `init` (an `amp.initial_value` of an f32 parameter) rounded to nearest
/// even bf16 with `type`; null when it holds no data (an elided resource:
/// the driver then draws the parameter and rounds it).
static Attribute roundInitialValue(Attribute init, RankedTensorType type) {
  SmallVector<APFloat> values;
  auto add = [&](APFloat v) {
    bool lost;
    v.convert(APFloat::BFloat(), APFloat::rmNearestTiesToEven, &lost);
    values.push_back(v);
  };
  if (auto dense = dyn_cast<DenseFPElementsAttr>(init)) {
    for (APFloat v : dense.getValues<APFloat>())
      add(v);
  } else if (auto resource = dyn_cast<DenseResourceElementsAttr>(init)) {
    AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    if (!blob || int64_t(blob->getData().size()) != type.getNumElements() * 4)
      return {};
    ArrayRef<char> raw = blob->getData();
    for (int64_t k = 0; k < type.getNumElements(); ++k) {
      float f;
      std::memcpy(&f, raw.data() + 4 * k, 4);
      add(APFloat(f));
    }
  } else if (auto scalar = dyn_cast<FloatAttr>(init)) {
    add(scalar.getValue());
    return FloatAttr::get(BFloat16Type::get(type.getContext()), values[0]);
  } else {
    return {};
  }
  return DenseElementsAttr::get(type, values);
}

/// The identity map of `rank` dimensions and the broadcast map of a 0-d
/// operand.
static AffineMap identity(MLIRContext *ctx, unsigned rank) {
  return AffineMap::getMultiDimIdentityMap(rank, ctx);
}
static AffineMap scalarMap(MLIRContext *ctx, unsigned rank) {
  return AffineMap::get(rank, 0, {}, ctx);
}

/// The element's linear (row-major) index as i32, inside a linalg body.
static Value linearIndex(OpBuilder &b, Location loc, RankedTensorType type) {
  Value linear = arith::ConstantIndexOp::create(b, loc, 0);
  for (unsigned d = 0; d < type.getRank(); ++d) {
    Value size = arith::ConstantIndexOp::create(b, loc, type.getDimSize(d));
    linear = arith::AddIOp::create(b, loc,
                                   arith::MulIOp::create(b, loc, linear, size),
                                   linalg::IndexOp::create(b, loc, d));
  }
  return arith::IndexCastUIOp::create(b, loc, b.getI32Type(), linear);
}

/// bf16(v) rounded stochastically: v's bits plus 16 random bits, truncated
/// (NaN as arith.truncf). `key` (0-d i32 tensor) holds the stream's key for
/// this step, `salt` the parameter's.
static Operation *stochasticRound(OpBuilder &b, Location loc, Value v,
                                  Value key, uint32_t salt) {
  auto f32Type = cast<RankedTensorType>(v.getType());
  auto bf16Type = f32Type.clone(b.getBF16Type());
  MLIRContext *ctx = b.getContext();
  unsigned rank = f32Type.getRank();
  Value init = tensor::EmptyOp::create(b, loc, bf16Type.getShape(),
                                       bf16Type.getElementType());
  SmallVector<utils::IteratorType> iters(rank, utils::IteratorType::parallel);
  return linalg::GenericOp::create(
      b, loc, TypeRange{bf16Type}, ValueRange{v, key}, ValueRange{init},
      ArrayRef<AffineMap>{identity(ctx, rank), scalarMap(ctx, rank),
                          identity(ctx, rank)},
      iters, [&](OpBuilder &nb, Location l, ValueRange args) {
        auto c = [&](uint32_t x) {
          return arith::ConstantOp::create(nb, l,
                                           nb.getI32IntegerAttr(int32_t(x)));
        };
        Value x = args[0];
        Value idx = linearIndex(nb, l, f32Type);
        // h = fmix(key ^ fmix(index * golden + salt)).
        Value h =
            fmix32(nb, l,
                   arith::AddIOp::create(
                       nb, l, arith::MulIOp::create(nb, l, idx, c(0x9e3779b9u)),
                       c(salt)));
        h = fmix32(nb, l, arith::XOrIOp::create(nb, l, h, args[1]));
        Value random = arith::ShRUIOp::create(nb, l, h, c(16));
        Value bits = arith::BitcastOp::create(nb, l, nb.getI32Type(), x);
        Value sum = arith::AddIOp::create(nb, l, bits, random);
        Value cut = arith::AndIOp::create(nb, l, sum, c(0xffff0000u));
        Value rounded = arith::TruncFOp::create(
            nb, l, nb.getBF16Type(),
            arith::BitcastOp::create(nb, l, nb.getF32Type(), cut));
        Value nearest = arith::TruncFOp::create(nb, l, nb.getBF16Type(), x);
        Value isNan =
            arith::CmpFOp::create(nb, l, arith::CmpFPredicate::UNO, x, x);
        linalg::YieldOp::create(nb, l,
                                ValueRange{arith::SelectOp::create(
                                    nb, l, isNan, nearest, rounded)});
      });
}

/// The Kahan-compensated store: (w', c') from the intended f32 value `v`,
/// the stored `w` and the compensation `c` (both bf16), kept as they were
/// when `foundInf` (0-d i1, optional) is true.
static Operation *kahanRound(OpBuilder &b, Location loc, Value v, Value w,
                             Value c, Value foundInf) {
  auto bf16Type = cast<RankedTensorType>(w.getType());
  MLIRContext *ctx = b.getContext();
  unsigned rank = bf16Type.getRank();
  SmallVector<Value> ins{v, w, c};
  SmallVector<AffineMap> maps(3, identity(ctx, rank));
  if (foundInf) {
    ins.push_back(foundInf);
    maps.push_back(scalarMap(ctx, rank));
  }
  maps.append(2, identity(ctx, rank));
  SmallVector<Value> outs;
  for (int k = 0; k < 2; ++k)
    outs.push_back(tensor::EmptyOp::create(b, loc, bf16Type.getShape(),
                                           bf16Type.getElementType()));
  SmallVector<utils::IteratorType> iters(rank, utils::IteratorType::parallel);
  return linalg::GenericOp::create(
      b, loc, TypeRange{bf16Type, bf16Type}, ins, outs, maps, iters,
      [&](OpBuilder &nb, Location l, ValueRange args) {
        Type f32 = nb.getF32Type(), bf16 = nb.getBF16Type();
        Value w32 = arith::ExtFOp::create(nb, l, f32, args[1]);
        Value u = arith::SubFOp::create(nb, l, args[0], w32);
        Value y = arith::AddFOp::create(
            nb, l, u, arith::ExtFOp::create(nb, l, f32, args[2]));
        Value wNew = arith::TruncFOp::create(
            nb, l, bf16, arith::AddFOp::create(nb, l, w32, y));
        Value applied = arith::SubFOp::create(
            nb, l, arith::ExtFOp::create(nb, l, f32, wNew), w32);
        Value cNew = arith::TruncFOp::create(
            nb, l, bf16, arith::SubFOp::create(nb, l, y, applied));
        if (foundInf) {
          wNew = arith::SelectOp::create(nb, l, args[3], args[1], wNew);
          cNew = arith::SelectOp::create(nb, l, args[3], args[2], cNew);
        }
        linalg::YieldOp::create(nb, l, ValueRange{wNew, cNew});
      });
}

/// Retypes parameter `arg` (f32) to bf16 and reads it through one
/// arith.extf at the start of its block; returns the extf.
static arith::ExtFOp storeInBF16(OpBuilder &b, BlockArgument arg) {
  auto f32Type = cast<RankedTensorType>(arg.getType());
  arg.setType(f32Type.clone(b.getBF16Type()));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(arg.getOwner());
  auto ext = arith::ExtFOp::create(b, arg.getLoc(), f32Type, arg);
  arg.replaceAllUsesExcept(ext, ext);
  return ext;
}

static void syncFunctionType(func::FuncOp func) {
  Block &entry = func.getBody().front();
  func.setFunctionType(
      FunctionType::get(func.getContext(), entry.getArgumentTypes(),
                        entry.getTerminator()->getOperandTypes()));
}

static LogicalResult rewriteStep(func::FuncOp func, MasterWeights mode,
                                 int seed) {
  FailureOr<TrainingStep> step =
      TrainingStep::analyze(func, /*requireMarkers=*/false);
  if (failed(step))
    return failure();
  for (unsigned p : step->params)
    if (!cast<RankedTensorType>(func.getArgument(p).getType())
             .getElementType()
             .isF32())
      return emitError(func.getArgument(p).getLoc(), "parameter argument #")
             << p << " is stored as " << func.getArgument(p).getType()
             << ", not f32; amp-master-weights rewrites fp32 master weights "
                "(run it once)";
  MLIRContext *ctx = func.getContext();
  Block &entry = func.getBody().front();
  Operation *ret = entry.getTerminator();
  Location loc = func.getLoc();
  OpBuilder b(ctx);
  Builder attrs(ctx);
  auto i32Tensor = RankedTensorType::get({}, b.getI32Type());

  // Appends a state argument (opt_state, starts at 0) and its new value.
  auto appendState = [&](Type type, StringRef kind,
                         Location argLoc) -> FailureOr<BlockArgument> {
    unsigned idx = func.getNumArguments();
    DictionaryAttr argAttrs = attrs.getDictionaryAttr(
        {attrs.getNamedAttr(kRoleAttr, attrs.getStringAttr("opt_state")),
         attrs.getNamedAttr(kStateKindAttr, attrs.getStringAttr(kind))});
    if (failed(func.insertArgument(idx, type, argAttrs, argLoc)))
      return emitError(loc, "cannot add the ") << kind << " argument";
    return func.getArgument(idx);
  };
  auto appendResult = [&](Value v, unsigned updates) -> LogicalResult {
    unsigned idx = func.getNumResults();
    ret->insertOperands(ret->getNumOperands(), {v});
    if (failed(func.insertResult(
            idx, v.getType(),
            attrs.getDictionaryAttr(attrs.getNamedAttr(
                kUpdatesAttr, attrs.getI64IntegerAttr(updates))))))
      return emitError(loc, "cannot add a result");
    return success();
  };

  // found_inf (after loss scaling): Kahan and the counter keep their state
  // on a skipped step.
  Value foundInf;
  if (step->foundInfResult)
    foundInf = ret->getOperand(*step->foundInfResult);

  // bf16-stochastic: the counter and this step's key of the stream.
  Value key;
  if (mode == MasterWeights::BF16Stochastic) {
    FailureOr<BlockArgument> counter =
        appendState(i32Tensor, "rounding_counter", loc);
    if (failed(counter))
      return failure();
    b.setInsertionPoint(ret);
    Value count = tensor::ExtractOp::create(b, loc, *counter, ValueRange{});
    // key = fmix(fmix(seed) + counter)
    Value seedMix = arith::ConstantOp::create(
        b, loc, b.getI32IntegerAttr(int32_t(fmix32(uint32_t(seed)))));
    Value keyScalar =
        fmix32(b, loc, arith::AddIOp::create(b, loc, seedMix, count));
    key = tensor::FromElementsOp::create(b, loc, i32Tensor, keyScalar);
    Value next = arith::AddIOp::create(
        b, loc, count,
        arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(1)));
    if (foundInf)
      next = arith::SelectOp::create(
          b, loc, tensor::ExtractOp::create(b, loc, foundInf, ValueRange{}),
          count, next);
    if (failed(appendResult(
            tensor::FromElementsOp::create(b, loc, i32Tensor, next),
            counter->getArgNumber())))
      return failure();
  }

  for (auto [ordinal, p] : llvm::enumerate(step->params)) {
    BlockArgument arg = func.getArgument(p);
    auto f32Type = cast<RankedTensorType>(arg.getType());
    auto bf16Type = f32Type.clone(b.getBF16Type());
    storeInBF16(b, arg);
    if (Attribute init = func.getArgAttr(p, kInitialValueAttr)) {
      if (Attribute rounded = roundInitialValue(init, bf16Type))
        func.setArgAttr(p, kInitialValueAttr, rounded);
      else
        func.removeArgAttr(p, kInitialValueAttr);
    }
    unsigned r = step->updateOfArg.lookup(p);
    Value v = ret->getOperand(r);
    b.setInsertionPoint(ret);
    Operation *round = nullptr;
    switch (mode) {
    case MasterWeights::F32:
      llvm_unreachable("master-weights=f32 leaves the step unchanged");
    case MasterWeights::BF16:
      round = arith::TruncFOp::create(b, v.getLoc(), bf16Type, v);
      break;
    case MasterWeights::BF16Stochastic:
      round = stochasticRound(b, v.getLoc(), v, key,
                              fmix32(uint32_t(ordinal) + 1u));
      break;
    case MasterWeights::BF16Kahan: {
      FailureOr<BlockArgument> c =
          appendState(bf16Type, "kahan_compensation", arg.getLoc());
      if (failed(c))
        return failure();
      b.setInsertionPoint(ret);
      round = kahanRound(b, v.getLoc(), v, arg, *c, foundInf);
      if (failed(appendResult(round->getResult(1), c->getArgNumber())))
        return failure();
      break;
    }
    }
    round->setAttr(kRoundsUpdateAttr, b.getUnitAttr());
    ret->setOperand(r, round->getResult(0));
  }
  syncFunctionType(func);
  return success();
}

/// The eval step reads the same (now bf16) parameters.
static void rewriteEval(func::FuncOp func) {
  OpBuilder b(func.getContext());
  for (unsigned i = 0; i < func.getNumArguments(); ++i) {
    auto role = func.getArgAttrOfType<StringAttr>(i, kRoleAttr);
    auto type = dyn_cast<RankedTensorType>(func.getArgument(i).getType());
    if (role && role.getValue() == "param" && type &&
        type.getElementType().isF32())
      storeInBF16(b, func.getArgument(i));
  }
  syncFunctionType(func);
}

namespace {
struct MasterWeightsPass : amp::impl::MasterWeightsBase<MasterWeightsPass> {
  using MasterWeightsBase::MasterWeightsBase;

  void runOnOperation() override {
    if (mode == MasterWeights::F32)
      return;
    ModuleOp module = getOperation();
    if (failed(forEachTrainStep(
            module, "amp-master-weights",
            [&](func::FuncOp func) { return rewriteStep(func, mode, seed); })))
      return signalPassFailure();
    for (auto func : module.getOps<func::FuncOp>())
      if (func->hasAttr(kEvalStepAttr) && !func.isExternal())
        rewriteEval(func);
  }
};
} // namespace
