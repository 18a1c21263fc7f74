//===- CPUBF16MemoryAsI16.cpp - amp-cpu-bf16-memory-as-i16 ----------------===//
//
// Vector loads and stores of bf16 in the LLVM dialect become loads and
// stores of i16 vectors, and the bitcast pairs this leaves fold away. See
// the pass description in CPU/Passes.td.
//
//===----------------------------------------------------------------------===//

#include "amp/CPU/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::amp {
#define GEN_PASS_DEF_CPUBF16MEMORYASI16
#include "amp/CPU/Passes.h.inc"
} // namespace mlir::amp

using namespace mlir;

/// `type` with i16 elements where it is a vector of bf16; null otherwise.
static VectorType bitsOf(Type type) {
  auto vector = dyn_cast<VectorType>(type);
  if (!vector || !vector.getElementType().isBF16())
    return {};
  return vector.clone(IntegerType::get(type.getContext(), 16));
}

namespace {
struct CPUBF16MemoryAsI16Pass
    : amp::impl::CPUBF16MemoryAsI16Base<CPUBF16MemoryAsI16Pass> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    SmallVector<LLVM::BitcastOp> casts;
    getOperation().walk([&](Operation *op) {
      if (auto load = dyn_cast<LLVM::LoadOp>(op)) {
        VectorType bits = bitsOf(load.getType());
        if (!bits)
          return;
        // The same load (alignment, volatility, ordering, metadata) of the
        // same bytes, typed i16.
        rewriter.setInsertionPoint(load);
        Operation *asBits = rewriter.clone(*load);
        asBits->getResult(0).setType(bits);
        rewriter.setInsertionPointAfter(asBits);
        auto cast = LLVM::BitcastOp::create(
            rewriter, load.getLoc(), load.getType(), asBits->getResult(0));
        rewriter.replaceOp(load, cast);
        casts.push_back(cast);
      } else if (auto store = dyn_cast<LLVM::StoreOp>(op)) {
        VectorType bits = bitsOf(store.getValue().getType());
        if (!bits)
          return;
        rewriter.setInsertionPoint(store);
        auto cast = LLVM::BitcastOp::create(rewriter, store.getLoc(), bits,
                                            store.getValue());
        rewriter.modifyOpInPlace(store,
                                 [&] { store.getValueMutable().assign(cast); });
        casts.push_back(cast);
      }
    });
    // A bitcast of a bitcast back to the first type is its source; the
    // casts left without uses go (each after those that read it).
    getOperation().walk([&](LLVM::BitcastOp cast) {
      auto source = cast.getArg().getDefiningOp<LLVM::BitcastOp>();
      if (source && source.getArg().getType() == cast.getType()) {
        rewriter.replaceAllUsesWith(cast.getResult(), source.getArg());
        casts.push_back(cast);
        casts.push_back(source);
      }
    });
    llvm::SmallPtrSet<Operation *, 32> erased;
    for (bool changed = true; changed;) {
      changed = false;
      for (LLVM::BitcastOp cast : casts)
        if (!erased.contains(cast) && cast.use_empty()) {
          erased.insert(cast);
          rewriter.eraseOp(cast);
          changed = true;
        }
    }
  }
};
} // namespace
