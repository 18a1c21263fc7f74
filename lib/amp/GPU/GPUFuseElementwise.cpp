//===- GPUFuseElementwise.cpp - amp-gpu-fuse-elementwise ------------------===//
//
// Upstream's elementwise fusion on tensors (the patterns of
// `linalg-fuse-elementwise-ops`, producers with one use), except into
// contractions, which keep the body that the Tensor Core rewrite matches.
// See the pass description in Passes.td.
//
//===----------------------------------------------------------------------===//

#include "amp/Analysis/Contraction.h"
#include "amp/GPU/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::amp {
#define GEN_PASS_DEF_GPUFUSEELEMENTWISE
#include "amp/GPU/Passes.h.inc"
} // namespace mlir::amp

using namespace mlir;
using namespace mlir::amp;

/// `op` is a linalg op shaped like a contraction (a generic, or a named op
/// such as linalg.matmul, which is generalized later).
static bool isContraction(Operation *op) {
  auto linalgOp = dyn_cast_or_null<linalg::LinalgOp>(op);
  return linalgOp && isContractionLike(linalgOp);
}

/// Upstream's rule (the producer of `fused` has no other use), unless the
/// fusion would change a contraction: fuse a producer into it (the owner of
/// `fused`) or expand its loops to fold a reshape of its result (the
/// producer).
static bool shouldFuse(OpOperand *fused) {
  Operation *producer = fused->get().getDefiningOp();
  return producer && producer->hasOneUse() &&
         !isContraction(fused->getOwner()) && !isContraction(producer);
}

namespace {
struct GPUFuseElementwisePass
    : amp::impl::GPUFuseElementwiseBase<GPUFuseElementwisePass> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    RewritePatternSet patterns(ctx);
    linalg::populateElementwiseOpsFusionPatterns(patterns, shouldFuse);
    linalg::populateFoldReshapeOpsByExpansionPatterns(patterns, shouldFuse);
    tensor::populateBubbleUpExpandShapePatterns(patterns);
    affine::AffineApplyOp::getCanonicalizationPatterns(patterns, ctx);
    linalg::GenericOp::getCanonicalizationPatterns(patterns, ctx);
    tensor::ExpandShapeOp::getCanonicalizationPatterns(patterns, ctx);
    tensor::CollapseShapeOp::getCanonicalizationPatterns(patterns, ctx);
    ctx->getLoadedDialect<linalg::LinalgDialect>()->getCanonicalizationPatterns(
        patterns);
    linalg::populateConstantFoldLinalgOperations(patterns, shouldFuse);
    // Top-down, as upstream's pass (compile time). As there, a rewrite that
    // stops before a fixed point is not an error: every pattern leaves
    // valid IR, with fewer fusions.
    (void)applyPatternsGreedily(getOperation(), std::move(patterns),
                                GreedyRewriteConfig().setUseTopDownTraversal());
  }
};
} // namespace
