//===- Backend.h - where a compiled training step runs ----------*- C++ -*-===//
//
// The small interface between the device-neutral training driver
// (Trainer.h, BoundStep.h) and a device, in the spirit of IREE's HAL and
// MLIR's ExecutionEngine: lower and JIT-compile a module, allocate one
// buffer per argument and result, move a buffer's contents between the host
// and the device, and check a call. Everything that must hold on every
// device (argument checks, state carry, stop rules) is written once above
// it. Two backends: the CPU (amp's CPU pipeline + ExecutionEngine, host
// memory; createCpuBackend below) and CUDA (amp-lower-to-nvvm + the CUDA
// driver API; CudaBackend.h).
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNTIME_BACKEND_H
#define AMP_RUNTIME_BACKEND_H

#include "amp/Runtime/HostTensor.h"
#include "amp/Runtime/JitModule.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>

namespace mlir::amp::runtime {

/// One argument or result of a compiled step in a backend's memory, with a
/// host copy of the same spec. Write the host copy and `upload()`, or
/// `download()` and read it. On the CPU the host copy is the memory the
/// step reads and writes, and both calls do nothing.
class DeviceBuffer {
public:
  virtual ~DeviceBuffer() = default;
  const TensorSpec &spec() const { return host().spec(); }
  virtual HostTensor &host() = 0;
  virtual const HostTensor &host() const = 0;
  virtual void upload() = 0;
  virtual void download() = 0;
  /// The strided-memref descriptor that entry points take for this buffer.
  virtual void *descriptor() = 0;
  /// Downloads and returns element 0 (scalar state and results).
  template <typename T> T readScalar() {
    download();
    return host().as<T>()[0];
  }
};

class Backend {
public:
  virtual ~Backend() = default;
  /// "cpu" or "cuda".
  virtual llvm::StringRef name() const = 0;
  /// The device, e.g. "NVIDIA H200 (sm_90)"; empty for the CPU.
  virtual std::string deviceName() const = 0;
  /// Lowers the tensor-level `module` (after amp-mixed-precision, or an
  /// fp32 step) with this backend's pipeline, in place, and JIT-compiles
  /// it; every function in `entryPoints` becomes callable. Errors: the
  /// pipeline's diagnostics ("file:line:col: error: ..."), JIT failures.
  virtual llvm::Expected<std::unique_ptr<JitModule>>
  compile(ModuleOp module, llvm::ArrayRef<llvm::StringRef> entryPoints) = 0;
  /// A zeroed buffer of `spec` (the caller checked that it fits in memory).
  virtual std::unique_ptr<DeviceBuffer> allocate(const TensorSpec &spec) = 0;
  /// After a call: errors the device reported (CUDA: the first failed driver
  /// call of the step).
  virtual llvm::Error checkCall() { return llvm::Error::success(); }
};

/// The CPU: `amp-lower-to-llvm` with `lowering` (Pipelines.h; its threads
/// default to every core), ExecutionEngine at -O3 for the host CPU, host
/// memory.
std::unique_ptr<Backend>
createCpuBackend(const LowerToLLVMConfig &lowering = {});

} // namespace mlir::amp::runtime

#endif // AMP_RUNTIME_BACKEND_H
