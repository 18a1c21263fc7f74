//===- GradientFunction.cpp - @f_grad = (loss, gradients) of @f -----------===//

#include "amp/Autodiff/Differentiate.h"

#include "amp/Autodiff/Activity.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/SmallSet.h"

using namespace mlir;
using namespace mlir::amp::autodiff;

/// Located errors for everything about `fn` and `wrtArgs` that
/// buildGradientFunction rejects before it copies anything.
static LogicalResult checkSignature(func::FuncOp fn, ArrayRef<unsigned> wrtArgs,
                                    StringRef gradName) {
  if (fn.isDeclaration())
    return emitError(fn.getLoc()) << "amp-differentiate: @" << fn.getSymName()
                                  << " is a declaration; there is no body to "
                                     "differentiate";
  if (!fn.getBody().hasOneBlock())
    return emitError(fn.getLoc())
           << "amp-differentiate: the body of @" << fn.getSymName() << " has "
           << fn.getBody().getBlocks().size()
           << " blocks; only single-block bodies (structured "
              "control flow: scf.if, scf.for) are "
              "differentiated";
  FunctionType type = fn.getFunctionType();
  auto loss = type.getNumResults() == 1
                  ? dyn_cast<RankedTensorType>(type.getResult(0))
                  : RankedTensorType();
  if (!loss || loss.getRank() != 0 || !isa<FloatType>(loss.getElementType()))
    return emitError(fn.getLoc())
           << "amp-differentiate: @" << fn.getSymName() << " returns "
           << type.getResults()
           << "; it must return one scalar float tensor (the "
              "loss: tensor<f32> or tensor<f64>)";
  llvm::SmallSet<unsigned, 8> seen;
  for (unsigned i : wrtArgs) {
    if (i >= type.getNumInputs())
      return emitError(fn.getLoc())
             << "amp-differentiate: wrt index " << i << " is out of range: @"
             << fn.getSymName() << " has " << type.getNumInputs()
             << " arguments";
    if (!seen.insert(i).second)
      return emitError(fn.getLoc())
             << "amp-differentiate: wrt index " << i << " is listed twice";
    if (!isDifferentiableType(type.getInput(i)))
      return emitError(fn.getLoc())
             << "amp-differentiate: argument #" << i << " of @"
             << fn.getSymName() << " has type " << type.getInput(i)
             << "; only float tensors and float scalars have gradients";
  }
  if (SymbolTable::lookupNearestSymbolFrom(
          fn, StringAttr::get(fn.getContext(), gradName)))
    return emitError(fn.getLoc()) << "amp-differentiate: cannot create @"
                                  << gradName << " for the gradient of @"
                                  << fn.getSymName() << ": the symbol exists";
  return success();
}

FailureOr<func::FuncOp> mlir::amp::autodiff::buildGradientFunction(
    func::FuncOp fn, ArrayRef<unsigned> wrtArgs, StringRef gradName) {
  if (failed(checkSignature(fn, wrtArgs, gradName)))
    return failure();
  OpBuilder builder(fn);
  builder.setInsertionPointAfter(fn);
  auto grad = cast<func::FuncOp>(builder.clone(*fn));
  grad.setSymName(gradName);

  Block &body = grad.getBody().front();
  Operation *ret = body.getTerminator();
  builder.setInsertionPoint(ret);
  Value loss = ret->getOperand(0);
  auto lossType = cast<RankedTensorType>(loss.getType());
  Value seed = arith::ConstantOp::create(
      builder, fn.getLoc(),
      DenseElementsAttr::get(
          lossType, builder.getFloatAttr(lossType.getElementType(), 1.0)));
  SmallVector<Value> wrt;
  for (unsigned i : wrtArgs)
    wrt.push_back(body.getArgument(i));
  FailureOr<SmallVector<Value>> gradients =
      differentiate(builder, loss, seed, wrt);
  if (failed(gradients)) {
    grad.erase();
    return failure();
  }

  // The loss may have been replaced while the forward was expanded; the
  // return still holds the current one.
  SmallVector<Value> results = {ret->getOperand(0)};
  llvm::append_range(results, *gradients);
  func::ReturnOp::create(builder, ret->getLoc(), results);
  ret->erase();
  // A loss that does not depend on the arguments leaves the seed unused (a
  // gradient may also be the seed itself: loss = a + b).
  if (seed.use_empty())
    seed.getDefiningOp()->erase();
  grad.setFunctionType(builder.getFunctionType(grad.getArgumentTypes(),
                                               ValueRange(results).getTypes()));
  SmallVector<DictionaryAttr> resultAttrs(results.size(),
                                          builder.getDictionaryAttr({}));
  resultAttrs[0] = fn.getResultAttrDict(0);
  if (!resultAttrs[0])
    resultAttrs[0] = builder.getDictionaryAttr({});
  grad.setAllResultAttrs(resultAttrs);
  return grad;
}
