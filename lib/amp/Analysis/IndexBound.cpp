//===- IndexBound.cpp - how far an integer input may index ----------------===//

#include "amp/Analysis/IndexBound.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/ADT/DenseSet.h"

#include <algorithm>

using namespace mlir;

std::optional<int64_t> mlir::amp::indexBound(Value input) {
  std::optional<int64_t> bound;
  llvm::DenseSet<Value> seen;
  SmallVector<Value> worklist;
  auto add = [&](Value v) {
    if (seen.insert(v).second)
      worklist.push_back(v);
  };
  // Dimension `d` of `tensor` is indexed by a value derived from the input.
  auto indexes = [&](Value tensor, unsigned d) {
    auto type = dyn_cast<RankedTensorType>(tensor.getType());
    if (!type || type.isDynamicDim(d))
      return;
    int64_t size = type.getDimSize(d);
    bound = bound ? std::min(*bound, size) : size;
  };
  add(input);
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    for (OpOperand &use : v.getUses()) {
      Operation *user = use.getOwner();
      unsigned n = use.getOperandNumber();
      if (auto extract = dyn_cast<tensor::ExtractOp>(user)) {
        if (n == 0)
          add(extract.getResult()); // an element of the ids
        else
          indexes(extract.getTensor(), n - 1);
        continue;
      }
      if (auto insert = dyn_cast<tensor::InsertOp>(user)) {
        if (n >= 2)
          indexes(insert.getDest(), n - 2);
        continue;
      }
      if (auto generic = dyn_cast<linalg::GenericOp>(user)) {
        if (generic.isDpsInput(&use))
          add(generic.getMatchingBlockArgument(&use));
        continue;
      }
      // Named ops that only move the ids (a sequence-first model's ids
      // transposed back to [S, B] at the entry, batch-dim=).
      if (isa<linalg::TransposeOp, linalg::CopyOp, linalg::BroadcastOp>(user)) {
        if (cast<linalg::LinalgOp>(user).isDpsInput(&use))
          add(user->getResult(0));
        continue;
      }
      if (auto cmp = dyn_cast<arith::CmpIOp>(user)) {
        // A one-hot encoding: `id == linalg.index d` (through casts) in a
        // generic selects along loop dimension d, whose static size bounds
        // the ids that select anything.
        Value other = cmp->getOperand(1 - n);
        while (Operation *def = other.getDefiningOp()) {
          if (!isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
                   arith::ExtUIOp, arith::TruncIOp>(def))
            break;
          other = def->getOperand(0);
        }
        auto index = other.getDefiningOp<linalg::IndexOp>();
        auto generic = index ? dyn_cast<linalg::GenericOp>(index->getParentOp())
                             : linalg::GenericOp();
        if (cmp.getPredicate() == arith::CmpIPredicate::eq && generic) {
          SmallVector<int64_t> ranges = generic.getStaticLoopRanges();
          int64_t size = ranges[index.getDim()];
          if (!ShapedType::isDynamic(size))
            bound = bound ? std::min(*bound, size) : size;
        }
        continue;
      }
      if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
              arith::ExtUIOp, arith::TruncIOp, tensor::CollapseShapeOp,
              tensor::ExpandShapeOp, tensor::ExtractSliceOp, tensor::CastOp,
              tensor::ReshapeOp>(user) &&
          n == 0) {
        add(user->getResult(0));
        continue;
      }
    }
  }
  return bound;
}
