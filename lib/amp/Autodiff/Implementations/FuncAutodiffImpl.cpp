//===- FuncAutodiffImpl.cpp - adjoint rules of func ops -------------------===//
//
// A call is differentiated by inlining its callee into the forward
// (expandForward), so that the callee's intermediate values are kept for
// the backward like any other forward value; the callee itself stays.
//
//===----------------------------------------------------------------------===//

#include "amp/Autodiff/Implementations.h"

#include "amp/Autodiff/ReverseModeOpInterface.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace mlir::amp::autodiff;

namespace {

struct CallAdjoint
    : ReverseModeOpInterface::ExternalModel<CallAdjoint, func::CallOp> {
  FailureOr<bool> expandForward(Operation *op, RewriterBase &rewriter) const {
    auto call = cast<func::CallOp>(op);
    auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
        call, call.getCalleeAttr());
    if (!callee || callee.isDeclaration())
      return call.emitError()
             << "amp-differentiate: calls are differentiated by inlining "
                "the callee, and @"
             << call.getCallee()
             << " has no body in this module; define it in the module";
    if (!callee.getBody().hasOneBlock())
      return call.emitError()
             << "amp-differentiate: calls are differentiated by inlining "
                "the callee, and the body of @"
             << call.getCallee()
             << " has several blocks; use structured control flow (scf)";
    Block &body = callee.getBody().front();
    IRMapping mapping;
    mapping.map(body.getArguments(), call.getOperands());
    for (Operation &inner : body.without_terminator())
      rewriter.clone(inner, mapping);
    SmallVector<Value> results;
    for (Value v : body.getTerminator()->getOperands())
      results.push_back(mapping.lookupOrDefault(v));
    rewriter.replaceOp(call, results);
    return true;
  }

  LogicalResult buildAdjoint(Operation *op, OpBuilder &, AdjointState &) const {
    return op->emitError() << "amp-differentiate internal error: the call "
                              "was not inlined before the backward";
  }
};

} // namespace

void mlir::amp::autodiff::registerFuncAutodiffExternalModels(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, func::FuncDialect *) {
    func::CallOp::attachInterface<CallAdjoint>(*ctx);
  });
}
