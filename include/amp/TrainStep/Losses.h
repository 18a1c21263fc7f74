//===- Losses.h - the losses amp-build-train-step appends -------*- C++ -*-===//
//
// The loss of a model's output, in f32 linalg on tensors, built from ops
// amp-differentiate has rules for (no gather: the label is compared with
// linalg.index, a one-hot select, because a body's tensor.extract from a
// captured tensor has no adjoint). Sources: PyTorch's nn.CrossEntropyLoss
// and nn.MSELoss with reduction = "mean".
//
//===----------------------------------------------------------------------===//

#ifndef AMP_TRAINSTEP_LOSSES_H
#define AMP_TRAINSTEP_LOSSES_H

#include "amp/TrainStep/TrainStepOptions.h"

#include "mlir/IR/Builders.h"

namespace mlir::amp::trainstep {

/// The type of the argument `kind` compares `outputType` with, or a located
/// error at `loc` when the output does not fit the loss:
/// - SoftmaxCrossEntropy: the output must be a rank-2 f32 tensor (batch x
///   classes logits, classes static and >= 1); the label is tensor<B x i32>
///   with B the output's dimension 0 (static or dynamic);
/// - MeanSquaredError: the output must be an f32 tensor of rank >= 1 (its
///   dimension 0 the batch); the target has the output's type;
/// - None: the output must be tensor<f32>; the result is a null type.
FailureOr<Type> supervisionType(LossKind kind, Type outputType, Location loc);

/// Builds `kind`'s loss at `builder`'s insertion point and returns it, a
/// tensor<f32>:
/// - SoftmaxCrossEntropy, output z (B x C), label y (B, i32):
///     m_i = max_j z_ij, s_i = sum_j exp(z_ij - m_i),
///     loss = (1/B) sum_i (m_i + log s_i - z_{i, y_i})
///   (the log-sum-exp subtracts the row maximum, so exp never overflows; a
///   label outside [0, C) selects no logit, where PyTorch raises);
/// - MeanSquaredError, output y and target t of N elements:
///     loss = (1/N) sum (y - t)^2;
/// - None: `output` itself.
/// B and N are read with tensor.dim when dimension 0 is dynamic.
Value buildLoss(OpBuilder &builder, Location loc, LossKind kind, Value output,
                Value supervision);

} // namespace mlir::amp::trainstep

#endif // AMP_TRAINSTEP_LOSSES_H
