//===- RecomputeForBackward.cpp - amp-recompute-for-backward -------------===//
//
// A forward value that the backward reads stays live from its definition to
// the backward: that is the activation memory of a training step. When such
// a value is a cheap function (a cast, a transpose, a reshape, a pad, a
// slice, a broadcast) of values the backward has anyway (arguments,
// constants, forward values the backward reads itself), this pass recomputes
// it right before its first use after the `amp.loss_grad` seed instead, so
// the forward's copy dies after its last forward use. The main cases after
// autocast: the low-precision copy of a weight (`truncf`, then the
// transpose a torch-mlir linear reads) and of the input batch, the f16 copy
// of an f32 activation that an f32 backward op keeps anyway (the softmax
// output read by both the softmax backward and a batch_matmul), reshapes of
// kept values, and the f32 view (extf) of a low-precision value, whose
// narrow input is kept instead (Passes.td has the contract).
//
// The clones compute the same bits as the originals (the same op on the
// same operands), so the step's results do not change. Each clone carries
// `amp.recomputed`: CSE does not merge ops whose attributes differ, so the
// later clean-ups (amp-mixed-precision's CSE, the lowerings') do not fold a
// clone back into the forward's op.
//
//===----------------------------------------------------------------------===//

#include "Recompute.h"

#include "amp/Analysis/TrainingStep.h"
#include "amp/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::amp {
#define GEN_PASS_DEF_RECOMPUTEFORBACKWARD
#include "amp/Transforms/Passes.h.inc"
} // namespace mlir::amp

using namespace mlir;
using namespace mlir::amp;

/// Static shapes and an iteration domain with no more points than the
/// largest operand or result (a pooling window whose stride is its size).
static bool hasSmallStaticDomain(linalg::LinalgOp op) {
  if (op.hasDynamicShape())
    return false;
  int64_t largest = 1;
  for (Type type : op->getOperandTypes())
    if (auto shaped = dyn_cast<RankedTensorType>(type))
      largest = std::max(largest, shaped.getNumElements());
  int64_t points = 1;
  for (int64_t extent : op.getStaticLoopRanges()) {
    if (ShapedType::isDynamic(extent) || extent > largest)
      return false;
    points *= extent;
    if (points > largest)
      return false;
  }
  return true;
}

/// A linalg op on tensors whose work is linear in its bytes: one of its
/// operands or results is indexed by all of its loops (a permutation map),
/// so the iteration domain has as many points as that operand, whatever the
/// shapes (static or not), or static shapes and a domain no larger than the
/// largest operand; and a body without memory effects. True for
/// elementwise ops, fills, broadcasts, reductions along some dimensions,
/// a max pool whose stride is its window; false for contractions (no
/// operand is indexed by the reduction and both parallel dimensions) and
/// convolutions (their windows are not permutations, and their domain is
/// larger than any operand).
static bool isLinearWorkLinalgOp(Operation *op) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp || !linalgOp.hasPureTensorSemantics() ||
      !(llvm::any_of(linalgOp.getIndexingMapsArray(),
                     [](AffineMap map) { return map.isPermutation(); }) ||
        hasSmallStaticDomain(linalgOp)))
    return false;
  WalkResult pure = op->walk([&](Operation *nested) {
    return nested == op || isMemoryEffectFree(nested) ? WalkResult::advance()
                                                      : WalkResult::interrupt();
  });
  return !pure.wasInterrupted();
}

/// A linalg reduction on static shapes whose result has at most 1/8 of the
/// elements of its largest input: a row's max or sum, a norm's mean or
/// variance. Recomputing it would read its whole input again in the
/// backward; keeping its few bytes is cheaper.
static bool isStatistic(Operation *op) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp || linalgOp.getNumReductionLoops() == 0 ||
      linalgOp.hasDynamicShape() || op->getNumResults() != 1)
    return false;
  int64_t largestInput = 0;
  for (Value input : linalgOp.getDpsInputs())
    if (auto shaped = dyn_cast<RankedTensorType>(input.getType()))
      largestInput = std::max(largestInput, shaped.getNumElements());
  auto result = cast<RankedTensorType>(op->getResult(0).getType());
  return 8 * result.getNumElements() <= largestInput;
}

bool mlir::amp::isCheapToRecompute(Operation *op, bool elementwise) {
  if (op->getNumResults() != 1 || !isMemoryEffectFree(op))
    return false;
  return isa<arith::TruncFOp, arith::ExtFOp, linalg::TransposeOp,
             linalg::BroadcastOp, tensor::CollapseShapeOp,
             tensor::ExpandShapeOp, tensor::ExtractSliceOp, tensor::PadOp,
             tensor::EmptyOp, tensor::DimOp>(op) ||
         (elementwise && isLinearWorkLinalgOp(op));
}

/// Operands of `op` plus the values its regions use from above.
static SmallVector<Value> usedValues(Operation *op) {
  llvm::SetVector<Value> vals(op->operand_begin(), op->operand_end());
  getUsedValuesDefinedAbove(op->getRegions(), vals);
  return vals.takeVector();
}

/// Recomputes in `fn` (an amp.train_step with its seed at the top level)
/// the cheap forward values the backward reads. Returns how many ops were
/// cloned.
static unsigned recomputeStep(func::FuncOp fn, Operation *seed,
                              bool elementwise) {
  Block &body = fn.getBody().front();
  llvm::DenseMap<Operation *, unsigned> position;
  for (auto [i, op] : llvm::enumerate(body))
    position[&op] = i;
  unsigned seedPos = position.lookup(seed);

  // Forward values (top-level results before the seed) and the position of
  // their first reader after the seed, if any: the values kept for the
  // backward.
  llvm::DenseMap<Value, unsigned> firstBackwardUse;
  SmallVector<Operation *> forward;
  for (Operation &op : body) {
    unsigned pos = position.lookup(&op);
    if (pos >= seedPos)
      break;
    forward.push_back(&op);
    for (Value res : op.getResults())
      for (OpOperand &use : res.getUses()) {
        Operation *unit = body.findAncestorOpInBlock(*use.getOwner());
        if (!unit || unit->hasTrait<OpTrait::IsTerminator>())
          continue;
        unsigned at = position.lookup(unit);
        if (at <= seedPos)
          continue;
        auto [it, inserted] = firstBackwardUse.try_emplace(res, at);
        if (!inserted)
          it->second = std::min(it->second, at);
      }
  }

  // The inputs of kept extf ops: the extf is recomputed below whatever it
  // reads, so its narrow input is kept instead (and is at hand).
  llvm::DenseSet<Value> keptThroughExtF;
  for (Operation *op : forward)
    if (auto ext = dyn_cast<arith::ExtFOp>(op);
        ext && firstBackwardUse.contains(ext.getResult()))
      keptThroughExtF.insert(ext.getIn());
  // What the backward has anyway: entry-block arguments, results of ops
  // without operands (constants, tensor.empty), kept forward values.
  llvm::DenseSet<Value> statistics;
  auto available = [&](Value v) {
    if (keptThroughExtF.contains(v) || statistics.contains(v))
      return true;
    if (isa<BlockArgument>(v))
      return cast<BlockArgument>(v).getOwner() == &body;
    Operation *def = v.getDefiningOp();
    if (def->getNumOperands() == 0 && def->getNumRegions() == 0 &&
        isMemoryEffectFree(def))
      return true;
    return firstBackwardUse.contains(v);
  };
  // Recomputable: a cheap op with operands (one without is available) whose
  // inputs are available or recomputable,
  // and any widening extf: keeping its input instead of its result halves
  // (f16/bf16 to f32) what the backward keeps of it (the f32 view of an
  // accumulator amp-keep-accumulators-low stored low).
  // A statistic (isStatistic) that could be recomputed is kept instead
  // (available): the clones that read it read the forward's value.
  llvm::DenseSet<Operation *> recomputable;
  for (Operation *op : forward) {
    if (op->getNumOperands() == 0 || !isCheapToRecompute(op, elementwise))
      continue;
    if (!isa<arith::ExtFOp>(op) && !llvm::all_of(usedValues(op), [&](Value v) {
          return available(v) || (v.getDefiningOp() &&
                                  recomputable.contains(v.getDefiningOp()));
        }))
      continue;
    if (isStatistic(op))
      statistics.insert(op->getResult(0));
    else
      recomputable.insert(op);
  }

  // The ops to clone: recomputable kept values, and the recomputable
  // (not kept) values they are computed from. Each clone goes before the
  // first backward reader of its value or of a clone that reads it.
  llvm::DenseMap<Operation *, unsigned> insertAt;
  for (Operation *op : llvm::reverse(forward)) {
    if (!recomputable.contains(op))
      continue;
    Value res = op->getResult(0);
    std::optional<unsigned> at;
    if (auto it = firstBackwardUse.find(res); it != firstBackwardUse.end())
      at = it->second;
    // (A reader inside another op's region, a generic's body that reads
    // `res` with tensor.extract, is that op's.)
    for (Operation *user : res.getUsers())
      if (auto it = insertAt.find(body.findAncestorOpInBlock(*user));
          it != insertAt.end())
        at = std::min(at.value_or(it->second), it->second);
    if (at)
      insertAt[op] = *at;
  }
  if (insertAt.empty())
    return 0;

  SmallVector<Operation *> units(llvm::make_pointer_range(body));
  IRMapping clones;
  OpBuilder b(fn.getContext());
  unsigned count = 0;
  for (Operation *op : forward) {
    auto it = insertAt.find(op);
    if (it == insertAt.end())
      continue;
    b.setInsertionPoint(units[it->second]);
    Operation *clone = b.clone(*op, clones);
    clone->setAttr(kRecomputedAttr, b.getUnitAttr());
    ++count;
    // The backward's readers read the clone.
    Value res = op->getResult(0);
    res.replaceUsesWithIf(clone->getResult(0), [&](OpOperand &use) {
      Operation *unit = body.findAncestorOpInBlock(*use.getOwner());
      // Clones are not in `position`: they read each other through `clones`.
      auto pos = unit ? position.find(unit) : position.end();
      return pos != position.end() && pos->second > seedPos &&
             !unit->hasTrait<OpTrait::IsTerminator>();
    });
  }
  return count;
}

namespace {
struct RecomputeForBackwardPass
    : amp::impl::RecomputeForBackwardBase<RecomputeForBackwardPass> {
  using RecomputeForBackwardBase::RecomputeForBackwardBase;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (failed(forEachStepWithSeed(module, "amp-recompute-for-backward",
                                   [&](func::FuncOp fn, Operation *seed) {
                                     recomputeStep(fn, seed, elementwise);
                                   })))
      signalPassFailure();
  }
};
} // namespace
