//===- AmpMLIRPlugin.cpp - amp passes and dialect for any mlir-opt --------===//
//
// A shared library that upstream tools load at run time:
//   mlir-opt-22 --load-dialect-plugin=libAmpMLIRPlugin.so \
//               --load-pass-plugin=libAmpMLIRPlugin.so \
//               --pass-pipeline='builtin.module(amp-mixed-precision)' step.mlir
// The dialect plugin adds the `amp` dialect (needed to parse amp.loss_grad
// and amp.grad); the pass plugin registers every amp pass and the
// amp-mixed-precision / amp-lower-to-llvm pipelines. The host tool must link
// the same shared libMLIR.so (Debian's mlir-opt-22 does).
//
//===----------------------------------------------------------------------===//

#include "amp/Autodiff/Implementations.h"
#include "amp/Autodiff/Passes.h"
#include "amp/Dialect/Amp/IR/AmpDialect.h"
#include "amp/InitAll.h"
#include "amp/Pipelines/Pipelines.h"
#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "mlir/Tools/Plugins/PassPlugin.h"

extern "C" LLVM_ATTRIBUTE_WEAK mlir::DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "AmpMLIR", "0.1",
          [](mlir::DialectRegistry *registry) {
            registry->insert<mlir::amp::AmpDialect>();
            mlir::amp::autodiff::registerAutodiffExternalModels(*registry);
          }};
}

extern "C" LLVM_ATTRIBUTE_WEAK mlir::PassPluginLibraryInfo
mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "AmpMLIR", "0.1",
          []() { mlir::amp::registerAmpPassesAndPipelines(); }};
}
