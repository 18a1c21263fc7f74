//===- CPUPolynomialExp.cpp - amp-cpu-polynomial-exp
//-----------------------===//
//
// f32 `math.exp` (scalars and vectors) as upstream's polynomial
// approximation, with NaN passed through. See the pass description in
// CPU/Passes.td.
//
//===----------------------------------------------------------------------===//

#include "amp/CPU/Passes.h"

#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::amp {
#define GEN_PASS_DEF_CPUPOLYNOMIALEXP
#include "amp/CPU/Passes.h.inc"
} // namespace mlir::amp

using namespace mlir;

namespace {
struct CPUPolynomialExpPass
    : amp::impl::CPUPolynomialExpBase<CPUPolynomialExpPass> {
  void runOnOperation() override {
    SmallVector<math::ExpOp> exps;
    // f32 scalars and fixed-size vectors (upstream's pattern would build
    // scalar constants for a tensor or a scalable vector).
    getOperation()->walk([&](math::ExpOp exp) {
      Type type = exp.getType();
      auto vector = dyn_cast<VectorType>(type);
      if (vector ? vector.getElementType().isF32() && !vector.isScalable()
                 : type.isF32())
        exps.push_back(exp);
    });
    if (exps.empty())
      return;
    // exp(x) = x where x is NaN; elsewhere the approximation, which reads 0
    // instead of a NaN (its fptosi of a NaN would be poison).
    OpBuilder b(&getContext());
    SmallVector<Operation *> approximate;
    for (math::ExpOp exp : exps) {
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
      approximate.push_back(exp);
    }
    RewritePatternSet patterns(&getContext());
    populateMathPolynomialApproximationPatterns(patterns, [](StringRef name) {
      // The op's name, with or without its dialect's prefix.
      name.consume_front("math.");
      return name == "exp";
    });
    GreedyRewriteConfig config;
    config.setStrictness(GreedyRewriteStrictness::ExistingOps);
    bool changed = false;
    if (failed(applyOpPatternsGreedily(approximate, std::move(patterns), config,
                                       &changed)) ||
        !changed) {
      emitError(getOperation()->getLoc(),
                "amp-cpu-polynomial-exp: upstream's exp approximation did "
                "not apply");
      return signalPassFailure();
    }
  }
};
} // namespace
