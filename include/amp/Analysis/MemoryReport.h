//===- MemoryReport.h - the bytes a training step keeps -------*- C++ -*-===//
//
// What a training step holds in memory, read from its IR (no run): the
// state it is fed (parameters, optimizer state, loss-scale state), the batch,
// the activation bytes kept from the forward for the backward, and the peak
// of live values over the step. Mixed precision pays in these bytes (half
// the activation memory, so a larger batch fits); the report says whether a
// step gets that payoff. Read-only: never mutates IR.
//
// Definitions (all in bytes; an element of iN/fN takes ceil(N/8) bytes,
// index 8):
//  - state: the arguments by role (docs/training-step.md): `param`,
//    `opt_state`, and the loss-scale state (`loss_scale`, `growth_tracker`,
//    `hysteresis_tracker`, `consecutive_skips`); batch: `input`, `label`,
//    `target`.
//  - kept for the backward: what is live where the backward starts. The
//    values defined before the `amp.loss_grad` seed in program order (not
//    function arguments, not constants) that an op after the seed reads
//    (the return excluded), counted once each. A value the backward
//    recomputes from arguments or from values kept anyway
//    (`amp-recompute-for-backward`) is defined after the seed and is not
//    kept. The ops of the function body are the units: an op with regions
//    (a micro-batch loop) uses what its regions capture, and a seed inside
//    such an op makes the figure approximate. Needs the markers: after
//    `amp-loss-scaling` has consumed them the figure is absent.
//  - peak live: over the function body in program order, the largest sum of
//    the bytes of the values that are live (defined and still to be read,
//    uses inside regions counted at their top-level op), arguments included
//    (they are live for the whole step); a `tensor.empty` counts 0 bytes
//    (it has a shape and no data: the op that writes into it allocates,
//    and is counted). This is the tensor-level figure, before
//    bufferization: it counts no in-place reuse (an op that writes into an
//    init holding data counts both) and no temporaries inside ops, so it
//    is an upper bound of what the bufferized step allocates for its
//    values, not the CPU arena's planned size.
// A value of dynamic shape or of a type without a byte size is not counted
// and makes the report approximate.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_ANALYSIS_MEMORYREPORT_H
#define AMP_ANALYSIS_MEMORYREPORT_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/JSON.h"

#include <optional>
#include <string>

namespace mlir::amp {

/// The bytes of one value of `type` (a scalar or a statically shaped tensor
/// or memref of int/float/index elements), or nothing when it has none.
/// With `dynamicExtent`, a dynamic dimension counts that many elements
/// (amp-run passes the batch size of a step whose batch is dynamic).
std::optional<int64_t> bytesOf(Type type,
                               std::optional<int64_t> dynamicExtent = {});

/// "12.3 MB (12345678 B)" style, powers of 1000 (as `ls -lh --si`), the
/// exact count in parentheses; "812 B" below 1000. A count saturated at
/// INT64_MAX (Support/Counts.h) says so.
std::string formatBytes(int64_t bytes);

/// A value and its bytes: a forward value that the backward reads, or one
/// live at the peak.
struct KeptValue {
  Value value;
  int64_t bytes = 0;
};

struct MemoryReport {
  int64_t parameterBytes = 0;
  int64_t optimizerStateBytes = 0;
  /// loss_scale, growth_tracker, hysteresis_tracker, consecutive_skips.
  int64_t lossScaleStateBytes = 0;
  /// input, label and target arguments.
  int64_t batchBytes = 0;
  /// Absent when the step has no `amp.loss_grad` seed any more.
  std::optional<int64_t> keptForBackwardBytes;
  /// In the order of their definitions.
  llvm::SmallVector<KeptValue> kept;
  /// Arguments included.
  int64_t peakLiveBytes = 0;
  /// The values live where the peak is reached (arguments included), in
  /// the order of their definitions (arguments first): what holds the peak.
  llvm::SmallVector<KeptValue> peak;
  /// Some value had no byte size, or the seed sits inside a region.
  bool approximate = false;

  int64_t stateBytes() const {
    return parameterBytes + optimizerStateBytes + lossScaleStateBytes;
  }
  /// {"parameters": .., "optimizer_state": .., "loss_scale_state": ..,
  ///  "batch": .., "kept_for_backward": .. or null, "peak_live": ..,
  ///  "approximate": bool}; bytes as integers.
  llvm::json::Object toJSON() const;
};

/// The report of the `amp.train_step` function `step`. Fails (with a
/// located error) when its contract does not hold
/// (TrainingStep::analyze without requiring the markers).
/// `dynamicExtent` as in bytesOf: without it a value of dynamic shape is
/// not counted and makes the report approximate.
FailureOr<MemoryReport>
analyzeMemory(func::FuncOp step, std::optional<int64_t> dynamicExtent = {});

} // namespace mlir::amp

#endif // AMP_ANALYSIS_MEMORYREPORT_H
