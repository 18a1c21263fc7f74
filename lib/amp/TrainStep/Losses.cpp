//===- Losses.cpp - the losses amp-build-train-step appends ---------------===//

#include "amp/TrainStep/Losses.h"

#include "amp/Autodiff/AdjointBuilders.h"
#include "amp/Support/Counts.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinTypes.h"

#include <limits>

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::trainstep;

FailureOr<Type> mlir::amp::trainstep::supervisionType(LossKind kind,
                                                      Type outputType,
                                                      Location loc) {
  auto tensor = dyn_cast<RankedTensorType>(outputType);
  bool f32 = tensor && tensor.getElementType().isF32();
  if (tensor && llvm::is_contained(tensor.getShape(), 0))
    return emitError(loc) << "amp-build-train-step: the model's output "
                          << outputType
                          << " has no elements; there is nothing to average";
  switch (kind) {
  case LossKind::SoftmaxCrossEntropy:
    if (!f32 || tensor.getRank() != 2 || tensor.isDynamicDim(1) ||
        tensor.getDimSize(1) < 1)
      return emitError(loc)
             << "amp-build-train-step: loss=softmax-cross-entropy needs the "
                "model to return batch x classes logits (a rank-2 f32 tensor "
                "with a static number of classes), got "
             << outputType
             << "; for a model that returns its loss use loss=none";
    return Type(RankedTensorType::get({tensor.getDimSize(0)},
                                      IntegerType::get(loc.getContext(), 32)));
  case LossKind::MeanSquaredError:
    if (!f32 || tensor.getRank() < 1)
      return emitError(loc)
             << "amp-build-train-step: loss=mse needs the model to return an "
                "f32 tensor whose dimension 0 is the batch, got "
             << outputType;
    for (int64_t d = 1; d < tensor.getRank(); ++d)
      if (tensor.isDynamicDim(d))
        return emitError(loc)
               << "amp-build-train-step: loss=mse: the output " << outputType
               << " has a dynamic dimension " << d
               << "; only dimension 0 (the batch) may be dynamic";
    return outputType;
  case LossKind::None:
    if (!f32 || tensor.getRank() != 0)
      return emitError(loc)
             << "amp-build-train-step: loss=none needs the model to return "
                "its loss as one tensor<f32>, got "
             << outputType
             << "; for logits use loss=softmax-cross-entropy, for a "
                "regression output loss=mse";
    return Type();
  }
  llvm_unreachable("unknown loss");
}

/// 1 / (the product of `value`'s sizes along `dims`) as an f32 scalar: a
/// constant when they are static, else from tensor.dim. `staticCount`
/// saturates at INT64_MAX (Support/Counts.h) for shapes past 2^63 elements.
static Value reciprocalCount(OpBuilder &b, Location loc, Value value,
                             ArrayRef<int64_t> dims, int64_t &staticCount) {
  auto type = cast<RankedTensorType>(value.getType());
  staticCount = 1;
  bool dynamic = false;
  for (int64_t d : dims) {
    if (type.isDynamicDim(d))
      dynamic = true;
    else
      staticCount = saturatingMul(staticCount, type.getDimSize(d));
  }
  if (!dynamic)
    return Value();
  Value count = arith::ConstantIndexOp::create(b, loc, staticCount);
  for (int64_t d : dims)
    if (type.isDynamicDim(d))
      count = arith::MulIOp::create(b, loc, count,
                                    tensor::DimOp::create(b, loc, value, d));
  Value asInt = arith::IndexCastOp::create(b, loc, b.getI64Type(), count);
  Value asFloat = arith::SIToFPOp::create(b, loc, b.getF32Type(), asInt);
  Value one = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(1.0f));
  return arith::DivFOp::create(b, loc, one, asFloat);
}

/// `dynamic`, or the constant 1/`count` built in a body (constants of
/// linalg bodies are defined inside them).
static Value scaleInBody(OpBuilder &b, Location loc, Value dynamic,
                         int64_t count) {
  if (dynamic)
    return dynamic;
  return arith::ConstantOp::create(
      b, loc, b.getF32FloatAttr(static_cast<float>(1.0 / double(count))));
}

static Value buildSoftmaxCrossEntropy(OpBuilder &b, Location loc, Value logits,
                                      Value labels) {
  MLIRContext *ctx = b.getContext();
  Type f32 = b.getF32Type();
  auto rowType = RankedTensorType::get(
      {cast<RankedTensorType>(logits.getType()).getDimSize(0)}, f32);
  SmallVector<OpFoldResult> rows = {tensor::getMixedSize(b, loc, logits, 0)};
  Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0.0f));
  AffineMap all2 = AffineMap::getMultiDimIdentityMap(2, ctx);
  AffineMap row2 = AffineMap::get(2, 0, {getAffineDimExpr(0, ctx)}, ctx);
  SmallVector<utils::IteratorType> rowReduce = {utils::IteratorType::parallel,
                                                utils::IteratorType::reduction};

  // m_i = max_j z_ij. The shift cancels in the log-sum-exp (d loss / d m =
  // 1 - sum_j softmax_ij = 0), so what the backward sends through it is
  // rounding only.
  Value negInf = arith::ConstantOp::create(
      b, loc, b.getF32FloatAttr(-std::numeric_limits<float>::infinity()));
  Value maxInit = autodiff::buildFilled(b, loc, rowType, rows, negInf);
  Value rowMax = linalg::GenericOp::create(
                     b, loc, rowType, ValueRange{logits}, ValueRange{maxInit},
                     ArrayRef<AffineMap>{all2, row2}, rowReduce,
                     [](OpBuilder &nb, Location nl, ValueRange args) {
                       Value r =
                           arith::MaximumFOp::create(nb, nl, args[0], args[1]);
                       linalg::YieldOp::create(nb, nl, r);
                     })
                     .getResult(0);
  // s_i = sum_j exp(z_ij - m_i).
  Value sumInit = autodiff::buildFilled(b, loc, rowType, rows, zero);
  Value expSum =
      linalg::GenericOp::create(
          b, loc, rowType, ValueRange{logits, rowMax}, ValueRange{sumInit},
          ArrayRef<AffineMap>{all2, row2, row2}, rowReduce,
          [](OpBuilder &nb, Location nl, ValueRange args) {
            Value d = arith::SubFOp::create(nb, nl, args[0], args[1]);
            Value e = math::ExpOp::create(nb, nl, d);
            Value r = arith::AddFOp::create(nb, nl, e, args[2]);
            linalg::YieldOp::create(nb, nl, r);
          })
          .getResult(0);
  // z_{i, y_i} = sum_j (j == y_i ? z_ij : 0): the one-hot form.
  Value pickInit = autodiff::buildFilled(b, loc, rowType, rows, zero);
  Value picked =
      linalg::GenericOp::create(
          b, loc, rowType, ValueRange{logits, labels}, ValueRange{pickInit},
          ArrayRef<AffineMap>{all2, row2, row2}, rowReduce,
          [](OpBuilder &nb, Location nl, ValueRange args) {
            Value j = linalg::IndexOp::create(nb, nl, 1);
            Value label =
                arith::IndexCastOp::create(nb, nl, nb.getIndexType(), args[1]);
            Value hit = arith::CmpIOp::create(nb, nl, arith::CmpIPredicate::eq,
                                              j, label);
            Value none =
                arith::ConstantOp::create(nb, nl, nb.getF32FloatAttr(0.0f));
            Value z = arith::SelectOp::create(nb, nl, hit, args[0], none);
            Value r = arith::AddFOp::create(nb, nl, z, args[2]);
            linalg::YieldOp::create(nb, nl, r);
          })
          .getResult(0);
  // loss = (1/B) sum_i (m_i + log s_i - z_{i, y_i}).
  int64_t batch = 0;
  Value invBatch = reciprocalCount(b, loc, logits, {0}, batch);
  auto scalarType = RankedTensorType::get({}, f32);
  Value lossInit = autodiff::buildFilled(b, loc, scalarType, {}, zero);
  AffineMap id1 = AffineMap::getMultiDimIdentityMap(1, ctx);
  AffineMap to0 = AffineMap::get(1, 0, {}, ctx);
  return linalg::GenericOp::create(
             b, loc, scalarType, ValueRange{rowMax, expSum, picked},
             ValueRange{lossInit}, ArrayRef<AffineMap>{id1, id1, id1, to0},
             ArrayRef<utils::IteratorType>{utils::IteratorType::reduction},
             [&](OpBuilder &nb, Location nl, ValueRange args) {
               Value logSum = math::LogOp::create(nb, nl, args[1]);
               Value lse = arith::AddFOp::create(nb, nl, args[0], logSum);
               Value nll = arith::SubFOp::create(nb, nl, lse, args[2]);
               Value mean = arith::MulFOp::create(
                   nb, nl, nll, scaleInBody(nb, nl, invBatch, batch));
               Value r = arith::AddFOp::create(nb, nl, mean, args[3]);
               linalg::YieldOp::create(nb, nl, r);
             })
      .getResult(0);
}

static Value buildMeanSquaredError(OpBuilder &b, Location loc, Value output,
                                   Value target) {
  MLIRContext *ctx = b.getContext();
  auto type = cast<RankedTensorType>(output.getType());
  SmallVector<int64_t> dims =
      llvm::to_vector(llvm::seq<int64_t>(type.getRank()));
  int64_t count = 0;
  Value invCount = reciprocalCount(b, loc, output, dims, count);
  auto scalarType = RankedTensorType::get({}, b.getF32Type());
  Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0.0f));
  Value init = autodiff::buildFilled(b, loc, scalarType, {}, zero);
  AffineMap id = AffineMap::getMultiDimIdentityMap(type.getRank(), ctx);
  AffineMap to0 = AffineMap::get(type.getRank(), 0, {}, ctx);
  SmallVector<utils::IteratorType> reduce(type.getRank(),
                                          utils::IteratorType::reduction);
  return linalg::GenericOp::create(
             b, loc, scalarType, ValueRange{output, target}, ValueRange{init},
             ArrayRef<AffineMap>{id, id, to0}, reduce,
             [&](OpBuilder &nb, Location nl, ValueRange args) {
               Value d = arith::SubFOp::create(nb, nl, args[0], args[1]);
               Value sq = arith::MulFOp::create(nb, nl, d, d);
               Value mean = arith::MulFOp::create(
                   nb, nl, sq, scaleInBody(nb, nl, invCount, count));
               Value r = arith::AddFOp::create(nb, nl, mean, args[2]);
               linalg::YieldOp::create(nb, nl, r);
             })
      .getResult(0);
}

Value mlir::amp::trainstep::buildLoss(OpBuilder &builder, Location loc,
                                      LossKind kind, Value output,
                                      Value supervision) {
  switch (kind) {
  case LossKind::SoftmaxCrossEntropy:
    return buildSoftmaxCrossEntropy(builder, loc, output, supervision);
  case LossKind::MeanSquaredError:
    return buildMeanSquaredError(builder, loc, output, supervision);
  case LossKind::None:
    return output;
  }
  llvm_unreachable("unknown loss");
}
