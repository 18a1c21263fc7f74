//===- RebatchPass.cpp - amp-rebatch --------------------------------------===//

#include "amp/TrainStep/Passes.h"

#include "amp/TrainStep/Rebatch.h"
#include "amp/TrainStep/TrainStepOptions.h"

namespace mlir::amp {
#define GEN_PASS_DEF_REBATCH
#include "amp/TrainStep/Passes.h.inc"
} // namespace mlir::amp

using namespace mlir;
using namespace mlir::amp::trainstep;

namespace {

struct RebatchPass : amp::impl::RebatchBase<RebatchPass> {
  using RebatchBase::RebatchBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    std::optional<int64_t> size = parseBatch(batch);
    if (!size) {
      emitError(module.getLoc())
          << "amp-rebatch: batch=" << batch
          << ": must be a batch size >= 1 or dynamic (0 or no "
             "batch: the batch the model was traced at)";
      return signalPassFailure();
    }
    if (batchDim < 0 || batchDim > kMaxBatchDim) {
      emitError(module.getLoc())
          << "amp-rebatch: batch-dim=" << static_cast<int64_t>(batchDim)
          << ": must be a dimension index in [0, " << kMaxBatchDim
          << "] (PyTorch's batch_first=False layouts: 1)";
      return signalPassFailure();
    }
    if (*size == 0 && batchDim == 0)
      return;
    func::FuncOp model;
    if (!function.empty()) {
      model = module.lookupSymbol<func::FuncOp>(function);
      if (!model) {
        emitError(module.getLoc()) << "amp-rebatch: no func.func @" << function
                                   << " in the module (function=)";
        return signalPassFailure();
      }
    } else {
      SmallVector<func::FuncOp> candidates;
      for (auto fn : module.getOps<func::FuncOp>())
        if (fn.isPublic() && !fn.isDeclaration())
          candidates.push_back(fn);
      if (candidates.size() != 1) {
        emitError(module.getLoc())
            << "amp-rebatch: the module has " << candidates.size()
            << " public functions with a body; name the model "
               "with function=<name>";
        return signalPassFailure();
      }
      model = candidates.front();
    }
    int64_t index = input;
    if (index < 0) {
      for (auto [i, type] : llvm::enumerate(model.getArgumentTypes())) {
        auto tensor = dyn_cast<RankedTensorType>(type);
        if (tensor && isa<FloatType>(tensor.getElementType())) {
          index = i;
          break;
        }
      }
      if (index < 0) {
        emitError(model.getLoc())
            << "amp-rebatch: @" << model.getSymName()
            << " has no float tensor argument to take the batch "
               "from; name the input with input=<index>";
        return signalPassFailure();
      }
    }
    unsigned dim = static_cast<unsigned>(batchDim);
    if (failed(moveBatchFirst(model, {unsigned(index)}, {dim},
                              /*moveResults=*/true, "amp-rebatch")) ||
        (*size != 0 && failed(rebatch(model, {unsigned(index)}, *size,
                                      "amp-rebatch", {dim}))))
      signalPassFailure();
  }
};

} // namespace
