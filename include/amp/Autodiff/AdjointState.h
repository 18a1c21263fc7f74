//===- AdjointState.h - cotangents while a backward is built ----*- C++ -*-===//
//
// The bookkeeping that adjoint rules (ReverseModeOpInterface) share: one
// cotangent per active value, of the value's type. Rules add contributions
// to the cotangents of their operands; the state keeps them in a list and
// sums them once (one n-ary sum, AdjointBuilders.h) the first time the
// value's cotangent is read, which the driver guarantees happens after every
// user of the value was differentiated (ops are visited in reverse order).
//
//===----------------------------------------------------------------------===//

#ifndef AMP_AUTODIFF_ADJOINTSTATE_H
#define AMP_AUTODIFF_ADJOINTSTATE_H

#include "amp/Autodiff/Activity.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"

namespace mlir::amp::autodiff {

class AdjointState {
public:
  explicit AdjointState(Activity activity) : activity(std::move(activity)) {}

  /// True when `value` needs a cotangent (Activity.h).
  bool isActive(Value value) const { return activity.isActive(value); }
  const Activity &getActivity() const { return activity; }

  /// The cotangent of `value`: the sum of its contributions, built at
  /// `builder`'s insertion point the first time it is asked for and reused
  /// after that; null when there is none (the cotangent is zero).
  Value getCotangent(OpBuilder &builder, Value value);

  /// The cotangent of `value`, or zeros of its type (AdjointBuilders.h)
  /// when it has none or is inactive: what a function or a region returns
  /// for a value it differentiated with respect to.
  Value getCotangentOrZeros(OpBuilder &builder, Value value);

  /// Adds `contribution`, which must have `value`'s type, to the cotangent
  /// of `value`. Ignored for an inactive value. A contribution after the
  /// cotangent was summed, or of another type, is an internal error
  /// reported at the contribution (see `verify`).
  void addCotangent(Value value, Value contribution);

  /// Failure when an internal error was reported.
  LogicalResult verify() const { return llvm::failure(hadError); }

private:
  Activity activity;
  llvm::DenseMap<Value, SmallVector<Value, 2>> contributions;
  llvm::DenseMap<Value, Value> summed;
  bool hadError = false;
};

} // namespace mlir::amp::autodiff

#endif // AMP_AUTODIFF_ADJOINTSTATE_H
