//===- PromoteToF64.cpp - amp-promote-to-f64 ------------------------------===//
//
// Every f32 (with low-precision=true also f16 and bf16) element type of a
// module's functions becomes f64 (see
// Passes.td). Upstream ops are generic over their float type, so retyping
// values, block arguments and float attributes in place is enough; the only
// ops that change meaning are casts between f32 and f64, which disappear.
//
//===----------------------------------------------------------------------===//

#include "amp/Dialect/Amp/IR/AmpDialect.h"
#include "amp/Transforms/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"

namespace mlir::amp {
#define GEN_PASS_DEF_PROMOTETOF64
#include "amp/Transforms/Passes.h.inc"
} // namespace mlir::amp

using namespace mlir;

/// Whether `type` is a float type the pass makes f64: f32, and f16 and bf16
/// with `low` (the pass's low-precision option).
static bool isPromoted(Type type, bool low) {
  return type.isF32() || (low && (type.isF16() || type.isBF16()));
}

/// `type` with every f32 (as a scalar or an element type, at any depth)
/// made f64 (and f16, bf16 with `low`).
static Type promote(Type type, bool low) {
  MLIRContext *ctx = type.getContext();
  if (isPromoted(type, low))
    return Float64Type::get(ctx);
  // Element types recursively: a memref of memrefs of f32 too (found by
  // amp-robustness on test/Transforms/cpu-free-at-last-use.mlir).
  if (auto shaped = dyn_cast<ShapedType>(type)) {
    Type element = promote(shaped.getElementType(), low);
    return element == shaped.getElementType() ? type : shaped.clone(element);
  }
  if (auto fn = dyn_cast<FunctionType>(type)) {
    SmallVector<Type> inputs, results;
    for (Type t : fn.getInputs())
      inputs.push_back(promote(t, low));
    for (Type t : fn.getResults())
      results.push_back(promote(t, low));
    return FunctionType::get(ctx, inputs, results);
  }
  return type;
}

/// `attr` with f32 values and types made f64 (and f16, bf16 with `low`);
/// null (and an error on `op`) when a resource blob cannot be read.
static Attribute promote(Attribute attr, Operation *op, bool low) {
  if (auto f = dyn_cast<FloatAttr>(attr); f && isPromoted(f.getType(), low))
    return FloatAttr::get(Float64Type::get(attr.getContext()),
                          f.getValueAsDouble());
  if (auto t = dyn_cast<TypeAttr>(attr))
    return TypeAttr::get(promote(t.getValue(), low));
  if (auto dense = dyn_cast<DenseFPElementsAttr>(attr);
      dense && isPromoted(dense.getElementType(), low)) {
    auto type = cast<ShapedType>(promote(dense.getType(), low));
    // Exact: every f32, f16 and bf16 value is an f64 value.
    auto toDouble = [](APFloat v) {
      bool lost;
      v.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &lost);
      return v.convertToDouble();
    };
    // A splat stays one value (its shape may hold 2^64 elements).
    if (dense.isSplat())
      return DenseElementsAttr::get(
          type, APFloat(toDouble(dense.getSplatValue<APFloat>())));
    SmallVector<double> values;
    for (APFloat v : dense.getValues<APFloat>())
      values.push_back(toDouble(v));
    return DenseElementsAttr::get(
        cast<ShapedType>(promote(dense.getType(), low)),
        ArrayRef<double>(values));
  }
  if (auto resource = dyn_cast<DenseF32ResourceElementsAttr>(attr)) {
    std::optional<ArrayRef<float>> data = resource.tryGetAsArrayRef();
    if (!data) {
      op->emitError("amp-promote-to-f64: the dense_resource blob '")
          << resource.getRawHandle().getKey()
          << "' is elided or unavailable; its values cannot be promoted to "
             "f64 (print the model with its weights)";
      return nullptr;
    }
    SmallVector<double> values(data->begin(), data->end());
    return DenseElementsAttr::get(
        cast<ShapedType>(promote(resource.getType(), low)),
        ArrayRef<double>(values));
  }
  if (auto dict = dyn_cast<DictionaryAttr>(attr)) {
    SmallVector<NamedAttribute> entries;
    for (NamedAttribute entry : dict) {
      Attribute value = promote(entry.getValue(), op, low);
      if (!value)
        return nullptr;
      entries.push_back({entry.getName(), value});
    }
    return DictionaryAttr::get(attr.getContext(), entries);
  }
  return attr;
}

namespace {
struct PromoteToF64Pass : amp::impl::PromoteToF64Base<PromoteToF64Pass> {
  using PromoteToF64Base::PromoteToF64Base;
  void runOnOperation() override {
    bool low = lowPrecision;
    // Only func.func bodies are retyped: the other function-like ops (e.g.
    // llvm.func) keep their own signature types.
    for (Operation &top : getOperation().getBody()->getOperations())
      if (!isa<func::FuncOp>(top) && top.getNumRegions() > 0) {
        emitError(top.getLoc(), "amp-promote-to-f64: '")
            << top.getName()
            << "' is not a func.func; the pass retypes func.func only";
        return signalPassFailure();
      }
    bool failed = false;
    // What cannot be promoted, checked on the types as given (the retyping
    // walk below promotes a bitcast's operand before it reaches the
    // bitcast: found by amp-robustness on
    // test/Regression/cpu-bf16-dot-negative-zero.mlir).
    getOperation().walk([&](Operation *op) {
      if (op->getDialect() && isa<amp::AmpDialect>(op->getDialect())) {
        op->emitError("amp-promote-to-f64: '")
            << op->getName()
            << "' is typed f32; lower the amp ops first "
               "(amp-lower-to-standard)";
        failed = true;
        return WalkResult::interrupt();
      }
      if (auto cast = dyn_cast<arith::BitcastOp>(op);
          cast &&
          (isPromoted(getElementTypeOrSelf(cast.getIn().getType()), low) ||
           isPromoted(getElementTypeOrSelf(cast.getType()), low))) {
        op->emitError("amp-promote-to-f64: a bitcast of an f32 value has no "
                      "f64 meaning");
        failed = true;
        return WalkResult::interrupt();
      }
      for (NamedAttribute attr : op->getAttrs())
        if (auto resource =
                dyn_cast<DenseResourceElementsAttr>(attr.getValue());
            resource && low &&
            (resource.getElementType().isF16() ||
             resource.getElementType().isBF16())) {
          op->emitError("amp-promote-to-f64: low-precision: a dense_resource "
                        "of ")
              << resource.getElementType()
              << " is not promoted to f64 (only f32 blobs are)";
          failed = true;
          return WalkResult::interrupt();
        }
      return WalkResult::advance();
    });
    if (failed)
      return signalPassFailure();
    getOperation().walk([&](Operation *op) {
      for (Value result : op->getResults())
        result.setType(promote(result.getType(), low));
      for (Region &region : op->getRegions())
        for (Block &block : region)
          for (BlockArgument arg : block.getArguments())
            arg.setType(promote(arg.getType(), low));
      SmallVector<NamedAttribute> attrs(op->getAttrs());
      for (NamedAttribute attr : attrs) {
        Attribute promoted = promote(attr.getValue(), op, low);
        if (!promoted) {
          failed = true;
          return WalkResult::interrupt();
        }
        if (promoted != attr.getValue())
          op->setAttr(attr.getName(), promoted);
      }
      return WalkResult::advance();
    });
    if (failed)
      return signalPassFailure();
    // f32 <-> f64 casts are now f64 -> f64.
    getOperation().walk([](Operation *op) {
      if (isa<arith::ExtFOp, arith::TruncFOp>(op) &&
          op->getOperand(0).getType() == op->getResult(0).getType()) {
        op->getResult(0).replaceAllUsesWith(op->getOperand(0));
        op->erase();
      }
    });
  }
};
} // namespace
