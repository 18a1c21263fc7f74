//===- Trainer.h - train a compiled training step on a dataset --*- C++ -*-===//
//
// amp-run's engine: rewrites an fp32 training step with the
// `amp-mixed-precision` pipeline, JIT-compiles it, binds its arguments by
// `amp.role` (docs/training-step.md), and runs the training loop with test
// accuracy after each epoch.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNTIME_TRAINER_H
#define AMP_RUNTIME_TRAINER_H

#include "amp/Runtime/IdxDataset.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <string>

namespace mlir::amp::runtime {

struct TrainOptions {
  std::string precision = "f32";            ///< f32 (no autocast), f16 or bf16
  std::string lossScale = "none";           ///< auto, dynamic, static or none
  double initScale = 32768.0;               ///< initial / static loss scale
  int growthInterval = 2000;                ///< clean steps before S doubles
  int hysteresis = 1;                       ///< overflows before S backs off
  double minScale = 5.9604644775390625e-08; ///< floor of S (2^-24)
  double maxScale = 16777216.0;             ///< cap of S (2^24)
  bool underflowStats = false;              ///< instrument and report underflow
  int epochs = 1;
  int64_t batchSize = 0;        ///< for a dynamic batch dimension
  int64_t maxStepsPerEpoch = 0; ///< 0: the whole training set
  uint64_t seed = 0;            ///< parameter init and shuffling
  std::string csvPath;          ///< per-step CSV, empty: none
  bool progress = true;         ///< one line per epoch to `log`
  /// trainOnCuda only: f16/bf16 contractions on Tensor Cores (mma.sync) when
  /// the GPU is sm_80 or newer (LowerToNVVMOptions::tensorCores).
  bool tensorCores = true;
};

/// What one run reports (amp-run prints one table row per run).
struct RunResult {
  std::string name;          ///< e.g. "f16 + dynamic"
  double finalTrainLoss = 0; ///< mean loss over the last epoch
  double testAccuracy = -1;  ///< after the last epoch; -1: no eval step
  double finalLossScale = 0; ///< 0 when the step has no dynamic scale
  int64_t skippedSteps = 0;  ///< steps with found_inf = true
  int64_t steps = 0;
  double msPerStep = 0;      ///< mean wall time of one step call
  double compileSeconds = 0; ///< pipeline + lowering + JIT
  /// With `underflowStats`: over the whole run, finite non-zero backward
  /// elements whose f16/bf16 rounding is zero or subnormal, and all finite
  /// non-zero backward elements inspected.
  int64_t underflowFlushed = 0, underflowTotal = 0;
};

/// Trains the `amp.train_step` function of `module` (fp32, not modified:
/// a clone is rewritten) on `train`, evaluates the `amp.eval_step` function
/// (if any) on `test`. Parameters: rank-2 and higher are drawn from
/// U(-1/sqrt(fan_in), 1/sqrt(fan_in)) with fan_in = product of all but the
/// last dimension (PyTorch nn.Linear's default), rank 0/1 (biases) start at
/// zero; optimizer state starts at zero; the loss scale at `initScale`.
/// Errors: contract violations and pipeline failures (with diagnostics),
/// input/label shapes that do not fit the dataset, a JIT failure; and two
/// that stop training (shared REFERENCE.md, "scale collapse"): a non-finite
/// loss (the forward overflowed; that does not depend on S, so backing off
/// cannot help) and an overflowing step that ran with the scale at its
/// floor `minScale` (dynamic loss scaling can back off no further).
llvm::Expected<RunResult> train(ModuleOp module, const TrainOptions &options,
                                const Dataset &trainSet, const Dataset &testSet,
                                llvm::raw_ostream &log);

} // namespace mlir::amp::runtime

#endif // AMP_RUNTIME_TRAINER_H
