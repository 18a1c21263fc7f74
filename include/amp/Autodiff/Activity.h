//===- Activity.h - which values need a cotangent ---------------*- C++ -*-===//
//
// Activity analysis of reverse-mode differentiation (as in Enzyme and
// Tapenade): a value is active when it is a float value (a float scalar or a
// ranked tensor of floats), depends on a source (a value differentiated with
// respect to) and a sink (the loss) depends on it. Only active values get a
// cotangent and only ops with an active operand and an active result get an
// adjoint; integer values, masks (i1) and values that cannot reach the loss
// are never differentiated. Read-only: no IR changes.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_AUTODIFF_ACTIVITY_H
#define AMP_AUTODIFF_ACTIVITY_H

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::amp::autodiff {

/// True for the types that carry cotangents: float scalars and ranked
/// tensors with a float element type.
bool isDifferentiableType(Type type);

class Activity {
public:
  /// Analyzes `ops`, listed in program order (the ops of one block, or a
  /// prefix of it). A value used inside an op's regions but defined outside
  /// them counts as an operand of that op. Sources and sinks may be block
  /// arguments or results of `ops`.
  static Activity compute(ArrayRef<Operation *> ops, ValueRange sources,
                          ValueRange sinks);

  bool isActive(Value value) const { return active.contains(value); }

  /// True when `op` gets an adjoint: an active result and an active
  /// operand (or captured value).
  bool needsAdjoint(Operation *op) const;

private:
  llvm::DenseSet<Value> active;
};

/// The operands of `op` followed by the values its regions use but do not
/// define (the values an adjoint may have to send cotangents to).
SmallVector<Value> getOperandsAndCapturedValues(Operation *op);

} // namespace mlir::amp::autodiff

#endif // AMP_AUTODIFF_ACTIVITY_H
