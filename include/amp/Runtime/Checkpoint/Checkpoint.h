//===- Checkpoint.h - a training run's state on disk ------------*- C++ -*-===//
//
// `amp-run --save-checkpoint` / `--resume` (docs/data-and-checkpoints.md):
// everything a run needs to continue bit for bit where it stopped, as one
// safetensors file (Safetensors.h) `<dir>/checkpoint.safetensors`:
//   - every state argument of the step (every argument a result updates:
//     parameters, optimizer state, the loss scale, the growth and hysteresis
//     trackers, Adam's step counter), as tensor "arg<i>" in the argument's
//     own element type;
//   - the data order of the current epoch, tensor "data.order" (I64);
//   - in the metadata: the run's position (epoch, step in the epoch, steps
//     taken and skipped, the epoch's loss sum so far), the seed and the
//     generator's state (the next epoch's shuffle), and what the checkpoint
//     was made from: the run's name, the rewritten step's signature and the
//     rewrite's options (with their hash), so that a checkpoint of another
//     step, precision or loss-scale configuration is refused with what
//     differs.
// Written atomically (amp/Support/OutputFile.h): an interrupted write leaves
// the previous checkpoint.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNTIME_CHECKPOINT_CHECKPOINT_H
#define AMP_RUNTIME_CHECKPOINT_CHECKPOINT_H

#include "amp/Runtime/BoundStep.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <vector>

namespace mlir::amp::runtime {

/// What a checkpoint was made from; a run resumes only from its own.
struct CheckpointIdentity {
  std::string run; ///< e.g. "f16 + dynamic"
  /// The rewritten step's function type, without the results that
  /// instrumentation adds (they hold no state).
  std::string signature;
  /// The options that change the state's bits, "name=value" in a fixed
  /// order (the rewrite's, but those that keep the state's bits: the
  /// statistics, the report path and recompute, keepsStateBits; ranks;
  /// batch).
  std::map<std::string, std::string> options;
  /// Hex hash of the fp32 step the run was made from (its text without
  /// locations and with the weights' data left out, stepFingerprint in
  /// Trainer.cpp); empty in older checkpoints. Not part of describeMismatch:
  /// resuming with another learning rate or loss is legitimate fine-tuning,
  /// so a different fingerprint is a warning (the run does not continue the
  /// saved one bit for bit), not an error.
  std::string stepFingerprint;
  /// FNV-1a 64 of the options' text.
  uint64_t optionsHash() const;
};

/// "" when `saved` and `current` are the same; else one line saying what
/// differs, e.g. "it was made by the run f32, this is f16 + dynamic".
/// Options that keep the state's bits (keepsStateBits) are not compared,
/// also where an older checkpoint names them.
std::string describeMismatch(const CheckpointIdentity &saved,
                             const CheckpointIdentity &current);

/// One state argument as saved.
struct SavedTensor {
  unsigned argument = 0;
  std::string role; ///< stringifyArgRole
  TensorSpec spec;
  std::vector<char> bytes;
};

/// A run's state and position.
struct Checkpoint {
  CheckpointIdentity identity;
  /// The position: the next step is step `stepInEpoch + 1` of `epoch`
  /// (stepInEpoch 0: the epoch has not shuffled its order yet).
  int epoch = 1;
  int64_t stepInEpoch = 0;
  int64_t steps = 0, skippedSteps = 0; ///< over the run so far
  /// The current epoch's finite losses so far (their sum, exact in hex) and
  /// skipped steps; the last finished epoch's mean loss and test accuracy.
  double epochLossSum = 0;
  int64_t epochLossCount = 0, epochSkipped = 0;
  double lastEpochLoss = 0, testAccuracy = -1;
  uint64_t seed = 0;
  std::string rngState; ///< std::mt19937_64's text form
  std::vector<int64_t> order;
  std::vector<SavedTensor> state;
};

/// The file of a checkpoint directory.
std::string checkpointFile(llvm::StringRef dir);

/// Downloads every state argument of `step` into `checkpoint.state`.
void captureState(BoundStep &step, Checkpoint &checkpoint);
/// Uploads `checkpoint.state` into `step`. Errors: an argument that is not
/// state of `step`, or of another type (named).
llvm::Error restoreState(const Checkpoint &checkpoint, BoundStep &step);

/// Writes `<dir>/checkpoint.safetensors` atomically (creating `dir`).
/// Errors name the path.
llvm::Error writeCheckpoint(const Checkpoint &checkpoint, llvm::StringRef dir);
/// Reads `<dir>/checkpoint.safetensors` (or `dir` itself when it is a
/// file). Errors name the file and what is missing or malformed.
llvm::Expected<Checkpoint> readCheckpoint(llvm::StringRef dir);

} // namespace mlir::amp::runtime

#endif // AMP_RUNTIME_CHECKPOINT_CHECKPOINT_H
