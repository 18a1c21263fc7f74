//===- Optimizers.h - the updates amp-build-train-step appends --*- C++ -*-===//
//
// The optimizer step of a training step, after the `amp.grad` markers: one
// elementwise linalg.generic per parameter and state tensor, reading the
// gradients only through the `amp.grad` results (the training-step
// contract), in f32. The formulas are torch.optim's (PyTorch 1.13,
// `_single_tensor_sgd`, `_single_tensor_adam`, `_single_tensor_adamw`):
//
//   sgd:      d = g + wd w;  w' = w - lr d
//   momentum: d = g + wd w;  v' = mu v + d;  w' = w - lr v'
//             (dampening 0 and v = 0 at the start, so v' = d at the first
//             step, as torch's buffer = d)
//   adam:     d = g + wd w;  m' = b1 m + (1 - b1) d;  v' = b2 v + (1 - b2) d^2;
//             t' = t + 1;  c1 = 1 - b1^t';  c2 = 1 - b2^t';
//             w' = w - (lr / c1) m' / (sqrt(v') / sqrt(c2) + eps)
//             (Kingma & Ba, ICLR 2015, with L2 decay added to the gradient)
//   adamw:    as adam with d = g, and w (1 - lr wd) in place of w
//             (decoupled decay, Loshchilov & Hutter, ICLR 2019)
//
// Weight decay reads the unscaled gradient g (the `amp.grad` result), so
// loss scaling never divides it by S (shared REFERENCE.md, "Failure modes").
//
//===----------------------------------------------------------------------===//

#ifndef AMP_TRAINSTEP_OPTIMIZERS_H
#define AMP_TRAINSTEP_OPTIMIZERS_H

#include "amp/TrainStep/TrainStepOptions.h"

#include "mlir/IR/Builders.h"

#include <string>

namespace mlir::amp::trainstep {

/// One `opt_state` argument: its type and what it holds (for messages and
/// the docs), e.g. "momentum of conv1.weight".
struct StateSlot {
  Type type;
  std::string what;
};

/// The optimizer state for parameters of `paramTypes` named `paramNames`,
/// in the step's argument order: sgd none; momentum one buffer v per
/// parameter; adam and adamw the first moments m of every parameter, then
/// the second moments v, then the step counter t (tensor<i32>, a driver
/// starts it at 0). Every tensor state has its parameter's type and starts
/// at zero.
SmallVector<StateSlot> optimizerState(OptimizerKind kind,
                                      ArrayRef<RankedTensorType> paramTypes,
                                      ArrayRef<std::string> paramNames,
                                      MLIRContext *ctx);

/// Builds the update at `builder`'s insertion point from the parameters,
/// their gradients (the `amp.grad` results, in the same order) and the
/// state (optimizerState's order); appends the new parameters to
/// `newParams` and the new state to `newState`, in the same orders.
void buildUpdates(OpBuilder &builder, Location loc,
                  const TrainStepOptions &options, ValueRange params,
                  ValueRange grads, ValueRange state,
                  SmallVectorImpl<Value> &newParams,
                  SmallVectorImpl<Value> &newState);

} // namespace mlir::amp::trainstep

#endif // AMP_TRAINSTEP_OPTIMIZERS_H
