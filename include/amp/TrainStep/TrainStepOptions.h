//===- TrainStepOptions.h - what amp-build-train-step builds ----*- C++ -*-===//
//
// The options of the training-step builder (docs/training-step-builder.md)
// as a plain struct, shared by the pass (`amp-build-train-step`, whose
// TableGen options fill it) and the C++ entry point (BuildTrainStep.h), and
// checked once by `TrainStepOptions::validate`.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_TRAINSTEP_TRAINSTEPOPTIONS_H
#define AMP_TRAINSTEP_TRAINSTEPOPTIONS_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace mlir::amp::trainstep {

/// The loss the step computes from the model's output (docs:
/// training-step-builder.md, "Losses").
enum class LossKind {
  /// Output: batch x classes logits (f32); label: one i32 class index per
  /// example. Mean over the batch of logsumexp(z_i) - z_{i, y_i}, PyTorch's
  /// nn.CrossEntropyLoss (reduction = "mean").
  SoftmaxCrossEntropy,
  /// Output: any f32 tensor whose dimension 0 is the batch; target: an f32
  /// tensor of the output's type. Mean over all elements of (y - t)^2,
  /// PyTorch's nn.MSELoss (reduction = "mean").
  MeanSquaredError,
  /// The model already returns its loss (one tensor<f32>).
  None,
};

/// The update rule (docs: training-step-builder.md, "Optimizers"), each as
/// PyTorch's torch.optim writes it.
enum class OptimizerKind {
  SGD,      ///< w' = w - lr (g + wd w)
  Momentum, ///< SGD with momentum mu, dampening 0, not Nesterov
  Adam,     ///< Kingma & Ba 2015, L2 decay added to the gradient
  AdamW,    ///< Loshchilov & Hutter 2019, decoupled decay
};

llvm::StringRef stringifyLossKind(LossKind kind);
llvm::StringRef stringifyOptimizerKind(OptimizerKind kind);

/// The batch= value that asks for a dynamic batch (`?`); equal to
/// mlir::ShapedType::kDynamic.
constexpr int64_t kDynamicBatch = std::numeric_limits<int64_t>::min();

/// Parses a batch= value: "" or "0" is 0 (no re-batching), "dynamic" is
/// kDynamicBatch, a decimal integer >= 1 is itself; anything else is
/// std::nullopt.
std::optional<int64_t> parseBatch(llvm::StringRef text);

/// The largest batch-dim= value (a tensor of more dimensions is no model).
constexpr int64_t kMaxBatchDim = 64;

/// Everything the builder needs to know; defaults as in PyTorch.
struct TrainStepOptions {
  /// The model function; empty: the only public func.func with a body.
  std::string function;
  /// Which values become `param` arguments; each entry is "constants"
  /// (every float tensor constant at the top level of the body with at
  /// least `minElements` elements, that the output depends on), "arguments"
  /// (every float tensor argument but the input), an argument index ("3"),
  /// or the key of a dense_resource constant. Empty means {"constants"}.
  std::vector<std::string> params;
  int64_t minElements = 2;
  /// dense_resource keys (a trailing or leading `*` matches any text) of
  /// constants that "constants" leaves constant.
  std::vector<std::string> frozen;
  /// Also leave constants whose key ends in `running_mean` or `running_var`
  /// constant: PyTorch's BatchNorm buffers, which an optimizer never sees.
  bool freezeRunningStats = true;
  /// The model's input arguments (data fed each step, dimension 0 the
  /// batch; float or integer tensors such as token ids), by index. Empty:
  /// `input`, else the default of ParameterSelection.h (every argument that
  /// is not a parameter, nor with loss=none the label).
  std::vector<int64_t> inputs;
  /// `input=<index>`: one input, an alias of `inputs` with one entry; -1:
  /// none given.
  int64_t input = -1;
  /// The result of the model that is its output (logits, a regression
  /// output or its loss) when it returns several, as a traced PyTorch
  /// forward that returns a tuple does: the others are dropped (and the ops
  /// only they need). -1: the model must return one value.
  int64_t output = -1;
  /// Re-batch the model first (Rebatch.h): "" or "0" keeps the traced
  /// batch, a size >= 1 or "dynamic" rewrites dimension 0 of the input and
  /// everything derived from it.
  std::string batch;
  /// The dimension of each input that holds the batch (moveBatchFirst in
  /// Rebatch.h moves it to dimension 0 of the step's inputs and output).
  /// Empty: 0. One entry: every input (and with loss=none the label or
  /// target, where that dimension holds the inputs' traced batch and
  /// dimension 0 does not; both: an error); else one per input, in the
  /// order of
  /// the inputs, and with loss=none optionally one more for the label or
  /// target. 1 for PyTorch's sequence-first layouts (batch_first=False).
  std::vector<int64_t> batchDim;

  LossKind loss = LossKind::SoftmaxCrossEntropy;
  OptimizerKind optimizer = OptimizerKind::Momentum;
  /// Learning rate; 0 means the optimizer's default: 0.01 for sgd and
  /// momentum, 0.001 for adam and adamw (torch.optim.Adam's default).
  double lr = 0;
  double momentum = 0.9;
  double beta1 = 0.9, beta2 = 0.999, eps = 1e-8;
  double weightDecay = 0;
  /// Also build the `amp.eval_step` (when the output is batch x classes).
  bool evalStep = true;
  /// Raise decomposed softmaxes to linalg.softmax before differentiating
  /// (amp-raise-softmax: a backward that reads only the probabilities).
  bool raiseSoftmax = true;

  /// The learning rate in effect (`lr`, or the optimizer's default).
  double effectiveLearningRate() const;
  /// "" when every option is valid, else one message naming the option and
  /// its value, e.g. "lr=-2: must be > 0 (0 or no lr: the optimizer's
  /// default)".
  std::string validate() const;
};

} // namespace mlir::amp::trainstep

#endif // AMP_TRAINSTEP_TRAINSTEPOPTIONS_H
