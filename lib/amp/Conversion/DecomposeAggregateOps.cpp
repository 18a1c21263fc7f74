//===- DecomposeAggregateOps.cpp - amp-decompose-aggregate-ops ------------===//

#include "amp/Conversion/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
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
      // A softmax whose input and destination have compatible but
      // different types (a canonicalization made one of them static):
      // upstream's decomposition builds generics of both types, which do
      // not verify. Computed in the input's type, cast to the result's.
      if (auto softmax = dyn_cast<linalg::SoftmaxOp>(op.getOperation());
          softmax &&
          softmax.getInput().getType() != softmax.getOutput().getType()) {
        Location loc = softmax.getLoc();
        Type inputType = softmax.getInput().getType();
        Value init = tensor::CastOp::create(rewriter, loc, inputType,
                                            softmax.getOutput());
        auto same = linalg::SoftmaxOp::create(rewriter, loc, inputType,
                                              softmax.getInput(), init,
                                              softmax.getDimension());
        Value back = tensor::CastOp::create(rewriter, loc,
                                            softmax.getResult()[0].getType(),
                                            same.getResult()[0]);
        rewriter.replaceOp(softmax, back);
        op = cast<linalg::AggregatedOpInterface>(same.getOperation());
        rewriter.setInsertionPoint(op);
      }
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
