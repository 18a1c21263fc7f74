//===- CudaBackend.cpp - the CUDA backend of the training driver ----------===//

#include "amp/Runtime/CudaBackend.h"

#include "amp/Pipelines/Pipelines.h"
#include "amp/Support/Diagnostics.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <algorithm>

#ifndef AMP_CUDA_RUNTIME_PATH
#define AMP_CUDA_RUNTIME_PATH ""
#endif

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::runtime;

static llvm::Error makeError(const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
}

namespace {
/// The helpers of libamp_cuda_runtime.so that the backend calls directly
/// (CudaRuntime.cpp); the lowered step calls its mgpu* functions.
struct CudaApi {
  std::string libraryPath;
  std::string device; ///< e.g. "NVIDIA H200 (sm_90)"
  std::string chip;   ///< e.g. "sm_90"
  const char *(*lastError)() = nullptr;
  void *(*alloc)(uint64_t) = nullptr;
  void (*free)(void *) = nullptr;
  void (*copy)(void *, const void *, size_t) = nullptr;
};

CudaApi *cudaApi = nullptr;

/// A device buffer with its memref descriptor and a host mirror.
class CudaBuffer final : public DeviceBuffer {
public:
  CudaBuffer(const TensorSpec &spec, const CudaApi &api)
      : mirror(spec), api(api), bytes(mirror.sizeInBytes()) {
    ptr = api.alloc(std::max<size_t>(bytes, 1));
    descriptorWords = spec.descriptorWords(ptr, ptr);
    upload(); // zero, like host memory
  }
  CudaBuffer(const CudaBuffer &) = delete;
  CudaBuffer &operator=(const CudaBuffer &) = delete;
  ~CudaBuffer() override { api.free(ptr); }

  HostTensor &host() override { return mirror; }
  const HostTensor &host() const override { return mirror; }
  void upload() override { api.copy(ptr, mirror.data(), bytes); }
  void download() override { api.copy(mirror.data(), ptr, bytes); }
  void *descriptor() override { return descriptorWords.data(); }

private:
  HostTensor mirror;
  const CudaApi &api;
  size_t bytes = 0;
  void *ptr = nullptr;
  std::vector<int64_t> descriptorWords;
};

class CudaBackend final : public Backend {
public:
  CudaBackend(const CudaApi &api, const CudaBackendOptions &options)
      : api(api), options(options) {}
  StringRef name() const override { return "cuda"; }
  std::string deviceName() const override { return api.device; }
  llvm::Expected<std::unique_ptr<JitModule>>
  compile(ModuleOp module, ArrayRef<StringRef> entryPoints) override;
  std::unique_ptr<DeviceBuffer> allocate(const TensorSpec &spec) override {
    return std::make_unique<CudaBuffer>(spec, api);
  }
  llvm::Error checkCall() override {
    if (const char *cudaError = api.lastError())
      return makeError(std::string("CUDA: ") + cudaError);
    return llvm::Error::success();
  }

private:
  const CudaApi &api;
  CudaBackendOptions options;
};
} // namespace

/// True if an entry point takes or returns a tensor with a dynamic size:
/// kernels then need full memref descriptors instead of bare pointers.
static bool hasDynamicShapes(ModuleOp module, ArrayRef<StringRef> entryPoints) {
  for (StringRef name : entryPoints) {
    auto fn = module.lookupSymbol<func::FuncOp>(name);
    if (!fn)
      continue;
    for (TypeRange types :
         {TypeRange(fn.getArgumentTypes()), TypeRange(fn.getResultTypes())})
      for (Type t : types)
        if (auto shaped = dyn_cast<ShapedType>(t);
            shaped && !shaped.hasStaticShape())
          return true;
  }
  return false;
}

llvm::Expected<std::unique_ptr<JitModule>>
CudaBackend::compile(ModuleOp module, ArrayRef<StringRef> entryPoints) {
  LowerToNVVMOptions nvvm;
  nvvm.chip = api.chip;
  nvvm.format = "bin";
  nvvm.kernelBarePointers = !hasDynamicShapes(module, entryPoints);
  nvvm.tensorCores = options.tensorCores;
  if (std::string why = checkLowerToNVVMOptions(nvvm); !why.empty())
    return makeError("amp-lower-to-nvvm: " + why);
  if (llvm::Error err = JitModule::prepareEntryPoints(module, entryPoints))
    return std::move(err);
  if (llvm::Error err = runPipeline(
          module,
          [&](OpPassManager &pm) { buildLowerToNVVMPipeline(pm, nvvm); },
          "amp-lower-to-nvvm{chip=" + api.chip + "}"))
    return std::move(err);
  JitModule::Options jitOptions;
  jitOptions.optLevel = 2;
  jitOptions.hostTargetMachine = false;
  jitOptions.sharedLibraries = {api.libraryPath};
  auto jit = JitModule::load(module, entryPoints, jitOptions);
  if (!jit)
    return jit.takeError();
  // The global constructors loaded the kernels.
  if (const char *cudaError = api.lastError())
    return makeError(std::string("CUDA: loading the kernels: ") + cudaError);
  return jit;
}

std::string mlir::amp::runtime::cudaRuntimeLibraryPath() {
  if (const char *env = std::getenv("AMP_CUDA_RUNTIME"))
    return env;
  std::string exe = llvm::sys::fs::getMainExecutable(nullptr, nullptr);
  if (!exe.empty()) {
    llvm::SmallString<256> installed(
        llvm::sys::path::parent_path(llvm::sys::path::parent_path(exe)));
    llvm::sys::path::append(installed, "lib", "libamp_cuda_runtime.so");
    if (llvm::sys::fs::exists(installed) &&
        llvm::StringRef(AMP_CUDA_RUNTIME_PATH).size() > 0)
      return std::string(installed);
  }
  return AMP_CUDA_RUNTIME_PATH;
}

llvm::Expected<std::string> mlir::amp::runtime::initCuda() {
  if (cudaApi)
    return cudaApi->device;
  auto api = std::make_unique<CudaApi>();
  api->libraryPath = cudaRuntimeLibraryPath();
  if (api->libraryPath.empty())
    return makeError("this build has no CUDA support (no CUDA toolkit was "
                     "found when it was configured; install one, e.g. at "
                     "/usr/local/cuda, and rebuild)");
  std::string loadError;
  auto library = llvm::sys::DynamicLibrary::getPermanentLibrary(
      api->libraryPath.c_str(), &loadError);
  if (!library.isValid())
    return makeError("cannot load the CUDA runtime " + api->libraryPath + ": " +
                     loadError +
                     " (is the NVIDIA driver, libcuda.so.1, installed?)");
  auto *init = reinterpret_cast<int (*)(char *, size_t)>(
      library.getAddressOfSymbol("ampCudaInit"));
  api->lastError = reinterpret_cast<const char *(*)()>(
      library.getAddressOfSymbol("ampCudaLastError"));
  api->alloc = reinterpret_cast<void *(*)(uint64_t)>(
      library.getAddressOfSymbol("ampCudaAlloc"));
  api->free = reinterpret_cast<void (*)(void *)>(
      library.getAddressOfSymbol("ampCudaFree"));
  api->copy = reinterpret_cast<void (*)(void *, const void *, size_t)>(
      library.getAddressOfSymbol("ampCudaCopy"));
  if (!init || !api->lastError || !api->alloc || !api->free || !api->copy)
    return makeError(api->libraryPath +
                     " lacks the amp helper functions (ampCudaInit, ...); "
                     "is it from this build?");
  char message[512] = {0};
  if (init(message, sizeof(message)) != 0)
    return makeError(std::string("no usable CUDA device: ") + message);
  api->device = message;
  // "<name> (sm_XY)" -> "sm_XY"
  llvm::StringRef text(api->device);
  size_t open = text.rfind("(sm_");
  api->chip = open == llvm::StringRef::npos
                  ? "sm_80"
                  : text.substr(open + 1).drop_back().str();
  cudaApi = api.release();
  return cudaApi->device;
}

llvm::Expected<std::unique_ptr<Backend>>
mlir::amp::runtime::createCudaBackend(const CudaBackendOptions &options) {
  auto device = initCuda();
  if (!device)
    return device.takeError();
  return std::make_unique<CudaBackend>(*cudaApi, options);
}
