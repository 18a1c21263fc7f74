//===- CPUPolynomialErf.cpp - amp-cpu-polynomial-erf ----------------------===//
//
// f32 `math.erf` (scalars and vectors) as upstream's rational
// approximation, the sign of zero kept. See the pass description in
// CPU/Passes.td.
//
//===----------------------------------------------------------------------===//

#include "ApproximateF32Math.h"

#include "amp/CPU/Passes.h"

#include "mlir/Dialect/Math/Transforms/Passes.h"

namespace mlir::amp {
#define GEN_PASS_DEF_CPUPOLYNOMIALERF
#include "amp/CPU/Passes.h.inc"
} // namespace mlir::amp

using namespace mlir;
using namespace mlir::amp;

namespace {
struct CPUPolynomialErfPass
    : amp::impl::CPUPolynomialErfBase<CPUPolynomialErfPass> {
  void runOnOperation() override {
    // (Upstream's pattern also takes f16, which stays with libm here:
    // computed in f32 and rounded once.)
    SmallVector<Operation *> erfs = collectF32Ops<math::ErfOp>(getOperation());
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
    if (failed(applyApproximation(getOperation(), erfs, std::move(patterns),
                                  "amp-cpu-polynomial-erf: upstream's erf "
                                  "approximation did not apply")))
      return signalPassFailure();
  }
};
} // namespace
