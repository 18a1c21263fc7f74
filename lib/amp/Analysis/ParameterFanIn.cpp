//===- ParameterFanIn.cpp - a parameter's fan-in from its use -------------===//

#include "amp/Analysis/ParameterFanIn.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/ADT/SmallVector.h"

using namespace mlir;

namespace {
/// A value that holds the parameter's elements, with the parameter dimension
/// behind each of its dimensions.
struct Alias {
  Value value;
  SmallVector<int64_t> paramDim;
};
} // namespace

/// True if `op` only converts each element of input 0 into the same place of
/// its result: all loops parallel, identity maps, one input and one init.
static bool isElementwiseCopy(linalg::GenericOp op) {
  if (op.getNumDpsInputs() != 1 || op.getNumDpsInits() != 1 ||
      op.getNumReductionLoops() != 0)
    return false;
  return llvm::all_of(op.getIndexingMapsArray(),
                      [](AffineMap m) { return m.isIdentity(); });
}

std::optional<int64_t> mlir::amp::contractionFanIn(Value param) {
  auto type = dyn_cast<RankedTensorType>(param.getType());
  if (!type || !type.hasStaticShape())
    return std::nullopt;
  SmallVector<Alias> work;
  Alias first{param, {}};
  for (int64_t d = 0; d < type.getRank(); ++d)
    first.paramDim.push_back(d);
  work.push_back(first);
  // Breadth first: the closest contraction decides.
  for (size_t next = 0; next < work.size() && work.size() < 64; ++next) {
    Alias alias = work[next];
    for (OpOperand &use : alias.value.getUses()) {
      Operation *user = use.getOwner();
      if (auto cast = dyn_cast<tensor::CastOp>(user)) {
        work.push_back({cast.getResult(), alias.paramDim});
        continue;
      }
      if (isa<arith::TruncFOp, arith::ExtFOp>(user)) {
        work.push_back({user->getResult(0), alias.paramDim});
        continue;
      }
      if (auto transpose = dyn_cast<linalg::TransposeOp>(user)) {
        if (use.get() != transpose.getInput())
          continue;
        Alias permuted{transpose->getResult(0), {}};
        for (int64_t p : transpose.getPermutation())
          permuted.paramDim.push_back(alias.paramDim[p]);
        work.push_back(permuted);
        continue;
      }
      auto linalgOp = dyn_cast<linalg::LinalgOp>(user);
      if (!linalgOp || !linalgOp.isDpsInput(&use))
        continue;
      if (auto generic = dyn_cast<linalg::GenericOp>(user);
          generic && isElementwiseCopy(generic)) {
        work.push_back({generic->getResult(0), alias.paramDim});
        continue;
      }
      if (!linalg::isaContractionOpInterface(linalgOp) &&
          !linalg::isaConvolutionOpInterface(linalgOp))
        continue;
      AffineMap map = linalgOp.getMatchingIndexingMap(&use);
      SmallVector<utils::IteratorType> iterators =
          linalgOp.getIteratorTypesArray();
      int64_t fanIn = 1;
      bool reduces = false;
      for (auto [i, expr] : llvm::enumerate(map.getResults())) {
        auto dim = dyn_cast<AffineDimExpr>(expr);
        if (!dim || i >= alias.paramDim.size())
          continue;
        if (iterators[dim.getPosition()] == utils::IteratorType::reduction) {
          fanIn *= type.getDimSize(alias.paramDim[i]);
          reduces = true;
        }
      }
      if (reduces)
        return fanIn;
    }
  }
  return std::nullopt;
}
