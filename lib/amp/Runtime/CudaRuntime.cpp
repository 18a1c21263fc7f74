//===- CudaRuntime.cpp - mgpu* entry points over the CUDA driver API ------===//
//
// libamp_cuda_runtime.so: what host code lowered by `amp-lower-to-nvvm`
// (upstream gpu-to-llvm + the gpu.binary translation) calls, implemented
// over the CUDA driver API. Debian's LLVM 22 does not ship upstream's
// libmlir_cuda_runtime.so; the signatures here are the ones gpu-to-llvm
// declares (mlir/lib/Conversion/GPUCommon/GPUToLLVMConversion.cpp and
// SelectObjectAttr.cpp of LLVM 22).
//
// All calls run in the primary context of one device (device 0, or the one
// set with mgpuSetDefaultDevice). Host code cannot receive errors from these
// functions: the first failing driver call is reported on stderr with its
// name and CUDA's message and recorded; `ampCudaLastError` returns it so
// that the trainer stops with a clear message after the step. Later calls
// keep running (the driver itself returns errors once a context is broken).
//
// Memory: stream-ordered allocations (cuMemAllocAsync) from the device's
// default pool, whose release threshold is raised to "never" once per
// device: with CUDA's default (0) the pool hands its memory back to the
// driver at every synchronization, and the next step's allocations map it
// again (cudaMemPoolAttrReleaseThreshold, CUDA C++ Programming Guide,
// "Stream Ordered Memory Allocator"; PyTorch's caching allocator keeps its
// blocks for the same reason).
//
// AMP_CUDA_PROFILE=1 times every kernel launch with a pair of events and
// prints, when the process exits, the kernels by total time (module load
// order, grid and block, calls, total and mean) and their sum: where a
// step's device time goes, without a profiler on the machine.
//
// Built only when CMake finds a CUDA toolkit; linked against libcuda
// (the driver stub lib64/stubs/libcuda.so is enough to build), and loaded
// with dlopen by amp-run --device=cuda, so amp-run itself never needs the
// driver.
//
//===----------------------------------------------------------------------===//

#include <cuda.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#define AMP_EXPORT extern "C" __attribute__((visibility("default")))

namespace {
std::mutex errorMutex;
std::string lastError;
int defaultDevice = 0;

/// Records the first failure of a driver call and prints every one.
bool check(CUresult result, const char *what) {
  if (result == CUDA_SUCCESS)
    return true;
  const char *name = nullptr, *text = nullptr;
  cuGetErrorName(result, &name);
  cuGetErrorString(result, &text);
  std::string message = std::string(what) +
                        " failed: " + (name ? name : "unknown error") + " (" +
                        (text ? text : "") + ")";
  std::fprintf(stderr, "amp cuda runtime: %s\n", message.c_str());
  std::lock_guard<std::mutex> lock(errorMutex);
  if (lastError.empty())
    lastError = message;
  return false;
}

/// Makes the primary context of the default device current (once per
/// thread; cheap afterwards).
bool ensureContext() {
  static std::once_flag initOnce;
  static bool initOk = false;
  std::call_once(initOnce, [] { initOk = check(cuInit(0), "cuInit"); });
  if (!initOk)
    return false;
  thread_local CUcontext current = nullptr;
  thread_local int currentDevice = -1;
  if (current && currentDevice == defaultDevice)
    return true;
  CUdevice device;
  if (!check(cuDeviceGet(&device, defaultDevice), "cuDeviceGet"))
    return false;
  CUcontext context;
  if (!check(cuDevicePrimaryCtxRetain(&context, device),
             "cuDevicePrimaryCtxRetain"))
    return false;
  if (!check(cuCtxSetCurrent(context), "cuCtxSetCurrent"))
    return false;
  static std::once_flag poolOnce;
  std::call_once(poolOnce, [device] {
    CUmemoryPool pool;
    cuuint64_t never = UINT64_MAX;
    if (check(cuDeviceGetDefaultMemPool(&pool, device),
              "cuDeviceGetDefaultMemPool"))
      check(cuMemPoolSetAttribute(pool, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD,
                                  &never),
            "cuMemPoolSetAttribute");
  });
  current = context;
  currentDevice = defaultDevice;
  return true;
}
/// AMP_CUDA_PROFILE: per-kernel device time from events around launches.
class KernelProfile {
public:
  static KernelProfile &get() {
    static KernelProfile profile;
    return profile;
  }
  bool enabled() const { return on; }

  void moduleLoaded(CUmodule module) {
    std::lock_guard<std::mutex> lock(mutex);
    modules.emplace(module, modules.size());
  }
  void functionFound(CUfunction function, CUmodule module, const char *name) {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = modules.find(module);
    Stats &stats = kernels[function];
    stats.name = std::string(name) + "#" +
                 std::to_string(it == modules.end() ? -1 : int(it->second));
  }
  /// Records events around the launch that `launch` makes.
  template <typename Launch>
  void time(CUfunction function, CUstream stream, const unsigned grid[3],
            const unsigned block[3], Launch launch) {
    Pending p{function, nullptr, nullptr};
    cuEventCreate(&p.start, CU_EVENT_DEFAULT);
    cuEventCreate(&p.end, CU_EVENT_DEFAULT);
    cuEventRecord(p.start, stream);
    launch();
    cuEventRecord(p.end, stream);
    std::lock_guard<std::mutex> lock(mutex);
    Stats &stats = kernels[function];
    if (stats.calls == 0) {
      std::copy(grid, grid + 3, stats.grid);
      std::copy(block, block + 3, stats.block);
      stats.firstLaunch = launches;
    }
    ++launches;
    pending.push_back(p);
  }
  /// Reads the events of launches that have finished (after a sync).
  void collect() {
    std::lock_guard<std::mutex> lock(mutex);
    for (Pending &p : pending) {
      float ms = 0;
      if (cuEventSynchronize(p.end) == CUDA_SUCCESS &&
          cuEventElapsedTime(&ms, p.start, p.end) == CUDA_SUCCESS) {
        Stats &stats = kernels[p.function];
        ++stats.calls;
        stats.ms += ms;
      }
      cuEventDestroy(p.start);
      cuEventDestroy(p.end);
    }
    pending.clear();
  }

private:
  struct Stats {
    std::string name = "?";
    unsigned grid[3] = {0, 0, 0}, block[3] = {0, 0, 0};
    uint64_t calls = 0, firstLaunch = 0;
    double ms = 0;
  };
  struct Pending {
    CUfunction function;
    CUevent start, end;
  };
  KernelProfile() {
    const char *env = std::getenv("AMP_CUDA_PROFILE");
    on = env && *env && std::strcmp(env, "0") != 0;
  }
  ~KernelProfile() {
    if (!on)
      return;
    collect();
    std::vector<const Stats *> rows;
    double total = 0;
    for (auto &entry : kernels) {
      rows.push_back(&entry.second);
      total += entry.second.ms;
    }
    std::sort(rows.begin(), rows.end(),
              [](const Stats *a, const Stats *b) { return a->ms > b->ms; });
    std::fprintf(stderr,
                 "amp cuda profile: %zu kernels, %llu launches, %.3f ms on "
                 "the device in all\n"
                 "%-26s %6s %16s %14s %9s %11s %10s %6s\n",
                 rows.size(), (unsigned long long)launches, total,
                 "kernel#module", "first", "grid", "block", "calls", "total ms",
                 "mean us", "share");
    for (const Stats *r : rows) {
      char grid[48], block[48];
      std::snprintf(grid, sizeof(grid), "%ux%ux%u", r->grid[0], r->grid[1],
                    r->grid[2]);
      std::snprintf(block, sizeof(block), "%ux%ux%u", r->block[0], r->block[1],
                    r->block[2]);
      std::fprintf(stderr,
                   "%-26s %6llu %16s %14s %9llu %11.3f %10.2f %5.1f%%\n",
                   r->name.c_str(), (unsigned long long)r->firstLaunch, grid,
                   block, (unsigned long long)r->calls, r->ms,
                   r->calls ? 1e3 * r->ms / double(r->calls) : 0.0,
                   total > 0 ? 100.0 * r->ms / total : 0.0);
    }
  }

  bool on = false;
  std::mutex mutex;
  std::map<CUmodule, size_t> modules;
  std::map<CUfunction, Stats> kernels;
  std::vector<Pending> pending;
  uint64_t launches = 0;
};
} // namespace

//===----------------------------------------------------------------------===//
// Entry points of lowered host code (mgpu*)
//===----------------------------------------------------------------------===//

AMP_EXPORT void mgpuSetDefaultDevice(int32_t device) { defaultDevice = device; }

/// A cubin or fatbin (gpu.binary format=bin|fatbin).
AMP_EXPORT CUmodule mgpuModuleLoad(void *data, size_t /*gpuBlobSize*/) {
  CUmodule module = nullptr;
  if (ensureContext() &&
      check(cuModuleLoadData(&module, data), "cuModuleLoadData") &&
      KernelProfile::get().enabled())
    KernelProfile::get().moduleLoaded(module);
  return module;
}

/// PTX text (gpu.binary format=isa), JIT-compiled by the driver.
AMP_EXPORT CUmodule mgpuModuleLoadJIT(void *data, int optLevel) {
  CUmodule module = nullptr;
  if (!ensureContext())
    return module;
  char log[4096] = {0};
  CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER,
                            CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                            CU_JIT_OPTIMIZATION_LEVEL};
  void *values[] = {log, reinterpret_cast<void *>(sizeof(log)),
                    reinterpret_cast<void *>(static_cast<intptr_t>(optLevel))};
  if (!check(cuModuleLoadDataEx(&module, data, 3, options, values),
             "cuModuleLoadDataEx (PTX JIT)")) {
    if (log[0])
      std::fprintf(stderr, "amp cuda runtime: PTX JIT log:\n%s\n", log);
  } else if (KernelProfile::get().enabled()) {
    KernelProfile::get().moduleLoaded(module);
  }
  return module;
}

AMP_EXPORT void mgpuModuleUnload(CUmodule module) {
  if (module)
    check(cuModuleUnload(module), "cuModuleUnload");
}

AMP_EXPORT CUfunction mgpuModuleGetFunction(CUmodule module, const char *name) {
  CUfunction function = nullptr;
  if (module &&
      check(cuModuleGetFunction(&function, module, name),
            "cuModuleGetFunction") &&
      KernelProfile::get().enabled())
    KernelProfile::get().functionFound(function, module, name);
  return function;
}

AMP_EXPORT void mgpuLaunchKernel(CUfunction function, intptr_t gridX,
                                 intptr_t gridY, intptr_t gridZ,
                                 intptr_t blockX, intptr_t blockY,
                                 intptr_t blockZ, int32_t smem, CUstream stream,
                                 void **params, void **extra,
                                 size_t /*paramsCount*/) {
  if (!function || !ensureContext())
    return;
  if (smem > 0) {
    int maxShared = 0;
    CUdevice device;
    check(cuCtxGetDevice(&device), "cuCtxGetDevice");
    check(cuDeviceGetAttribute(
              &maxShared, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
              device),
          "cuDeviceGetAttribute");
    if (smem > 48 * 1024 && smem <= maxShared)
      check(cuFuncSetAttribute(function,
                               CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                               smem),
            "cuFuncSetAttribute");
  }
  auto launch = [&] {
    check(cuLaunchKernel(function, gridX, gridY, gridZ, blockX, blockY, blockZ,
                         smem, stream, params, extra),
          "cuLaunchKernel");
  };
  KernelProfile &profile = KernelProfile::get();
  if (!profile.enabled())
    return launch();
  unsigned grid[3] = {unsigned(gridX), unsigned(gridY), unsigned(gridZ)};
  unsigned block[3] = {unsigned(blockX), unsigned(blockY), unsigned(blockZ)};
  profile.time(function, stream, grid, block, launch);
}

AMP_EXPORT CUstream mgpuStreamCreate() {
  CUstream stream = nullptr;
  if (ensureContext())
    check(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING), "cuStreamCreate");
  return stream;
}

AMP_EXPORT void mgpuStreamDestroy(CUstream stream) {
  if (stream)
    check(cuStreamDestroy(stream), "cuStreamDestroy");
}

AMP_EXPORT void mgpuStreamSynchronize(CUstream stream) {
  check(cuStreamSynchronize(stream), "cuStreamSynchronize");
  if (KernelProfile::get().enabled())
    KernelProfile::get().collect();
}

AMP_EXPORT void mgpuStreamWaitEvent(CUstream stream, CUevent event) {
  check(cuStreamWaitEvent(stream, event, /*flags=*/0), "cuStreamWaitEvent");
}

AMP_EXPORT CUevent mgpuEventCreate() {
  CUevent event = nullptr;
  if (ensureContext())
    check(cuEventCreate(&event, CU_EVENT_DISABLE_TIMING), "cuEventCreate");
  return event;
}

AMP_EXPORT void mgpuEventDestroy(CUevent event) {
  if (event)
    check(cuEventDestroy(event), "cuEventDestroy");
}

AMP_EXPORT void mgpuEventSynchronize(CUevent event) {
  check(cuEventSynchronize(event), "cuEventSynchronize");
}

AMP_EXPORT void mgpuEventRecord(CUevent event, CUstream stream) {
  check(cuEventRecord(event, stream), "cuEventRecord");
}

/// Stream-ordered allocation (no device-wide synchronization per step);
/// host-shared (managed) memory when asked for.
AMP_EXPORT void *mgpuMemAlloc(uint64_t sizeBytes, CUstream stream,
                              bool isHostShared) {
  CUdeviceptr ptr = 0;
  if (sizeBytes == 0 || !ensureContext())
    return nullptr;
  if (isHostShared)
    check(cuMemAllocManaged(&ptr, sizeBytes, CU_MEM_ATTACH_GLOBAL),
          "cuMemAllocManaged");
  else if (stream)
    check(cuMemAllocAsync(&ptr, sizeBytes, stream), "cuMemAllocAsync");
  else
    check(cuMemAlloc(&ptr, sizeBytes), "cuMemAlloc");
  return reinterpret_cast<void *>(ptr);
}

AMP_EXPORT void mgpuMemFree(void *ptr, CUstream stream) {
  if (!ptr)
    return;
  auto devPtr = reinterpret_cast<CUdeviceptr>(ptr);
  if (stream)
    check(cuMemFreeAsync(devPtr, stream), "cuMemFreeAsync");
  else
    check(cuMemFree(devPtr), "cuMemFree");
}

/// Unified addressing: one call for host<->device and device<->device.
AMP_EXPORT void mgpuMemcpy(void *dst, void *src, size_t sizeBytes,
                           CUstream stream) {
  if (sizeBytes == 0)
    return;
  check(cuMemcpyAsync(reinterpret_cast<CUdeviceptr>(dst),
                      reinterpret_cast<CUdeviceptr>(src), sizeBytes, stream),
        "cuMemcpyAsync");
}

AMP_EXPORT void mgpuMemset32(void *dst, unsigned int value, size_t count,
                             CUstream stream) {
  check(cuMemsetD32Async(reinterpret_cast<CUdeviceptr>(dst), value, count,
                         stream),
        "cuMemsetD32Async");
}

AMP_EXPORT void mgpuMemset16(void *dst, unsigned short value, size_t count,
                             CUstream stream) {
  check(cuMemsetD16Async(reinterpret_cast<CUdeviceptr>(dst), value, count,
                         stream),
        "cuMemsetD16Async");
}

//===----------------------------------------------------------------------===//
// Helpers for the CUDA backend of the training driver (CudaBackend.cpp),
// resolved with dlsym.
//===----------------------------------------------------------------------===//

/// 0 when a device is usable; otherwise a message in `message`.
AMP_EXPORT int ampCudaInit(char *message, size_t size) {
  auto fail = [&](const std::string &text) {
    std::snprintf(message, size, "%s", text.c_str());
    return 1;
  };
  CUresult init = cuInit(0);
  if (init != CUDA_SUCCESS) {
    const char *text = nullptr;
    cuGetErrorString(init, &text);
    return fail(std::string("cuInit failed: ") + (text ? text : "?"));
  }
  int count = 0;
  if (cuDeviceGetCount(&count) != CUDA_SUCCESS || count == 0)
    return fail("no CUDA device found");
  if (!ensureContext())
    return fail(lastError);
  CUdevice device;
  cuCtxGetDevice(&device);
  char name[256] = {0};
  cuDeviceGetName(name, sizeof(name), device);
  int major = 0, minor = 0;
  cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
                       device);
  cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
                       device);
  std::snprintf(message, size, "%s (sm_%d%d)", name, major, minor);
  return 0;
}

/// The first recorded error, or nullptr. Stays set.
AMP_EXPORT const char *ampCudaLastError() {
  std::lock_guard<std::mutex> lock(errorMutex);
  return lastError.empty() ? nullptr : lastError.c_str();
}

AMP_EXPORT void *ampCudaAlloc(uint64_t sizeBytes) {
  return mgpuMemAlloc(sizeBytes, /*stream=*/nullptr, /*isHostShared=*/false);
}

AMP_EXPORT void ampCudaFree(void *ptr) { mgpuMemFree(ptr, nullptr); }

/// Synchronous copy (host<->device, device<->device).
AMP_EXPORT void ampCudaCopy(void *dst, const void *src, size_t sizeBytes) {
  if (sizeBytes == 0 || !ensureContext())
    return;
  check(cuMemcpy(reinterpret_cast<CUdeviceptr>(dst),
                 reinterpret_cast<CUdeviceptr>(src), sizeBytes),
        "cuMemcpy");
}

AMP_EXPORT void ampCudaSynchronize() {
  if (ensureContext())
    check(cuCtxSynchronize(), "cuCtxSynchronize");
}

/// Milliseconds of `reps` device-to-device copies of `sizeBytes` bytes
/// (the bandwidth reference of scripts/gpu-check.sh); < 0 on error.
AMP_EXPORT double ampCudaTimeCopy(size_t sizeBytes, int reps) {
  if (!ensureContext())
    return -1;
  CUdeviceptr a = 0, b = 0;
  if (!check(cuMemAlloc(&a, sizeBytes), "cuMemAlloc") ||
      !check(cuMemAlloc(&b, sizeBytes), "cuMemAlloc"))
    return -1;
  CUevent start, stop;
  cuEventCreate(&start, CU_EVENT_DEFAULT);
  cuEventCreate(&stop, CU_EVENT_DEFAULT);
  cuMemcpyDtoD(b, a, sizeBytes); // warm-up
  cuEventRecord(start, nullptr);
  for (int i = 0; i < reps; ++i)
    cuMemcpyDtoDAsync(b, a, sizeBytes, nullptr);
  cuEventRecord(stop, nullptr);
  cuEventSynchronize(stop);
  float ms = 0;
  cuEventElapsedTime(&ms, start, stop);
  cuEventDestroy(start);
  cuEventDestroy(stop);
  cuMemFree(a);
  cuMemFree(b);
  return ms;
}
