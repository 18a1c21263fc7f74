//===- CPUPlanBuffers.cpp - amp-cpu-plan-buffers --------------------------===//
//
// Static memory planning for a bufferized step on the CPU: the temporary
// buffers of the function's top level share one allocation (an arena),
// each at an offset chosen so that buffers alive at the same time never
// overlap. See the pass description in CPU/Passes.td.
//
//===----------------------------------------------------------------------===//

#include "amp/Analysis/BufferUses.h"
#include "amp/Analysis/MemoryReport.h"
#include "amp/CPU/Passes.h"
#include "amp/Support/Counts.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/MathExtras.h"

#include <functional>
#include <limits>

namespace mlir::amp {
#define GEN_PASS_DEF_CPUPLANBUFFERS
#include "amp/CPU/Passes.h.inc"
} // namespace mlir::amp

using namespace mlir;
using namespace mlir::amp;

namespace {
/// One temporary: its allocation and free (ops of the entry block), their
/// positions there, its size and alignment in bytes, and its offset in the
/// arena once placed.
struct Temporary {
  memref::AllocOp alloc;
  memref::DeallocOp dealloc;
  int64_t begin = 0, end = 0;
  int64_t bytes = 0, alignment = 0;
  int64_t offset = -1;

  bool overlapsInTime(const Temporary &other) const {
    return begin <= other.end && other.begin <= end;
  }
};
} // namespace

/// The size in bytes of a static memref of `type`, if the planner can place
/// it: identity layout, default memory space, an integer or float element
/// of 1, 2, 4 or 8 bytes (not i1 or i24, whose storage the lowering
/// decides, nor index, whose width the data layout does).
static std::optional<int64_t> plannableBytes(MemRefType type) {
  if (!type.hasStaticShape() || !type.getLayout().isIdentity() ||
      type.getMemorySpace())
    return std::nullopt;
  // Only 8, 16, 32 and 64-bit elements, whose storage is their width: LLVM
  // stores an i24 in 4 bytes and an f80 in 16 (break-it, 2026-12-02: i24
  // views overlapped and ran past the arena).
  Type elem = type.getElementType();
  if (!elem.isIntOrFloat() ||
      !llvm::is_contained(std::initializer_list<unsigned>{8, 16, 32, 64},
                          elem.getIntOrFloatBitWidth()))
    return std::nullopt;
  // (Sizes past 2^48 bytes are left to malloc, and keep the arena's sum
  // from overflowing.)
  std::optional<int64_t> bytes = llvm::checkedMul<int64_t>(
      type.getNumElements(), elem.getIntOrFloatBitWidth() / 8);
  if (!bytes || *bytes > (int64_t(1) << 48))
    return std::nullopt;
  return bytes;
}

/// Offsets for `temps` placed one by one in `order`, each at the lowest
/// offset where it overlaps no placed buffer that is alive at the same
/// time. Returns the arena's size in bytes.
static int64_t placeInOrder(ArrayRef<Temporary *> order) {
  int64_t total = 0;
  SmallVector<const Temporary *> placed;
  for (Temporary *t : order) {
    SmallVector<const Temporary *> live;
    for (const Temporary *p : placed)
      if (p->overlapsInTime(*t))
        live.push_back(p);
    llvm::sort(live, [](const Temporary *x, const Temporary *y) {
      return x->offset < y->offset;
    });
    int64_t offset = 0;
    for (const Temporary *p : live) {
      if (static_cast<int64_t>(llvm::alignTo(offset, t->alignment)) +
              t->bytes <=
          p->offset)
        break;
      offset = std::max(offset, p->offset + p->bytes);
    }
    t->offset = llvm::alignTo(offset, t->alignment);
    total = std::max(total, t->offset + t->bytes);
    placed.push_back(t);
  }
  return total;
}

/// TensorFlow Lite's "greedy by breadth" order (Pisarchyk and Lee, below):
/// the points where a temporary is allocated, the widest first (the most
/// bytes alive there; the earlier of equal ones), and at each the
/// temporaries alive there and not yet ordered, the largest first. The
/// busiest moments of the step are packed first, so the arena follows the
/// live bytes where sizes alone leave gaps between them (the
/// examples/pytorch CNN's f16 step at batch 512: a 26.1 MB arena, 28.2 MB
/// in the best of the other orders).
static SmallVector<Temporary *> breadthOrder(MutableArrayRef<Temporary> temps) {
  SmallVector<Temporary *> bySize;
  for (Temporary &t : temps)
    bySize.push_back(&t);
  llvm::stable_sort(bySize, [](const Temporary *x, const Temporary *y) {
    return x->bytes > y->bytes;
  });
  // (breadth, point) per allocation point.
  SmallVector<std::pair<int64_t, int64_t>> points;
  for (const Temporary &t : temps) {
    int64_t breadth = 0;
    for (const Temporary &other : temps)
      if (other.begin <= t.begin && t.begin <= other.end)
        breadth = saturatingAdd(breadth, other.bytes);
    points.emplace_back(breadth, t.begin);
  }
  llvm::stable_sort(points, [](const auto &x, const auto &y) {
    return x.first != y.first ? x.first > y.first : x.second < y.second;
  });
  SmallVector<Temporary *> order;
  llvm::SmallPtrSet<Temporary *, 32> ordered;
  for (auto [breadth, point] : points)
    for (Temporary *t : bySize)
      if (t->begin <= point && point <= t->end && ordered.insert(t).second)
        order.push_back(t);
  return order;
}

/// Offsets for `temps`: TensorFlow Lite's "greedy by size" arena planner
/// (the largest first; Pisarchyk and Lee, "Efficient Memory Management for
/// Deep Neural Net Inference", 2020), the same first fit in four other
/// orders, keeping the smallest arena (the first of equal ones):
/// - by size, equal sizes the longest-lived first (as XLA's
///   GlobalDecreasingSizeBestFitHeap sorts): the examples/pytorch
///   transformer's f16 step, whose attention buffers come in equal sizes,
///   gets a 2.51 MB arena where program order gave 2.63 MB;
/// - the longest-lived first;
/// - by size times lifetime;
/// - the paper's "greedy by breadth" (breadthOrder).
/// Returns the arena's size in bytes.
static int64_t place(MutableArrayRef<Temporary> temps) {
  using Key = std::function<std::pair<int64_t, int64_t>(const Temporary *)>;
  const Key keys[] = {
      [](const Temporary *t) { return std::make_pair(t->bytes, int64_t(0)); },
      [](const Temporary *t) {
        return std::make_pair(t->bytes, t->end - t->begin);
      },
      [](const Temporary *t) {
        return std::make_pair(t->end - t->begin, t->bytes);
      },
      [](const Temporary *t) {
        return std::make_pair(t->bytes * (t->end - t->begin + 1), t->bytes);
      }};
  SmallVector<SmallVector<Temporary *>> orders;
  for (const Key &key : keys) {
    SmallVector<Temporary *> &order = orders.emplace_back();
    for (Temporary &t : temps)
      order.push_back(&t);
    llvm::stable_sort(order, [&](const Temporary *x, const Temporary *y) {
      return key(x) > key(y);
    });
  }
  orders.push_back(breadthOrder(temps));
  int64_t best = -1;
  SmallVector<int64_t> bestOffsets;
  for (ArrayRef<Temporary *> order : orders) {
    int64_t total = placeInOrder(order);
    if (best < 0 || total < best) {
      best = total;
      bestOffsets.clear();
      for (const Temporary &t : temps)
        bestOffsets.push_back(t.offset);
    }
  }
  for (auto [t, offset] : llvm::zip_equal(temps, bestOffsets))
    t.offset = offset;
  return best;
}

/// Whether `buffer` or a view of it is the init of a linalg op with
/// reduction loops. Such an op becomes a loop nest that loads, updates and
/// stores its output element in the innermost loop, and LLVM keeps that
/// element in a register only if it can prove that the loop's other
/// accesses never touch it. Two views of one arena defeat that proof
/// where two mallocs (noalias) did not, so such buffers keep their own
/// allocation (the transformer block's batched attention contractions
/// became twice as slow on one thread otherwise).
static bool isReductionInit(Value buffer) {
  return anyUseThroughViews(buffer, [](OpOperand &use) {
    auto linalgOp = dyn_cast<linalg::LinalgOp>(use.getOwner());
    return linalgOp && linalgOp.isDpsInit(&use) &&
           linalgOp.getNumReductionLoops() > 0;
  });
}

/// The most bytes of entry-block allocations (the arena and the buffers
/// left their own) allocated at once in `entry`, in program order, each
/// counted as amp-memory-report counts a value (bytesOf); a buffer that no
/// entry-block dealloc frees counts to the end. Nothing when some
/// entry-block allocation has no static size.
static std::optional<int64_t> bufferPeak(Block &entry) {
  int64_t live = 0, peak = 0;
  for (Operation &op : entry) {
    if (auto alloc = dyn_cast<memref::AllocOp>(&op)) {
      std::optional<int64_t> bytes = bytesOf(alloc.getType());
      if (!bytes)
        return std::nullopt;
      live = saturatingAdd(live, *bytes);
      peak = std::max(peak, live);
    } else if (auto dealloc = dyn_cast<memref::DeallocOp>(&op)) {
      auto alloc = dealloc.getMemref().getDefiningOp<memref::AllocOp>();
      if (alloc && alloc->getBlock() == &entry &&
          live != std::numeric_limits<int64_t>::max())
        live -= bytesOf(alloc.getType()).value_or(0);
    }
  }
  return peak;
}

/// Records bufferPeak on `func` as `amp.cpu_buffer_peak` (bytes, i64), for
/// amp-run's memory lines; removes a stale one when there is none.
static void recordBufferPeak(func::FuncOp func) {
  if (std::optional<int64_t> peak = bufferPeak(func.getBody().front()))
    func->setAttr(
        kCpuBufferPeakAttr,
        IntegerAttr::get(IntegerType::get(func.getContext(), 64), *peak));
  else
    func->removeAttr(kCpuBufferPeakAttr);
}

/// Whether `buffer` or a view of it reaches the terminator of `block`
/// (yielded out of a loop iteration).
static bool escapesBlock(Value buffer, Block *block) {
  for (OpOperand &use : buffer.getUses()) {
    Operation *user = use.getOwner();
    if (user == block->getTerminator())
      return true;
    if (auto view = dyn_cast<ViewLikeOpInterface>(user);
        view && view.getViewSource() == buffer &&
        llvm::any_of(user->getResults(),
                     [&](Value result) { return escapesBlock(result, block); }))
      return true;
  }
  return false;
}

/// Moves the temporaries of `scf.for` bodies out of their loops, innermost
/// first and out of every enclosing `scf.for` up to the entry block: a
/// static `memref.alloc` (no operands) of a loop body, freed by exactly one
/// `memref.dealloc` in the same body and not yielded, is allocated before
/// the loop and freed after it. Every iteration then reuses one buffer
/// (the packs of a convolution's per-image GEMMs), whose contents before
/// the iteration's first write were undefined and still are. Not out of
/// `scf.parallel` (each thread needs its own) or other regions.
static void hoistLoopTemporaries(func::FuncOp func) {
  // Collected first, moved after the walk (moving a body's ops while the
  // walk iterates the body would lose its place).
  for (bool moved = true; moved;) {
    SmallVector<std::tuple<memref::AllocOp, memref::DeallocOp, scf::ForOp>>
        hoist;
    func.walk([&](memref::AllocOp alloc) {
      auto loop = dyn_cast<scf::ForOp>(alloc->getParentOp());
      if (!loop || alloc->getNumOperands() != 0 ||
          !alloc.getType().hasStaticShape())
        return;
      Block *body = alloc->getBlock();
      memref::DeallocOp dealloc;
      for (Operation *user : alloc->getUsers())
        if (auto d = dyn_cast<memref::DeallocOp>(user)) {
          if (dealloc || d->getBlock() != body)
            return;
          dealloc = d;
        }
      if (!dealloc || escapesBlock(alloc, body))
        return;
      hoist.emplace_back(alloc, dealloc, loop);
    });
    for (auto [alloc, dealloc, loop] : hoist) {
      alloc->moveBefore(loop);
      dealloc->moveAfter(loop);
    }
    moved = !hoist.empty();
  }
}

namespace {
struct CPUPlanBuffersPass : amp::impl::CPUPlanBuffersBase<CPUPlanBuffersPass> {
  using Base::Base;
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (minAlignment < 1 || !llvm::isPowerOf2_64(minAlignment)) {
      mlir::emitError(func.getLoc(), "amp-cpu-plan-buffers: min-alignment "
                                     "must be a power of 2");
      return signalPassFailure();
    }
    if (func.isExternal())
      return;
    hoistLoopTemporaries(func);
    Block &entry = func.getBody().front();
    llvm::DenseMap<Operation *, int64_t> position;
    int64_t index = 0;
    for (Operation &op : entry)
      position[&op] = index++;

    SmallVector<Temporary> temps;
    for (Operation &op : entry) {
      auto alloc = dyn_cast<memref::AllocOp>(&op);
      if (!alloc)
        continue;
      std::optional<int64_t> bytes = plannableBytes(alloc.getType());
      if (!bytes || *bytes == 0 || isReductionInit(alloc))
        continue;
      // Freed exactly once, by a dealloc of the entry block after it: the
      // buffer (and every view of it) is dead after that point, so the
      // memory can serve a later buffer.
      memref::DeallocOp dealloc;
      bool plannable = true;
      for (Operation *user : alloc->getUsers()) {
        auto d = dyn_cast<memref::DeallocOp>(user);
        if (!d)
          continue;
        if (dealloc || d->getBlock() != &entry)
          plannable = false;
        dealloc = d;
      }
      if (!plannable || !dealloc)
        continue;
      // At least the element's size (plannableBytes: 1, 2, 4 or 8 bytes),
      // which the lowered loads and stores assume, whatever min-alignment
      // says (break-it, 2026-12-06: min-alignment=1 put an f64 buffer at
      // byte 35).
      int64_t own = static_cast<int64_t>(alloc.getAlignment().value_or(1));
      int64_t element =
          static_cast<int64_t>(alloc.getType().getElementTypeBitWidth() / 8);
      int64_t alignment = std::max<int64_t>({minAlignment, own, element});
      // (An alignment past a page is left to malloc.)
      if (!llvm::isPowerOf2_64(alignment) || alignment > 4096)
        continue;
      temps.push_back({alloc, dealloc, position[alloc], position[dealloc],
                       *bytes, alignment});
    }
    if (temps.size() < 2)
      return recordBufferPeak(func);
    int64_t total = place(temps);

    // The arena: allocated before the first temporary, freed right after
    // the last free of a temporary.
    OpBuilder b(temps.front().alloc);
    Location loc = func.getLoc();
    int64_t arenaAlignment = 1;
    for (const Temporary &t : temps)
      arenaAlignment = std::max(arenaAlignment, t.alignment);
    auto arenaType = MemRefType::get({total}, b.getI8Type());
    Value arena = memref::AllocOp::create(b, loc, arenaType, ValueRange{},
                                          b.getI64IntegerAttr(arenaAlignment));
    Operation *lastFree = temps.front().dealloc;
    for (const Temporary &t : temps)
      if (lastFree->isBeforeInBlock(t.dealloc))
        lastFree = t.dealloc;
    b.setInsertionPointAfter(lastFree);
    memref::DeallocOp::create(b, loc, arena);

    for (Temporary &t : temps) {
      b.setInsertionPoint(t.alloc);
      Value offset =
          arith::ConstantIndexOp::create(b, t.alloc.getLoc(), t.offset);
      Value view = memref::ViewOp::create(
          b, t.alloc.getLoc(), t.alloc.getType(), arena, offset, ValueRange{});
      t.dealloc->erase();
      t.alloc.replaceAllUsesWith(view);
      t.alloc->erase();
    }
    recordBufferPeak(func);
  }
};
} // namespace
