//===- BufferUses.cpp - a buffer's uses through its views -----------------===//

#include "amp/Analysis/BufferUses.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/SmallVector.h"

#include <limits>

using namespace mlir;

bool mlir::amp::anyUseThroughViews(Value buffer,
                                   llvm::function_ref<bool(OpOperand &)> pred) {
  SmallVector<Value> worklist{buffer};
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    for (OpOperand &use : v.getUses()) {
      auto view = dyn_cast<ViewLikeOpInterface>(use.getOwner());
      if (view && view.getViewSource() == v) {
        worklist.push_back(view->getResult(0));
        continue;
      }
      if (pred(use))
        return true;
    }
  }
  return false;
}

Value mlir::amp::viewRoot(Value v) {
  while (auto view = v.getDefiningOp<ViewLikeOpInterface>())
    v = view.getViewSource();
  return v;
}

/// The memory a memref value can reach: within the buffer `root`, bytes
/// [start, end) when `known` (the root itself: all of it).
namespace {
struct Footprint {
  Value root;
  bool known = true;
  int64_t start = 0, end = std::numeric_limits<int64_t>::max();
};
} // namespace

/// The bytes of a static, identity-layout memref of int or float elements.
static std::optional<int64_t> staticBytes(MemRefType type) {
  if (!type.hasStaticShape() || !type.getLayout().isIdentity() ||
      !type.getElementType().isIntOrFloat())
    return std::nullopt;
  return type.getNumElements() * ((type.getElementTypeBitWidth() + 7) / 8);
}

/// `value`'s footprint. A memref.view (an amp-cpu-plan-buffers arena
/// slot) with a constant shift and a static type narrows it; views that
/// stay inside their source (subview, cast, expand/collapse_shape,
/// transpose) keep their source's; any other view (reinterpret_cast can
/// reach outside its source) makes it unknown within the root.
static Footprint footprint(Value value) {
  Operation *def = value.getDefiningOp();
  if (auto view = dyn_cast_or_null<memref::ViewOp>(def)) {
    Footprint source = footprint(view.getSource());
    std::optional<int64_t> shift = getConstantIntValue(view.getByteShift());
    std::optional<int64_t> bytes = staticBytes(view.getType());
    if (!source.known || !shift || !bytes) {
      source.known = false;
      return source;
    }
    source.start += *shift;
    source.end = source.start + *bytes;
    return source;
  }
  if (isa_and_nonnull<memref::SubViewOp, memref::CastOp, memref::ExpandShapeOp,
                      memref::CollapseShapeOp, memref::TransposeOp>(def))
    return footprint(cast<ViewLikeOpInterface>(def).getViewSource());
  if (auto view = dyn_cast_or_null<ViewLikeOpInterface>(def)) {
    Footprint source = footprint(view.getViewSource());
    source.known = false;
    return source;
  }
  return Footprint{value};
}

/// Whether `root` is an argument of the function it is in.
static bool isFunctionArgument(Value root) {
  auto arg = dyn_cast<BlockArgument>(root);
  return arg && arg.getOwner()->isEntryBlock() &&
         isa<FunctionOpInterface>(arg.getOwner()->getParentOp());
}

/// Whether `root` is an allocation of the function.
static bool isAllocation(Value root) {
  return isa_and_nonnull<memref::AllocOp, memref::AllocaOp>(
      root.getDefiningOp());
}

bool mlir::amp::mayShareBytes(Value a, Value b) {
  Footprint fa = footprint(a), fb = footprint(b);
  if (fa.root != fb.root) {
    // Allocations are apart from everything else; arguments from each
    // other (the training step's contract); globals from each other by
    // name. A global may be an argument's memory, and anything else (an
    // arith.select of buffers, a call result) may be any buffer.
    auto named = [](Value root) {
      return isAllocation(root) || isFunctionArgument(root) ||
             root.getDefiningOp<memref::GetGlobalOp>();
    };
    if (isAllocation(fa.root) || isAllocation(fb.root))
      return !named(fa.root) || !named(fb.root);
    if (isFunctionArgument(fa.root) && isFunctionArgument(fb.root))
      return false;
    auto ga = fa.root.getDefiningOp<memref::GetGlobalOp>();
    auto gb = fb.root.getDefiningOp<memref::GetGlobalOp>();
    if (ga && gb)
      return ga.getName() == gb.getName();
    return true;
  }
  if (!fa.known || !fb.known)
    return true;
  return fa.start < fb.end && fb.start < fa.end;
}
