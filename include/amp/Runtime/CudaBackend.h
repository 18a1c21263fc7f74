//===- CudaBackend.h - the CUDA backend of the training driver --*- C++ -*-===//
//
// `amp-run --device=cuda`: the step lowered by `amp-lower-to-nvvm` for the
// GPU that is present, its host code JIT-compiled by MLIR's ExecutionEngine
// and calling libamp_cuda_runtime.so (loaded with dlopen; docs/gpu.md).
// Buffers live in device memory for the whole run; per step the driver
// uploads the batch and downloads the loss, found_inf and the scale (a few
// bytes, for the log). The skip decision itself never leaves the device.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNTIME_CUDABACKEND_H
#define AMP_RUNTIME_CUDABACKEND_H

#include "amp/Runtime/Backend.h"

#include <string>

namespace mlir::amp::runtime {

/// Loads libamp_cuda_runtime.so and initializes device 0. Returns the
/// device's name and architecture (e.g. "NVIDIA H200 (sm_90)"). Errors:
/// this build has no CUDA runtime (no CUDA toolkit at configure time), the
/// library or the driver (libcuda.so.1) cannot be loaded, no device.
llvm::Expected<std::string> initCuda();

/// The libamp_cuda_runtime.so that `initCuda` loads (or would load):
/// $AMP_CUDA_RUNTIME, else <dir of the executable>/../lib beside installed or
/// bundled tools, else the one of this build tree; empty when this build has
/// no CUDA support.
std::string cudaRuntimeLibraryPath();

struct CudaBackendOptions {
  /// f16/bf16 contractions on Tensor Cores (mma.sync) when the GPU is sm_80
  /// or newer (LowerToNVVMOptions::tensorCores).
  bool tensorCores = true;
};

/// The GPU that `initCuda` finds (called here). Kernels are compiled for its
/// sm_XY with the CUDA toolkit at $CUDA_HOME or /usr/local/cuda, in cubin
/// form; memrefs reach kernels as bare pointers unless a shape is dynamic.
/// Errors: those of `initCuda`; later, from `compile`, an option the NVPTX
/// backend rejects (checkLowerToNVVMOptions) and the pipeline's diagnostics,
/// and from `checkCall` the first failing CUDA driver call.
llvm::Expected<std::unique_ptr<Backend>>
createCudaBackend(const CudaBackendOptions &options);

} // namespace mlir::amp::runtime

#endif // AMP_RUNTIME_CUDABACKEND_H
