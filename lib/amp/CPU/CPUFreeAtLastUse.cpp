//===- CPUFreeAtLastUse.cpp - amp-cpu-free-at-last-use --------------------===//
//
// Upstream's ownership-based buffer deallocation frees a buffer at the end
// of the block that owns it, so every temporary of a training step lives
// until the step returns: the forward's activations, the backward's
// cotangents and the casts all at once. This pass moves each such free of
// the entry block to right after the buffer's last use. See the pass
// description in CPU/Passes.td.
//
//===----------------------------------------------------------------------===//

#include "amp/Analysis/BufferUses.h"
#include "amp/CPU/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace mlir::amp {
#define GEN_PASS_DEF_CPUFREEATLASTUSE
#include "amp/CPU/Passes.h.inc"
} // namespace mlir::amp

using namespace mlir;
using namespace mlir::amp;

/// The last op of `entry` that uses `alloc` or a view of it (an op whose
/// regions do counts as the user), other than `dealloc`; null when some use
/// could let the buffer's address escape the views: a terminator (a yield
/// or return of it or of a view), an op that is not a view and has
/// memref results (an arith.select or a call that may return it), or
/// memref.extract_aligned_pointer_as_index.
static Operation *lastUse(memref::AllocOp alloc, memref::DeallocOp dealloc,
                          Block &entry) {
  Operation *last = alloc;
  bool escapes = anyUseThroughViews(alloc, [&](OpOperand &use) {
    Operation *user = use.getOwner();
    if (user == dealloc)
      return false;
    // The buffer's address as an integer (the deallocation pipeline's
    // runtime alias checks compare such addresses later): a freed
    // buffer's address may come back for another one.
    if (user->hasTrait<OpTrait::IsTerminator>() ||
        llvm::any_of(user->getResultTypes(), llvm::IsaPred<BaseMemRefType>) ||
        isa<memref::ExtractAlignedPointerAsIndexOp>(user))
      return true;
    Operation *unit = entry.findAncestorOpInBlock(*user);
    if (!unit)
      return true;
    if (last->isBeforeInBlock(unit))
      last = unit;
    return false;
  });
  return escapes ? nullptr : last;
}

namespace {
struct CPUFreeAtLastUsePass
    : amp::impl::CPUFreeAtLastUseBase<CPUFreeAtLastUsePass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    Block &entry = func.getBody().front();
    SmallVector<std::pair<memref::DeallocOp, Operation *>> moves;
    for (auto alloc : entry.getOps<memref::AllocOp>()) {
      // Freed exactly once, unconditionally, in the entry block after it.
      memref::DeallocOp dealloc;
      bool once = true;
      for (Operation *user : alloc->getUsers())
        if (auto d = dyn_cast<memref::DeallocOp>(user)) {
          once = !dealloc && d->getBlock() == &entry;
          dealloc = d;
          if (!once)
            break;
        }
      if (!once || !dealloc || dealloc->isBeforeInBlock(alloc))
        continue;
      Operation *last = lastUse(alloc, dealloc, entry);
      if (last && last->isBeforeInBlock(dealloc) &&
          last->getNextNode() != dealloc)
        moves.push_back({dealloc, last});
    }
    for (auto [dealloc, last] : moves)
      dealloc->moveAfter(last);
  }
};
} // namespace
