//===- SCFAutodiffImpl.cpp - adjoint rules of scf ops ---------------------===//
//
// scf.for with a constant trip count is unrolled into the forward
// (expandForward), so every iteration's values are kept for the backward;
// other loops are located errors. scf.if gets a backward scf.if on the same
// condition whose branches recompute their forward branch (the values
// defined inside a branch are not visible after it) and differentiate it,
// yielding the cotangents of the values the branches read from outside.
//
//===----------------------------------------------------------------------===//

#include "amp/Autodiff/Implementations.h"

#include "amp/Autodiff/AdjointBuilders.h"
#include "amp/Autodiff/Differentiate.h"
#include "amp/Autodiff/ReverseModeOpInterface.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::amp::autodiff;

/// Most iterations amp-differentiate unrolls (each keeps its values live).
static constexpr int64_t kMaxUnrolledIterations = 4096;

namespace {

struct ForAdjoint
    : ReverseModeOpInterface::ExternalModel<ForAdjoint, scf::ForOp> {
  FailureOr<bool> expandForward(Operation *op, RewriterBase &rewriter) const {
    auto loop = cast<scf::ForOp>(op);
    std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound()),
                           ub = getConstantIntValue(loop.getUpperBound()),
                           step = getConstantIntValue(loop.getStep());
    if (!lb || !ub || !step || *step <= 0)
      return loop.emitError()
             << "amp-differentiate: this scf.for has no constant trip count; "
                "loops are differentiated by unrolling them, which needs "
                "constant bounds and a positive constant step";
    int64_t trips = *ub > *lb ? (*ub - *lb + *step - 1) / *step : 0;
    if (trips > kMaxUnrolledIterations)
      return loop.emitError()
             << "amp-differentiate: this scf.for runs " << trips
             << " iterations; loops are differentiated by unrolling them, "
                "up to "
             << kMaxUnrolledIterations << " iterations";
    Block *body = loop.getBody();
    SmallVector<Value> carried(loop.getInitArgs());
    Type ivType = loop.getInductionVar().getType();
    for (int64_t i = 0; i < trips; ++i) {
      IRMapping mapping;
      Value iv = arith::ConstantOp::create(
          rewriter, loop.getLoc(),
          rewriter.getIntegerAttr(ivType, *lb + i * *step));
      mapping.map(loop.getInductionVar(), iv);
      mapping.map(loop.getRegionIterArgs(), carried);
      for (Operation &inner : body->without_terminator())
        rewriter.clone(inner, mapping);
      for (auto [k, v] : llvm::enumerate(body->getTerminator()->getOperands()))
        carried[k] = mapping.lookupOrDefault(v);
    }
    rewriter.replaceOp(loop, carried);
    return true;
  }

  LogicalResult buildAdjoint(Operation *op, OpBuilder &, AdjointState &) const {
    return op->emitError() << "amp-differentiate internal error: the loop "
                              "was not unrolled before the backward";
  }
};

struct IfAdjoint : ReverseModeOpInterface::ExternalModel<IfAdjoint, scf::IfOp> {
  LogicalResult buildAdjoint(Operation *op, OpBuilder &b,
                             AdjointState &state) const {
    auto ifOp = cast<scf::IfOp>(op);
    Location loc = ifOp.getLoc();
    llvm::SetVector<Value> captured;
    getUsedValuesDefinedAbove(ifOp->getRegions(), captured);
    SmallVector<Value> targets;
    for (Value v : captured)
      if (state.isActive(v))
        targets.push_back(v);
    if (targets.empty())
      return success();
    SmallVector<Value> cotangents;
    for (Value r : ifOp.getResults())
      cotangents.push_back(state.isActive(r) ? state.getCotangent(b, r)
                                             : Value());
    SmallVector<Type> types =
        llvm::map_to_vector(targets, [](Value v) { return v.getType(); });
    auto backward = scf::IfOp::create(b, loc, types, ifOp.getCondition(),
                                      /*withElseRegion=*/true);
    for (auto [forward, reverse] :
         llvm::zip_equal(ifOp->getRegions(), backward->getRegions())) {
      Block *block = &reverse.front();
      OpBuilder nb = OpBuilder::atBlockEnd(block);
      // An scf.if without else yields nothing: its backward else is zeros.
      SmallVector<Operation *> clones;
      SmallVector<std::pair<Value, Value>> seeds;
      if (!forward.empty()) {
        IRMapping mapping;
        for (Operation &inner : forward.front().without_terminator())
          clones.push_back(nb.clone(inner, mapping));
        for (auto [v, dr] : llvm::zip_equal(
                 forward.front().getTerminator()->getOperands(), cotangents))
          if (dr)
            seeds.push_back({mapping.lookupOrDefault(v), dr});
      }
      SmallVector<Value> sinks = llvm::map_to_vector(
          seeds, [](const std::pair<Value, Value> &s) { return s.first; });
      AdjointState branch(Activity::compute(clones, targets, sinks));
      for (auto [v, dr] : seeds)
        branch.addCotangent(v, dr);
      if (failed(buildAdjoints(nb, clones, branch)))
        return failure();
      SmallVector<Value> yields = llvm::map_to_vector(
          targets, [&](Value t) { return branch.getCotangentOrZeros(nb, t); });
      scf::YieldOp::create(nb, loc, yields);
      eraseDeadOps(*block);
    }
    for (auto [t, g] : llvm::zip_equal(targets, backward.getResults()))
      state.addCotangent(t, g);
    return success();
  }
};

} // namespace

void mlir::amp::autodiff::registerSCFAutodiffExternalModels(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, scf::SCFDialect *) {
    scf::ForOp::attachInterface<ForAdjoint>(*ctx);
    scf::IfOp::attachInterface<IfAdjoint>(*ctx);
  });
}
