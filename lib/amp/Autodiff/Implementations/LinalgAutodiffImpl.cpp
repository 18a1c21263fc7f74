//===- LinalgAutodiffImpl.cpp - adjoint rules of linalg ops ---------------===//
//
// Every structured op gets the structured adjoint (StructuredAdjoint.h);
// max/min pooling uses the First tie rule (PyTorch's max_pool2d sends the
// cotangent to the index the forward picked), every other max/min reduction
// the Split rule (PyTorch's amax/amin). linalg.softmax has its own rule
// (PyTorch's softmax_backward_data): dx = y * (dy - sum_dim(dy * y)).
//
//===----------------------------------------------------------------------===//

#include "amp/Autodiff/Implementations.h"

#include "StructuredAdjoint.h"
#include "amp/Autodiff/AdjointBuilders.h"
#include "amp/Autodiff/ReverseModeOpInterface.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::amp::autodiff;

namespace {

template <typename OpTy> constexpr TieRule tieRuleOf() {
  using namespace linalg;
  return llvm::is_one_of<OpTy, PoolingNchwMaxOp, PoolingNcwMaxOp,
                         PoolingNdhwcMaxOp, PoolingNdhwcMinOp, PoolingNhwcMaxOp,
                         PoolingNhwcMinOp, PoolingNwcMaxOp,
                         PoolingNwcMinOp>::value
             ? TieRule::First
             : TieRule::Split;
}

template <typename OpTy>
struct StructuredOpAdjoint
    : ReverseModeOpInterface::ExternalModel<StructuredOpAdjoint<OpTy>, OpTy> {
  LogicalResult buildAdjoint(Operation *op, OpBuilder &builder,
                             AdjointState &state) const {
    return buildStructuredAdjoint(builder, cast<linalg::LinalgOp>(op),
                                  tieRuleOf<OpTy>(), state);
  }
};

/// y = softmax(x) along `dim`: dx = y * (dy - s), s = sum_dim(dy * y).
struct SoftmaxAdjoint
    : ReverseModeOpInterface::ExternalModel<SoftmaxAdjoint, linalg::SoftmaxOp> {
  LogicalResult buildAdjoint(Operation *op, OpBuilder &b,
                             AdjointState &state) const {
    auto softmax = cast<linalg::SoftmaxOp>(op);
    Value x = softmax.getInput();
    Value y = softmax.getResult()[0];
    Value dy = state.getCotangent(b, y);
    if (!dy || !state.isActive(x))
      return success();
    if (!isa<RankedTensorType>(x.getType()) || x.getType() != y.getType())
      return op->emitError()
             << "amp-differentiate: linalg.softmax on " << x.getType()
             << " is differentiated on tensors only";
    Location loc = op->getLoc();
    auto type = cast<RankedTensorType>(y.getType());
    unsigned rank = type.getRank(), dim = softmax.getDimension();
    // s[..] = sum over dim of dy * y, the reduced dimension dropped.
    SmallVector<int64_t> reducedShape;
    SmallVector<OpFoldResult> reducedSizes;
    SmallVector<AffineExpr> reducedResults;
    SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, y);
    for (unsigned d = 0; d < rank; ++d) {
      if (d == dim)
        continue;
      reducedShape.push_back(type.getDimSize(d));
      reducedSizes.push_back(sizes[d]);
      reducedResults.push_back(b.getAffineDimExpr(d));
    }
    Type elementType = type.getElementType();
    Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(elementType));
    Value init =
        buildFilled(b, loc, type.clone(reducedShape), reducedSizes, zero);
    AffineMap identity = b.getMultiDimIdentityMap(rank);
    AffineMap reduced = AffineMap::get(rank, 0, reducedResults, b.getContext());
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    iterators[dim] = utils::IteratorType::reduction;
    auto sum = linalg::GenericOp::create(
        b, loc, init.getType(), ValueRange{dy, y}, init,
        ArrayRef<AffineMap>{identity, identity, reduced}, iterators,
        [&](OpBuilder &nb, Location l, ValueRange args) {
          Value product = arith::MulFOp::create(nb, l, args[0], args[1]);
          Value sum = arith::AddFOp::create(nb, l, args[2], product);
          linalg::YieldOp::create(nb, l, sum);
        });
    iterators[dim] = utils::IteratorType::parallel;
    auto dx = linalg::GenericOp::create(
        b, loc, type, ValueRange{y, dy, sum.getResult(0)},
        buildEmptyLike(b, loc, y),
        ArrayRef<AffineMap>{identity, identity, reduced, identity}, iterators,
        [&](OpBuilder &nb, Location l, ValueRange args) {
          Value centered = arith::SubFOp::create(nb, l, args[1], args[2]);
          Value product = arith::MulFOp::create(nb, l, args[0], centered);
          linalg::YieldOp::create(nb, l, product);
        });
    state.addCotangent(x, dx.getResult(0));
    return success();
  }
};

template <typename... OpTys> void attachStructuredModels(MLIRContext *ctx) {
  (OpTys::template attachInterface<StructuredOpAdjoint<OpTys>>(*ctx), ...);
}

} // namespace

void mlir::amp::autodiff::registerLinalgAutodiffExternalModels(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, linalg::LinalgDialect *) {
    attachStructuredModels<
#define GET_OP_LIST
#include "mlir/Dialect/Linalg/IR/LinalgStructuredOps.cpp.inc"
        >(ctx);
    linalg::SoftmaxOp::attachInterface<SoftmaxAdjoint>(*ctx);
  });
}
