//===- ConvolutionWindows.cpp - operands read through windows -------------===//
//
// The part of the structured adjoint that handles an operand read through
// convolution windows (s * d_out + d * d_kernel, the input of a convolution
// or a pooling): recognizing the windows, the transposed iteration space
// (the out dimension runs over the operand's positions), the dilated and
// padded copies of the other operands, and the mask of positions no output
// read. Shared REFERENCE.md: the adjoint of a convolution's input is a
// transposed convolution of the output cotangent (strides become input
// dilation, the padding complemented).
//
//===----------------------------------------------------------------------===//

#include "StructuredAdjoint.h"

#include "amp/Autodiff/AdjointBuilders.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/AffineExpr.h"

using namespace mlir;
using namespace mlir::amp::autodiff;
using namespace mlir::amp::autodiff::structured;

/// `expr` as (dimension, coefficient) when it is d or d * c with c > 0.
static std::optional<std::pair<unsigned, int64_t>> scaledDim(AffineExpr expr) {
  if (auto dim = dyn_cast<AffineDimExpr>(expr))
    return std::make_pair(dim.getPosition(), int64_t(1));
  auto mul = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!mul || mul.getKind() != AffineExprKind::Mul)
    return std::nullopt;
  auto dim = dyn_cast<AffineDimExpr>(mul.getLHS());
  auto cst = dyn_cast<AffineConstantExpr>(mul.getRHS());
  if (!dim || !cst || cst.getValue() <= 0)
    return std::nullopt;
  return std::make_pair(dim.getPosition(), cst.getValue());
}

FailureOr<SmallVector<Window>> mlir::amp::autodiff::structured::analyzeWindows(
    linalg::LinalgOp op, AffineMap map, unsigned operandNumber) {
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  SmallVector<Window> windows;
  llvm::SmallDenseSet<unsigned> used;
  auto fail = [&](const Twine &why) -> FailureOr<SmallVector<Window>> {
    return op->emitError()
           << "amp-differentiate: operand #" << operandNumber
           << " has the indexing map " << AffineMapAttr::get(map) << ", " << why
           << "; operands are differentiated when every result is a "
              "dimension, a constant position or a convolution window "
              "s * d_out + d * d_kernel (d_out parallel, d_kernel a "
              "reduction)";
  };
  for (auto [position, expr] : llvm::enumerate(map.getResults())) {
    // A constant reads one position of that dimension: torch-mlir's size-1
    // broadcast (`(d0, d1) -> (0, d1)`); the cotangent lands there only.
    if (auto cst = dyn_cast<AffineConstantExpr>(expr)) {
      if (cst.getValue() < 0)
        return fail(Twine("whose result #") + Twine(position) +
                    " is a negative constant");
      continue;
    }
    if (auto dim = dyn_cast<AffineDimExpr>(expr)) {
      if (!used.insert(dim.getPosition()).second)
        return fail("which uses a dimension twice");
      continue;
    }
    auto add = dyn_cast<AffineBinaryOpExpr>(expr);
    if (!add || add.getKind() != AffineExprKind::Add)
      return fail(Twine("whose result #") + Twine(position) +
                  " is neither a dimension nor a window");
    auto lhs = scaledDim(add.getLHS()), rhs = scaledDim(add.getRHS());
    if (!lhs || !rhs)
      return fail(Twine("whose result #") + Twine(position) +
                  " is neither a dimension nor a window");
    if (iterators[lhs->first] != utils::IteratorType::parallel)
      std::swap(lhs, rhs);
    if (iterators[lhs->first] != utils::IteratorType::parallel ||
        iterators[rhs->first] != utils::IteratorType::reduction)
      return fail(Twine("whose window #") + Twine(position) +
                  " does not pair a parallel with a reduction dimension");
    if (!used.insert(lhs->first).second || !used.insert(rhs->first).second)
      return fail("which uses a dimension twice");
    windows.push_back(Window{static_cast<unsigned>(position), lhs->first,
                             rhs->first, lhs->second, rhs->second});
  }
  return windows;
}

FailureOr<WindowPlan> mlir::amp::autodiff::structured::planWindows(
    linalg::LinalgOp op, Value target, AffineMap map, unsigned operandNumber,
    MutableArrayRef<MappedValue> inputs) {
  FailureOr<SmallVector<Window>> windows =
      analyzeWindows(op, map, operandNumber);
  if (failed(windows))
    return failure();
  WindowPlan plan;
  plan.windows = std::move(*windows);
  plan.outMap = map;
  if (plan.windows.empty())
    return plan;
  MLIRContext *ctx = op.getContext();
  unsigned numLoops = op.getNumLoops();
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  auto targetType = cast<RankedTensorType>(target.getType());
  SmallVector<AffineExpr> dims;
  for (unsigned d = 0; d < numLoops; ++d)
    dims.push_back(getAffineDimExpr(d, ctx));
  SmallVector<AffineExpr> replacement = dims;
  SmallVector<AffineExpr> outResults(map.getResults());
  for (const Window &w : plan.windows) {
    int64_t kernel = ranges[w.kernelDim], out = ranges[w.outDim];
    int64_t extent = targetType.getDimSize(w.position);
    if (ShapedType::isDynamic(kernel) || ShapedType::isDynamic(out) ||
        ShapedType::isDynamic(extent))
      return op->emitError()
             << "amp-differentiate: the convolution window of operand #"
             << operandNumber
             << " has a dynamic size; windows (kernel, output and input "
                "extents) must be static";
    plan.kernelSizes.push_back(kernel);
    plan.outSizes.push_back(out);
    plan.extents.push_back(extent);
    replacement[w.outDim] = dims[w.outDim] - dims[w.kernelDim] * w.dilation +
                            (kernel - 1) * w.dilation;
    outResults[w.position] = dims[w.outDim];
  }
  if (!op.getBlock()->getOps<linalg::IndexOp>().empty())
    return op->emitError()
           << "amp-differentiate: operand #" << operandNumber
           << " is read through a convolution window and the body reads "
              "loop indices (linalg.index); only one of the two is "
              "differentiated";
  plan.outMap = AffineMap::get(numLoops, 0, outResults, ctx);
  for (auto [i, in] : llvm::enumerate(inputs)) {
    // The operand itself: its element at forward position (o, k) is the one
    // at position i = s * o + d * k.
    if (in.value == target && in.map == map) {
      in.map = plan.outMap;
      continue;
    }
    bool usesOut = llvm::any_of(plan.windows, [&](const Window &w) {
      return in.map.isFunctionOfDim(w.outDim);
    });
    if (!usesOut)
      continue;
    bool plain = llvm::all_of(plan.windows, [&](const Window &w) {
      return !in.map.isFunctionOfDim(w.outDim) ||
             in.map.getResultPosition(dims[w.outDim]).has_value();
    });
    if (!plain)
      return op->emitError()
             << "amp-differentiate: operand #" << operandNumber
             << " and another operand are both read through convolution "
                "windows; only one windowed operand is differentiated";
    plan.padded.push_back({static_cast<unsigned>(i), in.map});
    in.map = in.map.replaceDimsAndSymbols(replacement, {}, numLoops, 0);
  }
  return plan;
}

std::optional<BlockedWindows> mlir::amp::autodiff::structured::blockWindows(
    const WindowPlan &plan, RankedTensorType targetType, AffineMap map) {
  if (plan.windows.empty())
    return std::nullopt;
  for (auto [w, window] : llvm::enumerate(plan.windows))
    if (window.dilation != 1 || window.stride != plan.kernelSizes[w] ||
        plan.extents[w] != window.stride * plan.outSizes[w])
      return std::nullopt;
  MLIRContext *ctx = map.getContext();
  BlockedWindows blocked;
  SmallVector<AffineExpr> results;
  SmallVector<int64_t> shape;
  for (auto [position, expr] : llvm::enumerate(map.getResults())) {
    ReassociationIndices group{static_cast<int64_t>(results.size())};
    const auto *window = llvm::find_if(
        plan.windows, [&](const Window &w) { return w.position == position; });
    if (window == plan.windows.end()) {
      results.push_back(expr);
      shape.push_back(targetType.getDimSize(position));
    } else {
      unsigned w = window - plan.windows.begin();
      results.push_back(getAffineDimExpr(window->outDim, ctx));
      results.push_back(getAffineDimExpr(window->kernelDim, ctx));
      shape.push_back(plan.outSizes[w]);
      shape.push_back(plan.kernelSizes[w]);
      group.push_back(group.front() + 1);
    }
    blocked.reassociation.push_back(group);
  }
  blocked.map = AffineMap::get(map.getNumDims(), 0, results, ctx);
  blocked.type = targetType.clone(shape);
  return blocked;
}

Value mlir::amp::autodiff::structured::maskUnreadPositions(
    OpBuilder &nb, Location loc, Value contribution, const WindowPlan &plan) {
  auto cst = [&](int64_t c) {
    return arith::ConstantIndexOp::create(nb, loc, c);
  };
  for (auto [w, window] : llvm::enumerate(plan.windows)) {
    Value i = linalg::IndexOp::create(nb, loc, window.outDim);
    Value k = linalg::IndexOp::create(nb, loc, window.kernelDim);
    Value t = arith::SubIOp::create(
        nb, loc, i, arith::MulIOp::create(nb, loc, k, cst(window.dilation)));
    Value valid = arith::AndIOp::create(
        nb, loc,
        arith::CmpIOp::create(nb, loc, arith::CmpIPredicate::sge, t, cst(0)),
        arith::CmpIOp::create(nb, loc, arith::CmpIPredicate::slt, t,
                              cst(window.stride * plan.outSizes[w])));
    if (window.stride != 1) {
      Value rem = arith::RemSIOp::create(nb, loc, t, cst(window.stride));
      valid = arith::AndIOp::create(
          nb, loc, valid,
          arith::CmpIOp::create(nb, loc, arith::CmpIPredicate::eq, rem,
                                cst(0)));
    }
    Value zero = arith::ConstantOp::create(
        nb, loc, nb.getZeroAttr(contribution.getType()));
    contribution = arith::SelectOp::create(nb, loc, valid, contribution, zero);
  }
  return contribution;
}

Value mlir::amp::autodiff::structured::dilateAndPad(OpBuilder &b, Location loc,
                                                    Value v,
                                                    AffineMap forwardMap,
                                                    const WindowPlan &plan) {
  auto type = cast<RankedTensorType>(v.getType());
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, v);
  SmallVector<OpFoldResult> paddedSizes = sizes;
  SmallVector<OpFoldResult> offsets(type.getRank(), b.getIndexAttr(0));
  SmallVector<OpFoldResult> strides(type.getRank(), b.getIndexAttr(1));
  SmallVector<int64_t> shape(type.getShape());
  for (auto [position, expr] : llvm::enumerate(forwardMap.getResults())) {
    auto dim = dyn_cast<AffineDimExpr>(expr);
    for (auto [w, window] : llvm::enumerate(plan.windows)) {
      if (!dim || window.outDim != dim.getPosition())
        continue;
      int64_t border = (plan.kernelSizes[w] - 1) * window.dilation;
      shape[position] = plan.extents[w] + border;
      paddedSizes[position] = b.getIndexAttr(shape[position]);
      offsets[position] = b.getIndexAttr(border);
      strides[position] = b.getIndexAttr(window.stride);
    }
  }
  Value zero =
      arith::ConstantOp::create(b, loc, b.getZeroAttr(type.getElementType()));
  Value padded = buildFilled(b, loc, type.clone(shape), paddedSizes, zero);
  return tensor::InsertSliceOp::create(b, loc, v, padded, offsets, sizes,
                                       strides);
}
