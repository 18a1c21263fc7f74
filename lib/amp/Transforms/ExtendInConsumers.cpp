//===- ExtendInConsumers.cpp - amp-extend-in-consumers --------------------===//
//
// After autocast, an f32 op that reads a low-precision value reads it
// through one `arith.extf` of the whole tensor: a second, f32 copy of the
// value (4 bytes per element next to the 2 of the value itself) that lives
// until its last reader. Where the reader is a linalg.generic, this pass
// lets it read the f16/bf16 tensor and widen each element in its body, as
// PyTorch's kernels load a half value and compute in float (the "opmath"
// convention). The widening is exact, so the results are the same bits.
// See the pass description in Transforms/Passes.td.
//
//===----------------------------------------------------------------------===//

#include "amp/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace mlir::amp {
#define GEN_PASS_DEF_EXTENDINCONSUMERS
#include "amp/Transforms/Passes.h.inc"
} // namespace mlir::amp

using namespace mlir;
using namespace mlir::amp;

/// Lets every linalg.generic on tensors that reads `ext`'s result as an
/// input read `ext`'s operand instead, widened in its body; erases `ext`
/// when nothing else reads it.
static void extendInConsumers(arith::ExtFOp ext) {
  Value narrow = ext.getIn();
  Type wide = getElementTypeOrSelf(ext.getType());
  Type narrowElement = getElementTypeOrSelf(narrow.getType());
  for (OpOperand &use : llvm::make_early_inc_range(ext->getUses())) {
    auto generic = dyn_cast<linalg::GenericOp>(use.getOwner());
    if (!generic || !generic.hasPureTensorSemantics() ||
        !generic.isDpsInput(&use))
      continue;
    BlockArgument arg = generic.getMatchingBlockArgument(&use);
    arg.setType(narrowElement);
    OpBuilder b = OpBuilder::atBlockBegin(arg.getOwner());
    auto widened = arith::ExtFOp::create(b, ext.getLoc(), wide, arg,
                                         ext.getFastmathAttr());
    arg.replaceAllUsesExcept(widened.getResult(), widened);
    use.set(narrow);
  }
  if (ext->use_empty())
    ext->erase();
}

namespace {
struct ExtendInConsumersPass
    : amp::impl::ExtendInConsumersBase<ExtendInConsumersPass> {
  void runOnOperation() override {
    SmallVector<arith::ExtFOp> exts;
    getOperation()->walk([&](arith::ExtFOp ext) {
      if (isa<RankedTensorType>(ext.getType()))
        exts.push_back(ext);
    });
    for (arith::ExtFOp ext : exts)
      extendInConsumers(ext);
  }
};
} // namespace
