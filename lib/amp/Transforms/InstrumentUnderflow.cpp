//===- InstrumentUnderflow.cpp - amp-instrument-underflow -----------------===//
//
// Counts, per step, how many backward values would become zero or
// subnormal when rounded to f16/bf16 while their fp32 value is not
// (Micikevicius et al. 2018, figure 3; shared REFERENCE.md, number formats).
// The backward is read from the training-step contract
// (TrainingStep::backwardValues); each f32 tensor of it at the function's
// top level gets one `amp.count_underflow`, the counts become two i64
// results with `amp.role` = "underflow_count" / "underflow_total".
//
//===----------------------------------------------------------------------===//

#include "amp/Analysis/TrainingStep.h"
#include "amp/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::amp {
#define GEN_PASS_DEF_INSTRUMENTUNDERFLOW
#include "amp/Transforms/Passes.h.inc"
} // namespace mlir::amp

using namespace mlir;
using namespace mlir::amp;

/// Adds the counts of `func`'s top-level f32 backward tensors as results.
static LogicalResult instrumentStep(func::FuncOp func, Type lowType) {
  FailureOr<TrainingStep> step = TrainingStep::analyze(func);
  if (failed(step))
    return failure();
  if (step->underflowCountResult)
    return emitError(func.getLoc(), "training step '")
           << func.getSymName()
           << "' is already instrumented (it has an \"underflow_count\" "
              "result); run amp-instrument-underflow once";
  Block &entry = func.getBody().front();
  Operation *terminator = entry.getTerminator();
  OpBuilder b(func.getContext());
  auto countType = RankedTensorType::get({}, b.getI64Type());
  Location loc = func.getLoc();
  b.setInsertionPoint(terminator);
  Value flushed = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(countType, int64_t(0)));
  Value total = flushed;
  for (Value v : step->backwardValues) {
    auto type = dyn_cast<RankedTensorType>(v.getType());
    // The seed itself (1 or S) is not a gradient value.
    if (!type || !type.getElementType().isF32() ||
        v == step->lossGrad.getResult())
      continue;
    Block *owner = isa<BlockArgument>(v) ? cast<BlockArgument>(v).getOwner()
                                         : v.getDefiningOp()->getBlock();
    if (owner != &entry)
      continue;
    // Counted right where the value is defined: the counting can fuse with
    // its producer and does not extend the value's lifetime.
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointAfterValue(v);
    auto count = CountUnderflowOp::create(b, v.getLoc(), v, lowType);
    b.setInsertionPoint(terminator);
    flushed = arith::AddIOp::create(b, loc, flushed, count.getFlushed());
    total = arith::AddIOp::create(b, loc, total, count.getNonzero());
  }
  Builder attrs(func.getContext());
  for (auto [value, role] :
       {std::pair<Value, StringRef>{flushed, kUnderflowCountRole},
        {total, kUnderflowTotalRole}}) {
    unsigned idx = func.getNumResults();
    terminator->insertOperands(terminator->getNumOperands(), {value});
    if (failed(func.insertResult(idx, countType,
                                 attrs.getDictionaryAttr(attrs.getNamedAttr(
                                     kRoleAttr, attrs.getStringAttr(role))))))
      return emitError(loc, "cannot add the ") << role << " result";
  }
  return success();
}

namespace {
struct InstrumentUnderflowPass
    : amp::impl::InstrumentUnderflowBase<InstrumentUnderflowPass> {
  using InstrumentUnderflowBase::InstrumentUnderflowBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    Builder b(&getContext());
    if (precision == Precision::F32) {
      emitError(module.getLoc(),
                "amp-instrument-underflow: precision=f32: the pass counts "
                "values that flush to zero or subnormal in f16 or bf16; "
                "choose one of them");
      return signalPassFailure();
    }
    Type lowType =
        precision == Precision::F16 ? Type(b.getF16Type()) : b.getBF16Type();
    if (failed(forEachTrainStep(
            module, "amp-instrument-underflow",
            [&](func::FuncOp func) { return instrumentStep(func, lowType); })))
      signalPassFailure();
  }
};
} // namespace
