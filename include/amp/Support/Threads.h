//===- Threads.h - Bound on the CPU step's thread count ---------*- C++ -*-===//
//
// The most threads a CPU step may ask for (amp-lower-to-llvm `threads=`,
// amp-run `--threads`). OpenMP's num_threads is an i32 (a larger request
// wrapped to a negative count), and libomp aborts the process when it
// cannot create the threads: a bound well above any core count.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_SUPPORT_THREADS_H
#define AMP_SUPPORT_THREADS_H

namespace mlir::amp {
inline constexpr unsigned kMaxCpuThreads = 256;
} // namespace mlir::amp

#endif // AMP_SUPPORT_THREADS_H
