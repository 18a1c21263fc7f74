//===- CPUFuseElementwise.cpp - amp-cpu-fuse-elementwise ------------------===//
//
// Producer-consumer fusion of the elementwise linalg ops of a step on
// tensors (upstream's elementwise-op fusion), steered so that the
// contractions stay in the form amp-cpu-tile-contractions recognizes. See
// the pass description in Passes.td.
//
//===----------------------------------------------------------------------===//

#include "amp/Analysis/Contraction.h"
#include "amp/CPU/Passes.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::amp {
#define GEN_PASS_DEF_CPUFUSEELEMENTWISE
#include "amp/CPU/Passes.h.inc"
} // namespace mlir::amp

using namespace mlir;
using namespace mlir::amp;

/// Fuse `fused` (a producer's result read by a consumer generic) when the
/// consumer is not contraction-like and, for a reduction consumer, the
/// producer has no other use (its result would otherwise be written from
/// inside the reduction loops).
static bool shouldFuse(OpOperand *fused) {
  auto consumer = dyn_cast<linalg::GenericOp>(fused->getOwner());
  auto producer = fused->get().getDefiningOp<linalg::GenericOp>();
  if (!consumer || !producer)
    return false;
  if (consumer.getNumReductionLoops() == 0)
    return true;
  return !isContractionLike(consumer) && producer->hasOneUse();
}

/// Whether result `r` of `op` is elementwise: its output is indexed by a
/// permutation of all loops and the value it yields reads no output block
/// argument (so no reduction loop reduces into it). The unscaled gradients
/// of the lowered unscale-and-check are such results of a reduction (the
/// found-inf flag).
static bool isElementwiseResult(linalg::GenericOp op, unsigned r) {
  OpOperand *init = op.getDpsInitOperand(r);
  if (!op.getMatchingIndexingMap(init).isPermutation() ||
      !op.getMatchingBlockArgument(init).use_empty())
    return false;
  auto yield = cast<linalg::YieldOp>(op.getBody()->getTerminator());
  SetVector<Operation *> slice;
  BackwardSliceOptions options;
  options.omitBlockArguments = false;
  Value v = yield.getValues()[r];
  auto readsOutput = [&](Value x) {
    auto arg = dyn_cast<BlockArgument>(x);
    return arg && arg.getOwner() == op.getBody() &&
           arg.getArgNumber() >= op.getNumDpsInputs();
  };
  if (readsOutput(v))
    return false;
  if (Operation *def = v.getDefiningOp()) {
    if (def->getBlock() != op.getBody())
      return true; // defined above: reads nothing of the op
    (void)getBackwardSlice(def, &slice, options);
    slice.insert(def);
    for (Operation *s : slice)
      if (s->getBlock() == op.getBody() &&
          llvm::any_of(s->getOperands(), readsOutput))
        return false;
  }
  return true;
}

/// The attribute that marks the elementwise halves splitElementwiseResults
/// makes, for the unscale-only fusion (removed by the pass).
static constexpr llvm::StringLiteral kSplitHalf = "amp.cpu_split_elementwise";

/// Splits every generic with reduction loops that also has elementwise
/// results (isElementwiseResult) into an all-parallel generic computing
/// those (marked kSplitHalf) and a generic computing the rest, both from the
/// same inputs with the same body (each keeps what it yields). The
/// elementwise half can then be fused into its consumers: the unscaled
/// gradients go straight into the optimizer update instead of through
/// memory, and the check only reads.
static void splitElementwiseResults(func::FuncOp func) {
  SmallVector<linalg::GenericOp> candidates;
  func.walk([&](linalg::GenericOp op) {
    // (Bodies with regions are left alone: the slices below do not look
    // into nested regions.)
    if (op.hasPureTensorSemantics() && op.getNumReductionLoops() > 0 &&
        op.getNumDpsInits() > 1 &&
        llvm::all_of(op.getBody()->getOperations(), [](Operation &inner) {
          return inner.getNumRegions() == 0;
        }))
      candidates.push_back(op);
  });
  IRRewriter rewriter(func.getContext());
  for (linalg::GenericOp op : candidates) {
    SmallVector<unsigned> elementwise, rest;
    // Only where every reader of the elementwise half can take it in
    // (all-parallel generics): otherwise the split reads the inputs twice.
    auto fusableUses = [&](Value v) {
      return llvm::all_of(v.getUsers(), [](Operation *user) {
        auto g = dyn_cast<linalg::GenericOp>(user);
        return g && g.getNumReductionLoops() == 0;
      });
    };
    for (unsigned r = 0; r < op.getNumDpsInits(); ++r)
      (isElementwiseResult(op, r) && fusableUses(op.getResult(r)) ? elementwise
                                                                  : rest)
          .push_back(r);
    if (elementwise.empty() || rest.empty())
      continue;
    rewriter.setInsertionPoint(op);
    auto part = [&](ArrayRef<unsigned> results, bool parallel) {
      SmallVector<Value> inits;
      SmallVector<Type> types;
      SmallVector<AffineMap> maps;
      for (OpOperand *in : op.getDpsInputOperands())
        maps.push_back(op.getMatchingIndexingMap(in));
      for (unsigned r : results) {
        inits.push_back(op.getDpsInits()[r]);
        types.push_back(op.getResult(r).getType());
        maps.push_back(op.getIndexingMapsArray()[op.getNumDpsInputs() + r]);
      }
      SmallVector<utils::IteratorType> iterators =
          parallel ? SmallVector<utils::IteratorType>(
                         op.getNumLoops(), utils::IteratorType::parallel)
                   : op.getIteratorTypesArray();
      auto split =
          linalg::GenericOp::create(rewriter, op.getLoc(), types,
                                    op.getDpsInputs(), inits, maps, iterators);
      // The body, with the block arguments of the dropped outputs removed
      // (they are unused by what this half yields, once dead code goes).
      IRMapping mapping;
      Block *body = rewriter.createBlock(&split.getRegion());
      Block *old = op.getBody();
      for (unsigned i = 0; i < op.getNumDpsInputs(); ++i)
        mapping.map(
            old->getArgument(i),
            body->addArgument(old->getArgument(i).getType(), op.getLoc()));
      for (unsigned r : results) {
        BlockArgument a = old->getArgument(op.getNumDpsInputs() + r);
        mapping.map(a, body->addArgument(a.getType(), op.getLoc()));
      }
      // Dropped outputs' arguments: not read by what is kept; any other
      // use is in ops the cleanup below erases.
      SmallVector<Value> yielded;
      auto yield = cast<linalg::YieldOp>(old->getTerminator());
      for (Operation &inner : old->without_terminator())
        if (llvm::all_of(inner.getOperands(), [&](Value v) {
              return v.getParentBlock() != old || mapping.contains(v);
            }))
          rewriter.clone(inner, mapping);
      for (unsigned r : results)
        yielded.push_back(mapping.lookupOrDefault(yield.getValues()[r]));
      linalg::YieldOp::create(rewriter, op.getLoc(), yielded);
      rewriter.setInsertionPoint(op);
      return split;
    };
    linalg::GenericOp ew = part(elementwise, /*parallel=*/true);
    ew->setAttr(kSplitHalf, rewriter.getUnitAttr());
    linalg::GenericOp red = part(rest, /*parallel=*/false);
    SmallVector<Value> replacements(op.getNumResults());
    for (auto [i, r] : llvm::enumerate(elementwise))
      replacements[r] = ew.getResult(i);
    for (auto [i, r] : llvm::enumerate(rest))
      replacements[r] = red.getResult(i);
    rewriter.replaceOp(op, replacements);
  }
}

namespace {
struct CPUFuseElementwisePass
    : amp::impl::CPUFuseElementwiseBase<CPUFuseElementwisePass> {
  using Base::Base;
  void runOnOperation() override {
    splitElementwiseResults(getOperation());
    RewritePatternSet patterns(&getContext());
    linalg::ControlFusionFn control = shouldFuse;
    if (unscaleOnly)
      // Only the split-off elementwise halves, into their (all-parallel)
      // readers.
      control = [](OpOperand *fused) {
        auto producer = fused->get().getDefiningOp<linalg::GenericOp>();
        return producer && producer->hasAttr(kSplitHalf) && shouldFuse(fused);
      };
    linalg::populateElementwiseOpsFusionPatterns(patterns, control);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns)))) {
      emitError(getOperation().getLoc(),
                "amp-cpu-fuse-elementwise: the fusion did not converge");
      return signalPassFailure();
    }
    getOperation().walk(
        [](linalg::GenericOp op) { op->removeAttr(kSplitHalf); });
  }
};
} // namespace
