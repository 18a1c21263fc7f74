//===- CPUBF16IntCastsViaF32.cpp - amp-cpu-bf16-int-casts-via-f32 ---------===//
//
// Integer <-> bf16 conversions as integer <-> f32 conversions and an f32 <->
// bf16 cast, which arith-expand lowers without libcalls. See the pass
// description in CPU/Passes.td.
//
//===----------------------------------------------------------------------===//

#include "amp/CPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::amp {
#define GEN_PASS_DEF_CPUBF16INTCASTSVIAF32
#include "amp/CPU/Passes.h.inc"
} // namespace mlir::amp

using namespace mlir;

/// `type` (bf16 or a vector of it) with f32 elements; null for other types.
static Type f32Like(Type type) {
  Type f32 = Float32Type::get(type.getContext());
  if (type.isBF16())
    return f32;
  auto vector = dyn_cast<VectorType>(type);
  return vector && vector.getElementType().isBF16() ? vector.clone(f32)
                                                    : Type();
}

namespace {
struct CPUBF16IntCastsViaF32Pass
    : amp::impl::CPUBF16IntCastsViaF32Base<CPUBF16IntCastsViaF32Pass> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    getOperation().walk([&](Operation *op) {
      Location loc = op->getLoc();
      rewriter.setInsertionPoint(op);
      if (isa<arith::SIToFPOp, arith::UIToFPOp>(op)) {
        Type wide = f32Like(op->getResult(0).getType());
        if (!wide)
          return;
        // The same conversion (same op, same operand) to f32, then a cast.
        Operation *toF32 = rewriter.clone(*op);
        toF32->getResult(0).setType(wide);
        rewriter.replaceOpWithNewOp<arith::TruncFOp>(
            op, op->getResult(0).getType(), toF32->getResult(0));
        return;
      }
      if (isa<arith::FPToSIOp, arith::FPToUIOp>(op)) {
        Type wide = f32Like(op->getOperand(0).getType());
        if (!wide)
          return;
        Value extended =
            arith::ExtFOp::create(rewriter, loc, wide, op->getOperand(0));
        rewriter.modifyOpInPlace(op, [&] { op->setOperand(0, extended); });
      }
    });
  }
};
} // namespace
