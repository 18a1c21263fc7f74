//===- Autocast.cpp - amp-autocast ----------------------------------------===//
//
// Applies the autocast plan of Analysis/PrecisionPolicy in one walk over the
// ops in program order. Decides nothing itself: the plan says which ops run
// Low (tensors stored in f16/bf16) or Mixed (low inputs, f32 accumulator);
// this file inserts the casts (one per value and target type), converts
// constants at compile time, retypes ops and bodies, and reports.
// The report (report=<file>) is written by AutocastReport.cpp.
//
//===----------------------------------------------------------------------===//

#include "amp/Analysis/PrecisionPolicy.h"
#include "amp/Support/Counts.h"
#include "amp/Transforms/Passes.h"

#include "AutocastReport.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/Verifier.h"

namespace mlir::amp {
#define GEN_PASS_DEF_AUTOCAST
#include "amp/Transforms/Passes.h.inc"
} // namespace mlir::amp

using namespace mlir;
using namespace mlir::amp;

namespace {

bool isF32Tensor(Type t) {
  return isa<RankedTensorType>(t) && getElementTypeOrSelf(t).isF32();
}

/// Rounds f32 constant values to `low` at compile time and warns (located
/// at `loc`, once per kind) when a value overflows to inf or a nonzero value
/// flushes to zero (IEEE binary16: largest finite 65504, smallest subnormal
/// 2^-24; REFERENCE.md). Shared by dense and resource constants.
class ConstantNarrowing {
public:
  explicit ConstantNarrowing(FloatType low) : low(low) {}

  /// The bits of `value` rounded to `low` (nearest, ties to even).
  APInt round(const APFloat &value) {
    APFloat v = value;
    bool lost = false;
    v.convert(low.getFloatSemantics(), APFloat::rmNearestTiesToEven, &lost);
    if (v.isInfinity() && !value.isInfinity() && !overflow) {
      overflow = true;
      firstOverflow = value.convertToDouble();
    }
    if (v.isZero() && !value.isZero() && !flush) {
      flush = true;
      firstFlush = value.convertToDouble();
    }
    return v.bitcastToAPInt();
  }

  /// Warns at `loc` about the first overflow and the first flush; `what`
  /// names the value ("constant value", "attribute 'max_val' ... value").
  void warn(Location loc, StringRef what = "constant value") const {
    // IEEE binary16 / bfloat16 limits (REFERENCE.md).
    bool half = low.isF16();
    if (overflow)
      emitWarning(loc) << "amp-autocast: " << what << " " << firstOverflow
                       << " overflows " << low << " and becomes "
                       << (firstOverflow < 0 ? "-inf" : "inf") << " (largest "
                       << (half ? "finite f16: 65504" : "finite bf16: ~3.39e38")
                       << "); keep its users f32 with deny=<op name> if that "
                          "matters";
    if (flush)
      emitWarning(loc) << "amp-autocast: " << what << " " << firstFlush
                       << " flushes to zero in " << low << " (smallest "
                       << (half ? "f16 subnormal: 2^-24 ~ 5.96e-8"
                                : "bf16 subnormal: 2^-133 ~ 9.2e-41")
                       << "); keep its users f32 with deny=<op name> if that "
                          "matters";
  }

private:
  FloatType low;
  bool overflow = false, flush = false;
  double firstOverflow = 0, firstFlush = 0;
};

/// Converts an f32 dense constant to `low` at compile time, with the
/// warnings of ConstantNarrowing.
DenseElementsAttr convertConstant(DenseFPElementsAttr attr, FloatType low,
                                  Location loc) {
  ConstantNarrowing narrowing(low);
  DenseElementsAttr converted = attr.mapValues(
      low, [&](const APFloat &value) { return narrowing.round(value); });
  narrowing.warn(loc);
  return converted;
}

/// The f32 data of a `dense_resource` constant, if its blob is present and
/// holds exactly one f32 per element (torch-mlir's weights: little-endian
/// f32 after the blob's alignment header, which the parser strips). Empty
/// for `dense_resource<__elided__>` (printed without its data) and for a
/// blob of the wrong size.
std::optional<ArrayRef<float>> resourceData(DenseResourceElementsAttr attr) {
  AsmResourceBlob *blob = attr.getRawHandle().getBlob();
  if (!blob || !attr.getElementType().isF32())
    return std::nullopt;
  ArrayRef<char> bytes = blob->getData();
  if (bytes.size() != size_t(attr.getNumElements()) * sizeof(float))
    return std::nullopt;
  return blob->getDataAs<float>();
}

/// The `low` version of an f32 `dense_resource` constant with data: a new
/// blob of 16-bit values (a new resource named after the old one), with the
/// warnings of ConstantNarrowing.
DenseResourceElementsAttr convertResource(DenseResourceElementsAttr attr,
                                          ArrayRef<float> data, FloatType low,
                                          Location loc) {
  ConstantNarrowing narrowing(low);
  std::vector<uint16_t> bits;
  bits.reserve(data.size());
  for (float f : data)
    bits.push_back(
        static_cast<uint16_t>(narrowing.round(APFloat(f)).getZExtValue()));
  narrowing.warn(loc);
  std::string name =
      (attr.getRawHandle().getKey() + "_" + (low.isF16() ? "f16" : "bf16"))
          .str();
  return DenseResourceElementsAttr::get(
      attr.getType().clone(low), name,
      HeapAsmResourceBlob::allocateAndCopyInferAlign<uint16_t>(bits));
}

/// Applies an AutocastPlan: materializes the low / f32 version of values
/// on demand, one per (value, type), and retypes the planned ops.
class PlanApplier {
public:
  PlanApplier(MLIRContext *ctx, const AutocastPlan &plan, FloatType low)
      : rewriter(ctx), plan(plan), low(low) {}

  /// keep-io-types=false: a private function whose every use is a
  /// func.call takes an argument in low precision when all its uses in the
  /// body read it low, and returns a result in low precision when every
  /// return passes a value stored low; calls follow. Public functions keep
  /// their signatures.
  void changePrivateSignatures(ModuleOp module) {
    for (auto fn : module.getOps<func::FuncOp>()) {
      if (!fn.isPrivate() || fn.isExternal())
        continue;
      std::optional<SymbolTable::UseRange> uses = fn.getSymbolUses(module);
      if (!uses || llvm::any_of(*uses, [](const SymbolTable::SymbolUse &u) {
            return !isa<func::CallOp>(u.getUser());
          }))
        continue;
      SmallVector<unsigned> lowArgs, lowResults;
      for (BlockArgument arg : fn.getArguments())
        if (isF32Tensor(arg.getType()) && !arg.use_empty() &&
            llvm::all_of(arg.getUses(),
                         [&](OpOperand &u) { return plan.readsLow(u); }))
          lowArgs.push_back(arg.getArgNumber());
      SmallVector<func::ReturnOp> returns;
      fn.walk([&](func::ReturnOp r) { returns.push_back(r); });
      for (unsigned j = 0; j < fn.getNumResults(); ++j)
        if (isF32Tensor(fn.getResultTypes()[j]) && !returns.empty() &&
            llvm::all_of(returns, [&](func::ReturnOp r) {
              return plan.storesLow(r.getOperand(j));
            }))
          lowResults.push_back(j);
      if (lowArgs.empty() && lowResults.empty())
        continue;
      for (unsigned i : lowArgs) {
        BlockArgument arg = fn.getArgument(i);
        arg.setType(cast<RankedTensorType>(arg.getType()).clone(low));
      }
      for (func::ReturnOp r : returns)
        for (unsigned j : lowResults)
          lowOperands[r].insert(j);
      for (const SymbolTable::SymbolUse &u : *uses) {
        Operation *call = u.getUser();
        for (unsigned i : lowArgs)
          lowOperands[call].insert(i);
        for (unsigned j : lowResults)
          lowResults_[call].push_back(j);
      }
      SmallVector<Type> results(fn.getResultTypes());
      for (unsigned j : lowResults)
        results[j] = cast<RankedTensorType>(results[j]).clone(low);
      fn.setType(FunctionType::get(fn.getContext(),
                                   fn.getBody().getArgumentTypes(), results));
      ++counts.signatures;
    }
  }

  void run() {
    for (Operation *op : plan.order)
      apply(op);
    // A retyped value that another op's body reads with tensor.extract (a
    // gather inside a linalg body, which the plan does not see: torch-mlir's
    // nearest upsampling of a max pool's result) is read in f32, as the
    // body expects, through the value's widened copy.
    for (Operation *op : plan.order)
      for (Value result : op->getResults()) {
        if (!retyped.contains(result))
          continue;
        Type element =
            cast<RankedTensorType>(result.getType()).getElementType();
        for (OpOperand &use : llvm::make_early_inc_range(result.getUses()))
          if (auto extract = dyn_cast<tensor::ExtractOp>(use.getOwner());
              extract && extract.getType() != element)
            rewriter.modifyOpInPlace(extract,
                                     [&] { use.set(getWide(result)); });
      }
    for (Operation *op : llvm::reverse(maybeDead))
      if (op->use_empty())
        rewriter.eraseOp(op);
  }

  AutocastCounts counts;

private:
  /// The `low` version of the f32 tensor `value`.
  Value getLow(Value value) {
    if (Value cached = lowOf.lookup(value))
      return cached;
    auto type = cast<RankedTensorType>(value.getType());
    auto lowType = type.clone(low);
    Operation *def = value.getDefiningOp();
    OpBuilder::InsertionGuard guard(rewriter);
    Value result;
    if (auto ext = dyn_cast_or_null<arith::ExtFOp>(def);
        ext && ext.getIn().getType() == lowType) {
      // Exact fold: f16 -> f32 -> f16 is the identity.
      result = ext.getIn();
      maybeDead.push_back(def);
    } else if (auto empty = dyn_cast_or_null<tensor::EmptyOp>(def)) {
      rewriter.setInsertionPointAfter(def);
      result = tensor::EmptyOp::create(rewriter, def->getLoc(), lowType,
                                       empty.getDynamicSizes());
      maybeDead.push_back(def);
    } else if (Attribute converted = convertedConstant(def, lowType)) {
      rewriter.setInsertionPointAfter(def);
      Operation *clone = rewriter.clone(*def);
      clone->setAttr(constantAttr(def), converted);
      clone->getResult(0).setType(lowType);
      result = clone->getResult(0);
      maybeDead.push_back(def);
      ++counts.constants;
    } else {
      // Any other value, also a resource constant without data
      // (dense_resource<__elided__>): the f32 value, rounded once.
      if (auto arg = dyn_cast<BlockArgument>(value))
        rewriter.setInsertionPointToStart(arg.getOwner());
      else
        rewriter.setInsertionPointAfterValue(value);
      result =
          arith::TruncFOp::create(rewriter, value.getLoc(), lowType, value);
      ++counts.casts;
      counts.lowBytes = saturatingAdd(
          counts.lowBytes,
          saturatingMul(staticElementCount(lowType), low.getWidth() / 8));
    }
    return lowOf[value] = result;
  }

  /// The `low` version of an f32 scalar read by a Low linalg op (the fill
  /// value): a constant is converted at compile time, anything else is
  /// rounded once after its definition.
  Value getLowScalar(Value value) {
    if (Value cached = lowOf.lookup(value))
      return cached;
    OpBuilder::InsertionGuard guard(rewriter);
    if (auto arg = dyn_cast<BlockArgument>(value))
      rewriter.setInsertionPointToStart(arg.getOwner());
    else
      rewriter.setInsertionPointAfterValue(value);
    Value result;
    if (auto cst = value.getDefiningOp<arith::ConstantFloatOp>()) {
      auto attr = DenseFPElementsAttr::get(
          RankedTensorType::get({}, value.getType()), cst.value());
      APFloat converted =
          cast<DenseFPElementsAttr>(convertConstant(attr, low, cst.getLoc()))
              .getSplatValue<APFloat>();
      result = arith::ConstantFloatOp::create(rewriter, cst.getLoc(), low,
                                              converted);
      ++counts.constants;
    } else {
      result = arith::TruncFOp::create(rewriter, value.getLoc(), low, value);
    }
    return lowOf[value] = result;
  }

  /// The f32 version of a value that this pass retyped to `low`.
  Value getWide(Value value) {
    if (Value cached = wideOf.lookup(value))
      return cached;
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointAfterValue(value);
    auto type = cast<RankedTensorType>(value.getType());
    Value result = arith::ExtFOp::create(
        rewriter, value.getLoc(), type.clone(rewriter.getF32Type()), value);
    ++counts.casts;
    return wideOf[value] = result;
  }

  /// The name of the f32 elements attribute (dense or dense_resource) of a
  /// constant-like op with one result.
  static StringAttr constantAttr(Operation *op) {
    if (!op || !op->hasTrait<OpTrait::ConstantLike>() ||
        op->getNumResults() != 1)
      return {};
    for (NamedAttribute a : op->getAttrs())
      if (isa<DenseFPElementsAttr, DenseResourceElementsAttr>(a.getValue()) &&
          cast<ElementsAttr>(a.getValue()).getElementType().isF32())
        return a.getName();
    return {};
  }

  /// The value of constant `def` rounded to `lowType` at compile time, or
  /// null when it cannot be (not a constant, or a resource without data).
  Attribute convertedConstant(Operation *def, RankedTensorType lowType) {
    StringAttr name = constantAttr(def);
    if (!name)
      return {};
    Attribute attr = def->getAttr(name);
    if (auto dense = dyn_cast<DenseFPElementsAttr>(attr))
      return convertConstant(dense, low, def->getLoc());
    auto resource = cast<DenseResourceElementsAttr>(attr);
    if (std::optional<ArrayRef<float>> data = resourceData(resource))
      return convertResource(resource, *data, low, def->getLoc());
    return {};
  }

  void apply(Operation *op) {
    switch (plan.choiceOf(op)) {
    case OpPrecisionChoice::AsUsed:
      return applyAsUsed(op);
    case OpPrecisionChoice::F32:
      return restoreF32Operands(op);
    case OpPrecisionChoice::Mixed:
      if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
        return applyMixed(linalgOp);
      return applyMixedGeneric(op);
    case OpPrecisionChoice::Low:
      return applyLow(op);
    }
  }

  /// Ops that keep their types read the f32 version of retyped operands.
  void restoreF32Operands(Operation *op) {
    auto marked = lowOperands.find(op);
    for (OpOperand &use : op->getOpOperands()) {
      bool wantsLow = marked != lowOperands.end() &&
                      marked->second.contains(use.getOperandNumber());
      if (wantsLow && isF32Tensor(use.get().getType()))
        rewriter.modifyOpInPlace(op, [&] { use.set(getLow(use.get())); });
      else if (!wantsLow && retyped.contains(use.get()))
        rewriter.modifyOpInPlace(op, [&] { use.set(getWide(use.get())); });
    }
    // Calls of private functions whose results became low.
    for (unsigned j : lowResults_.lookup(op)) {
      Value result = op->getResult(j);
      rewriter.modifyOpInPlace(op, [&] {
        result.setType(cast<RankedTensorType>(result.getType()).clone(low));
      });
      retyped.insert(result);
    }
  }

  /// Existing casts: a truncf to `low` of a value that is now low is the
  /// value itself; any other cast reads the f32 version.
  void applyAsUsed(Operation *op) {
    if (op->getNumOperands() != 1 || !retyped.contains(op->getOperand(0)))
      return;
    if (isa<arith::TruncFOp>(op) &&
        op->getResult(0).getType() == op->getOperand(0).getType()) {
      // Its users read a low value in the input and keep reading one: an
      // f32 (deny) user must not get the widened operand (found by
      // amp-robustness, seed 658: a bf16 linalg.reduce fed f32).
      for (OpOperand &use : op->getResult(0).getUses())
        lowOperands[use.getOwner()].insert(use.getOperandNumber());
      rewriter.replaceAllUsesWith(op->getResult(0), op->getOperand(0));
      maybeDead.push_back(op);
      return;
    }
    restoreF32Operands(op);
  }

  void applyMixed(linalg::LinalgOp op) {
    for (OpOperand *in : op.getDpsInputOperands())
      if (isF32Tensor(in->get().getType()) && !retyped.contains(in->get()))
        rewriter.modifyOpInPlace(op, [&] { in->set(getLow(in->get())); });
    for (OpOperand &init : op.getDpsInitsMutable())
      if (retyped.contains(init.get()))
        rewriter.modifyOpInPlace(op, [&] { init.set(getWide(init.get())); });
    fixLinalgBody(op);
  }

  /// A non-linalg Mixed op (tosa.matmul): every f32 tensor operand is read
  /// in low precision, the f32 result stays.
  void applyMixedGeneric(Operation *op) {
    for (OpOperand &use : op->getOpOperands())
      if (isF32Tensor(use.get().getType()) && !retyped.contains(use.get()))
        rewriter.modifyOpInPlace(op, [&] { use.set(getLow(use.get())); });
  }

  void applyLow(Operation *op) {
    // A fused normalization's per-channel statistics stay f32 (its body
    // computes in f32 anyway; they are small, and a running variance in f16
    // would lose its small values).
    bool keepStatistics = isFusedNormalization(op);
    rewriter.modifyOpInPlace(op, [&] {
      for (OpOperand &use : op->getOpOperands()) {
        if (keepStatistics && isBroadcastOperand(use)) {
          if (retyped.contains(use.get()))
            use.set(getWide(use.get()));
          continue;
        }
        if (isF32Tensor(use.get().getType()))
          use.set(getLow(use.get()));
        else if (use.get().getType().isF32() && isa<linalg::LinalgOp>(op))
          use.set(getLowScalar(use.get()));
      }
      for (OpResult result : op->getResults())
        if (isF32Tensor(result.getType())) {
          auto type = cast<RankedTensorType>(result.getType()).clone(low);
          result.setType(type);
          retyped.insert(result);
          counts.lowBytes = saturatingAdd(
              counts.lowBytes,
              saturatingMul(staticElementCount(type), low.getWidth() / 8));
        }
    });
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
      fixLinalgBody(linalgOp);
    else
      convertFloatAttrs(op);
    if (auto pad = dyn_cast<tensor::PadOp>(op))
      roundYielded(pad.getRegion().front().getTerminator(),
                   {getElementTypeOrSelf(pad.getType())});
  }

  /// f32 attributes of a Low op outside linalg (e.g. tosa.clamp bounds)
  /// take the low type. A value beyond its range saturates to +-inf (a
  /// clamp bound stays a bound) and a tiny one flushes to zero; either is a
  /// changed op, so it is warned about at the op, naming the attribute.
  void convertFloatAttrs(Operation *op) {
    for (NamedAttribute a : op->getAttrs()) {
      auto f = dyn_cast<FloatAttr>(a.getValue());
      if (!f || !f.getType().isF32())
        continue;
      ConstantNarrowing narrowing(low);
      APInt bits = narrowing.round(f.getValue());
      // +-FLT_MAX is TOSA's "no bound" (tosa.clamp as ReLU): it becomes
      // +-inf, still no bound, without a warning.
      if (!f.getValue().isLargest())
        narrowing.warn(op->getLoc(),
                       ("attribute '" + a.getName().strref() + "' of '" +
                        op->getName().getStringRef() + "', value")
                           .str());
      APFloat v(low.getFloatSemantics(), bits);
      rewriter.modifyOpInPlace(
          op, [&] { op->setAttr(a.getName(), FloatAttr::get(low, v)); });
    }
  }

  /// Body block arguments take the element type of their (possibly new)
  /// operand and are extended to the old type once at the start of the
  /// body, so the payload computes as before (in f32: PyTorch's opmath);
  /// yielded values are rounded once to the element type of their init.
  void fixLinalgBody(linalg::LinalgOp op) {
    Block *body = op.getBlock();
    OpBuilder::InsertionGuard guard(rewriter);
    for (OpOperand &operand : op->getOpOperands()) {
      if (operand.getOperandNumber() >= body->getNumArguments())
        continue;
      BlockArgument arg = op.getMatchingBlockArgument(&operand);
      Type want = getElementTypeOrSelf(operand.get().getType());
      Type have = arg.getType();
      if (want == have || !isa<FloatType>(have))
        continue;
      rewriter.modifyOpInPlace(op, [&] { arg.setType(want); });
      if (arg.use_empty())
        continue;
      rewriter.setInsertionPointToStart(body);
      Value ext = arith::ExtFOp::create(rewriter, op.getLoc(), have, arg);
      rewriter.replaceAllUsesExcept(arg, ext, ext.getDefiningOp());
    }
    SmallVector<Type> want;
    for (Value init : op.getDpsInits())
      want.push_back(getElementTypeOrSelf(init.getType()));
    roundYielded(body->getTerminator(), want);
  }

  void roundYielded(Operation *yield, ArrayRef<Type> want) {
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(yield);
    for (auto [i, type] : llvm::enumerate(want)) {
      if (i >= yield->getNumOperands())
        break;
      Value v = yield->getOperand(i);
      if (v.getType() == type || !isa<FloatType>(type))
        continue;
      Value t = arith::TruncFOp::create(rewriter, yield->getLoc(), type, v);
      unsigned index = i;
      rewriter.modifyOpInPlace(yield, [&] { yield->setOperand(index, t); });
    }
  }

  IRRewriter rewriter;
  const AutocastPlan &plan;
  FloatType low;
  DenseMap<Value, Value> lowOf, wideOf;
  DenseSet<Value> retyped;
  SmallVector<Operation *> maybeDead;
  /// keep-io-types=false: operands of returns/calls read in low precision,
  /// and call results that are low.
  DenseMap<Operation *, llvm::SmallDenseSet<unsigned, 4>> lowOperands;
  DenseMap<Operation *, SmallVector<unsigned>> lowResults_;
};

struct AutocastPass : amp::impl::AutocastBase<AutocastPass> {
  using AutocastBase::AutocastBase;

  /// An allow=/deny= entry must name an op: `dialect.op` of a registered
  /// dialect, and an op of that dialect when the dialect is loaded (a
  /// dialect that is registered but not loaded has no op in the module, so
  /// its names are accepted). A misspelled name would otherwise match
  /// nothing, silently. Not checked when unregistered ops are allowed.
  LogicalResult checkOpName(StringRef option, StringRef name) {
    MLIRContext *ctx = &getContext();
    if (ctx->allowsUnregisteredDialects())
      return success();
    StringRef ns = name.split('.').first, opName = name.split('.').second;
    auto fail = [&]() {
      return emitError(getOperation().getLoc(), "amp-autocast: ")
             << option << "= names '" << name << "', ";
    };
    if (opName.empty())
      return fail() << "not an op name (dialect.op, e.g. linalg.matmul)";
    if (ctx->getLoadedDialect(ns)) {
      if (!RegisteredOperationName::lookup(name, ctx))
        return fail() << "which is not an op of dialect '" << ns << "'";
      return success();
    }
    if (!ctx->getDialectRegistry().getDialectAllocator(ns))
      return fail() << "but no dialect '" << ns << "' is registered";
    return success();
  }

  /// `allow=` is the user's call, but two of its consequences break
  /// promises of mixed precision (shared REFERENCE.md), so each gets a
  /// located warning: an op of the default deny class (range or precision
  /// sensitive: reductions, exp/log, softmax) now runs in low precision, and
  /// an op that computes a returned parameter or optimizer-state update
  /// (`amp.updates`) runs in low precision (the fp32 master copy is lost).
  void warnAboutOverrides(const AutocastPlan &plan) {
    for (Operation *op : plan.order) {
      const OpDecision &d = plan.decisions.lookup(op);
      if (d.choice != OpPrecisionChoice::Low &&
          d.choice != OpPrecisionChoice::Mixed)
        continue;
      OpPrecision byDefault = classifyOp(op);
      if (byDefault.cls == PrecisionClass::Deny)
        emitWarning(op->getLoc())
            << "amp-autocast: allow= overrides the deny class of '"
            << op->getName() << "' (" << byDefault.reason
            << "): it now runs in " << stringifyPrecision(precision);
      if (d.choice != OpPrecisionChoice::Low)
        continue;
      for (OpOperand &use : op->getUses()) {
        auto ret = dyn_cast<func::ReturnOp>(use.getOwner());
        auto func = ret ? ret->getParentOfType<func::FuncOp>() : nullptr;
        if (func && func.getResultAttr(use.getOperandNumber(), "amp.updates")) {
          emitWarning(op->getLoc())
              << "amp-autocast: '" << op->getName()
              << "' computes a parameter or optimizer-state update (result #"
              << use.getOperandNumber() << " has amp.updates) in "
              << stringifyPrecision(precision)
              << ": the fp32 master copy is lost; name it in deny= to keep "
                 "it f32";
          break;
        }
      }
    }
  }

  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    if (precision == Precision::F32) { // keep f32: identity
      if (!reportFile.empty())
        emitWarning(getOperation().getLoc(), "amp-autocast: precision=f32 "
                                             "changes nothing; no report is "
                                             "written to '")
            << reportFile << "'";
      return;
    }
    FloatType low = precision == Precision::F16
                        ? FloatType(Float16Type::get(ctx))
                        : FloatType(BFloat16Type::get(ctx));

    // A step that is already autocast to the other 16-bit type would keep
    // its low ops in that type (they are "already low"), and loss scaling
    // (auto: none for bf16) would then be off for f16 contractions.
    if (ExistingNarrowing done = findExistingNarrowing(getOperation());
        done && done.lowType != low) {
      StringRef doneName = done.lowType.isF16() ? "f16" : "bf16";
      InFlightDiagnostic diag =
          done.cast->emitError()
          << "amp-autocast: precision=" << stringifyPrecision(precision)
          << ", but the input is already narrowed to " << doneName
          << " (this cast feeds '" << done.user->getName()
          << "'); autocast would keep those ops in " << doneName
          << " and loss scaling would not be chosen for "
             "them: autocast the fp32 step instead, or "
             "use precision="
          << doneName;
      diag.attachNote(done.user->getLoc()) << "read here";
      return signalPassFailure();
    }

    AutocastPlanOptions options;
    for (const std::string &name : allowOps)
      if (failed(checkOpName("allow", name)))
        return signalPassFailure();
    for (const std::string &name : denyOps)
      if (failed(checkOpName("deny", name)))
        return signalPassFailure();
    for (const std::string &name : allowOps)
      options.overrides.allow.insert(name);
    for (const std::string &name : denyOps) {
      if (options.overrides.allow.contains(name)) {
        emitError(getOperation().getLoc(), "amp-autocast: op '")
            << name << "' is named in both allow= and deny=";
        return signalPassFailure();
      }
      options.overrides.deny.insert(name);
    }

    AutocastPlan plan = planAutocast(getOperation(), options);
    AutocastReport report = summarizePlan(plan, stringifyPrecision(precision),
                                          /*withEntries=*/!reportFile.empty());
    if (emitRemarks) {
      emitPlanRemarks(plan);
    } else {
      // Always said, even without remarks=true (issue 5): ops on float
      // tensors that the policy does not know, and allow ops that could not
      // be demoted (f64, buffers, scalars), keep their types; a remark
      // names each one. Ops without float tensors (e.g. already lowered
      // LLVM IR) had no precision to choose and stay silent.
      auto onFloatTensors = [](Operation *op) {
        auto isFloatTensor = [](Type t) {
          return isa<TensorType>(t) &&
                 isa<FloatType>(cast<TensorType>(t).getElementType());
        };
        return llvm::any_of(op->getOperandTypes(), isFloatTensor) ||
               llvm::any_of(op->getResultTypes(), isFloatTensor);
      };
      for (Operation *op : plan.order) {
        const OpDecision &d = plan.decisions.lookup(op);
        bool keptAllow = d.policy.cls == PrecisionClass::Allow &&
                         d.choice == OpPrecisionChoice::F32;
        bool unknown =
            d.policy.cls == PrecisionClass::Unknown && onFloatTensors(op);
        if (unknown || keptAllow)
          emitAutocastRemark(op)
              << "autocast: '" << op->getName() << "' " << d.rule;
      }
    }

    warnAboutOverrides(plan);

    PlanApplier applier(ctx, plan, low);
    if (!keepIOTypes)
      applier.changePrivateSignatures(getOperation());
    applier.run();
    report.counts = applier.counts;

    numAllow = report.perClass[PrecisionClass::Allow];
    numDeny = report.perClass[PrecisionClass::Deny];
    numInfer = report.perClass[PrecisionClass::Infer];
    numClear = report.perClass[PrecisionClass::Clear];
    numUnknown = report.perClass[PrecisionClass::Unknown];
    numLowOps = report.lowOps;
    numMixedOps = report.mixedOps;
    numCasts = applier.counts.casts;
    numConstants = applier.counts.constants;
    numSignatures = applier.counts.signatures;

    // Only the retyped ops can have become invalid: verify those (with
    // their bodies) and name each culprit, located at it.
    bool invalid = false;
    for (Operation *op : plan.order)
      if (plan.choiceOf(op) == OpPrecisionChoice::Low && failed(verify(op))) {
        invalid = true;
        emitError(op->getLoc())
            << "amp-autocast: '" << op->getName() << "' painted "
            << stringifyPrecision(precision)
            << " does not verify with low-precision types (error above); "
               "name it in deny= to keep it f32";
      }
    if (invalid)
      return signalPassFailure();
    if (!reportFile.empty() &&
        failed(writeReport(report, reportFile, getOperation().getLoc())))
      return signalPassFailure();
  }
};

} // namespace
