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

/// Whether `use` (of a buffer or of a view of it) only reads or writes
/// its elements, or its shape, and keeps nothing of it for later: a linalg
/// op on buffers, memref.load/dim/copy, memref.store into it (not of it),
/// vector loads and stores through it. Anything else (a call, a cast to
/// another type system, bufferization.to_tensor, memref.store of the
/// buffer itself, its address as an integer, a terminator) might carry
/// the address past the last use that can be seen here.
static bool isPlainAccess(OpOperand &use) {
  Operation *op = use.getOwner();
  if (isa<linalg::LinalgOp, memref::LoadOp, memref::DimOp, memref::CopyOp,
          vector::TransferReadOp, vector::LoadOp, vector::MaskedLoadOp>(op))
    return true;
  if (auto store = dyn_cast<memref::StoreOp>(op))
    return use.get() != store.getValueToStore();
  return isa<vector::TransferWriteOp, vector::StoreOp, vector::MaskedStoreOp>(
      op);
}

/// Whether every op between `user` and its ancestor `unit` in the entry
/// block runs its regions before `unit` completes (loops, branches,
/// alloca scopes): then the last use is over when `unit` is.
static bool completesWithin(Operation *user, Operation *unit) {
  for (Operation *op = user->getParentOp(); op && op != unit->getParentOp();
       op = op->getParentOp())
    if (!isa<scf::ForOp, scf::ParallelOp, scf::IfOp, scf::WhileOp,
             scf::ExecuteRegionOp, scf::IndexSwitchOp, memref::AllocaScopeOp>(
            op))
      return false;
  return true;
}

/// The last op of `entry` that uses `alloc` or a view of it (an op whose
/// regions do counts as the user), other than `dealloc`; null unless every
/// use is a plain access (isPlainAccess) inside loops and branches only
/// (completesWithin), so that no later use can hide behind an escape.
static Operation *lastUse(memref::AllocOp alloc, memref::DeallocOp dealloc,
                          Block &entry) {
  Operation *last = alloc;
  bool escapes = anyUseThroughViews(alloc, [&](OpOperand &use) {
    Operation *user = use.getOwner();
    if (user == dealloc)
      return false;
    Operation *unit = entry.findAncestorOpInBlock(*user);
    if (!unit || !isPlainAccess(use) || !completesWithin(user, unit))
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
