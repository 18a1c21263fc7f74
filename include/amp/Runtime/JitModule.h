//===- JitModule.h - JIT-compile and call lowered steps ---------*- C++ -*-===//
//
// Lowers a tensor-level module with amp's CPU pipeline
// (Pipelines/buildLowerToLLVMPipeline) and JIT-compiles it with MLIR's
// ExecutionEngine at -O3 for the host CPU (its SIMD features included).
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNTIME_JITMODULE_H
#define AMP_RUNTIME_JITMODULE_H

#include "amp/Runtime/HostTensor.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/Error.h"

#include <memory>

namespace mlir::amp::runtime {

class JitModule {
public:
  /// Lowers and compiles `module`. Every function named in `entryPoints`
  /// becomes callable with `invoke`; its arguments are treated as read-only
  /// by bufferization (the caller keeps them). Errors carry the pipeline's
  /// diagnostics.
  static llvm::Expected<std::unique_ptr<JitModule>>
  compile(ModuleOp module, llvm::ArrayRef<llvm::StringRef> entryPoints);

  /// Calls `name` with one buffer per function argument followed by one
  /// buffer per function result (results are written into them). Shapes
  /// and element types must match the function type; the caller checks.
  llvm::Error invoke(llvm::StringRef name,
                     llvm::ArrayRef<HostTensor *> argsThenResults);

private:
  std::unique_ptr<ExecutionEngine> engine;
};

} // namespace mlir::amp::runtime

#endif // AMP_RUNTIME_JITMODULE_H
