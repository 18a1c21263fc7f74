//===- MpiContext.cpp - a data-parallel run over MPI ----------------------===//
//
// The MPI implementation of DataParallelContext (DataParallel.h): MPI_Init
// when created, MPI_Finalize when destroyed, the agreement check as two
// all-reduces of a fingerprint (MIN and MAX), MPI_Abort for rank-local
// failures, and a watchdog thread that ends the job when no step finishes
// in time. Without MPI at configure time (AMP_HAVE_MPI unset) only the
// error of createMpiContext remains.
//
//===----------------------------------------------------------------------===//

#include "amp/Runtime/DataParallel.h"

#include "llvm/ADT/Twine.h"

#include <cstdio>
#include <cstdlib>

#if AMP_HAVE_MPI
#include <mpi.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <unistd.h>
#endif

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::runtime;

static llvm::Error makeError(const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
}

#if AMP_HAVE_MPI
namespace {
class MpiContext final : public DataParallelContext {
public:
  MpiContext(int rank, int size, const MpiContextOptions &options)
      : myRank(rank), size(size), timeout(options.stepTimeoutSeconds) {
    if (timeout > 0)
      watchdog = std::thread([this] { watch(); });
  }
  ~MpiContext() override {
    {
      std::lock_guard<std::mutex> lock(mutex);
      stopping = true;
    }
    wake.notify_all();
    if (watchdog.joinable())
      watchdog.join();
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (!finalized)
      MPI_Finalize();
  }

  int rank() const override { return myRank; }
  int worldSize() const override { return size; }
  MPIImplementation implementation() const override {
#ifdef OPEN_MPI
    return MPIImplementation::OpenMPI;
#else
    return MPIImplementation::MPICH;
#endif
  }

  llvm::Error agree(uint64_t fingerprint, llvm::StringRef what) override {
    unsigned long long mine = fingerprint, low = 0, high = 0;
    MPI_Allreduce(&mine, &low, 1, MPI_UNSIGNED_LONG_LONG, MPI_MIN,
                  MPI_COMM_WORLD);
    MPI_Allreduce(&mine, &high, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX,
                  MPI_COMM_WORLD);
    if (low != high)
      return makeError("the " + llvm::Twine(size) + " ranks disagree on " +
                       what +
                       " (every rank must run the same step with the same "
                       "options and data; rank " +
                       llvm::Twine(myRank) + "'s fingerprint differs from " +
                       (mine == low ? "the largest" : "the smallest") + ")");
    return llvm::Error::success();
  }

  void stepFinished() override { lastBeat.store(now()); }
  void trainingStarted() override {
    // The ranks compile at different speeds; the first step's time should
    // not include the wait for the slowest.
    MPI_Barrier(MPI_COMM_WORLD);
    lastBeat.store(now());
    armed.store(true);
  }
  void trainingEnded() override { armed.store(false); }

  [[noreturn]] void abort(int exitCode) override {
    std::fflush(stdout);
    std::fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, exitCode);
    std::_Exit(exitCode);
  }

private:
  static int64_t now() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
  }
  /// Makes no MPI call (MPI_THREAD_FUNNELED): exiting non-zero is enough,
  /// mpirun then ends every rank.
  void watch() {
    std::unique_lock<std::mutex> lock(mutex);
    while (!stopping) {
      wake.wait_for(lock, std::chrono::milliseconds(100));
      if (stopping || !armed.load())
        continue;
      double idle = static_cast<double>(now() - lastBeat.load()) / 1000.0;
      if (idle < timeout)
        continue;
      std::fprintf(stderr,
                   "amp-run (rank %d): no training step finished in %g s "
                   "(--dp-timeout): another rank probably failed or hangs "
                   "before a collective; ending the job\n",
                   myRank, timeout);
      std::fflush(stderr);
      std::_Exit(3);
    }
  }

  int myRank, size;
  double timeout;
  std::thread watchdog;
  std::mutex mutex;
  std::condition_variable wake;
  bool stopping = false;
  std::atomic<bool> armed{false};
  std::atomic<int64_t> lastBeat{0};
};
} // namespace
#endif

bool mlir::amp::runtime::haveMpi() { return AMP_HAVE_MPI; }

llvm::Expected<std::unique_ptr<DataParallelContext>>
mlir::amp::runtime::createMpiContext(const MpiContextOptions &options) {
#if AMP_HAVE_MPI
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized) {
    int provided = 0;
    if (MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided) !=
        MPI_SUCCESS)
      return makeError("MPI_Init failed");
  }
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return std::make_unique<MpiContext>(rank, size, options);
#else
  (void)options;
  return makeError("this build has no MPI (CMake found none): install "
                   "openmpi-bin and libopenmpi-dev (scripts/install-deps.sh) "
                   "and rebuild");
#endif
}
