//===- Autocast.cpp - amp-autocast ----------------------------------------===//
//
// Applies the autocast plan of Analysis/PrecisionPolicy: demotes the f32
// inputs of allow ops (contractions, convolutions) to f16/bf16 while their
// accumulator and result stay f32. Decides nothing itself.
//
//===----------------------------------------------------------------------===//

#include "amp/Analysis/PrecisionPolicy.h"
#include "amp/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::amp {
#define GEN_PASS_DEF_AUTOCAST
#include "amp/Transforms/Passes.h.inc"
} // namespace mlir::amp

using namespace mlir;
using namespace mlir::amp;

namespace {

/// One `arith.truncf` per (value, target element type), created right after
/// the value's definition (or at the start of its block for block
/// arguments) so that it dominates every user.
class CastCache {
public:
  explicit CastCache(RewriterBase &rewriter) : rewriter(rewriter) {}

  Value get(Value value, FloatType target) {
    auto key = std::make_pair(value, target);
    if (Value cached = cache.lookup(key))
      return cached;
    auto type = cast<RankedTensorType>(value.getType());
    // Exact fold: a value that is `arith.extf` of the target type already
    // has its low-precision form (f16 -> f32 -> f16 is the identity).
    if (auto ext = value.getDefiningOp<arith::ExtFOp>())
      if (getElementTypeOrSelf(ext.getIn().getType()) == target)
        return cache[key] = ext.getIn();
    OpBuilder::InsertionGuard guard(rewriter);
    if (auto arg = dyn_cast<BlockArgument>(value))
      rewriter.setInsertionPointToStart(arg.getOwner());
    else
      rewriter.setInsertionPointAfterValue(value);
    Value cast = arith::TruncFOp::create(rewriter, value.getLoc(),
                                         type.clone(target), value);
    return cache[key] = cast;
  }

private:
  RewriterBase &rewriter;
  DenseMap<std::pair<Value, Type>, Value> cache;
};

/// Replaces input operand `operandNumber` of `op` by `lowValue` and retypes
/// the matching body argument; the body reads it through one `arith.extf` to
/// f32, so the multiply-accumulate keeps running in fp32 (the same body
/// that linalg's named-op builders create for mixed-precision operands).
} // namespace

static void demoteInput(RewriterBase &rewriter, linalg::LinalgOp op,
                        unsigned operandNumber, Value lowValue) {
  Block *body = op.getBlock();
  BlockArgument arg = body->getArgument(operandNumber);
  Type wide = arg.getType();
  Type narrow = getElementTypeOrSelf(lowValue.getType());
  rewriter.modifyOpInPlace(op, [&] {
    op->setOperand(operandNumber, lowValue);
    arg.setType(narrow);
  });
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointToStart(body);
  Value ext = arith::ExtFOp::create(rewriter, op.getLoc(), wide, arg);
  rewriter.replaceAllUsesExcept(arg, ext, ext.getDefiningOp());
}

namespace {
struct AutocastPass : amp::impl::AutocastBase<AutocastPass> {
  using AutocastBase::AutocastBase;

  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    FloatType target;
    if (precision == "f16")
      target = Float16Type::get(ctx);
    else if (precision == "bf16")
      target = BFloat16Type::get(ctx);
    else {
      emitError(getOperation().getLoc(),
                "amp-autocast: precision must be f16 or bf16 "
                "(amp-mixed-precision also takes f32: no autocast), got '")
          << precision << "'";
      return signalPassFailure();
    }

    AutocastPlan plan = planAutocast(getOperation());
    IRRewriter rewriter(ctx);
    CastCache casts(rewriter);
    for (const DemotedOp &d : plan.demoted) {
      auto op = cast<linalg::LinalgOp>(d.op);
      for (unsigned operand : d.operands)
        demoteInput(rewriter, op, operand,
                    casts.get(op->getOperand(operand), target));
    }
  }
};

} // namespace
