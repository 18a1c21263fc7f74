//===- InitAll.cpp - register everything of amp-mlir ----------------------===//

#include "amp/InitAll.h"

#include "amp/Autodiff/Implementations.h"
#include "amp/Autodiff/Passes.h"
#include "amp/CPU/Passes.h"
#include "amp/Conversion/Passes.h"
#include "amp/Dialect/Amp/IR/AmpDialect.h"
#include "amp/Distributed/Passes.h"
#include "amp/GPU/Passes.h"
#include "amp/Pipelines/Pipelines.h"
#include "amp/Raising/Passes.h"
#include "amp/TrainStep/Passes.h"
#include "amp/Transforms/Passes.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"

void mlir::amp::registerAllDialectsAndExtensions(DialectRegistry &registry) {
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerAllToLLVMIRTranslations(registry);
  registry.insert<AmpDialect>();
  registerMPIMemoryEffects(registry);
  autodiff::registerAutodiffExternalModels(registry);
}

void mlir::amp::registerAmpPassesAndPipelines() {
  registerAmpPasses();
  registerAmpConversionPasses();
  registerAmpCPUPasses();
  registerAmpGPUPasses();
  registerAmpDistributedPasses();
  registerAmpAutodiffPasses();
  registerAmpRaisingPasses();
  registerAmpTrainStepPasses();
  registerAmpPipelines();
  registerAmpGPUPipelines();
}

void mlir::amp::registerAllPassesAndPipelines() {
  registerAllPasses();
  registerAmpPassesAndPipelines();
}
