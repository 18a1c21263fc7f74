//===- KeepAccumulatorsLow.cpp - amp-keep-accumulators-low ---------------===//
//
// After autocast, a convolution or matmul reads f16/bf16 operands and
// accumulates in f32 (autocast's Mixed class). When the backward reads that
// f32 result (a batch norm's backward reads its input for the weight's
// gradient), the step keeps 4 bytes per element from the forward to the
// backward, and the CNNs keep twice what a PyTorch autocast step keeps:
// PyTorch's autocast ops return their result in the low type (cuBLAS and
// cuDNN accumulate in f32 and store f16). This pass stores such a kept
// accumulator in the low type of the op's operands: it inserts
// `t = truncf r; e = extf t` after the op and lets every reader of `r` (the
// forward's and the backward's) read `e`. amp-recompute-for-backward then
// recomputes `e` from `t` after the seed, so `t` (2 bytes per element) is
// what the step keeps. Accumulators the backward does not read stay f32:
// the rounding is paid only where it halves kept memory (Passes.td has the
// contract).
//
// The same holds for an f32 value that the backward reads and that the
// forward rounds anyway for a low-precision consumer (a softmax's
// probabilities, rounded for the attention's batch_matmul, which PyTorch's
// autocast keeps twice, in f32 for the softmax backward and in f16 for the
// matmul's): the backward reads the rounded copy, widened.
//
//===----------------------------------------------------------------------===//

#include "Recompute.h"

#include "amp/Analysis/TrainingStep.h"
#include "amp/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::amp {
#define GEN_PASS_DEF_KEEPACCUMULATORSLOW
#include "amp/Transforms/Passes.h.inc"
} // namespace mlir::amp

using namespace mlir;
using namespace mlir::amp;

/// The low element type of a Mixed op's operands (f16 or bf16) when `op` is
/// a linalg op on tensors with one f32 tensor result whose float inputs are
/// all of that one low type; null otherwise.
static FloatType mixedLowType(Operation *op) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp || !linalgOp.hasPureTensorSemantics() ||
      op->getNumResults() != 1 ||
      !getElementTypeOrSelf(op->getResult(0).getType()).isF32())
    return nullptr;
  FloatType low;
  for (Value input : linalgOp.getDpsInputs()) {
    auto type = dyn_cast<FloatType>(getElementTypeOrSelf(input.getType()));
    if (!type)
      continue;
    if (!(type.isF16() || type.isBF16()) || (low && low != type))
      return nullptr;
    low = type;
  }
  return low;
}

/// The result of the only reader of `acc` when that reader adds a bias
/// to it: an elementwise linalg.generic (parallel loops, identity maps for
/// `acc` and the result) of `acc` and a broadcast operand (a projection
/// map) whose body yields `arith.addf` of the two; null otherwise.
static Value biasAddOf(Value acc) {
  if (!acc.hasOneUse())
    return nullptr;
  auto generic = dyn_cast<linalg::GenericOp>(*acc.getUsers().begin());
  if (!generic || !generic.hasPureTensorSemantics() ||
      generic.getNumDpsInputs() != 2 || generic.getNumResults() != 1 ||
      generic.getNumParallelLoops() != generic.getNumLoops())
    return nullptr;
  OpOperand *accOperand = nullptr, *biasOperand = nullptr;
  for (OpOperand *input : generic.getDpsInputOperands())
    (input->get() == acc ? accOperand : biasOperand) = input;
  if (!accOperand || !biasOperand ||
      !generic.getMatchingIndexingMap(accOperand).isIdentity() ||
      !generic.getIndexingMapMatchingResult(generic->getResult(0))
           .isIdentity() ||
      generic.getMatchingIndexingMap(biasOperand).isPermutation())
    return nullptr;
  Block &block = generic.getRegion().front();
  auto yield = cast<linalg::YieldOp>(block.getTerminator());
  auto add = yield.getValues().front().getDefiningOp<arith::AddFOp>();
  if (!add || add->getBlock() != &block || block.getOperations().size() != 2)
    return nullptr;
  Value a = block.getArgument(accOperand->getOperandNumber());
  Value bias = block.getArgument(biasOperand->getOperandNumber());
  if (!((add.getLhs() == a && add.getRhs() == bias) ||
        (add.getLhs() == bias && add.getRhs() == a)))
    return nullptr;
  return generic->getResult(0);
}

/// Rounds the kept Mixed results of `fn` (an amp.train_step whose seed is
/// `seed`, in the entry block).
static void keepLow(func::FuncOp fn, Operation *seed) {
  Block &body = fn.getBody().front();
  auto readAfterSeed = [&](Value v) {
    return llvm::any_of(v.getUsers(), [&](Operation *user) {
      Operation *unit = body.findAncestorOpInBlock(*user);
      return unit && !unit->hasTrait<OpTrait::IsTerminator>() &&
             seed->isBeforeInBlock(unit);
    });
  };
  // The accumulator `r` is kept in f32 when it is read after the seed, or
  // when an f32 value computed from it by cheap forward ops is (a bias add
  // and the GELU input it feeds, a softmax's scaled scores, exponentials
  // and output, a residual stream and its layer norm statistics): with `r`
  // rounded, amp-recompute-for-backward recomputes those from the rounded
  // copy instead of keeping them. Values already in the low type (an
  // autocast truncf and what follows it) keep nothing in f32.
  auto keptInF32 = [&](Value r) {
    SmallVector<Value> work{r};
    llvm::DenseSet<Value> seen{r};
    while (!work.empty()) {
      Value v = work.pop_back_val();
      if (getElementTypeOrSelf(v.getType()).isF32() && readAfterSeed(v))
        return true;
      for (Operation *user : v.getUsers())
        if (user->getBlock() == &body && user->isBeforeInBlock(seed) &&
            isCheapToRecompute(user))
          for (Value res : user->getResults())
            if (seen.insert(res).second)
              work.push_back(res);
    }
    return false;
  };
  SmallVector<std::pair<Value, FloatType>> kept;
  for (Operation &op : body) {
    if (&op == seed)
      break;
    FloatType low = mixedLowType(&op);
    if (!low)
      continue;
    Value result = op.getResult(0);
    if (readAfterSeed(result)) {
      kept.push_back({result, low});
      continue;
    }
    // Read through a bias add only: round the sum, as PyTorch's linear
    // (addmm) rounds once after adding the bias (xW may exceed f16's range
    // where xW + b does not).
    if (Value sum = biasAddOf(result))
      result = sum;
    if (keptInF32(result))
      kept.push_back({result, low});
  }
  OpBuilder b(fn.getContext());
  for (auto [result, low] : kept) {
    Operation *op = result.getDefiningOp();
    auto type = cast<RankedTensorType>(result.getType());
    b.setInsertionPointAfter(op);
    auto rounded =
        arith::TruncFOp::create(b, op->getLoc(), type.clone(low), result);
    auto widened =
        arith::ExtFOp::create(b, op->getLoc(), type, rounded.getResult());
    result.replaceAllUsesExcept(widened.getResult(), rounded);
  }

  // Then an f32 value the backward reads whose low-precision copy the forward
  // makes anyway for a low-precision consumer (a softmax's probabilities,
  // rounded for the attention's batch_matmul): the backward reads that
  // copy, widened, so that only the copy is kept.
  SmallVector<arith::TruncFOp> copies;
  llvm::DenseSet<Value> copied;
  for (Operation &op : body) {
    if (&op == seed)
      break;
    // Activations only: arguments (a weight's copy) are not kept.
    auto trunc = dyn_cast<arith::TruncFOp>(&op);
    if (!trunc || !trunc.getIn().getDefiningOp() ||
        trunc.getIn().getDefiningOp()->getBlock() != &body ||
        !isa<RankedTensorType>(trunc.getType()) ||
        !getElementTypeOrSelf(trunc.getIn().getType()).isF32() ||
        !(getElementTypeOrSelf(trunc.getType()).isF16() ||
          getElementTypeOrSelf(trunc.getType()).isBF16()) ||
        // (A widened low value rounds back exactly: nothing to gain.)
        trunc.getIn().getDefiningOp<arith::ExtFOp>() ||
        !readAfterSeed(trunc.getIn()) || !copied.insert(trunc.getIn()).second)
      continue;
    copies.push_back(trunc);
  }
  // The backward: the top-level ops after the seed that depend on it (an
  // optimizer-state update that reads an activation but no gradient keeps
  // reading the f32 value).
  llvm::DenseSet<Operation *> backward{seed};
  for (Operation *op = seed->getNextNode(); op; op = op->getNextNode()) {
    WalkResult reached = op->walk([&](Operation *nested) {
      for (Value operand : nested->getOperands())
        if (Operation *def = operand.getDefiningOp())
          if (Operation *unit = body.findAncestorOpInBlock(*def);
              unit && unit != op && backward.contains(unit))
            return WalkResult::interrupt();
      return WalkResult::advance();
    });
    if (reached.wasInterrupted())
      backward.insert(op);
  }
  for (arith::TruncFOp trunc : copies) {
    b.setInsertionPointAfter(trunc);
    auto widened = arith::ExtFOp::create(
        b, trunc.getLoc(), trunc.getIn().getType(), trunc.getResult());
    trunc.getIn().replaceUsesWithIf(widened, [&](OpOperand &use) {
      Operation *unit = body.findAncestorOpInBlock(*use.getOwner());
      return unit && !unit->hasTrait<OpTrait::IsTerminator>() && unit != seed &&
             backward.contains(unit);
    });
  }
}

namespace {
struct KeepAccumulatorsLowPass
    : amp::impl::KeepAccumulatorsLowBase<KeepAccumulatorsLowPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (failed(forEachStepWithSeed(
            module, "amp-keep-accumulators-low",
            [](func::FuncOp fn, Operation *seed) { keepLow(fn, seed); })))
      signalPassFailure();
  }
};
} // namespace
