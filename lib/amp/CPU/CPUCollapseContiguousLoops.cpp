//===- CPUCollapseContiguousLoops.cpp - amp-cpu-collapse-contiguous-loops -===//
//
// LLVM's loop vectorizer works on the innermost loop of each linalg op's
// nest. In an image model that loop is a row of 28, 14 or 7 elements, and
// with the runtime alias checks a loop over memrefs needs, its cost model
// declines to vectorize it: the elementwise ops, casts and channel
// reductions of a CNN step ran one element at a time. This pass merges the
// loops that walk contiguous memory in every operand into one (upstream's
// `linalg::collapseOpIterationDims`), so that the innermost loop is a whole
// image plane or more. See the pass description in CPU/Passes.td.
//
//===----------------------------------------------------------------------===//

#include "amp/Analysis/Contraction.h"
#include "amp/CPU/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::amp {
#define GEN_PASS_DEF_CPUCOLLAPSECONTIGUOUSLOOPS
#include "amp/CPU/Passes.h.inc"
} // namespace mlir::amp

using namespace mlir;
using namespace mlir::amp;

/// The runs of two or more consecutive loops of `op` with one iterator type
/// that every indexing map reads as consecutive results (contiguous in every
/// operand of identity layout), longest first from the outermost loop.
static SmallVector<ReassociationIndices> collapsibleRuns(linalg::GenericOp op) {
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  SmallVector<ReassociationIndices> runs;
  int64_t loops = op.getNumLoops();
  for (int64_t start = 0; start < loops;) {
    ReassociationIndices run{start};
    for (int64_t next = start + 1;
         next < loops && iterators[next] == iterators[start]; ++next) {
      ReassociationIndices longer = run;
      longer.push_back(next);
      if (!linalg::areDimSequencesPreserved(maps, {longer}))
        break;
      run = longer;
    }
    if (run.size() >= 2)
      runs.push_back(run);
    start += static_cast<int64_t>(run.size());
  }
  return runs;
}

/// An innermost loop at least this long is left as it is.
constexpr int64_t kLongLoop = 64;

namespace {
struct CPUCollapseContiguousLoopsPass
    : amp::impl::CPUCollapseContiguousLoopsBase<
          CPUCollapseContiguousLoopsPass> {
  void runOnOperation() override {
    SmallVector<std::pair<linalg::GenericOp, SmallVector<ReassociationIndices>>>
        work;
    getOperation().walk([&](linalg::GenericOp op) {
      // On tensors (the reshapes are then views after bufferization); not
      // the contractions, whose loops the micro-kernels match; not bodies
      // that read loop indices (they would be delinearized per element).
      if (!op.hasPureTensorSemantics() || isContractionLike(op) ||
          !op.getBody()->getOps<linalg::IndexOp>().empty())
        return;
      // Plain dimensions only (areDimSequencesPreserved does not look into
      // a window's `oh + kh`).
      if (!llvm::all_of(op.getIndexingMapsArray(), [](AffineMap map) {
            return map.isProjectedPermutation();
          }))
        return;
      if (llvm::any_of(op->getOperandTypes(), [](Type t) {
            auto shaped = dyn_cast<RankedTensorType>(t);
            return shaped && !shaped.hasStaticShape();
          }))
        return;
      // Only where the innermost loop is short (a row of an image); a
      // longer one vectorizes as it is.
      if (op.getNumLoops() < 2 || op.getStaticLoopRanges().back() >= kLongLoop)
        return;
      // Not a result of the function or of a region (the skip-update
      // region's new parameters): its expanded view would cost a copy into
      // the out-parameter that the op now writes directly.
      if (llvm::any_of(op->getUsers(), [](Operation *user) {
            return user->hasTrait<OpTrait::IsTerminator>();
          }))
        return;
      SmallVector<ReassociationIndices> runs = collapsibleRuns(op);
      if (!runs.empty())
        work.push_back({op, runs});
    });
    IRRewriter rewriter(&getContext());
    for (auto &[op, runs] : work) {
      rewriter.setInsertionPoint(op);
      FailureOr<linalg::CollapseResult> collapsed =
          linalg::collapseOpIterationDims(op, runs, rewriter);
      if (succeeded(collapsed))
        rewriter.replaceOp(op, collapsed->results);
    }
  }
};
} // namespace
