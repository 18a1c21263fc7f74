//===- ArithAutodiffImpl.cpp - adjoint rules of arith ops -----------------===//
//
// Float arithmetic, on scalars (inside linalg bodies) and on tensors alike.
// Ties of maximumf/minimumf split the cotangent evenly between the two
// operands (PyTorch's maximum/minimum). Comparisons, integer ops and
// constants produce no float value with a cotangent and need no rule.
//
//===----------------------------------------------------------------------===//

#include "amp/Autodiff/Implementations.h"

#include "ElementwiseAdjoint.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::amp::autodiff;

namespace {

/// d(a + b) = (dr, dr)
struct AddFAdjoint : ElementwiseAdjoint<AddFAdjoint, arith::AddFOp> {
  void adjoint(OpBuilder &, Location, arith::AddFOp op, Value dr,
               AdjointState &s) const {
    s.addCotangent(op.getLhs(), dr);
    s.addCotangent(op.getRhs(), dr);
  }
};

/// d(a - b) = (dr, -dr)
struct SubFAdjoint : ElementwiseAdjoint<SubFAdjoint, arith::SubFOp> {
  void adjoint(OpBuilder &b, Location loc, arith::SubFOp op, Value dr,
               AdjointState &s) const {
    s.addCotangent(op.getLhs(), dr);
    if (s.isActive(op.getRhs()))
      s.addCotangent(op.getRhs(), arith::NegFOp::create(b, loc, dr));
  }
};

/// d(a * b) = (dr * b, a * dr)
struct MulFAdjoint : ElementwiseAdjoint<MulFAdjoint, arith::MulFOp> {
  void adjoint(OpBuilder &b, Location loc, arith::MulFOp op, Value dr,
               AdjointState &s) const {
    if (s.isActive(op.getLhs()))
      s.addCotangent(op.getLhs(),
                     arith::MulFOp::create(b, loc, dr, op.getRhs()));
    if (s.isActive(op.getRhs()))
      s.addCotangent(op.getRhs(),
                     arith::MulFOp::create(b, loc, op.getLhs(), dr));
  }
};

/// y = a / b: d = (dr / b, -(dr * y) / b)
struct DivFAdjoint : ElementwiseAdjoint<DivFAdjoint, arith::DivFOp> {
  void adjoint(OpBuilder &b, Location loc, arith::DivFOp op, Value dr,
               AdjointState &s) const {
    if (s.isActive(op.getLhs()))
      s.addCotangent(op.getLhs(),
                     arith::DivFOp::create(b, loc, dr, op.getRhs()));
    if (s.isActive(op.getRhs())) {
      Value scaled = arith::MulFOp::create(b, loc, dr, op.getResult());
      Value quotient = arith::DivFOp::create(b, loc, scaled, op.getRhs());
      s.addCotangent(op.getRhs(), arith::NegFOp::create(b, loc, quotient));
    }
  }
};

/// d(-a) = -dr
struct NegFAdjoint : ElementwiseAdjoint<NegFAdjoint, arith::NegFOp> {
  void adjoint(OpBuilder &b, Location loc, arith::NegFOp op, Value dr,
               AdjointState &s) const {
    s.addCotangent(op.getOperand(), arith::NegFOp::create(b, loc, dr));
  }
};

/// max(a, b) / min(a, b): dr to the operand chosen, dr / 2 to each on a tie.
template <typename OpTy, arith::CmpFPredicate Chooses>
struct ExtremumAdjoint
    : ElementwiseAdjoint<ExtremumAdjoint<OpTy, Chooses>, OpTy> {
  void adjoint(OpBuilder &b, Location loc, OpTy op, Value dr,
               AdjointState &s) const {
    Value lhs = op.getLhs(), rhs = op.getRhs();
    Value chosen = arith::CmpFOp::create(b, loc, Chooses, lhs, rhs);
    Value tie =
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, lhs, rhs);
    Value half =
        arith::MulFOp::create(b, loc, dr, buildConstantLike(b, loc, dr, 0.5));
    Value zero = buildConstantLike(b, loc, dr, 0.0);
    Value toLhs = arith::SelectOp::create(
        b, loc, chosen, dr, arith::SelectOp::create(b, loc, tie, half, zero));
    s.addCotangent(lhs, toLhs);
    if (s.isActive(rhs))
      s.addCotangent(rhs, arith::SubFOp::create(b, loc, dr, toLhs));
  }
};

/// select(c, a, b): (select(c, dr, 0), select(c, 0, dr))
struct SelectAdjoint : ElementwiseAdjoint<SelectAdjoint, arith::SelectOp> {
  void adjoint(OpBuilder &b, Location loc, arith::SelectOp op, Value dr,
               AdjointState &s) const {
    Value zero = buildConstantLike(b, loc, dr, 0.0);
    Value c = op.getCondition();
    if (s.isActive(op.getTrueValue()))
      s.addCotangent(op.getTrueValue(),
                     arith::SelectOp::create(b, loc, c, dr, zero));
    if (s.isActive(op.getFalseValue()))
      s.addCotangent(op.getFalseValue(),
                     arith::SelectOp::create(b, loc, c, zero, dr));
  }
};

/// A widening / narrowing cast: the cotangent is cast back.
template <typename OpTy, typename BackTy>
struct CastAdjoint : ElementwiseAdjoint<CastAdjoint<OpTy, BackTy>, OpTy> {
  void adjoint(OpBuilder &b, Location loc, OpTy op, Value dr,
               AdjointState &s) const {
    Value in = op.getIn();
    s.addCotangent(in, BackTy::create(b, loc, in.getType(), dr));
  }
};

} // namespace

void mlir::amp::autodiff::registerArithAutodiffExternalModels(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, arith::ArithDialect *) {
    using arith::CmpFPredicate;
    arith::AddFOp::attachInterface<AddFAdjoint>(*ctx);
    arith::SubFOp::attachInterface<SubFAdjoint>(*ctx);
    arith::MulFOp::attachInterface<MulFAdjoint>(*ctx);
    arith::DivFOp::attachInterface<DivFAdjoint>(*ctx);
    arith::NegFOp::attachInterface<NegFAdjoint>(*ctx);
    arith::MaximumFOp::attachInterface<
        ExtremumAdjoint<arith::MaximumFOp, CmpFPredicate::OGT>>(*ctx);
    arith::MaxNumFOp::attachInterface<
        ExtremumAdjoint<arith::MaxNumFOp, CmpFPredicate::OGT>>(*ctx);
    arith::MinimumFOp::attachInterface<
        ExtremumAdjoint<arith::MinimumFOp, CmpFPredicate::OLT>>(*ctx);
    arith::MinNumFOp::attachInterface<
        ExtremumAdjoint<arith::MinNumFOp, CmpFPredicate::OLT>>(*ctx);
    arith::SelectOp::attachInterface<SelectAdjoint>(*ctx);
    arith::ExtFOp::attachInterface<CastAdjoint<arith::ExtFOp, arith::TruncFOp>>(
        *ctx);
    arith::TruncFOp::attachInterface<
        CastAdjoint<arith::TruncFOp, arith::ExtFOp>>(*ctx);
  });
}
