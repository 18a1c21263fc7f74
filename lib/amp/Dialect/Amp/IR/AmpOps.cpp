//===- AmpOps.cpp - amp dialect ops: parsers, printers, verifiers ---------===//

#include "amp/Dialect/Amp/IR/AmpOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

#include <cmath>

using namespace mlir;
using namespace mlir::amp;

//===----------------------------------------------------------------------===//
// GradOp
//===----------------------------------------------------------------------===//

// Syntax: `amp.grad %raw, %param : T` when both have type T, or
// `amp.grad %raw, %param : T_raw, T_param` so that a mismatch can be written
// (and then rejected by the verifier with a located message).
ParseResult GradOp::parse(OpAsmParser &parser, OperationState &result) {
  OpAsmParser::UnresolvedOperand raw, param;
  Type rawType, paramType;
  if (parser.parseOperand(raw) || parser.parseComma() ||
      parser.parseOperand(param) ||
      parser.parseOptionalAttrDict(result.attributes) ||
      parser.parseColonType(rawType))
    return failure();
  paramType = rawType;
  if (succeeded(parser.parseOptionalComma()) && parser.parseType(paramType))
    return failure();
  if (parser.resolveOperand(raw, rawType, result.operands) ||
      parser.resolveOperand(param, paramType, result.operands))
    return failure();
  result.addTypes(paramType);
  return success();
}

void GradOp::print(OpAsmPrinter &p) {
  p << ' ' << getRaw() << ", " << getParam();
  p.printOptionalAttrDict((*this)->getAttrs());
  p << " : " << getRaw().getType();
  if (getRaw().getType() != getParam().getType())
    p << ", " << getParam().getType();
}

LogicalResult GradOp::verify() {
  if (getRaw().getType() != getParam().getType())
    return emitOpError("operand type ")
           << getRaw().getType() << " differs from parameter type "
           << getParam().getType()
           << "; gradients of fp32 master weights must have the parameter's "
              "type (compute the gradient in, or cast it to, that type)";
  if (getResult().getType() != getParam().getType())
    return emitOpError("result type ")
           << getResult().getType() << " differs from parameter type "
           << getParam().getType();
  return success();
}

//===----------------------------------------------------------------------===//
// UnscaleAndCheckOp
//===----------------------------------------------------------------------===//

LogicalResult UnscaleAndCheckOp::inferReturnTypes(
    MLIRContext *context, std::optional<Location> location, ValueRange operands,
    DictionaryAttr attributes, OpaqueProperties properties, RegionRange regions,
    SmallVectorImpl<Type> &inferredReturnTypes) {
  if (operands.empty())
    return failure();
  // All operands but the last (inv_scale) are gradients.
  for (Value grad : operands.drop_back())
    inferredReturnTypes.push_back(grad.getType());
  inferredReturnTypes.push_back(
      RankedTensorType::get({}, IntegerType::get(context, 1)));
  return success();
}

LogicalResult UnscaleAndCheckOp::verify() {
  if (getGrads().empty())
    return emitOpError("expects at least one gradient; a step without "
                       "gradients has nothing to unscale or check");
  if (getUnscaled().size() != getGrads().size())
    return emitOpError("has ") << getGrads().size() << " gradients but "
                               << getUnscaled().size() << " unscaled results";
  for (auto [i, in, out] :
       llvm::enumerate(getGrads().getTypes(), getUnscaled().getTypes()))
    if (in != out)
      return emitOpError("unscaled result #")
             << i << " has type " << out << " but gradient #" << i
             << " has type " << in;
  return success();
}

//===----------------------------------------------------------------------===//
// UpdateScaleOp
//===----------------------------------------------------------------------===//

LogicalResult UpdateScaleOp::verify() {
  float growth = getGrowthFactor().convertToFloat();
  float backoff = getBackoffFactor().convertToFloat();
  if (!(growth > 1.0f) || std::isinf(growth))
    return emitOpError("growth_factor must be finite and > 1, got ") << growth;
  if (!(backoff > 0.0f && backoff < 1.0f))
    return emitOpError("backoff_factor must lie in (0, 1), got ") << backoff;
  if (getGrowthInterval() < 1)
    return emitOpError("growth_interval must be >= 1 step, got ")
           << getGrowthInterval();
  if (getHysteresis() < 1)
    return emitOpError("hysteresis must be >= 1 overflowing step, got ")
           << getHysteresis();
  float minScale = getMinScale().convertToFloat();
  float maxScale = getMaxScale().convertToFloat();
  if (!(minScale > 0.0f) || !std::isfinite(maxScale) || !(minScale <= maxScale))
    return emitOpError("needs 0 < min_scale <= max_scale < inf, got min_scale "
                       "= ")
           << minScale << " and max_scale = " << maxScale;
  return success();
}

//===----------------------------------------------------------------------===//
// CountUnderflowOp
//===----------------------------------------------------------------------===//

LogicalResult CountUnderflowOp::verify() {
  Type p = getPrecision();
  if (!p.isF16() && !p.isBF16())
    return emitOpError("precision must be f16 or bf16, got ") << p;
  return success();
}

#define GET_OP_CLASSES
#include "amp/Dialect/Amp/IR/AmpOps.cpp.inc"
