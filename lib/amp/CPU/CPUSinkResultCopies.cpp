//===- CPUSinkResultCopies.cpp - amp-cpu-sink-result-copies ---------------===//
//
// After buffer-results-to-out-params: the copy of an scf.if result into its
// out-parameter moves into the branches, and a branch that computed the
// result into a buffer of its own computes it into the out-parameter
// instead. See the pass description in CPU/Passes.td.
//
//===----------------------------------------------------------------------===//

#include "amp/CPU/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::amp {
#define GEN_PASS_DEF_CPUSINKRESULTCOPIES
#include "amp/CPU/Passes.h.inc"
} // namespace mlir::amp

using namespace mlir;
using namespace mlir::amp;

/// `op`, between the scf.if and the copy, cannot change what the copy
/// reads: it writes no memory, or only function arguments that no branch
/// of `ifOp` yields (other out-parameters: arguments never alias).
static bool keepsYieldedValues(Operation *op, scf::IfOp ifOp,
                               func::FuncOp func) {
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects)
    return isMemoryEffectFree(op);
  SmallVector<MemoryEffects::EffectInstance> instances;
  effects.getEffects(instances);
  for (const MemoryEffects::EffectInstance &effect : instances) {
    if (!isa<MemoryEffects::Write, MemoryEffects::Free>(effect.getEffect()))
      continue;
    auto arg = dyn_cast_or_null<BlockArgument>(effect.getValue());
    if (!arg || arg.getOwner() != &func.getBody().front())
      return false;
    for (Region &branch : ifOp->getRegions())
      if (!branch.empty() &&
          llvm::is_contained(branch.front().getTerminator()->getOperands(),
                             arg))
        return false;
  }
  return true;
}

/// `copy` writes result `result` of an scf.if into an argument of `func`
/// that nothing else uses, nothing else reads the result, and nothing
/// between the two can change the yielded values.
static bool isSinkable(memref::CopyOp copy, func::FuncOp func,
                       OpResult &result) {
  auto out = dyn_cast<BlockArgument>(copy.getTarget());
  result = dyn_cast<OpResult>(copy.getSource());
  if (!out || out.getOwner() != &func.getBody().front() || !out.hasOneUse() ||
      !result || !result.hasOneUse() ||
      result.getType() != copy.getTarget().getType())
    return false;
  auto ifOp = dyn_cast<scf::IfOp>(result.getOwner());
  if (!ifOp || ifOp->getBlock() != copy->getBlock() ||
      ifOp.getElseRegion().empty())
    return false;
  for (Operation *op = ifOp->getNextNode(); op != copy; op = op->getNextNode())
    if (!keepsYieldedValues(op, ifOp, func))
      return false;
  return true;
}

/// Every use of `alloc` but `yield` is an ordinary read or write of its
/// elements inside `branch` (a linalg op, a load, a store to it, a copy):
/// no view, cast, call or store of the buffer itself that another name
/// could reach after the branch.
static bool isOnlyAccessedIn(memref::AllocOp alloc, Block &branch,
                             Operation *yield) {
  for (OpOperand &use : alloc->getUses()) {
    Operation *user = use.getOwner();
    if (user == yield)
      continue;
    if (user->getBlock() != &branch)
      return false;
    auto store = dyn_cast<memref::StoreOp>(user);
    bool access = isa<linalg::LinalgOp, memref::LoadOp, memref::CopyOp>(user) ||
                  (store && store.getMemRef() == use.get() &&
                   store.getValueToStore() != use.get());
    if (!access)
      return false;
  }
  return true;
}

/// In `branch`, makes `out` hold the value yielded at `index`: the
/// branch's own allocation is replaced by `out`, anything else is copied.
static void sinkInto(Block &branch, unsigned index, Value out) {
  auto yield = cast<scf::YieldOp>(branch.getTerminator());
  Value yielded = yield.getOperand(index);
  auto alloc = yielded.getDefiningOp<memref::AllocOp>();
  bool yieldedOnce = llvm::count(yield.getOperands(), yielded) == 1;
  if (alloc && alloc->getBlock() == &branch && yieldedOnce &&
      alloc.getType() == out.getType() &&
      isOnlyAccessedIn(alloc, branch, yield)) {
    alloc.getResult().replaceAllUsesWith(out);
    alloc.erase();
    return;
  }
  OpBuilder b(yield);
  memref::CopyOp::create(b, yield.getLoc(), yielded, out);
}

namespace {
struct CPUSinkResultCopiesPass
    : amp::impl::CPUSinkResultCopiesBase<CPUSinkResultCopiesPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    SmallVector<memref::CopyOp> copies;
    for (auto copy : func.getBody().front().getOps<memref::CopyOp>())
      copies.push_back(copy);
    for (memref::CopyOp copy : copies) {
      OpResult result;
      if (!isSinkable(copy, func, result))
        continue;
      auto ifOp = cast<scf::IfOp>(result.getOwner());
      Value out = copy.getTarget();
      unsigned index = result.getResultNumber();
      copy.erase();
      sinkInto(ifOp.getThenRegion().front(), index, out);
      sinkInto(ifOp.getElseRegion().front(), index, out);
    }
  }
};
} // namespace
