//===- Modes.h - amp-run's modes as library functions -----------*- C++ -*-===//
//
// What `amp-run` does, without its command line: a RunRequest (one field per
// flag; the tool's flags fill it, tests and the C++ API fill it directly)
// and one function per mode: train the requested runs (trainRuns), compare
// the step's backward with finite differences (checkGradientsMode), or
// evaluate the eval step from the initial or a checkpoint's state
// (evaluateOnly). Each checks the whole request (options, output paths, the
// step, the data) before it trains anything, prints what amp-run prints on
// `out`, its errors as "amp-run: <message>" on `err`, and returns the
// process's exit status: 0, 1 on an error, 130 / 143 after SIGINT / SIGTERM
// (the step in flight finishes, the checkpoint is written if asked, the
// table of the finished runs is printed).
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNTIME_MODES_H
#define AMP_RUNTIME_MODES_H

#include "amp/Distributed/Passes.h"
#include "amp/Support/MixedPrecisionConfig.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mlir::amp::runtime {

/// Everything amp-run is asked to do; defaults are amp-run's.
struct RunRequest {
  enum class Mode { Train, CheckGradients, EvalOnly };
  Mode mode = Mode::Train;
  std::string stepPath; ///< the training step (.mlir)

  // The runs.
  /// "<precision>[+<loss-scale>]" each; empty: f16+dynamic.
  std::vector<std::string> runs;
  /// The rewrite's options shared by every run (precision and loss scale
  /// come from `runs`); `autocastReport` is the base path of the reports.
  MixedPrecisionConfig rewrite;
  int epochs = 1;
  int64_t batchSize = 0; ///< 0: the step's static batch
  bool batchSizeGiven = false;
  int64_t maxSteps = 0;
  /// > 0: each run also says the largest batch whose training step's peak
  /// live bytes (tensor level, from the IR) fit in this many bytes.
  int64_t memoryBudget = 0;
  uint64_t seed = 0;
  int seeds = 1;
  bool progress = true;
  double progressSeconds = 15;
  std::string testExtraPasses;
  int64_t emulateRanks = 1;
  double checkGradientsTolerance = 1e-5;

  // The data (docs/data-and-checkpoints.md).
  /// fashion-mnist | synthetic | idx:DIR | npy:TRAIN_X,TRAIN_Y[,TEST_X,TEST_Y]
  std::string data = "fashion-mnist";
  std::string dataDir; ///< empty: $AMP_DATA_DIR, Debian's
  int64_t syntheticExamples = 0;
  int64_t syntheticIntRange = 0;
  /// --data=synthetic: "teacher" (labels from a fixed random linear map of
  /// the inputs: learnable) or "random" (uniform, independent of the inputs).
  std::string syntheticLabels = "teacher";
  int classes = 0;

  // The device.
  std::string device = "cpu";
  bool tensorCores = true;
  bool tensorCoresGiven = false;
  unsigned threads = 0;
  bool threadsGiven = false;
  /// --device=cpu: bf16 contractions on AVX512_BF16's vdpbf16ps: "auto"
  /// (where the host has it), "on" or "off" (LowerToLLVMConfig::bf16Dot).
  std::string bf16Dot = "auto";
  /// --device=cpu: convolutions as im2col GEMMs
  /// (LowerToLLVMConfig::convolutionsAsGemm).
  bool convGemm = true;
  bool convGemmGiven = false;
  /// --device=cpu: f32 exp as a polynomial
  /// (LowerToLLVMConfig::polynomialExp).
  bool polynomialExp = true;
  bool polynomialExpGiven = false;
  /// --device=cpu: f32 erf as a rational approximation
  /// (LowerToLLVMConfig::polynomialErf).
  bool polynomialErf = true;
  bool polynomialErfGiven = false;
  /// --device=cpu: f32 tanh as a rational approximation
  /// (LowerToLLVMConfig::polynomialTanh).
  bool polynomialTanh = true;
  bool polynomialTanhGiven = false;

  // Data parallelism (docs/distributed.md).
  std::string dataParallel = "auto";
  GradientBucketing dpBucket = GradientBucketing::Flat;
  std::string dpReducePrecision = "f32";
  double dpTimeout = 600;
  std::string testInject;

  // Outputs, every one checked before any data is loaded.
  std::string csvPath;
  std::string dumpStatePath;
  /// Checkpoints (docs/data-and-checkpoints.md): DIR for one run, DIR/<run>
  /// for each of several.
  std::string saveCheckpoint;
  int64_t checkpointEvery = 0; ///< steps; 0: at the end of each epoch only
  std::string resume;
  /// The trained model as model IR (docs/data-and-checkpoints.md): `model`
  /// (the forward model the step was built from) with the trained weights
  /// in its dense_resource blobs, written to `saveModel`; one run only.
  std::string saveModel;
  std::string model;
  /// Hidden test hook: raise SIGINT after the N-th step this process trains,
  /// counted over all runs (0: off).
  int64_t testSignalAtStep = 0;
  /// Hidden test hook: raise SIGINT when the N-th run (counted over runs
  /// and seeds, from 1) starts compiling (0: off).
  int64_t testSignalWhileCompiling = 0;
};

/// The mode of `request`.
int runRequest(const RunRequest &request, llvm::raw_ostream &out,
               llvm::raw_ostream &err);

/// Trains every run of `request` (over its seeds), then prints one table
/// row per run.
int trainRuns(const RunRequest &request, llvm::raw_ostream &out,
              llvm::raw_ostream &err);
/// `--check-gradients`: the step's own backward against central finite
/// differences in f64 (GradientCheck.h); 1 above the tolerance.
int checkGradientsMode(const RunRequest &request, llvm::raw_ostream &out,
                       llvm::raw_ostream &err);
/// `--eval-only`: for each run, the eval step on the test set from the
/// step's initial values (or the `resume` checkpoint's); prints accuracy and
/// the mean cross-entropy; nothing is trained.
int evaluateOnly(const RunRequest &request, llvm::raw_ostream &out,
                 llvm::raw_ostream &err);

} // namespace mlir::amp::runtime

#endif // AMP_RUNTIME_MODES_H
