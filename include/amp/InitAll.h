//===- InitAll.h - register everything of amp-mlir -------------*- C++ -*-===//
//
// One call for a tool: all upstream dialects, extensions (including the
// ConvertToLLVM interfaces that convert-to-llvm and convert-gpu-to-nvvm need)
// and passes, plus the amp dialect, passes and pipelines.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_INITALL_H
#define AMP_INITALL_H

#include "mlir/IR/DialectRegistry.h"

namespace mlir::amp {

/// Adds all upstream dialects and extensions and the amp dialect.
void registerAllDialectsAndExtensions(DialectRegistry &registry);

/// Registers the amp passes of every room (Transforms, Conversion, CPU, GPU)
/// and the amp pipelines; nothing of upstream (what a plugin of upstream
/// mlir-opt registers).
void registerAmpPassesAndPipelines();

/// Registers all upstream passes, the amp passes and the amp pipelines.
void registerAllPassesAndPipelines();

} // namespace mlir::amp

#endif // AMP_INITALL_H
