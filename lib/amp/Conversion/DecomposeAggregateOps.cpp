//===- DecomposeAggregateOps.cpp - amp-decompose-aggregate-ops ------------===//

#include "amp/Conversion/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::amp {
#define GEN_PASS_DEF_DECOMPOSEAGGREGATEOPS
#include "amp/Conversion/Passes.h.inc"
} // namespace mlir::amp

using namespace mlir;

namespace {
struct DecomposeAggregateOpsPass
    : amp::impl::DecomposeAggregateOpsBase<DecomposeAggregateOpsPass> {
  void runOnOperation() override {
    SmallVector<linalg::AggregatedOpInterface> ops;
    getOperation().walk(
        [&](linalg::AggregatedOpInterface op) { ops.push_back(op); });
    IRRewriter rewriter(&getContext());
    for (linalg::AggregatedOpInterface op : ops) {
      rewriter.setInsertionPoint(op);
      FailureOr<SmallVector<Value>> values = op.decomposeOperation(rewriter);
      if (failed(values)) {
        op->emitError("cannot decompose this aggregate op for the CPU "
                      "lowering");
        return signalPassFailure();
      }
      rewriter.replaceOp(op, *values);
    }
  }
};
} // namespace
