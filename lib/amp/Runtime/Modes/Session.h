//===- Session.h - what every mode of amp-run sets up -----------*- C++ -*-===//
//
// Internal to lib/amp/Runtime/Modes: a RunRequest (Modes.h) checked and
// turned into what a mode runs on, in the order that refuses a bad request
// before anything expensive: the options and every run's, every output
// path, MPI, the device, the step and each run's plan, then the data,
// checked against every run.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNTIME_MODES_SESSION_H
#define AMP_RUNTIME_MODES_SESSION_H

#include "amp/Runtime/Backend.h"
#include "amp/Runtime/Checkpoint/ModelExport.h"
#include "amp/Runtime/DataParallel.h"
#include "amp/Runtime/IdxDataset.h"
#include "amp/Runtime/Modes.h"
#include "amp/Runtime/Trainer.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/SourceMgr.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlir::amp::runtime {

struct Session {
  Session(const RunRequest &request, llvm::raw_ostream &out,
          llvm::raw_ostream &err);
  ~Session();

  const RunRequest &request;
  llvm::raw_ostream &out, &err;
  /// One per run, in order: its --run spelling and its options (outputs
  /// set for the first seed; `outputsFor` gives each seed's).
  std::vector<std::string> runSpecs;
  std::vector<TrainOptions> configs;
  std::unique_ptr<DataParallelContext> mpi;
  DataParallelContext *dp = nullptr;
  std::unique_ptr<Backend> backend;
  std::unique_ptr<MLIRContext> context;
  llvm::SourceMgr sourceMgr;
  std::unique_ptr<SourceMgrDiagnosticHandler> diagnostics;
  OwningOpRef<ModuleOp> module;
  std::vector<RunPlan> plans;
  std::optional<Dataset> trainSet, testSet;
  /// --save-model: the model file (--model, or the step's
  /// amp.source_model) and where each trained parameter goes in it, by
  /// argument index; set by `prepare`.
  std::string modelPath;
  std::map<unsigned, ModelBlob> modelBlobs;

  /// Prints "amp-run: <message>" (data-parallel: ends the job) and returns 1.
  int fail(const llvm::Twine &message);
  /// For a failure that every data-parallel rank meets at the same point
  /// (StopRuleError): rank 0 alone prints the message, every rank returns 1
  /// and finalizes MPI as usual (no MPI_Abort, whose banner and killed peers
  /// would hide the message). One process: `fail`.
  int failOnEveryRank(const llvm::Twine &message);
  /// "run <spec>: ", or "--check-gradients: " / "--eval-only: ".
  std::string runLabel(const std::string &spec) const;
  /// Fills `o`'s per-run outputs (CSV, state digest, checkpoint, resume)
  /// for run `i` and seed `seed`; checked by `prepare`.
  void outputsFor(size_t i, uint64_t seed, TrainOptions &o) const;

  /// Checks the request and sets up everything but the data; nullopt when
  /// all is well, else the exit status (the error is printed).
  std::optional<int> prepare();
  /// Loads the data and checks it against every run.
  std::optional<int> loadData();
  /// `prepare`, then `loadData`: what every mode does first.
  std::optional<int> setUp() {
    if (std::optional<int> failed = prepare())
      return failed;
    return loadData();
  }

private:
  std::optional<int> checkOutputs();
  std::optional<int> checkModelExport();
};

} // namespace mlir::amp::runtime

#endif // AMP_RUNTIME_MODES_SESSION_H
