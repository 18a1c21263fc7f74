//===- CPUBF16MemoryAsI16.cpp - amp-cpu-bf16-memory-as-i16 ----------------===//
//
// Loads and stores of bf16 in the LLVM dialect (plain, masked, gathers
// and scatters) and selects of bf16 become the same ops on i16, and the bitcast
// pairs this leaves fold away. See the pass description in CPU/Passes.td.
//
//===----------------------------------------------------------------------===//

#include "amp/CPU/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::amp {
#define GEN_PASS_DEF_CPUBF16MEMORYASI16
#include "amp/CPU/Passes.h.inc"
} // namespace mlir::amp

using namespace mlir;

/// `type` with i16 in place of bf16 where it is bf16 or a vector of bf16;
/// null otherwise.
static Type bitsOf(Type type) {
  Type i16 = IntegerType::get(type.getContext(), 16);
  if (type.isBF16())
    return i16;
  auto vector = dyn_cast<VectorType>(type);
  if (!vector || !vector.getElementType().isBF16())
    return {};
  return vector.clone(i16);
}

namespace {
struct CPUBF16MemoryAsI16Pass
    : amp::impl::CPUBF16MemoryAsI16Base<CPUBF16MemoryAsI16Pass> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    SmallVector<LLVM::BitcastOp> casts;
    getOperation().walk([&](Operation *op) {
      // The memory ops: plain, masked (a row's tail: AVX2 has no 16-bit
      // masked load, so LLVM scalarizes it, and a scalarized bf16 one
      // calls `__truncsfbf2`, which the JIT does not have), gathers and
      // scatters; and selects (arith-expand's NaN case of an f32 -> bf16
      // rounding: without AVX512_BF16, LLVM does a select of bf16 lanes
      // one lane at a time).
      if (!isa<LLVM::LoadOp, LLVM::StoreOp, LLVM::MaskedLoadOp,
               LLVM::MaskedStoreOp, LLVM::masked_gather, LLVM::masked_scatter,
               LLVM::SelectOp>(op))
        return;
      auto isBF16 = [](Type type) { return bool(bitsOf(type)); };
      if (llvm::none_of(op->getOperandTypes(), isBF16) &&
          llvm::none_of(op->getResultTypes(), isBF16))
        return;
      // The same op (alignment, volatility, ordering, mask, metadata) on
      // the same bits, its bf16 operands and results typed i16.
      rewriter.setInsertionPoint(op);
      IRMapping asI16;
      for (Value operand : op->getOperands())
        if (Type bits = bitsOf(operand.getType());
            bits && !asI16.contains(operand)) {
          auto cast =
              LLVM::BitcastOp::create(rewriter, op->getLoc(), bits, operand);
          asI16.map(operand, cast.getResult());
          casts.push_back(cast);
        }
      Operation *asBits = rewriter.clone(*op, asI16);
      rewriter.setInsertionPointAfter(asBits);
      SmallVector<Value> results;
      for (OpResult result : asBits->getResults()) {
        Type bits = bitsOf(result.getType());
        if (!bits) {
          results.push_back(result);
          continue;
        }
        Type bf16 = result.getType();
        result.setType(bits);
        auto cast =
            LLVM::BitcastOp::create(rewriter, op->getLoc(), bf16, result);
        results.push_back(cast);
        casts.push_back(cast);
      }
      rewriter.replaceOp(op, results);
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
