//===- SumReduction.cpp - outputs of linalg ops that are sums -------------===//

#include "amp/Analysis/SumReduction.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;

bool amp::isSumOfInitAndTerm(linalg::LinalgOp op, OpOperand &init) {
  BlockArgument acc = op.getMatchingBlockArgument(&init);
  auto add =
      op.getMatchingYieldValue(&init)->get().getDefiningOp<arith::AddFOp>();
  return add && acc.hasOneUse() && (add.getLhs() == acc || add.getRhs() == acc);
}
