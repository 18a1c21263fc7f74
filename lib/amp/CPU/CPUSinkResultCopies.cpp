//===- CPUSinkResultCopies.cpp - amp-cpu-sink-result-copies ---------------===//
//
// After buffer-results-to-out-params: the copy of an scf.if result into its
// out-parameter moves into the branches, and a branch that computed the
// result into a buffer of its own computes it into the out-parameter
// instead. See the pass description in CPU/Passes.td.
//
//===----------------------------------------------------------------------===//

#include "amp/CPU/Passes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir::amp {
#define GEN_PASS_DEF_CPUSINKRESULTCOPIES
#include "amp/CPU/Passes.h.inc"
} // namespace mlir::amp

using namespace mlir;
using namespace mlir::amp;

/// `copy` writes result `result` of an scf.if into an argument of `func`
/// that nothing else uses, and nothing else reads the result.
static bool isSinkable(memref::CopyOp copy, func::FuncOp func,
                       OpResult &result) {
  auto out = dyn_cast<BlockArgument>(copy.getTarget());
  result = dyn_cast<OpResult>(copy.getSource());
  if (!out || out.getOwner() != &func.getBody().front() || !out.hasOneUse() ||
      !result || !result.hasOneUse() ||
      result.getType() != copy.getTarget().getType())
    return false;
  auto ifOp = dyn_cast<scf::IfOp>(result.getOwner());
  return ifOp && ifOp->getBlock() == copy->getBlock() &&
         !ifOp.getElseRegion().empty();
}

/// In `branch`, makes `out` hold the value yielded at `index`: the
/// branch's own allocation is replaced by `out`, anything else is copied.
static void sinkInto(Block &branch, unsigned index, Value out) {
  auto yield = cast<scf::YieldOp>(branch.getTerminator());
  Value yielded = yield.getOperand(index);
  auto alloc = yielded.getDefiningOp<memref::AllocOp>();
  bool yieldedOnce = llvm::count(yield.getOperands(), yielded) == 1;
  if (alloc && alloc->getBlock() == &branch && yieldedOnce &&
      alloc.getType() == out.getType()) {
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
