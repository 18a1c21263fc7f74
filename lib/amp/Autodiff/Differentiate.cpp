//===- Differentiate.cpp - reverse-mode automatic differentiation ---------===//
//
// The driver: expand the active forward ops that differentiate by
// rewriting (expandForward), analyze activity, then visit the forward in
// reverse order and let every active op's rule add the cotangents of its
// operands. The driver never names an op: what an op needs is in its
// ReverseModeOpInterface model.
//
//===----------------------------------------------------------------------===//

#include "amp/Autodiff/Differentiate.h"

#include "amp/Autodiff/ReverseModeOpInterface.h"

#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::amp::autodiff;

/// Rounds of expandForward before the driver gives up (a call that reaches
/// itself again keeps expanding).
static constexpr unsigned kMaxExpansionRounds = 64;

static LogicalResult reportMissingRule(Operation *op) {
  return op->emitError()
         << "'" << op->getName()
         << "' has no adjoint rule, so amp-differentiate cannot send the "
            "cotangent of its results to its operands; rewrite it with ops "
            "that have rules (docs/autodiff.md lists them) or give it a "
            "ReverseModeOpInterface external model "
            "(lib/amp/Autodiff/Implementations/)";
}

LogicalResult mlir::amp::autodiff::buildAdjoints(OpBuilder &builder,
                                                 ArrayRef<Operation *> ops,
                                                 AdjointState &state) {
  for (Operation *op : llvm::reverse(ops)) {
    if (!state.getActivity().needsAdjoint(op))
      continue;
    bool hasCotangent = llvm::any_of(op->getResults(), [&](Value r) {
      return state.isActive(r) && state.getCotangent(builder, r);
    });
    if (!hasCotangent)
      continue;
    auto rule = dyn_cast<ReverseModeOpInterface>(op);
    if (!rule)
      return reportMissingRule(op);
    if (failed(rule.buildAdjoint(builder, state)))
      return failure();
  }
  return state.verify();
}

namespace {
/// Follows values through the replacements of expandForward.
struct ValueTracker : RewriterBase::Listener {
  explicit ValueTracker(SmallVectorImpl<Value> &values) : values(values) {}
  void notifyOperationReplaced(Operation *op, ValueRange with) override {
    for (Value &v : values)
      if (auto result = dyn_cast<OpResult>(v);
          result && result.getOwner() == op)
        v = with[result.getResultNumber()];
  }
  SmallVectorImpl<Value> &values;
};
} // namespace

/// The forward: the ops of the insertion block before the insertion point.
static SmallVector<Operation *> forwardOps(OpBuilder &builder) {
  SmallVector<Operation *> ops;
  Block *block = builder.getInsertionBlock();
  for (Operation &op :
       llvm::make_range(block->begin(), builder.getInsertionPoint()))
    ops.push_back(&op);
  return ops;
}

/// Calls expandForward on the active forward ops until none expands.
/// `tracked` holds the loss, the seed and the wrt values.
static LogicalResult expandForward(OpBuilder &builder,
                                   SmallVectorImpl<Value> &tracked,
                                   unsigned numWrt) {
  ValueTracker tracker(tracked);
  IRRewriter rewriter(builder.getContext(), &tracker);
  for (unsigned round = 0; round < kMaxExpansionRounds; ++round) {
    SmallVector<Operation *> ops = forwardOps(builder);
    Activity activity = Activity::compute(
        ops, ValueRange(tracked).take_back(numWrt), tracked.front());
    bool expanded = false;
    for (Operation *op : ops) {
      auto rule = dyn_cast<ReverseModeOpInterface>(op);
      if (!rule || !activity.needsAdjoint(op))
        continue;
      rewriter.setInsertionPoint(op);
      FailureOr<bool> done = rule.expandForward(rewriter);
      if (failed(done))
        return failure();
      expanded |= *done;
    }
    if (!expanded)
      return success();
  }
  return emitError(tracked.front().getLoc())
         << "amp-differentiate: the forward still expands after "
         << kMaxExpansionRounds
         << " rounds of inlining and unrolling (a recursive call?)";
}

/// Located error unless `v` is a block argument of `block` or the result of
/// an op of `block` before `point`.
static LogicalResult checkInForward(Value v, Block *block,
                                    Block::iterator point, StringRef what) {
  bool ok = false;
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    ok = arg.getOwner() == block;
  } else {
    Operation *def = v.getDefiningOp();
    ok = def->getBlock() == block &&
         (point == block->end() || def->isBeforeInBlock(&*point));
  }
  if (ok)
    return success();
  return emitError(v.getLoc())
         << "amp-differentiate: the " << what
         << " must be a value of the forward (an argument of the block the "
            "backward is built in, or defined in it before the backward)";
}

static bool isScalarFloatTensor(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && tensor.getRank() == 0 &&
         isa<FloatType>(tensor.getElementType());
}

FailureOr<SmallVector<Value>>
mlir::amp::autodiff::differentiate(OpBuilder &builder, Value loss, Value seed,
                                   ValueRange wrt) {
  if (!isScalarFloatTensor(loss.getType()))
    return emitError(loss.getLoc())
           << "amp-differentiate: the loss has type " << loss.getType()
           << "; it must be a scalar float tensor (tensor<f32> or "
              "tensor<f64>)";
  if (seed.getType() != loss.getType())
    return emitError(seed.getLoc())
           << "amp-differentiate: the seed has type " << seed.getType()
           << " but the loss has type " << loss.getType()
           << "; the seed is the loss's cotangent and has its type";
  Block *block = builder.getInsertionBlock();
  Block::iterator point = builder.getInsertionPoint();
  if (failed(checkInForward(loss, block, point, "loss")) ||
      failed(checkInForward(seed, block, point, "seed")))
    return failure();
  for (auto [i, w] : llvm::enumerate(wrt)) {
    if (failed(checkInForward(w, block, point,
                              "value differentiated with "
                              "respect to")))
      return failure();
    if (!isDifferentiableType(w.getType()))
      return emitError(w.getLoc())
             << "amp-differentiate: value #" << i << " to differentiate "
             << "with respect to has type " << w.getType()
             << "; only float scalars and ranked float tensors have "
                "gradients";
  }

  SmallVector<Value> tracked = {loss, seed};
  llvm::append_range(tracked, wrt);
  if (failed(expandForward(builder, tracked, wrt.size())))
    return failure();
  loss = tracked[0];
  seed = tracked[1];
  ValueRange wrtNow = ValueRange(tracked).drop_front(2);

  SmallVector<Operation *> ops = forwardOps(builder);
  AdjointState state(Activity::compute(ops, wrtNow, loss));
  state.addCotangent(loss, seed);
  if (failed(buildAdjoints(builder, ops, state)))
    return failure();
  return llvm::map_to_vector(
      wrtNow, [&](Value w) { return state.getCotangentOrZeros(builder, w); });
}
