//===- Optimizers.cpp - the updates amp-build-train-step appends ----------===//

#include "amp/TrainStep/Optimizers.h"

#include "amp/Autodiff/AdjointBuilders.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::trainstep;

SmallVector<StateSlot> mlir::amp::trainstep::optimizerState(
    OptimizerKind kind, ArrayRef<RankedTensorType> paramTypes,
    ArrayRef<std::string> paramNames, MLIRContext *ctx) {
  SmallVector<StateSlot> slots;
  auto perParam = [&](const char *what) {
    for (auto [type, name] : llvm::zip_equal(paramTypes, paramNames))
      slots.push_back({type, std::string(what) + " of " + name});
  };
  switch (kind) {
  case OptimizerKind::SGD:
    break;
  case OptimizerKind::Momentum:
    perParam("momentum buffer");
    break;
  case OptimizerKind::Adam:
  case OptimizerKind::AdamW:
    perParam("first moment");
    perParam("second moment");
    slots.push_back(
        {RankedTensorType::get({}, IntegerType::get(ctx, 32)), "step counter"});
    break;
  }
  return slots;
}

namespace {
/// Builds the bodies of the update generics: f32 constants defined inside
/// the body, as the hand-written steps do.
struct Body {
  OpBuilder &b;
  Location loc;
  Value c(double v) {
    return arith::ConstantOp::create(b, loc,
                                     b.getF32FloatAttr(static_cast<float>(v)));
  }
  Value add(Value x, Value y) { return arith::AddFOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return arith::SubFOp::create(b, loc, x, y); }
  Value mul(Value x, Value y) { return arith::MulFOp::create(b, loc, x, y); }
  Value div(Value x, Value y) { return arith::DivFOp::create(b, loc, x, y); }
  /// g + wd w with w the last of `args` (withParam), or g when wd = 0.
  Value decayed(Value g, ValueRange args, double wd) {
    if (wd == 0)
      return g;
    Value decay = mul(c(wd), args.back());
    return add(g, decay);
  }
};
} // namespace

/// `inputs`, then `param` when `decay` is set (the decay term reads it: the
/// body finds it last).
static SmallVector<Value> withParam(ArrayRef<Value> inputs, Value param,
                                    bool decay) {
  SmallVector<Value> all(inputs.begin(), inputs.end());
  if (decay)
    all.push_back(param);
  return all;
}

/// One elementwise generic over `inputs` (all of one type) yielding
/// `body`'s value.
static Value elementwise(OpBuilder &b, Location loc, ValueRange inputs,
                         function_ref<Value(Body &, ValueRange)> body) {
  return autodiff::buildElementwise(
      b, loc, inputs, b.getF32Type(),
      [&](OpBuilder &nb, Location nl, ValueRange args) {
        Body scalars{nb, nl};
        return body(scalars, args);
      });
}

void mlir::amp::trainstep::buildUpdates(OpBuilder &b, Location loc,
                                        const TrainStepOptions &options,
                                        ValueRange params, ValueRange grads,
                                        ValueRange state,
                                        SmallVectorImpl<Value> &newParams,
                                        SmallVectorImpl<Value> &newState) {
  double lr = options.effectiveLearningRate();
  double wd = options.weightDecay;
  size_t n = params.size();
  switch (options.optimizer) {
  case OptimizerKind::SGD:
    // w' = w - lr (g + wd w).
    for (size_t i = 0; i < n; ++i)
      newParams.push_back(elementwise(b, loc, {grads[i], params[i]},
                                      [&](Body &s, ValueRange a) {
                                        Value d = s.decayed(a[0], a, wd);
                                        Value step = s.mul(s.c(lr), d);
                                        return s.sub(a[1], step);
                                      }));
    return;
  case OptimizerKind::Momentum: {
    // v' = mu v + (g + wd w); w' = w - lr v'.
    double mu = options.momentum;
    for (size_t i = 0; i < n; ++i) {
      Value v = elementwise(b, loc,
                            withParam({state[i], grads[i]}, params[i], wd != 0),
                            [&](Body &s, ValueRange a) {
                              Value d = s.decayed(a[1], a, wd);
                              Value kept = s.mul(s.c(mu), a[0]);
                              return s.add(kept, d);
                            });
      newState.push_back(v);
      newParams.push_back(
          elementwise(b, loc, {params[i], v}, [&](Body &s, ValueRange a) {
            Value step = s.mul(s.c(lr), a[1]);
            return s.sub(a[0], step);
          }));
    }
    return;
  }
  case OptimizerKind::Adam:
  case OptimizerKind::AdamW: {
    bool decoupled = options.optimizer == OptimizerKind::AdamW;
    // Adam's L2 decay is part of the moments' gradient; AdamW's is not.
    double l2 = decoupled ? 0 : wd;
    double b1 = options.beta1, b2 = options.beta2, eps = options.eps;
    // t' = t + 1; c1 = 1 - b1^t'; c2 = 1 - b2^t' (scalars, read by every
    // update body).
    Value t = state[2 * n];
    auto counterType = cast<RankedTensorType>(t.getType());
    Value one = arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(counterType, b.getI32IntegerAttr(1)));
    Value tNext = arith::AddIOp::create(b, loc, t, one);
    Value tInt = tensor::ExtractOp::create(b, loc, tNext, ValueRange{});
    // In f64, then rounded once to f32, as PyTorch computes them (Python
    // floats: 1 - 0.999f^t in f32 is 6.9e-6 relative off at t = 1, and
    // every early update with it).
    Type f64 = b.getF64Type();
    auto c64 = [&](double v) -> Value {
      return arith::ConstantOp::create(b, loc, b.getF64FloatAttr(v));
    };
    Value tFloat = arith::SIToFPOp::create(b, loc, f64, tInt);
    Value b1t = math::PowFOp::create(b, loc, c64(b1), tFloat);
    Value b2t = math::PowFOp::create(b, loc, c64(b2), tFloat);
    Value c1 = arith::SubFOp::create(b, loc, c64(1.0), b1t);
    Value c2 = arith::SubFOp::create(b, loc, c64(1.0), b2t);
    Value stepSize = arith::TruncFOp::create(
        b, loc, b.getF32Type(), arith::DivFOp::create(b, loc, c64(lr), c1));
    Value c2Sqrt = arith::TruncFOp::create(b, loc, b.getF32Type(),
                                           math::SqrtOp::create(b, loc, c2));
    SmallVector<Value> m, v;
    // m' = b1 m + (1 - b1) d; v' = b2 v + (1 - b2) d^2, d = g (+ wd w).
    for (size_t i = 0; i < n; ++i)
      m.push_back(elementwise(
          b, loc, withParam({state[i], grads[i]}, params[i], l2 != 0),
          [&](Body &s, ValueRange a) {
            Value d = s.decayed(a[1], a, l2);
            Value kept = s.mul(s.c(b1), a[0]);
            Value added = s.mul(s.c(1.0 - b1), d);
            return s.add(kept, added);
          }));
    for (size_t i = 0; i < n; ++i)
      v.push_back(elementwise(
          b, loc, withParam({state[n + i], grads[i]}, params[i], l2 != 0),
          [&](Body &s, ValueRange a) {
            Value d = s.decayed(a[1], a, l2);
            Value kept = s.mul(s.c(b2), a[0]);
            Value square = s.mul(d, d);
            Value added = s.mul(s.c(1.0 - b2), square);
            return s.add(kept, added);
          }));
    // w' = w (1 - lr wd, adamw) - (lr / c1) m' / (sqrt(v') / sqrt(c2) + eps).
    for (size_t i = 0; i < n; ++i)
      newParams.push_back(elementwise(
          b, loc, {params[i], m[i], v[i]}, [&](Body &s, ValueRange a) {
            Value w = a[0];
            if (decoupled && wd != 0)
              w = s.mul(w, s.c(1.0 - lr * wd));
            Value sqrtV = math::SqrtOp::create(s.b, s.loc, a[2]);
            Value corrected = s.div(sqrtV, c2Sqrt);
            Value denom = s.add(corrected, s.c(eps));
            Value ratio = s.div(a[1], denom);
            return s.sub(w, s.mul(stepSize, ratio));
          }));
    newState.append(m.begin(), m.end());
    newState.append(v.begin(), v.end());
    newState.push_back(tNext);
    return;
  }
  }
}
