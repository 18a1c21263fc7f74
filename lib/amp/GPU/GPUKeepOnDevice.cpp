//===- GPUKeepOnDevice.cpp - amp-gpu-keep-on-device -----------------------===//
//
// Removes the places where host code of a step would read device memory:
// the skip-update scf.if on found_inf (becomes predication), scalar chains
// between tensor.extract and tensor.from_elements (the loss-scale update,
// 1/S; become 0-d linalg.generic ops, i.e. one-thread kernels) and splat
// tensor constants (become linalg.fill, not host globals).
//
//===----------------------------------------------------------------------===//

#include "amp/GPU/Passes.h"

#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::amp {
#define GEN_PASS_DEF_GPUKEEPONDEVICE
#include "amp/GPU/Passes.h.inc"
} // namespace mlir::amp

using namespace mlir;
using namespace mlir::amp;

static bool isScalarZeroDExtract(Operation *op) {
  auto extract = dyn_cast_or_null<tensor::ExtractOp>(op);
  return extract && extract.getTensor().getType().getRank() == 0;
}

/// `select(cond, a, b)` elementwise on tensors with a 0-d i1 `cond` tensor
/// read on the device.
static Value emitSelect(OpBuilder &b, Location loc, Value cond, Value a,
                        Value c) {
  auto type = cast<RankedTensorType>(a.getType());
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, a);
  Value empty = tensor::EmptyOp::create(b, loc, sizes, type.getElementType());
  int64_t rank = type.getRank();
  AffineMap id = b.getMultiDimIdentityMap(rank);
  AffineMap scalar = AffineMap::get(rank, 0, b.getContext());
  SmallVector<utils::IteratorType> iters(rank, utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{type}, ValueRange{cond, a, c}, ValueRange{empty},
      ArrayRef<AffineMap>{scalar, id, id, id}, iters,
      [&](OpBuilder &nb, Location l, ValueRange args) {
        Value v = arith::SelectOp::create(nb, l, args[0], args[1], args[2]);
        linalg::YieldOp::create(nb, l, v);
      });
  return generic.getResult(0);
}

/// scf.if on `tensor.extract %flag[]` with tensor results and no side
/// effects -> both branches inlined + per-result select on the device.
static LogicalResult predicate(IRRewriter &rewriter, scf::IfOp ifOp) {
  auto extract = ifOp.getCondition().getDefiningOp<tensor::ExtractOp>();
  if (!extract || extract.getTensor().getType().getRank() != 0 ||
      ifOp.getNumResults() == 0 || !ifOp.elseBlock())
    return failure();
  if (!llvm::all_of(ifOp.getResultTypes(), llvm::IsaPred<RankedTensorType>))
    return failure();
  for (Region *region : {&ifOp.getThenRegion(), &ifOp.getElseRegion()})
    for (Operation &op : region->front().without_terminator())
      if (!isMemoryEffectFree(&op))
        return failure();
  Location loc = ifOp.getLoc();
  Value flag = extract.getTensor();
  auto thenYield = cast<scf::YieldOp>(ifOp.thenBlock()->getTerminator());
  auto elseYield = cast<scf::YieldOp>(ifOp.elseBlock()->getTerminator());
  SmallVector<Value> thenValues(thenYield.getOperands());
  SmallVector<Value> elseValues(elseYield.getOperands());
  Block *parent = ifOp->getBlock();
  for (Block *block : {ifOp.thenBlock(), ifOp.elseBlock()}) {
    rewriter.eraseOp(block->getTerminator());
    parent->getOperations().splice(ifOp->getIterator(), block->getOperations());
  }
  rewriter.setInsertionPoint(ifOp);
  SmallVector<Value> results;
  for (auto [t, e] : llvm::zip(thenValues, elseValues))
    results.push_back(t == e ? t : emitSelect(rewriter, loc, flag, t, e));
  rewriter.replaceOp(ifOp, results);
  if (extract->use_empty())
    rewriter.eraseOp(extract);
  return success();
}

/// Collects into `slice` the backward slice of `root` over pure, region-free
/// scalar ops of `block`, stopping at 0-d `tensor.extract`s (included);
/// true when it reaches one, i.e. `root` is computed from device memory.
static bool scalarChain(Value root, Block *block,
                        llvm::SetVector<Operation *> &slice) {
  SmallVector<Value> worklist{root};
  bool readsDevice = false;
  while (!worklist.empty()) {
    Operation *def = worklist.pop_back_val().getDefiningOp();
    if (!def || def->getBlock() != block || slice.contains(def))
      continue;
    if (isScalarZeroDExtract(def)) {
      readsDevice = true;
      slice.insert(def);
      continue;
    }
    if (def->getNumRegions() != 0 || !isMemoryEffectFree(def) ||
        llvm::any_of(def->getResultTypes(), llvm::IsaPred<ShapedType>))
      continue; // stays where it is; captured by the kernel if needed
    slice.insert(def);
    llvm::append_range(worklist, def->getOperands());
  }
  return readsDevice;
}

/// `tensor.from_elements %s : tensor<T>` where %s is computed from 0-d
/// tensor.extract ops by pure scalar ops -> one 0-d linalg.generic whose
/// inputs are the extracted tensors and whose body recomputes the chain.
static void moveScalarChain(IRRewriter &rewriter,
                            tensor::FromElementsOp fromElements) {
  auto resultType = fromElements.getType();
  if (resultType.getRank() != 0)
    return;
  llvm::SetVector<Operation *> slice;
  if (!scalarChain(fromElements.getElements()[0], fromElements->getBlock(),
                   slice))
    return;
  SmallVector<Operation *> ordered(slice.begin(), slice.end());
  llvm::sort(ordered,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  SmallVector<Value> inputs;
  for (Operation *op : ordered)
    if (isScalarZeroDExtract(op))
      inputs.push_back(cast<tensor::ExtractOp>(op).getTensor());

  Location loc = fromElements.getLoc();
  rewriter.setInsertionPoint(fromElements);
  Value empty = tensor::EmptyOp::create(rewriter, loc, ArrayRef<int64_t>{},
                                        resultType.getElementType());
  SmallVector<AffineMap> maps(inputs.size() + 1,
                              AffineMap::get(0, 0, rewriter.getContext()));
  auto generic = linalg::GenericOp::create(
      rewriter, loc, TypeRange{resultType}, inputs, ValueRange{empty}, maps,
      ArrayRef<utils::IteratorType>{},
      [&](OpBuilder &b, Location l, ValueRange args) {
        IRMapping mapping;
        unsigned next = 0;
        for (Operation *op : ordered) {
          if (isScalarZeroDExtract(op)) {
            mapping.map(op->getResult(0), args[next++]);
            continue;
          }
          b.clone(*op, mapping);
        }
        linalg::YieldOp::create(
            b, l, mapping.lookupOrDefault(fromElements.getElements()[0]));
      });
  rewriter.replaceOp(fromElements, generic.getResults());
  // The host copies of the chain are dead unless something else uses them.
  for (Operation *op : llvm::reverse(ordered))
    if (op->use_empty())
      rewriter.eraseOp(op);
}

/// A linalg.generic whose body uses a scalar computed on the host from
/// device memory (Adam's bias corrections 1 - beta^t from the step counter
/// t) -> that scalar becomes a `tensor.from_elements` (moved onto the device
/// by moveScalarChain) read by the generic as one more 0-d input.
static void passDeviceScalarsAsInputs(IRRewriter &rewriter,
                                      linalg::GenericOp op) {
  if (!op.hasPureTensorSemantics())
    return; // a 0-d tensor input cannot join buffer operands
  llvm::SetVector<Value> captured;
  getUsedValuesDefinedAbove(op.getRegion(), captured);
  SmallVector<Value> scalars;
  for (Value v : captured)
    if (llvm::SetVector<Operation *> slice;
        v.getType().isIntOrIndexOrFloat() && v.getDefiningOp() &&
        scalarChain(v, v.getDefiningOp()->getBlock(), slice))
      scalars.push_back(v);
  if (scalars.empty())
    return;
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  SmallVector<Value> inputs(op.getDpsInputs());
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  unsigned numInputs = op.getNumDpsInputs();
  AffineMap scalarMap = AffineMap::get(op.getNumLoops(), 0, op.getContext());
  for (Value v : scalars) {
    inputs.push_back(tensor::FromElementsOp::create(
        rewriter, loc, RankedTensorType::get({}, v.getType()), v));
    maps.insert(maps.begin() + inputs.size() - 1, scalarMap);
  }
  auto generic = linalg::GenericOp::create(rewriter, loc, op.getResultTypes(),
                                           inputs, op.getDpsInits(), maps,
                                           op.getIteratorTypesArray());
  rewriter.inlineRegionBefore(op.getRegion(), generic.getRegion(),
                              generic.getRegion().end());
  Block &body = generic.getRegion().front();
  for (auto [i, v] : llvm::enumerate(scalars)) {
    BlockArgument arg = body.insertArgument(numInputs + i, v.getType(), loc);
    replaceAllUsesInRegionWith(v, arg, generic.getRegion());
  }
  rewriter.replaceOp(op, generic.getResults());
}

/// `arith.constant dense<v> : tensor<...>` (splat, static shape) ->
/// linalg.fill(v) of tensor.empty.
static void splatToFill(IRRewriter &rewriter, arith::ConstantOp constant) {
  auto type = dyn_cast<RankedTensorType>(constant.getType());
  auto dense = dyn_cast<SplatElementsAttr>(constant.getValue());
  if (!type || !dense || !type.hasStaticShape())
    return;
  Location loc = constant.getLoc();
  rewriter.setInsertionPoint(constant);
  Value scalar = arith::ConstantOp::create(
      rewriter, loc, cast<TypedAttr>(dense.getSplatValue<Attribute>()));
  Value empty = tensor::EmptyOp::create(rewriter, loc, type.getShape(),
                                        type.getElementType());
  rewriter.replaceOpWithNewOp<linalg::FillOp>(constant, scalar, empty);
}

namespace {
struct GPUKeepOnDevicePass
    : amp::impl::GPUKeepOnDeviceBase<GPUKeepOnDevicePass> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    // Outermost first: an inner scf.if moves with its parent's branch.
    SmallVector<scf::IfOp> ifs;
    getOperation().walk<WalkOrder::PreOrder>([&](scf::IfOp op) {
      if (!op->getParentOfType<linalg::LinalgOp>())
        ifs.push_back(op);
    });
    for (scf::IfOp op : ifs)
      (void)predicate(rewriter, op);

    SmallVector<linalg::GenericOp> generics;
    getOperation().walk([&](linalg::GenericOp op) {
      if (!op->getParentOfType<linalg::LinalgOp>())
        generics.push_back(op);
    });
    for (linalg::GenericOp op : generics)
      passDeviceScalarsAsInputs(rewriter, op);

    SmallVector<tensor::FromElementsOp> froms;
    getOperation().walk([&](tensor::FromElementsOp op) {
      if (!op->getParentOfType<linalg::LinalgOp>())
        froms.push_back(op);
    });
    for (tensor::FromElementsOp op : froms)
      moveScalarChain(rewriter, op);

    SmallVector<arith::ConstantOp> constants;
    getOperation().walk([&](arith::ConstantOp op) {
      if (isa<RankedTensorType>(op.getType()))
        constants.push_back(op);
    });
    for (arith::ConstantOp op : constants)
      splatToFill(rewriter, op);
  }
};
} // namespace
