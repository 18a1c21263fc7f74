//===- MaskConvention.cpp - what true means in a boolean mask input -------===//

#include "amp/Analysis/MaskConvention.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/DenseSet.h"

#include <cmath>

using namespace mlir;

/// Whether `v` is a float constant that masks what it replaces: -inf or at
/// most -1e4 (a scalar or a splat).
static bool isMaskingConstant(Value v) {
  FloatAttr scalar;
  DenseFPElementsAttr splat;
  double value;
  if (matchPattern(v, m_Constant(&scalar)))
    value = scalar.getValueAsDouble();
  else if (matchPattern(v, m_Constant(&splat)) && splat.isSplat())
    value = splat.getSplatValue<APFloat>().convertToDouble();
  else
    return false;
  return value <= -1e4; // -inf included
}

/// Whether `v` is the i1 constant true (a scalar or a splat).
static bool isTrue(Value v) { return matchPattern(v, m_One()); }

std::optional<bool> mlir::amp::maskKeepsWhenTrue(Value mask) {
  std::optional<bool> keeps;
  bool conflict = false;
  // (value, whether it is the mask negated); seen[negated]
  llvm::DenseSet<Value> seen[2];
  SmallVector<std::pair<Value, bool>> worklist;
  auto add = [&](Value v, bool negated) {
    if (seen[negated].insert(v).second)
      worklist.push_back({v, negated});
  };
  add(mask, false);
  while (!worklist.empty() && !conflict) {
    auto [v, negated] = worklist.pop_back_val();
    for (OpOperand &use : v.getUses()) {
      Operation *user = use.getOwner();
      unsigned n = use.getOperandNumber();
      if (auto select = dyn_cast<arith::SelectOp>(user)) {
        if (n != 0)
          continue;
        std::optional<bool> here;
        if (isMaskingConstant(select.getFalseValue()))
          here = !negated;
        else if (isMaskingConstant(select.getTrueValue()))
          here = negated;
        if (here) {
          conflict |= keeps && *keeps != *here;
          keeps = here;
        }
        continue;
      }
      if (auto generic = dyn_cast<linalg::GenericOp>(user)) {
        if (generic.isDpsInput(&use))
          add(generic.getMatchingBlockArgument(&use), negated);
        continue;
      }
      if (auto yield = dyn_cast<linalg::YieldOp>(user)) {
        if (auto generic = dyn_cast<linalg::GenericOp>(yield->getParentOp()))
          add(generic->getResult(n), negated);
        continue;
      }
      if (isa<linalg::TransposeOp, linalg::CopyOp, linalg::BroadcastOp>(user)) {
        if (cast<linalg::LinalgOp>(user).isDpsInput(&use))
          add(user->getResult(0), negated);
        continue;
      }
      if (isa<arith::AndIOp, arith::OrIOp>(user)) {
        add(user->getResult(0), negated);
        continue;
      }
      if (isa<arith::XOrIOp>(user)) {
        if (isTrue(user->getOperand(1 - n)))
          add(user->getResult(0), !negated);
        continue;
      }
      if (isa<tensor::ExtractOp, tensor::CollapseShapeOp, tensor::ExpandShapeOp,
              tensor::ExtractSliceOp, tensor::CastOp, tensor::ReshapeOp>(
              user) &&
          n == 0) {
        add(user->getResult(0), negated);
        continue;
      }
    }
  }
  if (conflict)
    return std::nullopt;
  return keeps;
}
