//===- CPUPredicateSkipUpdate.cpp - amp-cpu-predicate-skip-update ---------===//
//
// If-conversion of loss scaling's skip-update region for the CPU: the
// update always runs and each updated tensor is selected element by element
// against its old value, so that the update writes straight into the
// step's result buffers instead of into temporaries that are copied after
// the scf.if. See the pass description in Passes.td.
//
//===----------------------------------------------------------------------===//

#include "amp/Analysis/TrainingStep.h"
#include "amp/CPU/Passes.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::amp {
#define GEN_PASS_DEF_CPUPREDICATESKIPUPDATE
#include "amp/CPU/Passes.h.inc"
} // namespace mlir::amp

using namespace mlir;
using namespace mlir::amp;

/// The i1 tensors `func` returns (loss scaling's found_inf is one; the
/// lowering's JIT entry points have lost their result attributes by now, so
/// roles cannot be asked).
static SmallVector<Value> returnedFlags(func::FuncOp func) {
  SmallVector<Value> flags;
  func.walk([&](func::ReturnOp ret) {
    for (Value v : ret.getOperands())
      if (auto type = dyn_cast<RankedTensorType>(v.getType());
          type && type.getRank() == 0 && type.getElementType().isInteger(1))
        flags.push_back(v);
  });
  return flags;
}

/// Whether `ifOp` is loss scaling's skip-update region: at the top level of
/// the step, its condition a `tensor.extract` of a returned i1 tensor (the
/// found_inf result), its then-branch yielding arguments of the step only
/// (the old state), its else-branch free of memory effects (the update on
/// tensors), every result a ranked tensor.
static bool isSkipUpdateRegion(scf::IfOp ifOp, ArrayRef<Value> flags) {
  auto extract = ifOp.getCondition().getDefiningOp<tensor::ExtractOp>();
  if (!extract || !llvm::is_contained(flags, extract.getTensor()) ||
      ifOp.getNumResults() == 0 || !ifOp.elseBlock())
    return false;
  if (!llvm::all_of(ifOp.getResultTypes(), llvm::IsaPred<RankedTensorType>))
    return false;
  Block *entry = &ifOp->getParentOfType<func::FuncOp>().getBody().front();
  if (!llvm::hasSingleElement(*ifOp.thenBlock()))
    return false;
  for (Value v : ifOp.thenYield().getOperands()) {
    auto arg = dyn_cast<BlockArgument>(v);
    if (!arg || arg.getOwner() != entry)
      return false;
  }
  // Hoisted, the update runs on skipped steps too: every op must be safe
  // to run on any operands (no division by zero, no out-of-bounds extract).
  for (Operation &op : ifOp.elseBlock()->without_terminator())
    if (!isMemoryEffectFree(&op) || !isSpeculatable(&op))
      return false;
  return true;
}

/// select(cond, old, new) element by element, as an all-parallel generic
/// (which amp-cpu-fuse-elementwise merges into the update that produces
/// `updated`).
static Value selectElements(OpBuilder &b, Location loc, Value cond, Value old,
                            Value updated) {
  auto type = cast<RankedTensorType>(updated.getType());
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, updated);
  Value init = tensor::EmptyOp::create(b, loc, sizes, type.getElementType());
  AffineMap id = b.getMultiDimIdentityMap(type.getRank());
  SmallVector<utils::IteratorType> iterators(type.getRank(),
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{type}, ValueRange{old, updated}, ValueRange{init},
      ArrayRef<AffineMap>{id, id, id}, iterators,
      [&](OpBuilder &nb, Location l, ValueRange args) {
        Value pick = arith::SelectOp::create(nb, l, cond, args[0], args[1]);
        linalg::YieldOp::create(nb, l, pick);
      });
  return generic.getResult(0);
}

namespace {
struct CPUPredicateSkipUpdatePass
    : amp::impl::CPUPredicateSkipUpdateBase<CPUPredicateSkipUpdatePass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (!func->hasAttr(kTrainStepAttr) || func.isExternal())
      return;
    SmallVector<Value> flags = returnedFlags(func);
    if (flags.empty())
      return;
    SmallVector<scf::IfOp> regions;
    for (auto ifOp : func.getFunctionBody().front().getOps<scf::IfOp>())
      if (isSkipUpdateRegion(ifOp, flags))
        regions.push_back(ifOp);
    IRRewriter rewriter(&getContext());
    for (scf::IfOp ifOp : regions) {
      Block *elseBlock = ifOp.elseBlock();
      for (Operation &op :
           llvm::make_early_inc_range(elseBlock->without_terminator()))
        rewriter.moveOpBefore(&op, ifOp);
      rewriter.setInsertionPoint(ifOp);
      SmallVector<Value> selected;
      for (auto [old, updated] : llvm::zip(ifOp.thenYield().getOperands(),
                                           ifOp.elseYield().getOperands()))
        selected.push_back(selectElements(rewriter, ifOp.getLoc(),
                                          ifOp.getCondition(), old, updated));
      rewriter.replaceOp(ifOp, selected);
    }
  }
};
} // namespace
