//===- Activity.cpp - which values need a cotangent -----------------------===//

#include "amp/Autodiff/Activity.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::amp::autodiff;

bool mlir::amp::autodiff::isDifferentiableType(Type type) {
  if (isa<FloatType>(type))
    return true;
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && isa<FloatType>(tensor.getElementType());
}

SmallVector<Value>
mlir::amp::autodiff::getOperandsAndCapturedValues(Operation *op) {
  llvm::SetVector<Value> values(op->operand_begin(), op->operand_end());
  if (op->getNumRegions() != 0) {
    llvm::SetVector<Value> captured;
    getUsedValuesDefinedAbove(op->getRegions(), captured);
    values.insert(captured.begin(), captured.end());
  }
  return values.takeVector();
}

Activity Activity::compute(ArrayRef<Operation *> ops, ValueRange sources,
                           ValueRange sinks) {
  // Varied: depends on a source through float values only (the derivative
  // of an integer or a comparison is zero).
  llvm::DenseSet<Value> varied;
  for (Value v : sources)
    if (isDifferentiableType(v.getType()))
      varied.insert(v);
  for (Operation *op : ops) {
    bool anyVaried = llvm::any_of(getOperandsAndCapturedValues(op),
                                  [&](Value v) { return varied.contains(v); });
    if (!anyVaried)
      continue;
    for (Value r : op->getResults())
      if (isDifferentiableType(r.getType()))
        varied.insert(r);
  }
  // Useful: the sinks depend on it.
  llvm::DenseSet<Value> useful(sinks.begin(), sinks.end());
  for (Operation *op : llvm::reverse(ops)) {
    if (llvm::none_of(op->getResults(),
                      [&](Value r) { return useful.contains(r); }))
      continue;
    for (Value v : getOperandsAndCapturedValues(op))
      useful.insert(v);
  }
  Activity activity;
  for (Value v : varied)
    if (useful.contains(v))
      activity.active.insert(v);
  return activity;
}

bool Activity::needsAdjoint(Operation *op) const {
  return llvm::any_of(op->getResults(), [&](Value r) { return isActive(r); }) &&
         llvm::any_of(getOperandsAndCapturedValues(op),
                      [&](Value v) { return isActive(v); });
}
