//===- MathAutodiffImpl.cpp - adjoint rules of math ops -------------------===//
//
// Elementwise math on scalars and tensors. Each rule is the derivative in
// closed form, reusing the forward result y where it appears (exp, tanh,
// sqrt, rsqrt). Rounding ops (floor, ceil, round, roundeven, trunc) have a
// zero derivative almost everywhere and send nothing back; absf sends
// sign(x) * dr with sign(0) = 0 (PyTorch's abs).
//
//===----------------------------------------------------------------------===//

#include "amp/Autodiff/Implementations.h"

#include "ElementwiseAdjoint.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::amp::autodiff;

namespace {

/// Rules of one-operand ops: dx = dr * derivative(b, loc, x, y).
template <typename OpTy,
          Value (*Derivative)(OpBuilder &, Location, Value x, Value y)>
struct UnaryAdjoint : ElementwiseAdjoint<UnaryAdjoint<OpTy, Derivative>, OpTy> {
  void adjoint(OpBuilder &b, Location loc, OpTy op, Value dr,
               AdjointState &s) const {
    Value x = op->getOperand(0);
    Value derivative = Derivative(b, loc, x, op->getResult(0));
    s.addCotangent(x, arith::MulFOp::create(b, loc, dr, derivative));
  }
};

Value cst(OpBuilder &b, Location loc, Value like, double c) {
  return buildConstantLike(b, loc, like, c);
}
Value mul(OpBuilder &b, Location loc, Value x, Value y) {
  return arith::MulFOp::create(b, loc, x, y);
}
Value div(OpBuilder &b, Location loc, Value x, Value y) {
  return arith::DivFOp::create(b, loc, x, y);
}

/// exp: y
Value dExp(OpBuilder &, Location, Value, Value y) { return y; }
/// exp2: y ln 2
Value dExp2(OpBuilder &b, Location loc, Value, Value y) {
  return mul(b, loc, y, cst(b, loc, y, llvm::numbers::ln2));
}
/// expm1: y + 1
Value dExpM1(OpBuilder &b, Location loc, Value, Value y) {
  return arith::AddFOp::create(b, loc, y, cst(b, loc, y, 1.0));
}
/// log: 1 / x
Value dLog(OpBuilder &b, Location loc, Value x, Value) {
  return div(b, loc, cst(b, loc, x, 1.0), x);
}
/// log2: 1 / (x ln 2)
Value dLog2(OpBuilder &b, Location loc, Value x, Value) {
  return div(b, loc, cst(b, loc, x, 1.0 / llvm::numbers::ln2), x);
}
/// log10: 1 / (x ln 10)
Value dLog10(OpBuilder &b, Location loc, Value x, Value) {
  return div(b, loc, cst(b, loc, x, 1.0 / llvm::numbers::ln10), x);
}
/// log1p: 1 / (1 + x)
Value dLog1p(OpBuilder &b, Location loc, Value x, Value) {
  Value one = cst(b, loc, x, 1.0);
  return div(b, loc, one, arith::AddFOp::create(b, loc, x, one));
}
/// tanh: 1 - y^2
Value dTanh(OpBuilder &b, Location loc, Value, Value y) {
  return arith::SubFOp::create(b, loc, cst(b, loc, y, 1.0), mul(b, loc, y, y));
}
/// tan: 1 + y^2
Value dTan(OpBuilder &b, Location loc, Value, Value y) {
  return arith::AddFOp::create(b, loc, cst(b, loc, y, 1.0), mul(b, loc, y, y));
}
/// sqrt: 0.5 / y
Value dSqrt(OpBuilder &b, Location loc, Value, Value y) {
  return div(b, loc, cst(b, loc, y, 0.5), y);
}
/// rsqrt (y = x^-1/2): -0.5 y^3
Value dRsqrt(OpBuilder &b, Location loc, Value, Value y) {
  Value cube = mul(b, loc, mul(b, loc, y, y), y);
  return mul(b, loc, cst(b, loc, y, -0.5), cube);
}
/// erf: 2 / sqrt(pi) exp(-x^2)
Value dErf(OpBuilder &b, Location loc, Value x, Value) {
  Value negSquare = arith::NegFOp::create(b, loc, mul(b, loc, x, x));
  return mul(b, loc, cst(b, loc, x, llvm::numbers::inv_sqrtpi * 2.0),
             math::ExpOp::create(b, loc, negSquare));
}
/// erfc: -2 / sqrt(pi) exp(-x^2)
Value dErfc(OpBuilder &b, Location loc, Value x, Value y) {
  return arith::NegFOp::create(b, loc, dErf(b, loc, x, y));
}
/// sin: cos x
Value dSin(OpBuilder &b, Location loc, Value x, Value) {
  return math::CosOp::create(b, loc, x);
}
/// cos: -sin x
Value dCos(OpBuilder &b, Location loc, Value x, Value) {
  return arith::NegFOp::create(b, loc, math::SinOp::create(b, loc, x));
}
/// absf: sign(x), 0 at 0
Value dAbs(OpBuilder &b, Location loc, Value x, Value) {
  Value zero = cst(b, loc, x, 0.0);
  Value positive =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, x, zero);
  Value negative =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, x, zero);
  Value minusOne =
      arith::SelectOp::create(b, loc, negative, cst(b, loc, x, -1.0), zero);
  return arith::SelectOp::create(b, loc, positive, cst(b, loc, x, 1.0),
                                 minusOne);
}

/// y = a^b: da = dr b a^(b-1), db = dr y ln a.
struct PowFAdjoint : ElementwiseAdjoint<PowFAdjoint, math::PowFOp> {
  void adjoint(OpBuilder &b, Location loc, math::PowFOp op, Value dr,
               AdjointState &s) const {
    Value base = op.getLhs(), exponent = op.getRhs();
    if (s.isActive(base)) {
      Value lowered =
          arith::SubFOp::create(b, loc, exponent, cst(b, loc, exponent, 1.0));
      Value power = math::PowFOp::create(b, loc, base, lowered);
      s.addCotangent(base, mul(b, loc, dr, mul(b, loc, exponent, power)));
    }
    if (s.isActive(exponent)) {
      Value log = math::LogOp::create(b, loc, base);
      s.addCotangent(exponent,
                     mul(b, loc, dr, mul(b, loc, op.getResult(), log)));
    }
  }
};

/// y = x^n (integer n): dx = dr n x^(n-1).
struct FPowIAdjoint : ElementwiseAdjoint<FPowIAdjoint, math::FPowIOp> {
  void adjoint(OpBuilder &b, Location loc, math::FPowIOp op, Value dr,
               AdjointState &s) const {
    Value x = op.getLhs(), n = op.getRhs();
    Type intType = getElementTypeOrSelf(n.getType());
    Attribute oneAttr = b.getIntegerAttr(intType, 1);
    if (auto shaped = dyn_cast<ShapedType>(n.getType()))
      oneAttr = DenseElementsAttr::get(shaped, oneAttr);
    Value one = arith::ConstantOp::create(b, loc, cast<TypedAttr>(oneAttr));
    Value lowered = arith::SubIOp::create(b, loc, n, one);
    Value power = math::FPowIOp::create(b, loc, x, lowered);
    Value factor = arith::SIToFPOp::create(b, loc, x.getType(), n);
    s.addCotangent(x, mul(b, loc, dr, mul(b, loc, factor, power)));
  }
};

/// Rounding: zero derivative almost everywhere; nothing flows back.
template <typename OpTy>
struct RoundingAdjoint
    : ReverseModeOpInterface::ExternalModel<RoundingAdjoint<OpTy>, OpTy> {
  LogicalResult buildAdjoint(Operation *, OpBuilder &, AdjointState &) const {
    return success();
  }
};

} // namespace

void mlir::amp::autodiff::registerMathAutodiffExternalModels(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, math::MathDialect *) {
    using namespace math;
    ExpOp::attachInterface<UnaryAdjoint<ExpOp, dExp>>(*ctx);
    Exp2Op::attachInterface<UnaryAdjoint<Exp2Op, dExp2>>(*ctx);
    ExpM1Op::attachInterface<UnaryAdjoint<ExpM1Op, dExpM1>>(*ctx);
    LogOp::attachInterface<UnaryAdjoint<LogOp, dLog>>(*ctx);
    Log2Op::attachInterface<UnaryAdjoint<Log2Op, dLog2>>(*ctx);
    Log10Op::attachInterface<UnaryAdjoint<Log10Op, dLog10>>(*ctx);
    Log1pOp::attachInterface<UnaryAdjoint<Log1pOp, dLog1p>>(*ctx);
    TanhOp::attachInterface<UnaryAdjoint<TanhOp, dTanh>>(*ctx);
    TanOp::attachInterface<UnaryAdjoint<TanOp, dTan>>(*ctx);
    SqrtOp::attachInterface<UnaryAdjoint<SqrtOp, dSqrt>>(*ctx);
    RsqrtOp::attachInterface<UnaryAdjoint<RsqrtOp, dRsqrt>>(*ctx);
    ErfOp::attachInterface<UnaryAdjoint<ErfOp, dErf>>(*ctx);
    ErfcOp::attachInterface<UnaryAdjoint<ErfcOp, dErfc>>(*ctx);
    SinOp::attachInterface<UnaryAdjoint<SinOp, dSin>>(*ctx);
    CosOp::attachInterface<UnaryAdjoint<CosOp, dCos>>(*ctx);
    AbsFOp::attachInterface<UnaryAdjoint<AbsFOp, dAbs>>(*ctx);
    PowFOp::attachInterface<PowFAdjoint>(*ctx);
    FPowIOp::attachInterface<FPowIAdjoint>(*ctx);
    FloorOp::attachInterface<RoundingAdjoint<FloorOp>>(*ctx);
    CeilOp::attachInterface<RoundingAdjoint<CeilOp>>(*ctx);
    RoundOp::attachInterface<RoundingAdjoint<RoundOp>>(*ctx);
    RoundEvenOp::attachInterface<RoundingAdjoint<RoundEvenOp>>(*ctx);
    TruncOp::attachInterface<RoundingAdjoint<TruncOp>>(*ctx);
  });
}
