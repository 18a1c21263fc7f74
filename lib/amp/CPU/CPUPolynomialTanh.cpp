//===- CPUPolynomialTanh.cpp - amp-cpu-polynomial-tanh --------------------===//
//
// f32 `math.tanh` (scalars and vectors) as upstream's rational
// approximation. See the pass description in CPU/Passes.td.
//
//===----------------------------------------------------------------------===//

#include "ApproximateF32Math.h"

#include "amp/CPU/Passes.h"

#include "mlir/Dialect/Math/Transforms/Passes.h"

namespace mlir::amp {
#define GEN_PASS_DEF_CPUPOLYNOMIALTANH
#include "amp/CPU/Passes.h.inc"
} // namespace mlir::amp

using namespace mlir;
using namespace mlir::amp;

namespace {
struct CPUPolynomialTanhPass
    : amp::impl::CPUPolynomialTanhBase<CPUPolynomialTanhPass> {
  void runOnOperation() override {
    // (Upstream's pattern takes f32 alone; f16 stays with libm, computed
    // in f32 and rounded once.)
    SmallVector<Operation *> tanhs =
        collectF32Ops<math::TanhOp>(getOperation());
    if (tanhs.empty())
      return;
    RewritePatternSet patterns(&getContext());
    populatePolynomialApproximateTanhPattern(patterns);
    if (failed(applyApproximation(getOperation(), tanhs, std::move(patterns),
                                  "amp-cpu-polynomial-tanh: upstream's tanh "
                                  "approximation did not apply")))
      return signalPassFailure();
  }
};
} // namespace
