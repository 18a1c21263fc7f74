//===- CPUPolynomialErf.cpp - amp-cpu-polynomial-erf ----------------------===//
//
// f32 `math.erf` (scalars and vectors) as upstream's rational
// approximation, the sign of zero kept. See the pass description in
// CPU/Passes.td.
//
//===----------------------------------------------------------------------===//

#include "amp/CPU/Passes.h"

#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::amp {
#define GEN_PASS_DEF_CPUPOLYNOMIALERF
#include "amp/CPU/Passes.h.inc"
} // namespace mlir::amp

using namespace mlir;

namespace {
struct CPUPolynomialErfPass
    : amp::impl::CPUPolynomialErfBase<CPUPolynomialErfPass> {
  void runOnOperation() override {
    // f32 scalars and fixed-size vectors (upstream's pattern would build
    // scalar constants for a tensor or a scalable vector; it also takes
    // f16, which stays with libm here: computed in f32 and rounded once).
    SmallVector<Operation *> erfs;
    getOperation()->walk([&](math::ErfOp erf) {
      Type type = erf.getType();
      auto vector = dyn_cast<VectorType>(type);
      if (vector ? vector.getElementType().isF32() && !vector.isScalable()
                 : type.isF32())
        erfs.push_back(erf);
    });
    if (erfs.empty())
      return;
    // erf(-0) = -0: the approximation gives +0 there (its sign test is
    // x < 0), and x's sign is the result's everywhere else (erf is odd).
    OpBuilder b(&getContext());
    for (Operation *erf : erfs) {
      b.setInsertionPointAfter(erf);
      Value result = erf->getResult(0);
      auto withSign = math::CopySignOp::create(b, erf->getLoc(), result,
                                               erf->getOperand(0));
      result.replaceAllUsesExcept(withSign, withSign);
    }
    RewritePatternSet patterns(&getContext());
    populatePolynomialApproximateErfPattern(patterns);
    GreedyRewriteConfig config;
    config.setStrictness(GreedyRewriteStrictness::ExistingOps);
    bool changed = false;
    if (failed(applyOpPatternsGreedily(erfs, std::move(patterns), config,
                                       &changed)) ||
        !changed) {
      emitError(getOperation()->getLoc(),
                "amp-cpu-polynomial-erf: upstream's erf approximation did "
                "not apply");
      return signalPassFailure();
    }
  }
};
} // namespace
