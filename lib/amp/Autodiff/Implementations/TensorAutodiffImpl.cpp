//===- TensorAutodiffImpl.cpp - adjoint rules of tensor ops ---------------===//
//
// Data movement: each cotangent is the inverse movement of the result's
// cotangent. A slice's source gets the cotangent inserted into zeros, an
// inserted slice's source the extracted part and its destination the rest,
// a pad's source the interior, a reshape's source the opposite reshape,
// a concat's inputs their slices, a splat's scalar the sum.
//
//===----------------------------------------------------------------------===//

#include "amp/Autodiff/Implementations.h"

#include "amp/Autodiff/AdjointBuilders.h"
#include "amp/Autodiff/ReverseModeOpInterface.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"

using namespace mlir;
using namespace mlir::amp::autodiff;

namespace {

/// Base of the rules of single-result tensor ops: `Rule::adjoint(b, loc,
/// op, dr, state)` is called with the result's cotangent.
template <typename Rule, typename OpTy>
struct MovementAdjoint : ReverseModeOpInterface::ExternalModel<Rule, OpTy> {
  LogicalResult buildAdjoint(Operation *op, OpBuilder &builder,
                             AdjointState &state) const {
    Value dr = state.getCotangent(builder, op->getResult(0));
    if (!dr)
      return success();
    return static_cast<const Rule *>(this)->adjoint(builder, op->getLoc(),
                                                    cast<OpTy>(op), dr, state);
  }
};

SmallVector<OpFoldResult> ones(OpBuilder &b, unsigned rank) {
  return SmallVector<OpFoldResult>(rank, b.getIndexAttr(1));
}

/// pad: the source gets the interior of dr; a padding value that is a
/// value of the function gets what is left, sum(dr) - sum(interior).
struct PadAdjoint : MovementAdjoint<PadAdjoint, tensor::PadOp> {
  LogicalResult adjoint(OpBuilder &b, Location loc, tensor::PadOp op, Value dr,
                        AdjointState &s) const {
    Value source = op.getSource();
    auto sourceType = cast<RankedTensorType>(source.getType());
    Value interior = tensor::ExtractSliceOp::create(
        b, loc, sourceType, dr, op.getMixedLowPad(),
        tensor::getMixedSizes(b, loc, source), ones(b, sourceType.getRank()));
    s.addCotangent(source, interior);
    Value padding = op.getConstantPaddingValue();
    if (!padding) {
      // Fine as long as the region reads no differentiated value.
      if (llvm::none_of(getOperandsAndCapturedValues(op),
                        [&](Value v) { return v != source && s.isActive(v); }))
        return success();
      return op.emitError() << "amp-differentiate: this tensor.pad computes "
                               "its padding value in its region from a "
                               "differentiated value; only a padding value "
                               "defined outside the region is differentiated";
    }
    if (s.isActive(padding)) {
      Value total = buildReduceAll(b, loc, dr);
      Value inner = buildReduceAll(b, loc, interior);
      s.addCotangent(padding, arith::SubFOp::create(b, loc, total, inner));
    }
    return success();
  }
};

/// extract_slice: dr inserted into zeros of the source's shape.
struct ExtractSliceAdjoint
    : MovementAdjoint<ExtractSliceAdjoint, tensor::ExtractSliceOp> {
  LogicalResult adjoint(OpBuilder &b, Location loc, tensor::ExtractSliceOp op,
                        Value dr, AdjointState &s) const {
    Value source = op.getSource();
    Value zeros = buildZerosLike(b, loc, source);
    s.addCotangent(source, tensor::InsertSliceOp::create(
                               b, loc, dr, zeros, op.getMixedOffsets(),
                               op.getMixedSizes(), op.getMixedStrides()));
    return success();
  }
};

/// insert_slice: the source gets the slice of dr, the destination dr with
/// the slice zeroed (it was overwritten).
struct InsertSliceAdjoint
    : MovementAdjoint<InsertSliceAdjoint, tensor::InsertSliceOp> {
  LogicalResult adjoint(OpBuilder &b, Location loc, tensor::InsertSliceOp op,
                        Value dr, AdjointState &s) const {
    Value source = op.getSource(), dest = op.getDest();
    if (s.isActive(source))
      s.addCotangent(source,
                     tensor::ExtractSliceOp::create(
                         b, loc, op.getSourceType(), dr, op.getMixedOffsets(),
                         op.getMixedSizes(), op.getMixedStrides()));
    if (s.isActive(dest))
      s.addCotangent(dest, tensor::InsertSliceOp::create(
                               b, loc, buildZerosLike(b, loc, source), dr,
                               op.getMixedOffsets(), op.getMixedSizes(),
                               op.getMixedStrides()));
    return success();
  }
};

/// collapse_shape: dr expanded back with the same reassociation.
struct CollapseShapeAdjoint
    : MovementAdjoint<CollapseShapeAdjoint, tensor::CollapseShapeOp> {
  LogicalResult adjoint(OpBuilder &b, Location loc, tensor::CollapseShapeOp op,
                        Value dr, AdjointState &s) const {
    Value source = op.getSrc();
    s.addCotangent(source, tensor::ExpandShapeOp::create(
                               b, loc, source.getType(), dr,
                               op.getReassociationIndices(),
                               tensor::getMixedSizes(b, loc, source)));
    return success();
  }
};

/// expand_shape: dr collapsed back with the same reassociation.
struct ExpandShapeAdjoint
    : MovementAdjoint<ExpandShapeAdjoint, tensor::ExpandShapeOp> {
  LogicalResult adjoint(OpBuilder &b, Location loc, tensor::ExpandShapeOp op,
                        Value dr, AdjointState &s) const {
    Value source = op.getSrc();
    s.addCotangent(
        source, tensor::CollapseShapeOp::create(b, loc, source.getType(), dr,
                                                op.getReassociationIndices()));
    return success();
  }
};

/// concat: input i gets its slice of dr along the concatenated dimension.
struct ConcatAdjoint : MovementAdjoint<ConcatAdjoint, tensor::ConcatOp> {
  LogicalResult adjoint(OpBuilder &b, Location loc, tensor::ConcatOp op,
                        Value dr, AdjointState &s) const {
    uint64_t dim = op.getDim();
    OpFoldResult offset = b.getIndexAttr(0);
    for (auto [i, input] : llvm::enumerate(op.getInputs())) {
      auto type = cast<RankedTensorType>(input.getType());
      SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, input);
      SmallVector<OpFoldResult> offsets(type.getRank(), b.getIndexAttr(0));
      offsets[dim] = offset;
      if (s.isActive(input))
        s.addCotangent(input, tensor::ExtractSliceOp::create(
                                  b, loc, type, dr, offsets, sizes,
                                  ones(b, type.getRank())));
      if (i + 1 == op.getInputs().size())
        break;
      std::optional<int64_t> a = getConstantIntValue(offset),
                             c = getConstantIntValue(sizes[dim]);
      if (a && c) {
        offset = b.getIndexAttr(*a + *c);
      } else {
        offset = arith::AddIOp::create(
                     b, loc, getValueOrCreateConstantIndexOp(b, loc, offset),
                     getValueOrCreateConstantIndexOp(b, loc, sizes[dim]))
                     .getResult();
      }
    }
    return success();
  }
};

/// cast: dr cast back to the source type.
struct CastAdjoint : MovementAdjoint<CastAdjoint, tensor::CastOp> {
  LogicalResult adjoint(OpBuilder &b, Location loc, tensor::CastOp op, Value dr,
                        AdjointState &s) const {
    Value source = op.getSource();
    s.addCotangent(source,
                   tensor::CastOp::create(b, loc, source.getType(), dr));
    return success();
  }
};

/// extract: dr inserted at the indices into zeros.
struct ExtractAdjoint : MovementAdjoint<ExtractAdjoint, tensor::ExtractOp> {
  LogicalResult adjoint(OpBuilder &b, Location loc, tensor::ExtractOp op,
                        Value dr, AdjointState &s) const {
    Value source = op.getTensor();
    s.addCotangent(source, tensor::InsertOp::create(
                               b, loc, dr, buildZerosLike(b, loc, source),
                               op.getIndices()));
    return success();
  }
};

/// insert: the scalar gets dr at the indices, the destination dr with a 0
/// there.
struct InsertAdjoint : MovementAdjoint<InsertAdjoint, tensor::InsertOp> {
  LogicalResult adjoint(OpBuilder &b, Location loc, tensor::InsertOp op,
                        Value dr, AdjointState &s) const {
    Value scalar = op.getScalar(), dest = op.getDest();
    if (s.isActive(scalar))
      s.addCotangent(scalar,
                     tensor::ExtractOp::create(b, loc, dr, op.getIndices()));
    if (s.isActive(dest))
      s.addCotangent(
          dest, tensor::InsertOp::create(b, loc, buildZerosLike(b, loc, scalar),
                                         dr, op.getIndices()));
    return success();
  }
};

/// splat: the scalar gets the sum of dr.
struct SplatAdjoint : MovementAdjoint<SplatAdjoint, tensor::SplatOp> {
  LogicalResult adjoint(OpBuilder &b, Location loc, tensor::SplatOp op,
                        Value dr, AdjointState &s) const {
    s.addCotangent(op.getInput(), buildReduceAll(b, loc, dr));
    return success();
  }
};

/// from_elements: element k gets dr at its position (row-major).
struct FromElementsAdjoint
    : MovementAdjoint<FromElementsAdjoint, tensor::FromElementsOp> {
  LogicalResult adjoint(OpBuilder &b, Location loc, tensor::FromElementsOp op,
                        Value dr, AdjointState &s) const {
    auto type = cast<RankedTensorType>(op.getType());
    SmallVector<int64_t> strides = computeStrides(type.getShape());
    for (auto [k, element] : llvm::enumerate(op.getElements())) {
      if (!s.isActive(element))
        continue;
      SmallVector<Value> indices;
      for (int64_t i : delinearize(k, strides))
        indices.push_back(arith::ConstantIndexOp::create(b, loc, i));
      s.addCotangent(element, tensor::ExtractOp::create(b, loc, dr, indices));
    }
    return success();
  }
};

} // namespace

void mlir::amp::autodiff::registerTensorAutodiffExternalModels(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, tensor::TensorDialect *) {
    tensor::PadOp::attachInterface<PadAdjoint>(*ctx);
    tensor::ExtractSliceOp::attachInterface<ExtractSliceAdjoint>(*ctx);
    tensor::InsertSliceOp::attachInterface<InsertSliceAdjoint>(*ctx);
    tensor::CollapseShapeOp::attachInterface<CollapseShapeAdjoint>(*ctx);
    tensor::ExpandShapeOp::attachInterface<ExpandShapeAdjoint>(*ctx);
    tensor::ConcatOp::attachInterface<ConcatAdjoint>(*ctx);
    tensor::CastOp::attachInterface<CastAdjoint>(*ctx);
    tensor::ExtractOp::attachInterface<ExtractAdjoint>(*ctx);
    tensor::InsertOp::attachInterface<InsertAdjoint>(*ctx);
    tensor::SplatOp::attachInterface<SplatAdjoint>(*ctx);
    tensor::FromElementsOp::attachInterface<FromElementsAdjoint>(*ctx);
  });
}
