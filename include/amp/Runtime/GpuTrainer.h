//===- GpuTrainer.h - train a compiled step on a CUDA GPU -------*- C++ -*-===//
//
// `amp-run --device=cuda`: the training loop of Trainer.h with the step
// lowered by `amp-lower-to-nvvm` for the GPU that is present, its host code
// JIT-compiled by MLIR's ExecutionEngine and calling libamp_cuda_runtime.so
// (loaded with dlopen; docs/gpu.md). Parameters, optimizer state and the
// loss-scale state stay on the device for the whole run; per step only the
// batch goes up and the loss, found_inf and the scale (a few bytes, for the
// log) come back. The skip decision itself never leaves the device.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNTIME_GPUTRAINER_H
#define AMP_RUNTIME_GPUTRAINER_H

#include "amp/Runtime/Trainer.h"

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

/// Same contract, options and result as `train` (Trainer.h), on the GPU
/// that `initCuda` found (called here if it was not). The kernels are
/// compiled for that GPU's sm_XY with the CUDA toolkit at $CUDA_HOME or
/// /usr/local/cuda. Errors: those of `train`, of `initCuda`, a failed
/// lowering (with diagnostics) and the first failing CUDA driver call.
llvm::Expected<RunResult> trainOnCuda(ModuleOp module,
                                      const TrainOptions &options,
                                      const Dataset &trainSet,
                                      const Dataset &testSet,
                                      llvm::raw_ostream &log);

} // namespace mlir::amp::runtime

#endif // AMP_RUNTIME_GPUTRAINER_H
