//===- MixedPrecisionConfig.h - the options of the rewrite, once -*- C++
//-*-===//
//
// The one definition of the mixed-precision rewrite's options (autocast,
// loss scaling and its dynamics, underflow statistics). Every front end is
// generated from `AMP_MIXED_PRECISION_OPTIONS` below, as clang generates its
// language options from LangOptions.def:
// - `MixedPrecisionConfig`, the plain struct that the pipeline builders
//   (amp/Pipelines/Pipelines.h), the embedding API (amp/AmpMLIR.h) and the
//   training driver (amp/Runtime/Trainer.h) take;
// - the textual options of `amp-mixed-precision` (`MixedPrecisionOptions` in
//   Pipelines.h), which convert to this struct in one place;
// - amp-run's flags of the same names.
// Values are checked once, by `MixedPrecisionConfig::validate`, with one
// message per option that names the option and the value; the two enums
// have one parser each (`parsePrecision`, `parseLossScaleMode`) used by the
// pass options (amp/Support/OptionParsers.h) and by amp-run's --run.
//
// Header-only dependencies: LLVM's ADT and the standard library, so that
// amp/AmpMLIR.h stays light.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_SUPPORT_MIXEDPRECISIONCONFIG_H
#define AMP_SUPPORT_MIXEDPRECISIONCONFIG_H

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace mlir::amp {

/// The element type autocast narrows contraction inputs and low-precision
/// activations to: IEEE binary16 or bfloat16 (shared REFERENCE.md, "Number
/// formats"); F32 means no autocast.
enum class Precision { F32, F16, BF16 };

/// Loss scaling (docs/loss-scaling.md): Auto resolves to Dynamic for F16 and
/// None otherwise; Dynamic is PyTorch GradScaler's rule; Static multiplies by
/// a constant S and still checks and skips; None leaves the step unscaled.
enum class LossScaleMode { Auto, Dynamic, Static, None };

/// How parameters are stored between steps (docs/master-weights.md):
/// F32 keeps fp32 master weights (Micikevicius et al. 2018; the default);
/// BF16 stores them in bfloat16, the f32 update rounded to nearest even
/// (an update below half a bf16 spacing, |u| < |w| * 2^-9, is lost);
/// BF16Kahan adds a bf16 compensation buffer per parameter that carries
/// the rounding error into the next update (Kahan summation; Zamirai et
/// al., "Revisiting BFloat16 Training", 2020); BF16Stochastic rounds the
/// f32 result to bf16 stochastically (unbiased: E[round(x)] = x) from a
/// counter-based random stream (torchao's `bf16_stochastic_round`).
enum class MasterWeights { F32, BF16, BF16Kahan, BF16Stochastic };

/// "f32", "f16", "bf16".
llvm::StringRef stringifyPrecision(Precision precision);
/// "f32", "bf16", "bf16-kahan", "bf16-stochastic".
llvm::StringRef stringifyMasterWeights(MasterWeights mode);
std::optional<MasterWeights> parseMasterWeights(llvm::StringRef text);
std::string describeBadMasterWeights(llvm::StringRef text);
/// "auto", "dynamic", "static", "none".
llvm::StringRef stringifyLossScaleMode(LossScaleMode mode);
/// The value named by `text`, or nullopt.
std::optional<Precision> parsePrecision(llvm::StringRef text);
std::optional<LossScaleMode> parseLossScaleMode(llvm::StringRef text);
/// The one message for a value that is not a precision / mode, e.g.
/// "'f8' is not a precision (f16, bf16 or f32)"; every front end prefixes
/// the option it came from.
std::string describeBadPrecision(llvm::StringRef text);
std::string describeBadLossScaleMode(llvm::StringRef text);
/// Auto resolved for `precision`: Dynamic for F16, None for BF16 and F32.
LossScaleMode resolveLossScaleMode(Precision precision, LossScaleMode mode);

llvm::raw_ostream &operator<<(llvm::raw_ostream &os, Precision precision);
llvm::raw_ostream &operator<<(llvm::raw_ostream &os, LossScaleMode mode);
llvm::raw_ostream &operator<<(llvm::raw_ostream &os, MasterWeights mode);

// clang-format off
/// Every option of the rewrite, once: ENUM/SCALAR(type, field, name, default,
/// description) and LIST(element type, field, name, description). `name` is
/// the option's spelling in `amp-mixed-precision="name=value"` and amp-run's
/// `--name`.
#define AMP_MIXED_PRECISION_OPTIONS(ENUM, SCALAR, LIST)                        \
  ENUM(::mlir::amp::Precision, precision, "precision",                         \
       ::mlir::amp::Precision::F16,                                            \
       "Autocast precision: f16, bf16, or f32 (no autocast)")                  \
  ENUM(::mlir::amp::LossScaleMode, lossScale, "loss-scale",                    \
       ::mlir::amp::LossScaleMode::Auto,                                       \
       "Loss scaling: auto (dynamic for f16, none for bf16 and f32), "         \
       "dynamic, static or none")                                              \
  SCALAR(double, initScale, "init-scale", 32768.0,                             \
         "Initial (dynamic) or fixed (static) loss scale S, in "               \
         "[min-scale, max-scale] (2^15 as in Micikevicius et al. and Keras; "  \
         "PyTorch uses 2^16)")                                                 \
  SCALAR(int, growthInterval, "growth-interval", 2000,                         \
         "Consecutive clean steps before S grows (>= 1)")                      \
  SCALAR(double, growthFactor, "growth-factor", 2.0,                           \
         "Factor applied to S after growth-interval clean steps (> 1)")        \
  SCALAR(double, backoffFactor, "backoff-factor", 0.5,                         \
         "Factor applied to S on a step with non-finite gradients, in (0, 1)") \
  SCALAR(int, hysteresis, "hysteresis", 1,                                     \
         "Overflowing steps since S last grew before S backs off (>= 1; "      \
         "1 = PyTorch, 2 = Megatron/DeepSpeed)")                               \
  SCALAR(double, minScale, "min-scale", 5.9604644775390625e-08,                \
         "Floor of S (default 2^-24)")                                         \
  SCALAR(double, maxScale, "max-scale", 16777216.0,                            \
         "Cap of S (default 2^24)")                                            \
  SCALAR(bool, underflowStats, "underflow-stats", false,                       \
         "Count backward values that round to zero or subnormal in f16 "       \
         "(bf16 for precision=bf16): amp-instrument-underflow before loss "    \
         "scaling")                                                            \
  SCALAR(::mlir::amp::MasterWeights, masterWeights, "master-weights",       \
         ::mlir::amp::MasterWeights::F32,                                      \
         "Parameter storage between steps: f32 (fp32 master weights), bf16 "   \
         "(round to nearest), bf16-kahan (+ a bf16 compensation buffer) or "   \
         "bf16-stochastic (stochastic rounding): amp-master-weights")          \
  SCALAR(int, roundingSeed, "rounding-seed", 0,                                \
         "Seed of bf16-stochastic's counter-based random stream")              \
  SCALAR(bool, updateStats, "update-stats", false,                             \
         "Per step and parameter: the update/parameter norm ratio and the "    \
         "fraction of updates lost to rounding in the storage type (and in "   \
         "bf16): amp-instrument-updates, last")                                \
  SCALAR(bool, keepAccumulatorsLow, "keep-accumulators-low", true,             \
         "Store the f32 results of f16/bf16 contractions that the backward "   \
         "reads in f16/bf16, as PyTorch's autocast returns them (halves "      \
         "their kept bytes): amp-keep-accumulators-low")                       \
  SCALAR(bool, recompute, "recompute", true,                                   \
         "Recompute cheap forward values (casts, layout ops) in the backward " \
         "instead of keeping them: amp-recompute-for-backward (same bits; "    \
         "less activation memory)")                                            \
  SCALAR(bool, recomputeElementwise, "recompute-elementwise", true,            \
         "With recompute: also elementwise ops and row reductions (bias "      \
         "adds, activations, norms, softmax): about half the activation "      \
         "memory of f16/bf16 steps again, for more work in the backward")      \
  SCALAR(std::string, autocastReport, "autocast-report", "",                   \
         "Write amp-autocast's JSON report (every op's class, reason, "        \
         "precision and rule) to this file")                                   \
  LIST(std::string, autocastAllow, "autocast-allow",                           \
       "Op names forced into the allow class (amp-autocast allow=)")           \
  LIST(std::string, autocastDeny, "autocast-deny",                             \
       "Op names forced into the deny class, kept f32 (amp-autocast deny=)")
// clang-format on

/// The options of the mixed-precision rewrite (defaults as in
/// `amp-opt --amp-mixed-precision`). Semantics: docs/autocast.md and
/// docs/loss-scaling.md; the scale rule is PyTorch's `_amp_update_scale_`
/// with Megatron's hysteresis and the ONNX Runtime / Apex cap (shared
/// REFERENCE.md, "Loss scaling").
struct MixedPrecisionConfig {
#define AMP_CONFIG_FIELD(TYPE, FIELD, NAME, DEFAULT, DESC) TYPE FIELD = DEFAULT;
#define AMP_CONFIG_LIST(TYPE, FIELD, NAME, DESC) std::vector<TYPE> FIELD;
  AMP_MIXED_PRECISION_OPTIONS(AMP_CONFIG_FIELD, AMP_CONFIG_FIELD,
                              AMP_CONFIG_LIST)
#undef AMP_CONFIG_FIELD
#undef AMP_CONFIG_LIST

  /// `lossScale` with Auto resolved for `precision`.
  LossScaleMode resolvedLossScale() const {
    return resolveLossScaleMode(precision, lossScale);
  }

  /// Empty when every option is valid; otherwise one line for the first
  /// invalid one, naming the option and its value, e.g.
  /// "growth-factor=inf: must be finite and > 1 (in fp32)". Checked:
  /// init-scale, min-scale and max-scale finite fp32 values of at least
  /// 2^-126 (1/S must be finite in fp32) with min-scale <= max-scale, and
  /// init-scale in [min-scale, max-scale] when S is used (dynamic or
  /// static); growth-interval >= 1; growth-factor finite and > 1 and
  /// backoff-factor in (0, 1) after rounding to fp32; hysteresis >= 1; no
  /// loss scaling with bf16 (it has fp32's exponent range; PyTorch's
  /// GradScaler is for fp16 only). Op names in autocast-allow/deny are
  /// checked by amp-autocast, which knows the registered ops.
  std::string validate() const;

  /// A short name of the run, e.g. "f16 + dynamic", "bf16" (amp-run's table).
  std::string runName() const;
};

/// Whether the option `name` (its spelling above) leaves the bits of the
/// state a step computes unchanged: the instrumentation (underflow-stats
/// and update-stats add results, autocast-report writes a report) and
/// recompute, recompute-elementwise (the same ops computed again in the
/// backward). A checkpoint's
/// identity leaves them out (docs/data-and-checkpoints.md).
bool keepsStateBits(llvm::StringRef name);

/// Whether the option `name` shapes only what the training step does after
/// its forward pass, never the eval step: the loss scale's dynamics
/// (init-scale, growth-interval, growth-factor, backoff-factor, hysteresis,
/// min-scale, max-scale), bf16-stochastic's rounding-seed, and the
/// instrumentation of the training step (underflow-stats, update-stats).
/// amp-run --eval-only refuses them and compares a checkpoint without them.
bool shapesTrainingOnly(llvm::StringRef name);

} // namespace mlir::amp

#endif // AMP_SUPPORT_MIXEDPRECISIONCONFIG_H
