//===- ReductionForms.cpp - how structured ops form their outputs ---------===//
//
// What the structured adjoint recognizes in a scalar body before it builds
// anything: whether each output is a plain value or an add / max / min
// reduction, and which body values it accumulates.
//
//===----------------------------------------------------------------------===//

#include "StructuredAdjoint.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::amp::autodiff;
using namespace mlir::amp::autodiff::structured;

/// Max or Min for `select(cmpf(pred, lhs, rhs), onTrue, onFalse)` choosing
/// between `acc` and `e`; None when it is not such a choice.
static Combiner selectCombiner(arith::SelectOp select, Value acc, Value e) {
  auto cmp = select.getCondition().getDefiningOp<arith::CmpFOp>();
  if (!cmp)
    return Combiner::None;
  Value onTrue = select.getTrueValue(), onFalse = select.getFalseValue();
  if (!((onTrue == e && onFalse == acc) || (onTrue == acc && onFalse == e)))
    return Combiner::None;
  if (!((cmp.getLhs() == e && cmp.getRhs() == acc) ||
        (cmp.getLhs() == acc && cmp.getRhs() == e)))
    return Combiner::None;
  bool greater;
  switch (cmp.getPredicate()) {
  case arith::CmpFPredicate::OGT:
  case arith::CmpFPredicate::OGE:
  case arith::CmpFPredicate::UGT:
  case arith::CmpFPredicate::UGE:
    greater = true;
    break;
  case arith::CmpFPredicate::OLT:
  case arith::CmpFPredicate::OLE:
  case arith::CmpFPredicate::ULT:
  case arith::CmpFPredicate::ULE:
    greater = false;
    break;
  default:
    return Combiner::None;
  }
  // The select picks e when "lhs > rhs" holds with e as lhs (or "<" with e
  // as rhs): a max; the mirrored cases make a min.
  bool picksEWhenTrue = onTrue == e;
  bool eIsLhs = cmp.getLhs() == e;
  bool isMax = greater == (picksEWhenTrue == eIsLhs);
  return isMax ? Combiner::Max : Combiner::Min;
}

/// The combiner of `combine`, given that `acc` is one of its operands, and
/// the other operand in `e`.
static Combiner combinerOf(Operation *combine, Value acc, Value &e) {
  if (auto select = dyn_cast<arith::SelectOp>(combine)) {
    e = select.getTrueValue() == acc ? select.getFalseValue()
                                     : select.getTrueValue();
    return selectCombiner(select, acc, e);
  }
  if (combine->getNumOperands() != 2)
    return Combiner::None;
  e = combine->getOperand(0) == acc ? combine->getOperand(1)
                                    : combine->getOperand(0);
  if (e == acc)
    return Combiner::None;
  if (isa<arith::AddFOp>(combine))
    return Combiner::Add;
  if (isa<arith::MaximumFOp, arith::MaxNumFOp>(combine))
    return Combiner::Max;
  if (isa<arith::MinimumFOp, arith::MinNumFOp>(combine))
    return Combiner::Min;
  return Combiner::None;
}

/// True when `v` (a value of `body`) depends on a block argument in `args`.
static bool dependsOn(Value v, const llvm::SetVector<Value> &args) {
  SmallVector<Value> work = {v};
  llvm::DenseSet<Value> seen;
  while (!work.empty()) {
    Value cur = work.pop_back_val();
    if (!seen.insert(cur).second)
      continue;
    if (args.contains(cur))
      return true;
    if (Operation *def = cur.getDefiningOp())
      llvm::append_range(work, def->getOperands());
  }
  return false;
}

/// The terms of an add / sub chain from `yielded` down to `acc` (each op on
/// the way has exactly one operand that depends on acc, and acc ends with
/// coefficient +1); failure when `yielded` is not such a chain.
static FailureOr<OutputForm> addChain(Value yielded, BlockArgument acc) {
  OutputForm form;
  form.combiner = Combiner::Add;
  llvm::SetVector<Value> accOnly;
  accOnly.insert(acc);
  Value current = yielded;
  bool negative = false;
  while (current != acc) {
    Operation *def = current.getDefiningOp();
    if (!def || !isa<arith::AddFOp, arith::SubFOp>(def) ||
        def->getBlock() != acc.getOwner() ||
        (current != yielded && !current.hasOneUse()))
      return failure();
    Value lhs = def->getOperand(0), rhs = def->getOperand(1);
    bool inLhs = dependsOn(lhs, accOnly), inRhs = dependsOn(rhs, accOnly);
    if (inLhs == inRhs)
      return failure();
    bool subtracts = isa<arith::SubFOp>(def);
    form.elements.push_back(inLhs ? rhs : lhs);
    form.negated.push_back(inLhs ? negative != subtracts : negative);
    if (!inLhs && subtracts)
      negative = !negative;
    current = inLhs ? lhs : rhs;
  }
  if (negative || !acc.hasOneUse())
    return failure();
  return form;
}

FailureOr<OutputForm>
mlir::amp::autodiff::structured::analyzeOutput(linalg::LinalgOp op,
                                               unsigned k) {
  Block *body = op.getBlock();
  Value yielded = body->getTerminator()->getOperand(k);
  if (op.getNumReductionLoops() == 0)
    return OutputForm{Combiner::None, {yielded}, {false}};

  auto fail = [&](const Twine &why) -> FailureOr<OutputForm> {
    return op->emitError()
           << "amp-differentiate: output #" << k << " of this reduction " << why
           << "; reductions are differentiated when the body adds the "
              "output's block argument once (arith.addf / subf) or combines "
              "it once with maximumf / maxnumf, minimumf / minnumf or cmpf + "
              "select, with values that do not depend on any output";
  };
  BlockArgument acc = op.getRegionOutputArgs()[k];
  llvm::SetVector<Value> outputs(op.getRegionOutputArgs().begin(),
                                 op.getRegionOutputArgs().end());
  auto checkIndependent = [&](const OutputForm &form) -> LogicalResult {
    for (Value e : form.elements)
      if (dependsOn(e, outputs))
        return fail("accumulates a value that depends on an output");
    return success();
  };
  if (FailureOr<OutputForm> chain = addChain(yielded, acc); succeeded(chain)) {
    if (failed(checkIndependent(*chain)))
      return failure();
    return chain;
  }
  Operation *combine = yielded.getDefiningOp();
  if (!combine || combine->getBlock() != body ||
      !llvm::is_contained(combine->getOperands(), acc))
    return fail("yields a value that is not combined with the output's "
                "block argument");
  Value e;
  Combiner combiner = combinerOf(combine, acc, e);
  if (combiner == Combiner::Add)
    return fail("adds or subtracts its block argument other than once, "
                "with coefficient +1");
  if (combiner == Combiner::None)
    return fail(Twine("is combined with '") +
                combine->getName().getStringRef() + "'");
  // A cmpf + select combiner reads the accumulator twice.
  Operation *compare = nullptr;
  if (auto select = dyn_cast<arith::SelectOp>(combine))
    compare = select.getCondition().getDefiningOp();
  // Other readers may only feed outputs that carry no cotangent (the
  // integer index of torch-mlir's max(dim) next to the maximum).
  llvm::SetVector<Value> floatYields;
  for (Value v : body->getTerminator()->getOperands())
    if (isa<FloatType>(v.getType()))
      floatYields.insert(v);
  for (Operation *user : acc.getUsers()) {
    if (user == combine || user == compare)
      continue;
    bool feedsFloat = llvm::any_of(floatYields, [&](Value y) {
      llvm::SetVector<Value> results(user->getResults().begin(),
                                     user->getResults().end());
      return dependsOn(y, results);
    });
    if (feedsFloat)
      return fail("reads the output's block argument outside the combining "
                  "op");
  }
  OutputForm form{combiner, {e}, {false}};
  if (failed(checkIndependent(form)))
    return failure();
  return form;
}
