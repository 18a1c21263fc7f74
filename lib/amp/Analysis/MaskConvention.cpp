//===- MaskConvention.cpp - what true means in a boolean mask input -------===//

#include "amp/Analysis/MaskConvention.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;

/// Whether `v` is a float constant that masks what it replaces: -inf or at
/// most -1e4 (a scalar or a splat), also through float casts
/// (`arith.truncf` of an f64 constant), a linalg.fill of one, or a generic
/// body's argument whose operand is one (a 0-d tensor of -inf).
static bool isMaskingConstant(Value v) {
  while (Operation *def = v.getDefiningOp()) {
    if (isa<arith::TruncFOp, arith::ExtFOp>(def))
      v = def->getOperand(0);
    else if (auto fill = dyn_cast<linalg::FillOp>(def))
      v = fill.getInputs()[0];
    else
      break;
  }
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    auto generic = dyn_cast<linalg::GenericOp>(arg.getOwner()->getParentOp());
    if (!generic || arg.getArgNumber() >= generic.getNumDpsInputs())
      return false;
    return isMaskingConstant(
        generic.getDpsInputOperand(arg.getArgNumber())->get());
  }
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

/// Whether `v` is the integer constant `value` (a scalar or a splat; true
/// is 1 for i1).
static bool isInteger(Value v, int64_t value) {
  return value == 0 ? matchPattern(v, m_Zero()) : matchPattern(v, m_One());
}

/// Whether `v` is the float constant 1 (a scalar or a splat).
static bool isOne(Value v) { return matchPattern(v, m_OneFloat()); }

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
        if (isInteger(user->getOperand(1 - n), 1))
          add(user->getResult(0), !negated);
        continue;
      }
      // `m == 0` negates, `m != 0` does not (an integer mask, or a logical
      // not written as a comparison with false).
      if (auto cmp = dyn_cast<arith::CmpIOp>(user)) {
        if (!isInteger(cmp->getOperand(1 - n), 0))
          continue;
        if (cmp.getPredicate() == arith::CmpIPredicate::eq)
          add(cmp.getResult(), !negated);
        else if (cmp.getPredicate() == arith::CmpIPredicate::ne)
          add(cmp.getResult(), negated);
        continue;
      }
      // Widened or converted to 0.0 / 1.0: the same mask.
      if (isa<arith::ExtUIOp, arith::ExtSIOp, arith::TruncIOp,
              arith::IndexCastOp, arith::UIToFPOp, arith::SIToFPOp,
              arith::ExtFOp, arith::TruncFOp>(user)) {
        add(user->getResult(0), negated);
        continue;
      }
      // As an additive bias, HF style: (1.0 - m) * -1e9 masks where m is 0.
      if (auto sub = dyn_cast<arith::SubFOp>(user)) {
        if (n == 1 && isOne(sub.getLhs()))
          add(sub.getResult(), !negated);
        continue;
      }
      if (isa<arith::MulFOp>(user)) {
        if (isMaskingConstant(user->getOperand(1 - n))) {
          bool here = negated; // 1.0 (true) becomes the masking value
          conflict |= keeps && *keeps != here;
          keeps = here;
        }
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
