//===- BufferUses.cpp - a buffer's uses through its views -----------------===//

#include "amp/Analysis/BufferUses.h"

#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/SmallVector.h"

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
