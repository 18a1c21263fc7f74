//===- ApproximateF32Math.h - shared by the CPU's math approximations -----===//
//
// What amp-cpu-polynomial-exp and amp-cpu-polynomial-erf share: which ops
// upstream's approximation patterns can take, and applying them to exactly
// those ops.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_LIB_CPU_APPROXIMATEF32MATH_H
#define AMP_LIB_CPU_APPROXIMATEF32MATH_H

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::amp {

/// The ops of type `OpTy` under `root` whose result is f32 or a fixed-size
/// vector of f32 (upstream's patterns would build scalar constants for a
/// tensor or a scalable vector), in walk order.
template <typename OpTy>
SmallVector<Operation *> collectF32Ops(Operation *root) {
  SmallVector<Operation *> ops;
  root->walk([&](OpTy op) {
    Type type = op->getResult(0).getType();
    auto vector = dyn_cast<VectorType>(type);
    if (vector ? vector.getElementType().isF32() && !vector.isScalable()
               : type.isF32())
      ops.push_back(op);
  });
  return ops;
}

/// Applies `patterns` to `ops` alone (greedy, existing ops only). Errors,
/// at `root`, with `message` when the patterns changed nothing: upstream
/// refused an op these passes chose (a bug).
inline LogicalResult applyApproximation(Operation *root,
                                        ArrayRef<Operation *> ops,
                                        RewritePatternSet &&patterns,
                                        StringRef message) {
  GreedyRewriteConfig config;
  config.setStrictness(GreedyRewriteStrictness::ExistingOps);
  bool changed = false;
  if (failed(applyOpPatternsGreedily(ops, std::move(patterns), config,
                                     &changed)) ||
      !changed)
    return emitError(root->getLoc(), message);
  return success();
}

} // namespace mlir::amp

#endif // AMP_LIB_CPU_APPROXIMATEF32MATH_H
