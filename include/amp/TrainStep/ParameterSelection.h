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

#include "amp/Support/ModelSource.h"
#include "amp/TrainStep/TrainStepOptions.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <optional>
#include <string>

namespace mlir::amp::trainstep {

/// One value that becomes a `param` argument of the training step.
struct TrainedValue {
  /// A model argument (`argument`) or constants (`constants`).
  bool isArgument = false;
  unsigned argument = 0;
  /// The constants it replaces, in program order: one, or every constant
  /// that reads the same dense_resource key (a tied weight, as torch-mlir
  /// writes an embedding shared with the classifier: one parameter whose
  /// gradient sums those of all its uses).
  SmallVector<arith::ConstantOp, 1> constants;
  /// Named by params= (an index, `arguments` or a key) rather than chosen by
  /// `constants`: a named parameter without a gradient is an error, a chosen
  /// one stays a constant with a warning.
  bool named = false;
  /// How messages name it: "argument #3", or the dense_resource key.
  std::string name;
  /// A static ranked tensor of f32.
  RankedTensorType type;
  /// The constant's value (dense or dense_resource, elided blobs too): the
  /// step argument's `amp.initial_value`; null for an argument.
  Attribute initialValue;
};

/// A float tensor constant that params=constants considered and left.
struct LeftConstant {
  arith::ConstantOp constant;
  /// Why: too small, frozen, a mask or non-finite, no gradient path, the
  /// output does not depend on it.
  std::string why;
  /// How the builder tells the user once the step is built: not at all
  /// (what params=constants always left: small, frozen, BatchNorm
  /// statistics, unused), with a remark (values that are not weights: a
  /// mask, non-finite values) or with a warning (a weight the loss has no
  /// gradient for).
  enum class Notice { None, Remark, Warning } notice = Notice::None;
  /// The value the step uses instead of the constant's own, or null: a
  /// BatchNorm running statistic printed without its data
  /// (`dense_resource<__elided__>`) starts at PyTorch's initial value
  /// (running_mean 0, running_var 1), as an elided weight starts random.
  ElementsAttr replacement;
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
  /// reason, in program order.
  SmallVector<LeftConstant> leftConstants;
  /// Elided normalisation weights / biases that start at 1 / 0
  /// (`normalisationAffineInit`) instead of random or 0.
  unsigned normWeightsAtOne = 0, normBiasesAtZero = 0;
};

/// The dense_resource key of `constant`'s value, or "" for another value.
std::string resourceKey(arith::ConstantOp constant);

/// True when `key` matches `pattern`: equal, or `pattern` with a leading
/// and/or trailing `*` that matches any text there.
bool matchesKeyPattern(llvm::StringRef key, llvm::StringRef pattern);

/// Why the value of float constant `value` is not a weight, or "" when it
/// may be one (or its values are unknown: an elided blob): it holds a
/// non-finite element (+-inf, NaN), or it is an additive mask (its values
/// are 0 and one negative number of magnitude >= 1e4, e.g. -1e9 or
/// torch.finfo(float32).min, as causal attention masks are written).
/// f32 values only (a constant of another type is never a parameter).
std::string notWeightReason(ElementsAttr value);

/// Why `constant` is a BatchNorm running statistic by how it is read, or ""
/// when it is not: every use is an input of a linalg.generic whose body
/// reads it only as `rsqrt(v + eps)` / `sqrt(v + eps)` (running_var), or
/// only as the subtrahend of `x - v` in a body that also reads a variance
/// (running_mean): torch-mlir's eval-mode batch_norm, whose buffers carry
/// no key that names them.
std::string runningStatisticReason(arith::ConstantOp constant);

/// PyTorch's initial value of `constant` when it is the affine parameter of
/// a normalisation by how it is read: 1 for the weight (gamma), every use
/// the factor of `normalised * gamma`, and 0 for the bias (beta), every use
/// the addend of `normalised * gamma + beta`, where `normalised` derives,
/// through elementwise ops and elementwise linalg.generics, from
/// `rsqrt(s + eps)` / `sqrt(s + eps)`: torch-mlir's batch_norm (one
/// generic), layer_norm and group_norm (a chain of generics) and RMSNorm
/// (`x * rsqrt(mean(x^2) + eps) * w`); nn.BatchNorm / nn.LayerNorm /
/// nn.GroupNorm's reset_parameters. std::nullopt for anything else. Used
/// for weights printed without data (`__elided__`), which would otherwise
/// start random (rank >= 2) or at 0 (rank 0 and 1).
std::optional<double> normalisationAffineInit(arith::ConstantOp constant);

/// Gives every use of a shared constant of `model`'s body its own copy, for
/// the constants whose sharing says nothing about the weights: splats
/// (torch-mlir's constant uniquing makes one `dense<1.0> : tensor<64xf32>`
/// of every BatchNorm's gamma and running_var at initialisation) and blobs
/// printed without data (`dense_resource<__elided__>`, equal attributes).
/// Each copy then becomes its own parameter, as in the PyTorch model. A
/// dense_resource with a real key stays shared (a tied weight). Returns
/// whether anything changed.
bool splitSharedConstants(func::FuncOp model);

/// Decides what `model` (a func.func with a single-block body) trains under
/// `options` (params, min-elements, frozen, freeze-running-stats, input,
/// inputs, loss).
///
/// params=constants trains every float tensor constant of the body's top
/// level with at least min-elements elements (a saturating count) that the
/// output depends on, but not: frozen= keys, BatchNorm statistics
/// (freeze-running-stats: keys ending in running_mean / running_var, and
/// `runningStatisticReason`, with a remark), constants of another type
/// than f32, constants
/// whose values are not weights (`notWeightReason`: a remark names them)
/// and the constants in `noGradient` (the builder found that the loss has no
/// gradient for them; a warning names them). The constants of one
/// dense_resource key (but `__elided__`, the key of every blob printed
/// without data) are one parameter.
///
/// Errors, located on the function, the argument or the constant: a
/// `params` entry that names no argument or dense_resource constant, an
/// index out of range or naming an input, an input index out of range or
/// named twice, a parameter that is not a static f32 tensor, a named
/// parameter the output does not depend on, the constants of a tied key
/// with different types, a dense_resource blob whose size in bytes is not
/// the type's, an argument that is neither an input, a parameter nor
/// (loss=none) the label or target, no input or one that is not a float or
/// integer tensor of rank >= 1, and no trainable parameter at all (the
/// message says what was left and why, and what params= to try).
FailureOr<ParameterPlan>
selectParameters(func::FuncOp model, const TrainStepOptions &options,
                 ArrayRef<arith::ConstantOp> noGradient = {});

} // namespace mlir::amp::trainstep

#endif // AMP_TRAINSTEP_PARAMETERSELECTION_H
