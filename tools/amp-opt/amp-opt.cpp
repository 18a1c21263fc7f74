//===- amp-opt.cpp - mlir-opt with the amp dialect and passes -------------===//
//
// All upstream dialects and passes plus amp's; no logic of its own.
//
//===----------------------------------------------------------------------===//

#include "amp/InitAll.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::amp::registerAllDialectsAndExtensions(registry);
  mlir::amp::registerAllPassesAndPipelines();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "amp-mlir optimizer driver\n", registry));
}
