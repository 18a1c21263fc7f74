//===- ElementwiseAdjoint.h - base of elementwise adjoint rules -*- C++ -*-===//
//
// The external-model base of ops with one result that act elementwise on
// scalars and on tensors alike (arith, math): the rule receives the result's
// cotangent and builds the operands' contributions with ops of the same
// shape, so the same rule differentiates a linalg.generic body and a
// tensor-level op. Internal to the arith and math models.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_AUTODIFF_IMPLEMENTATIONS_ELEMENTWISEADJOINT_H
#define AMP_AUTODIFF_IMPLEMENTATIONS_ELEMENTWISEADJOINT_H

#include "amp/Autodiff/AdjointBuilders.h"
#include "amp/Autodiff/ReverseModeOpInterface.h"

namespace mlir::amp::autodiff {

/// `Rule` provides
///   void adjoint(OpBuilder &, Location, OpTy, Value dr, AdjointState &)
/// which adds d(result)/d(operand) * dr to every active operand.
template <typename Rule, typename OpTy>
struct ElementwiseAdjoint : ReverseModeOpInterface::ExternalModel<Rule, OpTy> {
  LogicalResult buildAdjoint(Operation *op, OpBuilder &builder,
                             AdjointState &state) const {
    Value dr = state.getCotangent(builder, op->getResult(0));
    if (dr)
      static_cast<const Rule *>(this)->adjoint(builder, op->getLoc(),
                                               cast<OpTy>(op), dr, state);
    return success();
  }
};

} // namespace mlir::amp::autodiff

#endif // AMP_AUTODIFF_IMPLEMENTATIONS_ELEMENTWISEADJOINT_H
