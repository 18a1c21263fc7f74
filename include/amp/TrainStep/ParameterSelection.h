//===- ParameterSelection.h - which values a training step trains -*- C++
//-*-===//
//
// The decision of amp-build-train-step, computed before anything is built:
// which values of a forward model become `param` arguments (fp32 master
// weights), which argument is the input, which the label or target, and why
// a candidate constant stays a constant. Read-only: never mutates IR.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_TRAINSTEP_PARAMETERSELECTION_H
#define AMP_TRAINSTEP_PARAMETERSELECTION_H

#include "amp/TrainStep/TrainStepOptions.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <optional>
#include <string>

namespace mlir::amp::trainstep {

/// One value that becomes a `param` argument of the training step.
struct TrainedValue {
  /// A model argument (`argument`) or a constant (`constant`).
  bool isArgument = false;
  unsigned argument = 0;
  arith::ConstantOp constant;
  /// How messages name it: "argument #3", or the dense_resource key.
  std::string name;
  /// A static ranked tensor of f32.
  RankedTensorType type;
  /// The constant's value (dense or dense_resource, elided blobs too): the
  /// step argument's `amp.initial_value`; null for an argument.
  Attribute initialValue;
};

/// The plan for one model function.
struct ParameterPlan {
  func::FuncOp model;
  /// In the step's argument order: arguments by index, then constants in
  /// program order.
  SmallVector<TrainedValue> params;
  /// The input arguments (data fed each step; float or integer tensors),
  /// in argument order; `input` is the first.
  SmallVector<unsigned> inputs;
  unsigned input = 0;
  /// LossKind::None only: the model's label (rank-1 i32/i64) or target
  /// (float tensor) argument, if it has one.
  std::optional<unsigned> supervision;
  /// Float tensor constants that "constants" considered and left, with the
  /// reason (too small, frozen, the output does not depend on it).
  SmallVector<std::pair<arith::ConstantOp, std::string>> leftConstants;
};

/// The dense_resource key of `constant`'s value, or "" for another value.
std::string resourceKey(arith::ConstantOp constant);

/// True when `key` matches `pattern`: equal, or `pattern` with a leading
/// and/or trailing `*` that matches any text there.
bool matchesKeyPattern(llvm::StringRef key, llvm::StringRef pattern);

/// Decides what `model` (a func.func with a single-block body) trains under
/// `options` (params, min-elements, frozen, freeze-running-stats, input,
/// inputs, loss). Errors, located on the function or the argument: a
/// `params` entry that names no argument or dense_resource constant, an
/// index out of range or naming an input, an input index out of range or
/// named twice, a parameter that is not a static f32 tensor, a named
/// parameter the output does not depend on, an argument that is neither an
/// input, a parameter nor (loss=none) the label or target, no input or one
/// that is not a float or integer tensor of rank >= 1, and no trainable
/// parameter at all (the message says what was left and why).
FailureOr<ParameterPlan> selectParameters(func::FuncOp model,
                                          const TrainStepOptions &options);

} // namespace mlir::amp::trainstep

#endif // AMP_TRAINSTEP_PARAMETERSELECTION_H
