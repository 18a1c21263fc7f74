//===- Implementations.cpp - adjoint rules per dialect --------------------===//

#include "amp/Autodiff/Implementations.h"

void mlir::amp::autodiff::registerAutodiffExternalModels(
    DialectRegistry &registry) {
  registerArithAutodiffExternalModels(registry);
  registerFuncAutodiffExternalModels(registry);
  registerLinalgAutodiffExternalModels(registry);
  registerMathAutodiffExternalModels(registry);
  registerSCFAutodiffExternalModels(registry);
  registerTensorAutodiffExternalModels(registry);
}
