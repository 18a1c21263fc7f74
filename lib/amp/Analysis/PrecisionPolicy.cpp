//===- PrecisionPolicy.cpp - autocast op classes --------------------------===//

#include "amp/Analysis/PrecisionPolicy.h"

#include "amp/Dialect/Amp/IR/AmpOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::amp;

StringRef mlir::amp::stringifyPrecisionClass(PrecisionClass cls) {
  switch (cls) {
  case PrecisionClass::Allow:
    return "allow";
  case PrecisionClass::Deny:
    return "deny";
  case PrecisionClass::Infer:
    return "infer";
  case PrecisionClass::Clear:
    return "clear";
  case PrecisionClass::Unknown:
    return "unknown";
  }
  llvm_unreachable("unknown class");
}

/// Math ops whose range or precision needs fp32 (REFERENCE.md, deny).
static bool isDenyMathOp(Operation *op) {
  return isa<math::ExpOp, math::Exp2Op, math::ExpM1Op, math::LogOp,
             math::Log2Op, math::Log10Op, math::Log1pOp, math::PowFOp,
             math::RsqrtOp, math::SqrtOp, math::ErfOp, math::FPowIOp>(op);
}

/// A generic contraction is a GEMM-like allow op only if it has an M or N
/// dimension (a parallel loop that indexes one input but not the other). A
/// "batched dot" whose parallel loops index both inputs, e.g. picking the
/// target logit as sum_c(logits * onehot) in a loss, is an elementwise
/// product plus a reduction: no Tensor Core gain, and it feeds the loss.
static bool isGemmLikeContraction(linalg::LinalgOp op) {
  if (!linalg::isaContractionOpInterface(op))
    return false;
  if (!isa<linalg::GenericOp>(op.getOperation()))
    return true; // named matmul/matvec/vecmat/dot/batch_matmul family
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(op);
  return succeeded(dims) && (!dims->m.empty() || !dims->n.empty());
}

static OpPrecision classifyLinalg(linalg::LinalgOp op) {
  if (isGemmLikeContraction(op))
    return {PrecisionClass::Allow,
            "contraction: low-precision inputs, fp32 accumulation"};
  if (linalg::isaConvolutionOpInterface(op))
    return {PrecisionClass::Allow,
            "convolution: low-precision inputs, fp32 accumulation"};
  if (isa<linalg::FillOp, linalg::CopyOp, linalg::TransposeOp,
          linalg::BroadcastOp>(op.getOperation()))
    return {PrecisionClass::Clear, "data movement"};
  bool hasDeny = false, hasArith = false;
  op->walk([&](Operation *inner) {
    if (isDenyMathOp(inner))
      hasDeny = true;
    else if (isa<arith::AddFOp, arith::SubFOp, arith::MulFOp, arith::DivFOp,
                 arith::NegFOp, math::TanhOp, math::AbsFOp>(inner))
      hasArith = true;
  });
  if (op.getNumReductionLoops() > 0)
    return {PrecisionClass::Deny, "reduction: accumulates in fp32"};
  if (hasDeny)
    return {PrecisionClass::Deny,
            "exp/log/pow/rsqrt/sqrt/erf: range-sensitive, fp32"};
  if (hasArith)
    return {PrecisionClass::Infer, "elementwise arithmetic follows inputs"};
  return {PrecisionClass::Clear, "elementwise select/compare/max: neutral"};
}

OpPrecision mlir::amp::classifyOp(Operation *op) {
  if (!op->getDialect()) // unregistered op: never guess
    return {PrecisionClass::Unknown, "unregistered op: stays fp32"};
  if (isa<linalg::SoftmaxOp>(op))
    return {PrecisionClass::Deny, "softmax: exp and a sum, fp32"};
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
    return classifyLinalg(linalgOp);
  if (isa<tensor::TensorDialect>(op->getDialect()))
    return {PrecisionClass::Clear, "tensor data movement"};
  if (isDenyMathOp(op))
    return {PrecisionClass::Deny,
            "exp/log/pow/rsqrt/sqrt/erf: range-sensitive, fp32"};
  if (isa<arith::ArithDialect, math::MathDialect>(op->getDialect()))
    return {PrecisionClass::Infer, "scalar or elementwise arithmetic"};
  if (isa<AmpDialect>(op->getDialect()))
    return {PrecisionClass::Deny, "loss-scaling state and gradients: fp32"};
  return {PrecisionClass::Unknown, "not in the policy: stays fp32"};
}

AutocastPlan mlir::amp::planAutocast(Operation *root) {
  AutocastPlan plan;
  root->walk([&](linalg::LinalgOp op) {
    if (classifyOp(op).cls != PrecisionClass::Allow ||
        !op.hasPureTensorSemantics())
      return;
    // The accumulator (init) and the result stay fp32; only f32 inputs are
    // demoted. Ops whose output is not f32 are left alone (already mixed).
    if (op.getNumDpsInits() != 1 ||
        !getElementTypeOrSelf(op.getDpsInits()[0].getType()).isF32())
      return;
    DemotedOp demoted{op, {}};
    for (OpOperand *in : op.getDpsInputOperands())
      if (isa<RankedTensorType>(in->get().getType()) &&
          getElementTypeOrSelf(in->get().getType()).isF32())
        demoted.operands.push_back(in->getOperandNumber());
    if (!demoted.operands.empty())
      plan.demoted.push_back(std::move(demoted));
  });
  return plan;
}
