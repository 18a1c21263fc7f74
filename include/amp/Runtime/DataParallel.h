//===- DataParallel.h - the process group of a data-parallel run -*- C++
//-*-===//
//
// What the training driver (Trainer.h) needs for one replica of a
// data-parallel run (docs/distributed.md): this process's rank and the world
// size, the shard of each global batch it trains on, which rank reports, and
// the few collectives the driver itself makes (that every rank runs the same
// run; the gradient and loss all-reduces are compiled into the step by
// amp-data-parallel). Two contexts: one process (rank 0 of 1, no MPI) and
// MPI (MPI_Init when created, MPI_Finalize when destroyed).
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNTIME_DATAPARALLEL_H
#define AMP_RUNTIME_DATAPARALLEL_H

#include "amp/Distributed/Passes.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace mlir::amp::runtime {

class BoundStep;

class DataParallelContext {
public:
  virtual ~DataParallelContext() = default;
  virtual int rank() const = 0;
  virtual int worldSize() const = 0;
  /// The MPI ABI the step's all-reduces are lowered for (the library this
  /// runtime was built against).
  virtual MPIImplementation implementation() const = 0;
  /// Rank 0 prints the table, the progress and writes the CSV.
  bool reports() const { return rank() == 0; }

  /// Examples per global step when each rank's step takes `localBatch`:
  /// worldSize x localBatch.
  int64_t globalBatch(int64_t localBatch) const {
    return localBatch * worldSize();
  }
  /// The position, in the epoch's shuffled order, of this rank's first
  /// example of global step `step` (0-based): the ranks take consecutive
  /// slices of the global batch, rank 0 first, so that together they train
  /// on exactly the examples a one-process run with the global batch sees
  /// at that step (every rank shuffles with the same seed).
  int64_t shardBegin(int64_t step, int64_t localBatch) const {
    return (step * worldSize() + rank()) * localBatch;
  }

  /// Collective: every rank passes a fingerprint of what it is about to run
  /// (`what` names it). Errors, on every rank: the fingerprints differ (the
  /// ranks would disagree on the number of steps, hence of collectives,
  /// and wait for each other forever).
  virtual llvm::Error agree(uint64_t fingerprint, llvm::StringRef what) = 0;
  /// Called after every step (the watchdog's heartbeat; see
  /// MpiContextOptions::stepTimeoutSeconds).
  virtual void stepFinished() {}
  /// Training starts (collective: the ranks start the first step together)
  /// and ends; the watchdog watches only in between.
  virtual void trainingStarted() {}
  virtual void trainingEnded() {}
  /// Ends the whole job after a failure on this rank alone, which the other
  /// ranks do not know of and would wait for in their next collective
  /// (MPI_Abort; one process: exit).
  [[noreturn]] virtual void abort(int exitCode) = 0;
};

/// Rank 0 of 1: no MPI, no communication.
std::unique_ptr<DataParallelContext> createSingleProcessContext();

struct MpiContextOptions {
  /// > 0: a watchdog ends the job (exit 3, which mpirun turns into the
  /// end of every rank) when no training step finishes within this many
  /// seconds, e.g. because another rank died or hangs before a collective.
  double stepTimeoutSeconds = 0;
};

/// MPI_Init, the rank and size of MPI_COMM_WORLD; MPI_Finalize when the
/// context is destroyed. Errors: this build has no MPI (CMake found none:
/// install libopenmpi-dev, scripts/install-deps.sh, and rebuild), MPI_Init
/// failed.
llvm::Expected<std::unique_ptr<DataParallelContext>>
createMpiContext(const MpiContextOptions &options = {});

/// Whether this runtime was built with MPI.
bool haveMpi();

/// The world size an MPI launcher (mpirun, mpiexec, srun) announced to this
/// process in the environment (OMPI_COMM_WORLD_SIZE, PMI_SIZE,
/// PMIX_SIZE), read before MPI_Init; nullopt when not started by one.
std::optional<int> launcherWorldSize();

/// Test hooks (amp-run --test-inject), applied on one rank at one step.
enum class Injection {
  None,
  GradInf, ///< +inf in the step's first gradient, before the reductions
  LossNaN, ///< NaN in the step's loss, before the reductions
  Fail,    ///< the rank fails before the step (a rank-local error)
  Hang,    ///< the rank stops before the step and never returns
};
struct InjectionPlan {
  Injection kind = Injection::None;
  int rank = 0;
  int64_t step = 1; ///< 1-based, counted over the run
};
/// "grad-inf@RANK:STEP" etc.; an error names what is wrong.
llvm::Expected<InjectionPlan> parseInjection(llvm::StringRef spec);

/// What the compiled step's test hook (`amp_dp_test_injection`, which
/// amp-data-parallel's `test-injection` option calls) returns for the next
/// call: 0 nothing, 1 +inf into the first gradient, 2 NaN into the loss.
void setStepInjection(int32_t code);
/// Gives the JIT the definition of that hook (JitModule::provideSymbol);
/// call before compiling a step made with `test-injection`.
void provideTestInjectionHook();

/// Writes one line per state argument of `step` (parameters, optimizer
/// state, loss-scale state): index, role, type, FNV-1a 64 of its bytes,
/// and the value of 0-d tensors; `header` first. Two ranks whose files are
/// equal hold bit-identical state. Errors: the file cannot be written.
llvm::Error writeStateDigest(BoundStep &step, llvm::StringRef header,
                             const std::string &path);

} // namespace mlir::amp::runtime

#endif // AMP_RUNTIME_DATAPARALLEL_H
