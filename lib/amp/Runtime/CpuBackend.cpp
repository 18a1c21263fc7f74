//===- CpuBackend.cpp - the CPU backend: JIT + host memory ----------------===//

#include "amp/Runtime/Backend.h"

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::runtime;

namespace {
/// Host memory is what the step reads and writes: nothing to copy.
class HostBuffer final : public DeviceBuffer {
public:
  explicit HostBuffer(const TensorSpec &spec) : tensor(spec) {}
  HostTensor &host() override { return tensor; }
  const HostTensor &host() const override { return tensor; }
  void upload() override {}
  void download() override {}
  void *descriptor() override { return tensor.descriptor(); }

private:
  HostTensor tensor;
};

class CpuBackend final : public Backend {
public:
  explicit CpuBackend(const LowerToLLVMConfig &lowering) : lowering(lowering) {}
  StringRef name() const override { return "cpu"; }
  std::string deviceName() const override { return ""; }
  llvm::Expected<std::unique_ptr<JitModule>>
  compile(ModuleOp module, ArrayRef<StringRef> entryPoints) override {
    return JitModule::compile(module, entryPoints, lowering);
  }
  std::unique_ptr<DeviceBuffer> allocate(const TensorSpec &spec) override {
    return std::make_unique<HostBuffer>(spec);
  }

private:
  LowerToLLVMConfig lowering;
};
} // namespace

std::unique_ptr<Backend>
mlir::amp::runtime::createCpuBackend(const LowerToLLVMConfig &lowering) {
  return std::make_unique<CpuBackend>(lowering);
}
