//===- BuildTrainStepPass.cpp - amp-build-train-step ----------------------===//

#include "amp/TrainStep/Passes.h"

#include "amp/TrainStep/BuildTrainStep.h"

namespace mlir::amp {
#define GEN_PASS_DEF_BUILDTRAINSTEP
#include "amp/TrainStep/Passes.h.inc"
} // namespace mlir::amp

using namespace mlir;
using namespace mlir::amp::trainstep;

namespace {

struct BuildTrainStepPass : amp::impl::BuildTrainStepBase<BuildTrainStepPass> {
  using BuildTrainStepBase::BuildTrainStepBase;

  void runOnOperation() override {
    TrainStepOptions options;
    options.function = function;
    options.params.assign(params.begin(), params.end());
    options.minElements = minElements;
    options.frozen.assign(frozen.begin(), frozen.end());
    options.freezeRunningStats = freezeRunningStats;
    options.input = input;
    options.output = output;
    options.batch = batch;
    options.batchDim.assign(batchDim.begin(), batchDim.end());
    options.inputs.assign(inputs.begin(), inputs.end());
    options.loss = loss;
    options.optimizer = optimizer;
    options.lr = lr;
    options.momentum = momentum;
    options.beta1 = beta1;
    options.beta2 = beta2;
    options.eps = eps;
    options.weightDecay = weightDecay;
    options.evalStep = evalStep;
    options.raiseSoftmax = raiseSoftmax;
    if (failed(buildTrainStep(getOperation(), options)))
      signalPassFailure();
  }
};

} // namespace
