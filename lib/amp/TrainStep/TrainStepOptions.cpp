//===- TrainStepOptions.cpp - what amp-build-train-step builds ------------===//

#include "amp/TrainStep/TrainStepOptions.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

using namespace mlir::amp::trainstep;

llvm::StringRef mlir::amp::trainstep::stringifyLossKind(LossKind kind) {
  switch (kind) {
  case LossKind::SoftmaxCrossEntropy:
    return "softmax-cross-entropy";
  case LossKind::MeanSquaredError:
    return "mse";
  case LossKind::None:
    return "none";
  }
  return "?";
}

llvm::StringRef
mlir::amp::trainstep::stringifyOptimizerKind(OptimizerKind kind) {
  switch (kind) {
  case OptimizerKind::SGD:
    return "sgd";
  case OptimizerKind::Momentum:
    return "momentum";
  case OptimizerKind::Adam:
    return "adam";
  case OptimizerKind::AdamW:
    return "adamw";
  }
  return "?";
}

std::optional<int64_t> mlir::amp::trainstep::parseBatch(llvm::StringRef text) {
  if (text.empty())
    return 0;
  if (text == "dynamic")
    return kDynamicBatch;
  int64_t value = 0;
  // getAsInteger fails on trailing text, signs are rejected below.
  if (text.getAsInteger(10, value) || value < 0 || text.starts_with("+"))
    return std::nullopt;
  return value;
}

double TrainStepOptions::effectiveLearningRate() const {
  if (lr != 0)
    return lr;
  bool adamFamily =
      optimizer == OptimizerKind::Adam || optimizer == OptimizerKind::AdamW;
  return adamFamily ? 1e-3 : 1e-2;
}

/// "<name>=<value>: <why>".
static std::string bad(const char *name, double value, const char *why) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << name << "=" << llvm::format("%g", value) << ": " << why;
  return text;
}

std::string TrainStepOptions::validate() const {
  if (output < -1)
    return bad("output", static_cast<double>(output),
               "must be the index of one of the model's results (>= 0)");
  if (!std::isfinite(lr) || lr < 0)
    return bad("lr", lr,
               "must be > 0 (0 or no lr: the optimizer's default, 0.01 for "
               "sgd and momentum, 0.001 for adam and adamw)");
  // The step computes in f32: a value that is valid in double but rounds
  // to 0, 1 or inf in f32 changes the optimizer (1 - beta2^t = 0 divides
  // by zero; lr = 1e-50 is a literal 0).
  auto f32 = [](double v) {
    return static_cast<double>(static_cast<float>(v));
  };
  if (lr != 0 && !(f32(lr) > 0 && std::isfinite(f32(lr))))
    return bad("lr", lr, "is 0 or inf once rounded to f32, the step's type");
  if (std::isfinite(weightDecay) && !std::isfinite(f32(weightDecay)))
    return bad("weight-decay", weightDecay,
               "is inf once rounded to f32, the step's type");
  for (auto [name, value] :
       {std::pair<const char *, double>{"momentum", momentum},
        {"beta1", beta1},
        {"beta2", beta2}})
    if (value < 1 && f32(value) >= 1)
      return bad(name, value,
                 "rounds to 1 in f32, the step's type (the largest f32 "
                 "below 1 is 0.99999994)");
  if (!(momentum >= 0 && momentum < 1))
    return bad("momentum", momentum, "must be in [0, 1)");
  if (!(beta1 >= 0 && beta1 < 1))
    return bad("beta1", beta1, "must be in [0, 1)");
  if (!(beta2 >= 0 && beta2 < 1))
    return bad("beta2", beta2, "must be in [0, 1)");
  if (!(eps > 0) || !std::isfinite(eps))
    return bad("eps", eps, "must be > 0 (it keeps sqrt(v) + eps from 0)");
  if (!(weightDecay >= 0) || !std::isfinite(weightDecay))
    return bad("weight-decay", weightDecay, "must be >= 0");
  if (optimizer == OptimizerKind::AdamW &&
      !(effectiveLearningRate() * weightDecay < 1))
    return bad("weight-decay", weightDecay,
               "lr * weight-decay must be below 1 for adamw (each step "
               "multiplies w by 1 - lr * weight-decay)");
  if (minElements < 0)
    return bad("min-elements", double(minElements), "must be >= 0");
  if (input < -1)
    return bad("input", double(input),
               "must be an argument index (or -1: the default inputs)");
  for (int64_t i : inputs)
    if (i < 0)
      return bad("inputs", double(i), "must be an argument index");
  if (input >= 0 && !inputs.empty())
    return "input= and inputs= both given: name the inputs with inputs= "
           "alone (input=<index> is inputs=<index>)";
  for (int64_t d : batchDim)
    if (d < 0 || d > kMaxBatchDim)
      return "batch-dim=" + std::to_string(d) +
             ": must be a dimension index in [0, " +
             std::to_string(kMaxBatchDim) +
             "] (PyTorch's batch_first=False layouts: 1)";
  if (!parseBatch(batch))
    return "batch=" + batch +
           ": must be a batch size >= 1 or dynamic (0 or no batch: the "
           "batch the model was traced at)";
  return "";
}
