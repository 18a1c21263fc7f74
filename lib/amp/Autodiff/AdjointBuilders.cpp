//===- AdjointBuilders.cpp - IR shared by adjoint rules -------------------===//

#include "amp/Autodiff/AdjointBuilders.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/BitVector.h"

using namespace mlir;
using namespace mlir::amp::autodiff;

Value mlir::amp::autodiff::buildConstantLike(OpBuilder &b, Location loc,
                                             Value like, double c) {
  Type type = like.getType();
  if (auto floatType = dyn_cast<FloatType>(type))
    return arith::ConstantOp::create(b, loc, b.getFloatAttr(floatType, c));
  auto tensorType = cast<RankedTensorType>(type);
  auto elementType = cast<FloatType>(tensorType.getElementType());
  if (tensorType.hasStaticShape())
    return arith::ConstantOp::create(
        b, loc,
        DenseElementsAttr::get(tensorType, b.getFloatAttr(elementType, c)));
  Value scalar =
      arith::ConstantOp::create(b, loc, b.getFloatAttr(elementType, c));
  return buildFilledLike(b, loc, like, scalar);
}

Value mlir::amp::autodiff::buildFilled(OpBuilder &b, Location loc,
                                       RankedTensorType type,
                                       ArrayRef<OpFoldResult> sizes,
                                       Value value) {
  Value empty = tensor::EmptyOp::create(b, loc, sizes, type.getElementType());
  if (empty.getType() != type)
    empty = tensor::CastOp::create(b, loc, type, empty);
  return linalg::FillOp::create(b, loc, value, empty).getResult(0);
}

Value mlir::amp::autodiff::buildFilledLike(OpBuilder &b, Location loc,
                                           Value like, Value value) {
  auto type = cast<RankedTensorType>(like.getType());
  return buildFilled(b, loc, type, tensor::getMixedSizes(b, loc, like), value);
}

Value mlir::amp::autodiff::buildZerosLike(OpBuilder &b, Location loc,
                                          Value like) {
  if (isa<FloatType>(like.getType()))
    return buildConstantLike(b, loc, like, 0.0);
  auto type = cast<RankedTensorType>(like.getType());
  Value zero =
      arith::ConstantOp::create(b, loc, b.getZeroAttr(type.getElementType()));
  return buildFilledLike(b, loc, like, zero);
}

Value mlir::amp::autodiff::buildEmptyLike(OpBuilder &b, Location loc,
                                          Value like) {
  auto type = cast<RankedTensorType>(like.getType());
  Value empty = tensor::EmptyOp::create(
      b, loc, tensor::getMixedSizes(b, loc, like), type.getElementType());
  if (empty.getType() != type)
    empty = tensor::CastOp::create(b, loc, type, empty);
  return empty;
}

Value mlir::amp::autodiff::buildSum(OpBuilder &b, Location loc,
                                    ArrayRef<Value> terms) {
  assert(!terms.empty() && "a sum of no terms");
  if (terms.size() == 1)
    return terms.front();
  if (!isa<RankedTensorType>(terms.front().getType())) {
    Value sum = terms.front();
    for (Value term : terms.drop_front())
      sum = arith::AddFOp::create(b, loc, sum, term);
    return sum;
  }
  Type elementType =
      cast<RankedTensorType>(terms.front().getType()).getElementType();
  return buildElementwise(b, loc, terms, elementType,
                          [](OpBuilder &nb, Location nloc, ValueRange args) {
                            Value acc = args.front();
                            for (Value term : args.drop_front())
                              acc = arith::AddFOp::create(nb, nloc, acc, term);
                            return acc;
                          });
}

Value mlir::amp::autodiff::buildElementwise(
    OpBuilder &b, Location loc, ValueRange inputs, Type elementType,
    function_ref<Value(OpBuilder &, Location, ValueRange)> body) {
  Value like = inputs.front();
  auto likeType = cast<RankedTensorType>(like.getType());
  auto type = likeType.clone(elementType);
  Value init = tensor::EmptyOp::create(
      b, loc, tensor::getMixedSizes(b, loc, like), elementType);
  if (init.getType() != type)
    init = tensor::CastOp::create(b, loc, type, init);
  AffineMap identity = b.getMultiDimIdentityMap(type.getRank());
  SmallVector<AffineMap> maps(inputs.size() + 1, identity);
  SmallVector<utils::IteratorType> iterators(type.getRank(),
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, type, inputs, init, maps, iterators,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        linalg::YieldOp::create(nb, nloc, body(nb, nloc, args.drop_back()));
      });
  return generic.getResult(0);
}

Value mlir::amp::autodiff::buildReduceAll(OpBuilder &b, Location loc,
                                          Value tensor) {
  auto type = cast<RankedTensorType>(tensor.getType());
  Type elementType = type.getElementType();
  Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(elementType));
  Value init =
      buildFilled(b, loc, RankedTensorType::get({}, elementType), {}, zero);
  unsigned rank = type.getRank();
  SmallVector<AffineMap> maps = {b.getMultiDimIdentityMap(rank),
                                 AffineMap::get(rank, 0, b.getContext())};
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::reduction);
  auto reduce = linalg::GenericOp::create(
      b, loc, init.getType(), tensor, init, maps, iterators,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        Value sum = arith::AddFOp::create(nb, nloc, args[1], args[0]);
        linalg::YieldOp::create(nb, nloc, sum);
      });
  return tensor::ExtractOp::create(b, loc, reduce.getResult(0), ValueRange{});
}

/// True when every loop of a generic with these maps has its size given by
/// an operand dimension (linalg infers loop sizes from plain results).
static bool sizesAllLoops(ArrayRef<AffineMap> maps, unsigned numLoops) {
  llvm::BitVector sized(numLoops);
  for (AffineMap map : maps)
    for (AffineExpr expr : map.getResults())
      if (auto dim = dyn_cast<AffineDimExpr>(expr))
        sized.set(dim.getPosition());
  return sized.all();
}

linalg::GenericOp mlir::amp::autodiff::dropUnusedInputs(OpBuilder &b,
                                                        linalg::GenericOp op) {
  Block &body = op.getRegion().front();
  SmallVector<OpOperand *> inputs = op.getDpsInputOperands();
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  unsigned numInputs = inputs.size();
  llvm::BitVector dropped(body.getNumArguments());
  // Drop an unread input unless it is the only operand that gives a loop
  // its size (the window operand of a pooling op, for instance).
  for (unsigned i = 0; i < numInputs; ++i) {
    if (!op.getMatchingBlockArgument(inputs[i]).use_empty())
      continue;
    SmallVector<AffineMap> kept;
    for (unsigned j = 0; j < maps.size(); ++j)
      if (j != i && !(j < numInputs && dropped.test(j)))
        kept.push_back(maps[j]);
    if (sizesAllLoops(kept, op.getNumLoops()))
      dropped.set(i);
  }
  if (dropped.none())
    return op;
  SmallVector<Value> keptInputs;
  SmallVector<AffineMap> keptMaps;
  for (unsigned j = 0; j < maps.size(); ++j) {
    if (j < numInputs && dropped.test(j))
      continue;
    if (j < numInputs)
      keptInputs.push_back(inputs[j]->get());
    keptMaps.push_back(maps[j]);
  }
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(op);
  auto pruned = linalg::GenericOp::create(b, op.getLoc(), op.getResultTypes(),
                                          keptInputs, op.getDpsInits(),
                                          keptMaps, op.getIteratorTypesArray());
  pruned.getRegion().takeBody(op.getRegion());
  pruned.getRegion().front().eraseArguments(dropped);
  op.replaceAllUsesWith(pruned.getResults());
  op.erase();
  return pruned;
}

void mlir::amp::autodiff::eraseDeadOps(Block &block) {
  SmallVector<Operation *> ops;
  for (Operation &op : block.without_terminator())
    ops.push_back(&op);
  for (Operation *op : llvm::reverse(ops))
    if (isOpTriviallyDead(op))
      op->erase();
}

void mlir::amp::autodiff::eraseUnusedChain(Value value) {
  Operation *op = value.getDefiningOp();
  if (!op || !isOpTriviallyDead(op))
    return;
  SmallVector<Value> operands(op->getOperands());
  op->erase();
  for (Value operand : operands)
    eraseUnusedChain(operand);
}
