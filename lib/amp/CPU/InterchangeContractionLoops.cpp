//===- InterchangeContractionLoops.cpp - CPU loop order for contractions --===//

#include "amp/CPU/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::amp {
#define GEN_PASS_DEF_INTERCHANGECONTRACTIONLOOPS
#include "amp/CPU/Passes.h.inc"
} // namespace mlir::amp

using namespace mlir;
using namespace mlir::amp;

/// The loop permutation that puts the single reduction loop second to last
/// and, innermost, the parallel loop that is the fastest-varying dimension of
/// the most operands (unit stride for the vectorizer). Empty if the op has
/// no parallel loop or not exactly one reduction loop.
static SmallVector<unsigned> chooseInterchange(linalg::LinalgOp op) {
  SmallVector<utils::IteratorType> iters = op.getIteratorTypesArray();
  SmallVector<unsigned> parallel;
  std::optional<unsigned> reduction;
  for (auto [i, it] : llvm::enumerate(iters)) {
    if (it == utils::IteratorType::parallel)
      parallel.push_back(i);
    else if (reduction)
      return {};
    else
      reduction = i;
  }
  if (!reduction || parallel.empty())
    return {};
  SmallVector<int> score(iters.size(), 0);
  for (AffineMap map : op.getIndexingMapsArray()) {
    if (map.getNumResults() == 0)
      continue;
    if (auto dim = dyn_cast<AffineDimExpr>(map.getResults().back()))
      ++score[dim.getPosition()];
  }
  unsigned inner = parallel.back();
  for (unsigned p : parallel)
    if (score[p] > score[inner])
      inner = p;
  SmallVector<unsigned> order;
  for (unsigned p : parallel)
    if (p != inner)
      order.push_back(p);
  order.push_back(*reduction);
  order.push_back(inner);
  return order;
}

namespace {
struct InterchangeContractionLoopsPass
    : amp::impl::InterchangeContractionLoopsBase<
          InterchangeContractionLoopsPass> {
  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> contractions;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (linalg::isaContractionOpInterface(op))
        contractions.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : contractions) {
      SmallVector<unsigned> order = chooseInterchange(op);
      if (order.empty() || llvm::is_sorted(order))
        continue;
      rewriter.setInsertionPoint(op);
      auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
      if (!generic) {
        FailureOr<linalg::GenericOp> g =
            linalg::generalizeNamedOp(rewriter, op);
        if (failed(g))
          continue;
        generic = *g;
      }
      (void)linalg::interchangeGenericOp(rewriter, generic, order);
    }
  }
};

} // namespace
