//===- SplitSharedDestinations.cpp - amp-split-shared-destinations --------===//
//
// CSE merges every `tensor.empty` of one shape, and every zero fill of one,
// into a single value; one-shot bufferization then gives that value one
// buffer, which ops far apart in the step (a forward softmax and the
// backward's gradient of it) reuse in place, so it lives from the first to
// the last. Right before bufferization this pass gives each destination
// use its own tensor.empty (and zero fill), placed before the op that
// writes it (Passes.td has the contract).
//
//===----------------------------------------------------------------------===//

#include "amp/Conversion/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::amp {
#define GEN_PASS_DEF_SPLITSHAREDDESTINATIONS
#include "amp/Conversion/Passes.h.inc"
} // namespace mlir::amp

using namespace mlir;

/// The destination uses of `value` (inits of destination-style ops) but
/// the first in program order (`order`: each op's place in a pre-order
/// walk): those get a copy of its producer.
static SmallVector<OpOperand *>
laterDestinationUses(Value value,
                     const llvm::DenseMap<Operation *, unsigned> &order) {
  SmallVector<OpOperand *> uses;
  for (OpOperand &use : value.getUses()) {
    auto dps = dyn_cast<DestinationStyleOpInterface>(use.getOwner());
    if (dps && dps.isDpsInit(&use))
      uses.push_back(&use);
  }
  llvm::sort(uses, [&](OpOperand *a, OpOperand *b) {
    return std::make_pair(order.lookup(a->getOwner()), a->getOperandNumber()) <
           std::make_pair(order.lookup(b->getOwner()), b->getOperandNumber());
  });
  if (!uses.empty() && uses.size() == value.getNumUses())
    uses.erase(uses.begin());
  return uses;
}

namespace {
struct SplitSharedDestinationsPass
    : amp::impl::SplitSharedDestinationsBase<SplitSharedDestinationsPass> {
  void runOnOperation() override {
    // A reshape of an empty tensor is an empty tensor of the new shape
    // (amp-cpu-collapse-contiguous-loops writes into collapsed views of
    // the destinations): destinations reached through reshapes become
    // direct uses.
    RewritePatternSet patterns(&getContext());
    tensor::populateFoldTensorEmptyPatterns(patterns);
    GreedyRewriteConfig config;
    config.enableFolding(false);
    config.enableConstantCSE(false);
    if (failed(
            applyPatternsGreedily(getOperation(), std::move(patterns), config)))
      return signalPassFailure();

    SmallVector<Operation *> producers;
    llvm::DenseMap<Operation *, unsigned> order;
    getOperation().walk<WalkOrder::PreOrder>([&](Operation *op) {
      order[op] = order.size();
      if (isa<tensor::EmptyOp>(op))
        producers.push_back(op);
      else if (auto fill = dyn_cast<linalg::FillOp>(op);
               fill && fill.hasPureTensorSemantics() &&
               fill.getDpsInits()[0].getDefiningOp<tensor::EmptyOp>())
        producers.push_back(op);
    });
    OpBuilder b(&getContext());
    // Fills first (their copies take a copy of the empty along), then the
    // empties, uses in order.
    std::stable_partition(
        producers.begin(), producers.end(),
        [](Operation *op) { return isa<linalg::FillOp>(op); });
    for (Operation *producer : producers) {
      Value result = producer->getResult(0);
      for (OpOperand *use : laterDestinationUses(result, order)) {
        b.setInsertionPoint(use->getOwner());
        IRMapping map;
        if (auto fill = dyn_cast<linalg::FillOp>(producer)) {
          Operation *empty = fill.getDpsInits()[0].getDefiningOp();
          map.map(empty->getResult(0), b.clone(*empty)->getResult(0));
        }
        use->set(b.clone(*producer, map)->getResult(0));
      }
    }
  }
};
} // namespace
