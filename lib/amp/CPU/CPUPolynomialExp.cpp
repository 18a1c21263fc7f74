//===- CPUPolynomialExp.cpp - amp-cpu-polynomial-exp
//-----------------------===//
//
// f32 `math.exp` (scalars and vectors) as upstream's polynomial
// approximation, with NaN passed through. See the pass description in
// CPU/Passes.td.
//
//===----------------------------------------------------------------------===//

#include "ApproximateF32Math.h"

#include "amp/CPU/Passes.h"

#include "mlir/Dialect/Math/Transforms/Passes.h"

namespace mlir::amp {
#define GEN_PASS_DEF_CPUPOLYNOMIALEXP
#include "amp/CPU/Passes.h.inc"
} // namespace mlir::amp

using namespace mlir;
using namespace mlir::amp;

namespace {
struct CPUPolynomialExpPass
    : amp::impl::CPUPolynomialExpBase<CPUPolynomialExpPass> {
  void runOnOperation() override {
    SmallVector<Operation *> exps = collectF32Ops<math::ExpOp>(getOperation());
    if (exps.empty())
      return;
    // exp(x) = x where x is NaN; elsewhere the approximation, which reads 0
    // instead of a NaN (its fptosi of a NaN would be poison).
    OpBuilder b(&getContext());
    for (Operation *op : exps) {
      auto exp = cast<math::ExpOp>(op);
      Location loc = exp.getLoc();
      Value x = exp.getOperand();
      b.setInsertionPoint(exp);
      Value isNaN =
          arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, x, x);
      Value zero =
          arith::ConstantOp::create(b, loc, b.getZeroAttr(x.getType()));
      Value ordered = arith::SelectOp::create(b, loc, isNaN, zero, x);
      exp.getOperandMutable().assign(ordered);
      b.setInsertionPointAfter(exp);
      auto result = arith::SelectOp::create(b, loc, isNaN, x, exp.getResult());
      exp.getResult().replaceAllUsesExcept(result, result);
    }
    RewritePatternSet patterns(&getContext());
    populateMathPolynomialApproximationPatterns(patterns, [](StringRef name) {
      // The op's name, with or without its dialect's prefix.
      name.consume_front("math.");
      return name == "exp";
    });
    if (failed(applyApproximation(getOperation(), exps, std::move(patterns),
                                  "amp-cpu-polynomial-exp: upstream's exp "
                                  "approximation did not apply")))
      return signalPassFailure();
  }
};
} // namespace
