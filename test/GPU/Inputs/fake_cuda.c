// A host-only stand-in for the NVIDIA driver (libcuda.so.1) for
// test/GPU/host-path-fake-driver.mlir: memory is calloc, copies are memcpy,
// modules "load" and kernels "launch" without running. It checks every
// launch's geometry (non-empty grid, 1..1024 threads per block, like a real
// device) and reports the counts at exit, so that the GPU host path (JIT of
// the lowered host code, libamp_cuda_runtime.so, module loading, launches,
// device memory management, the trainer's buffers) runs on machines without
// a GPU. Kernel results are not computed: values it produces mean nothing.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
typedef int CUresult;
static long launches, loads;
static int reported;
static void report(void) {
  if (!reported++)
    fprintf(stderr, "fake-cuda: %ld module loads, %ld kernel launches\n", loads, launches);
}
CUresult cuInit(unsigned f) {
  static int registered;
  if (!registered++)
    atexit(report);
  return 0;
}
CUresult cuDeviceGetCount(int *c) { *c = 1; return 0; }
CUresult cuDeviceGet(int *d, int o) { *d = o; return 0; }
CUresult cuDeviceGetName(char *n, int len, int d) { snprintf(n, len, "Fake GPU"); return 0; }
CUresult cuDeviceGetAttribute(int *v, int attr, int d) { *v = attr == 75 ? 9 : 0; return 0; }
CUresult cuDevicePrimaryCtxRetain(void **c, int d) { *c = (void *)1; return 0; }
CUresult cuCtxSetCurrent(void *c) { return 0; }
CUresult cuCtxGetDevice(int *d) { *d = 0; return 0; }
CUresult cuCtxSynchronize(void) { return 0; }
CUresult cuGetErrorName(int e, const char **s) { *s = "FAKE"; return 0; }
CUresult cuGetErrorString(int e, const char **s) { *s = "fake"; return 0; }
CUresult cuModuleLoadData(void **m, const void *d) { ++loads; *m = (void *)2; return 0; }
CUresult cuModuleLoadDataEx(void **m, const void *d, unsigned n, void *o, void **v) { ++loads; *m = (void *)2; return 0; }
CUresult cuModuleUnload(void *m) { return 0; }
CUresult cuModuleGetFunction(void **f, void *m, const char *name) { *f = (void *)3; return 0; }
CUresult cuFuncSetAttribute(void *f, int a, int v) { return 0; }
CUresult cuLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz, unsigned smem, void *s, void **p, void **e) {
  ++launches;
  if (!gx || !gy || !gz || !bx || !by || !bz || bx * by * bz > 1024) { fprintf(stderr, "fake-cuda: bad launch %u %u %u x %u %u %u\n", gx, gy, gz, bx, by, bz); return 1; }
  return 0;
}
CUresult cuStreamCreate(void **s, unsigned f) { *s = (void *)4; return 0; }
CUresult cuStreamDestroy_v2(void *s) { return 0; }
CUresult cuStreamSynchronize(void *s) { return 0; }
CUresult cuStreamWaitEvent(void *s, void *e, unsigned f) { return 0; }
CUresult cuEventCreate(void **e, unsigned f) { *e = (void *)5; return 0; }
CUresult cuEventDestroy_v2(void *e) { return 0; }
CUresult cuEventRecord(void *e, void *s) { return 0; }
CUresult cuEventSynchronize(void *e) { return 0; }
CUresult cuEventElapsedTime_v2(float *ms, void *a, void *b) { *ms = 1; return 0; }
CUresult cuDeviceGetDefaultMemPool(void **p, int d) { *p = (void *)6; return 0; }
CUresult cuMemPoolSetAttribute(void *p, int attr, void *v) { return 0; }
CUresult cuMemAlloc_v2(uint64_t *p, size_t n) { *p = (uint64_t)calloc(1, n); return 0; }
CUresult cuMemAllocAsync(uint64_t *p, size_t n, void *s) { *p = (uint64_t)calloc(1, n); return 0; }
CUresult cuMemAllocManaged(uint64_t *p, size_t n, unsigned f) { *p = (uint64_t)calloc(1, n); return 0; }
CUresult cuMemFree_v2(uint64_t p) { free((void *)p); return 0; }
CUresult cuMemFreeAsync(uint64_t p, void *s) { free((void *)p); return 0; }
CUresult cuMemcpy(uint64_t d, uint64_t s, size_t n) { memcpy((void *)d, (void *)s, n); return 0; }
CUresult cuMemcpyAsync(uint64_t d, uint64_t s, size_t n, void *st) { memcpy((void *)d, (void *)s, n); return 0; }
CUresult cuMemcpyDtoD_v2(uint64_t d, uint64_t s, size_t n) { memcpy((void *)d, (void *)s, n); return 0; }
CUresult cuMemcpyDtoDAsync_v2(uint64_t d, uint64_t s, size_t n, void *st) { memcpy((void *)d, (void *)s, n); return 0; }
CUresult cuMemsetD32Async(uint64_t d, unsigned v, size_t n, void *s) { for (size_t i = 0; i < n; ++i) ((unsigned *)d)[i] = v; return 0; }
CUresult cuMemsetD16Async(uint64_t d, unsigned short v, size_t n, void *s) { for (size_t i = 0; i < n; ++i) ((unsigned short *)d)[i] = v; return 0; }
