//===- LossScaling.cpp - amp-loss-scaling ---------------------------------===//
//
// Loss scaling on a differentiated training step (Micikevicius et al. 2018;
// PyTorch torch.amp.GradScaler; shared REFERENCE.md "Loss scaling"):
//   seed x S -> one fused unscale + non-finite check over all gradients ->
//   optimizer update inside `scf.if found_inf` (skip keeps state
//   bit-identical) -> dynamic scale update. Relies only on the training-step
//   contract (Analysis/TrainingStep), not on what autocast did.
//
//===----------------------------------------------------------------------===//

#include "amp/Analysis/PrecisionPolicy.h"
#include "amp/Analysis/TrainingStep.h"
#include "amp/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/SetVector.h"

#include <cmath>

namespace mlir::amp {
#define GEN_PASS_DEF_LOSSSCALING
#include "amp/Transforms/Passes.h.inc"
} // namespace mlir::amp

using namespace mlir;
using namespace mlir::amp;

namespace {

enum class ScaleMode { Dynamic, Static, None };

struct ScalingConfig {
  ScaleMode mode;
  double initScale;
  int growthInterval;
  double growthFactor;
  double backoffFactor;
  int hysteresis;
  double minScale;
  double maxScale;
};

} // namespace

static Value scalarTensor(OpBuilder &b, Location loc, Value scalar) {
  return tensor::FromElementsOp::create(
      b, loc, RankedTensorType::get({}, scalar.getType()), scalar);
}

/// `amp.role` (and `amp.updates` on a result, `amp.initial_value` on an
/// added state argument: the value a driver feeds it at the first step).
static DictionaryAttr roleAttrs(MLIRContext *ctx, StringRef role,
                                std::optional<unsigned> updates,
                                Attribute initialValue = {}) {
  SmallVector<NamedAttribute> attrs;
  Builder b(ctx);
  attrs.push_back(b.getNamedAttr(kRoleAttr, b.getStringAttr(role)));
  if (updates)
    attrs.push_back(
        b.getNamedAttr(kUpdatesAttr, b.getI64IntegerAttr(*updates)));
  if (initialValue)
    attrs.push_back(b.getNamedAttr(kInitialValueAttr, initialValue));
  return b.getDictionaryAttr(attrs);
}

/// Rewrites one training step. Emits located errors and fails when the step
/// breaks the contract or cannot be scaled.
static LogicalResult scaleStep(func::FuncOp func, const ScalingConfig &cfg) {
  MLIRContext *ctx = func.getContext();
  for (unsigned i = 0; i < func.getNumArguments(); ++i)
    if (auto role = func.getArgAttrOfType<StringAttr>(i, kRoleAttr);
        role && role.getValue() == "loss_scale")
      return emitError(func.getLoc(), "training step '")
             << func.getSymName() << "' is already loss-scaled (argument #" << i
             << " has amp.role = \"loss_scale\"); run amp-loss-scaling once";
  for (unsigned r = 0; r < func.getNumResults(); ++r)
    if (auto role = func.getResultAttrOfType<StringAttr>(r, kRoleAttr);
        role && role.getValue() == "found_inf")
      return emitError(func.getLoc(), "training step '")
             << func.getSymName() << "' is already loss-scaled (result #" << r
             << " has amp.role = \"found_inf\"); run amp-loss-scaling once";
  FailureOr<TrainingStep> analyzed = TrainingStep::analyze(func);
  if (failed(analyzed))
    return failure();
  TrainingStep &step = *analyzed;
  Block &entry = func.getBody().front();
  for (unsigned p : step.params) {
    GradOp grad = step.gradOfParam.lookup(p);
    if (grad->getBlock() != &entry)
      return grad.emitError(
          "amp.grad must be at the top level of the training step (after "
          "any micro-batch loop), so that unscale, check and update happen "
          "once per step");
  }

  IRRewriter rewriter(ctx);
  Location loc = func.getLoc();
  auto f32Tensor = RankedTensorType::get({}, rewriter.getF32Type());
  auto i32Tensor = RankedTensorType::get({}, rewriter.getI32Type());

  // 1. The loss scale S and 1/S at function entry.
  Value scale, growthTracker, hysteresisTracker, invScale;
  std::optional<unsigned> scaleArg, trackerArg, hysteresisArg;
  rewriter.setInsertionPointToStart(&entry);
  // The state lives in the signature, never in low precision: the scale in
  // f32, the counters in i32. Appended in this order:
  // dynamic: loss_scale, growth_tracker, hysteresis_tracker,
  // consecutive_skips; static: consecutive_skips.
  // Each carries its initial value (`amp.initial_value`): the loss scale
  // starts at init-scale, the counters at 0. The IR itself never reads it;
  // a driver feeds it at the first step (docs/training-step.md).
  auto appendArg = [&](Type type, StringRef role,
                       Attribute initial) -> FailureOr<unsigned> {
    unsigned idx = func.getNumArguments();
    if (failed(func.insertArgument(
            idx, type, roleAttrs(ctx, role, std::nullopt, initial), loc)))
      return emitError(func.getLoc(), "cannot add the ") << role << " argument";
    return idx;
  };
  Attribute zeroCount = rewriter.getI32IntegerAttr(0);
  if (cfg.mode == ScaleMode::Dynamic) {
    FailureOr<unsigned> sArg =
        appendArg(f32Tensor, "loss_scale",
                  rewriter.getF32FloatAttr(static_cast<float>(cfg.initScale)));
    FailureOr<unsigned> tArg =
        appendArg(i32Tensor, "growth_tracker", zeroCount);
    FailureOr<unsigned> hArg =
        appendArg(i32Tensor, "hysteresis_tracker", zeroCount);
    if (failed(sArg) || failed(tArg) || failed(hArg))
      return failure();
    scaleArg = *sArg;
    trackerArg = *tArg;
    hysteresisArg = *hArg;
    scale = func.getArgument(*scaleArg);
    growthTracker = func.getArgument(*trackerArg);
    hysteresisTracker = func.getArgument(*hysteresisArg);
    // inv_scale = 1/S computed in f64 and rounded to f32, as PyTorch's
    // GradScaler (`scale.double().reciprocal().float()`).
    Value s = tensor::ExtractOp::create(rewriter, loc, scale, ValueRange{});
    Value s64 = arith::ExtFOp::create(rewriter, loc, rewriter.getF64Type(), s);
    Value one =
        arith::ConstantOp::create(rewriter, loc, rewriter.getF64FloatAttr(1.0));
    Value inv64 = arith::DivFOp::create(rewriter, loc, one, s64);
    Value inv =
        arith::TruncFOp::create(rewriter, loc, rewriter.getF32Type(), inv64);
    invScale = scalarTensor(rewriter, loc, inv);
  } else {
    scale = arith::ConstantOp::create(
        rewriter, loc,
        DenseElementsAttr::get(f32Tensor, static_cast<float>(cfg.initScale)));
    invScale = arith::ConstantOp::create(
        rewriter, loc,
        DenseElementsAttr::get(f32Tensor,
                               static_cast<float>(1.0 / cfg.initScale)));
  }

  FailureOr<unsigned> skipsArg =
      appendArg(i32Tensor, "consecutive_skips", zeroCount);
  if (failed(skipsArg))
    return failure();
  Value consecutiveSkips = func.getArgument(*skipsArg);

  // 2. The backward seed becomes S.
  rewriter.replaceOp(step.lossGrad, scale);

  // 3. One fused unscale + check after the last gradient.
  SmallVector<GradOp> grads;
  for (unsigned p : step.params)
    grads.push_back(step.gradOfParam.lookup(p));
  Operation *lastGrad = grads.front();
  for (GradOp g : grads)
    if (lastGrad->isBeforeInBlock(g))
      lastGrad = g;
  rewriter.setInsertionPointAfter(lastGrad);
  SmallVector<Value> raw;
  for (GradOp g : grads)
    raw.push_back(g.getRaw());
  auto check =
      UnscaleAndCheckOp::create(rewriter, lastGrad->getLoc(), raw, invScale);
  for (auto [g, unscaled] : llvm::zip(grads, check.getUnscaled()))
    rewriter.replaceOp(g, unscaled);
  Value foundInfTensor = check.getFoundInf();

  // 4. Everything that depends on the unscaled gradients moves into the
  //    no-overflow branch of one scf.if.
  llvm::SetVector<Operation *> dependent;
  SmallVector<Value> worklist(check.getUnscaled().begin(),
                              check.getUnscaled().end());
  Operation *terminator = entry.getTerminator();
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    for (Operation *user : v.getUsers()) {
      Operation *top = entry.findAncestorOpInBlock(*user);
      if (!top || top == terminator || dependent.contains(top))
        continue;
      dependent.insert(top);
      llvm::append_range(worklist, top->getResults());
    }
  }
  llvm::DenseSet<unsigned> updateResults;
  for (auto [arg, res] : step.updateOfArg)
    updateResults.insert(res);
  for (OpOperand &ret : terminator->getOpOperands()) {
    Operation *def = ret.get().getDefiningOp();
    if (def && dependent.contains(def) &&
        !updateResults.contains(ret.getOperandNumber()))
      return emitError(func.getLoc(), "result #")
             << ret.getOperandNumber()
             << " depends on the gradients but is not an amp.updates result;"
                " only the parameter/optimizer-state update may use "
                "gradients (it is skipped on overflow)";
  }

  rewriter.setInsertionPoint(terminator);
  Value foundInf =
      tensor::ExtractOp::create(rewriter, loc, foundInfTensor, ValueRange{});
  // Every parameter/optimizer-state result goes through the scf.if: the
  // overflow branch yields the old argument itself (bit-identical).
  SmallVector<unsigned> guardedArgs;
  for (unsigned i = 0; i < step.argRoles.size(); ++i)
    if ((step.argRoles[i] == ArgRole::Param ||
         step.argRoles[i] == ArgRole::OptState) &&
        step.updateOfArg.count(i))
      guardedArgs.push_back(i);
  SmallVector<Type> ifTypes;
  for (unsigned a : guardedArgs)
    ifTypes.push_back(func.getArgument(a).getType());
  auto ifOp = scf::IfOp::create(rewriter, loc, ifTypes, foundInf,
                                /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(ifOp.thenBlock());
    SmallVector<Value> old;
    for (unsigned a : guardedArgs)
      old.push_back(func.getArgument(a));
    scf::YieldOp::create(rewriter, loc, old);
    rewriter.setInsertionPointToStart(ifOp.elseBlock());
    SmallVector<Value> updated;
    for (unsigned a : guardedArgs)
      updated.push_back(terminator->getOperand(step.updateOfArg[a]));
    auto yield = scf::YieldOp::create(rewriter, loc, updated);
    for (Operation &op : llvm::make_early_inc_range(entry))
      if (dependent.contains(&op))
        rewriter.moveOpBefore(&op, yield);
  }
  rewriter.modifyOpInPlace(terminator, [&] {
    for (auto [a, v] : llvm::zip(guardedArgs, ifOp.getResults()))
      terminator->setOperand(step.updateOfArg[a], v);
  });

  // 5. The new state and found_inf become results, in the order of the
  //    arguments, found_inf last.
  auto appendResult = [&](Value v, StringRef role,
                          std::optional<unsigned> updates) -> LogicalResult {
    unsigned idx = func.getNumResults();
    terminator->insertOperands(terminator->getNumOperands(), {v});
    if (failed(
            func.insertResult(idx, v.getType(), roleAttrs(ctx, role, updates))))
      return emitError(func.getLoc(), "cannot add the ") << role << " result";
    return success();
  };
  if (cfg.mode == ScaleMode::Dynamic) {
    auto update = UpdateScaleOp::create(
        rewriter, loc, scale, growthTracker, hysteresisTracker, foundInfTensor,
        rewriter.getF32FloatAttr(cfg.growthFactor),
        rewriter.getF32FloatAttr(cfg.backoffFactor),
        rewriter.getI32IntegerAttr(cfg.growthInterval),
        rewriter.getI32IntegerAttr(cfg.hysteresis),
        rewriter.getF32FloatAttr(cfg.minScale),
        rewriter.getF32FloatAttr(cfg.maxScale));
    if (failed(appendResult(update.getNewScale(), "loss_scale", scaleArg)) ||
        failed(appendResult(update.getNewGrowthTracker(), "growth_tracker",
                            trackerArg)) ||
        failed(appendResult(update.getNewHysteresisTracker(),
                            "hysteresis_tracker", hysteresisArg)))
      return failure();
  }
  // consecutive_skips' = found_inf ? consecutive_skips + 1 : 0.
  Value skips =
      tensor::ExtractOp::create(rewriter, loc, consecutiveSkips, ValueRange{});
  Value one =
      arith::ConstantOp::create(rewriter, loc, rewriter.getI32IntegerAttr(1));
  Value zero =
      arith::ConstantOp::create(rewriter, loc, rewriter.getI32IntegerAttr(0));
  Value newSkips = arith::SelectOp::create(
      rewriter, loc, foundInf, arith::AddIOp::create(rewriter, loc, skips, one),
      zero);
  if (failed(appendResult(scalarTensor(rewriter, loc, newSkips),
                          "consecutive_skips", *skipsArg)) ||
      failed(appendResult(foundInfTensor, "found_inf", std::nullopt)))
    return failure();
  return success();
}

namespace {
struct LossScalingPass : amp::impl::LossScalingBase<LossScalingPass> {
  using LossScalingBase::LossScalingBase;

  /// auto resolved to no loss scaling (precision bf16 or f32), but the step
  /// already computes contractions in f16 (it was autocast to f16 before):
  /// those gradients can underflow and nothing scales them.
  void warnIfAlreadyF16(ModuleOp module) {
    ExistingNarrowing done = findExistingNarrowing(module);
    if (!done || !done.lowType.isF16())
      return;
    emitWarning(done.cast->getLoc())
        << "amp-loss-scaling: loss-scale=auto with precision="
        << stringifyPrecision(precision)
        << " picks no loss scaling, but this step already feeds '"
        << done.user->getName()
        << "' f16 values (it was autocast to f16): f16 gradients can "
           "underflow; use precision=f16 (auto: dynamic) or "
           "loss-scale=dynamic";
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    ScalingConfig cfg{ScaleMode::None, initScale,  growthInterval, growthFactor,
                      backoffFactor,   hysteresis, minScale,       maxScale};
    // The options are checked by the one rule of the rewrite's options.
    MixedPrecisionConfig options;
    options.precision = precision;
    options.lossScale = mode;
    options.initScale = initScale;
    options.growthInterval = growthInterval;
    options.growthFactor = growthFactor;
    options.backoffFactor = backoffFactor;
    options.hysteresis = hysteresis;
    options.minScale = minScale;
    options.maxScale = maxScale;
    if (std::string why = options.validate(); !why.empty()) {
      emitError(module.getLoc(), "amp-loss-scaling: ") << why;
      return signalPassFailure();
    }
    // auto: loss scaling where it is needed, i.e. for fp16 only.
    switch (options.resolvedLossScale()) {
    case LossScaleMode::Dynamic:
      cfg.mode = ScaleMode::Dynamic;
      break;
    case LossScaleMode::Static:
      cfg.mode = ScaleMode::Static;
      break;
    case LossScaleMode::Auto:
    case LossScaleMode::None:
      cfg.mode = ScaleMode::None;
      break;
    }
    if (mode == LossScaleMode::Auto && cfg.mode == ScaleMode::None)
      warnIfAlreadyF16(module);
    if (cfg.mode == ScaleMode::None)
      return;
    if (failed(forEachTrainStep(
            module, "amp-loss-scaling",
            [&](func::FuncOp func) { return scaleStep(func, cfg); })))
      signalPassFailure();
  }
};

} // namespace
