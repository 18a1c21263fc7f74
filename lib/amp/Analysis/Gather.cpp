//===- Gather.cpp - linalg generics that gather from a captured tensor ----===//

#include "amp/Analysis/Gather.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;

/// `v` as a tensor.extract in `op`'s body of a tensor from outside it.
static tensor::ExtractOp capturedExtract(linalg::GenericOp op, Value v) {
  auto extract = v.getDefiningOp<tensor::ExtractOp>();
  if (!extract || extract->getParentOp() != op ||
      op->getRegion(0).isAncestor(extract.getTensor().getParentRegion()))
    return {};
  return extract;
}

tensor::ExtractOp amp::getYieldedGather(linalg::GenericOp op) {
  if (op.getNumDpsInits() != 1)
    return {};
  auto yield = cast<linalg::YieldOp>(op.getBody()->getTerminator());
  return capturedExtract(op, yield.getOperand(0));
}

std::optional<amp::SummedGather> amp::getSummedGather(linalg::GenericOp op) {
  if (op.getNumDpsInits() != 1)
    return std::nullopt;
  auto yield = cast<linalg::YieldOp>(op.getBody()->getTerminator());
  auto add = yield.getOperand(0).getDefiningOp<arith::AddFOp>();
  if (!add || add->getParentOp() != op)
    return std::nullopt;
  Value out = op.getMatchingBlockArgument(op.getDpsInitOperand(0));
  if (!out.hasOneUse())
    return std::nullopt;
  Value term;
  if (add.getLhs() == out)
    term = add.getRhs();
  else if (add.getRhs() == out)
    term = add.getLhs();
  else
    return std::nullopt;
  if (tensor::ExtractOp extract = capturedExtract(op, term))
    return SummedGather{extract, Value(), false};
  auto select = term.getDefiningOp<arith::SelectOp>();
  if (!select || select->getParentOp() != op ||
      !select.getCondition().getType().isInteger(1))
    return std::nullopt;
  for (bool negated : {false, true}) {
    Value taken = negated ? select.getFalseValue() : select.getTrueValue();
    Value zero = negated ? select.getTrueValue() : select.getFalseValue();
    tensor::ExtractOp extract = capturedExtract(op, taken);
    if (extract && matchPattern(zero, m_AnyZeroFloat()))
      return SummedGather{extract, select.getCondition(), negated};
  }
  return std::nullopt;
}
