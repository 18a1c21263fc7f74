//===- Gather.cpp - linalg generics that gather from a captured tensor ----===//

#include "amp/Analysis/Gather.h"

using namespace mlir;

tensor::ExtractOp amp::getYieldedGather(linalg::GenericOp op) {
  if (op.getNumDpsInits() != 1)
    return {};
  auto yield = cast<linalg::YieldOp>(op.getBody()->getTerminator());
  auto extract = yield.getOperand(0).getDefiningOp<tensor::ExtractOp>();
  if (!extract || extract->getParentOp() != op ||
      op->getRegion(0).isAncestor(extract.getTensor().getParentRegion()))
    return {};
  return extract;
}
