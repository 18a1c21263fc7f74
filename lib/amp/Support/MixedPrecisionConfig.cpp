//===- MixedPrecisionConfig.cpp - the options of the rewrite, once --------===//

#include "amp/Support/MixedPrecisionConfig.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstdio>
#include <limits>

using namespace mlir::amp;

llvm::StringRef mlir::amp::stringifyPrecision(Precision precision) {
  switch (precision) {
  case Precision::F32:
    return "f32";
  case Precision::F16:
    return "f16";
  case Precision::BF16:
    return "bf16";
  }
  return "f32";
}

llvm::StringRef mlir::amp::stringifyLossScaleMode(LossScaleMode mode) {
  switch (mode) {
  case LossScaleMode::Auto:
    return "auto";
  case LossScaleMode::Dynamic:
    return "dynamic";
  case LossScaleMode::Static:
    return "static";
  case LossScaleMode::None:
    return "none";
  }
  return "none";
}

llvm::StringRef mlir::amp::stringifyMasterWeights(MasterWeights mode) {
  switch (mode) {
  case MasterWeights::F32:
    return "f32";
  case MasterWeights::BF16:
    return "bf16";
  case MasterWeights::BF16Kahan:
    return "bf16-kahan";
  case MasterWeights::BF16Stochastic:
    return "bf16-stochastic";
  }
  return "f32";
}

std::optional<MasterWeights>
mlir::amp::parseMasterWeights(llvm::StringRef text) {
  return llvm::StringSwitch<std::optional<MasterWeights>>(text)
      .Case("f32", MasterWeights::F32)
      .Case("bf16", MasterWeights::BF16)
      .Case("bf16-kahan", MasterWeights::BF16Kahan)
      .Case("bf16-stochastic", MasterWeights::BF16Stochastic)
      .Default(std::nullopt);
}

std::string mlir::amp::describeBadMasterWeights(llvm::StringRef text) {
  return "'" + text.str() +
         "' is not a master-weights mode (f32, bf16, bf16-kahan or "
         "bf16-stochastic)";
}

std::optional<Precision> mlir::amp::parsePrecision(llvm::StringRef text) {
  return llvm::StringSwitch<std::optional<Precision>>(text)
      .Case("f32", Precision::F32)
      .Case("f16", Precision::F16)
      .Case("bf16", Precision::BF16)
      .Default(std::nullopt);
}

std::optional<LossScaleMode>
mlir::amp::parseLossScaleMode(llvm::StringRef text) {
  return llvm::StringSwitch<std::optional<LossScaleMode>>(text)
      .Case("auto", LossScaleMode::Auto)
      .Case("dynamic", LossScaleMode::Dynamic)
      .Case("static", LossScaleMode::Static)
      .Case("none", LossScaleMode::None)
      .Default(std::nullopt);
}

std::string mlir::amp::describeBadPrecision(llvm::StringRef text) {
  return "'" + text.str() + "' is not a precision (f16, bf16 or f32)";
}

std::string mlir::amp::describeBadLossScaleMode(llvm::StringRef text) {
  return "'" + text.str() +
         "' is not a loss-scale mode (auto, dynamic, static or none)";
}

LossScaleMode mlir::amp::resolveLossScaleMode(Precision precision,
                                              LossScaleMode mode) {
  if (mode != LossScaleMode::Auto)
    return mode;
  return precision == Precision::F16 ? LossScaleMode::Dynamic
                                     : LossScaleMode::None;
}

llvm::raw_ostream &mlir::amp::operator<<(llvm::raw_ostream &os,
                                         Precision precision) {
  return os << stringifyPrecision(precision);
}

llvm::raw_ostream &mlir::amp::operator<<(llvm::raw_ostream &os,
                                         LossScaleMode mode) {
  return os << stringifyLossScaleMode(mode);
}

llvm::raw_ostream &mlir::amp::operator<<(llvm::raw_ostream &os,
                                         MasterWeights mode) {
  return os << stringifyMasterWeights(mode);
}

/// `value` as printf's %g writes it (inf, nan, 1e+30, 5.96046e-08).
static std::string formatValue(double value) {
  char text[32];
  std::snprintf(text, sizeof(text), "%g", value);
  return text;
}

/// "name=value: rule".
static std::string bad(llvm::StringRef name, double value,
                       llvm::StringRef rule) {
  return name.str() + "=" + formatValue(value) + ": " + rule.str();
}

/// A scale must survive the rounding to fp32 (the state is a tensor<f32>)
/// as a normal number, so that its inverse 1/S (the unscale factor, also
/// fp32) is finite: 2^-126 <= S < inf.
static bool isScaleFp32(double value) {
  float rounded = static_cast<float>(value);
  return value > 0.0 && std::isfinite(rounded) &&
         rounded >= std::numeric_limits<float>::min();
}

std::string MixedPrecisionConfig::validate() const {
  const std::string scaleRule =
      "must be a finite fp32 value of at least 2^-126 (1.17549e-38): the "
      "scale and its inverse 1/S are stored in fp32";
  if (!isScaleFp32(initScale))
    return bad("init-scale", initScale, scaleRule);
  if (!isScaleFp32(minScale))
    return bad("min-scale", minScale, scaleRule);
  if (!isScaleFp32(maxScale))
    return bad("max-scale", maxScale, scaleRule);
  if (minScale > maxScale)
    return bad("min-scale", minScale,
               "exceeds max-scale=" + formatValue(maxScale));
  if (growthInterval < 1)
    return bad("growth-interval", growthInterval, "must be >= 1 clean step");
  // The factors are applied in fp32 (amp.update_scale): checked rounded.
  float growth = static_cast<float>(growthFactor);
  float backoff = static_cast<float>(backoffFactor);
  if (!(growth > 1.0f) || !std::isfinite(growth))
    return bad("growth-factor", growthFactor,
               "must be finite and > 1 (in fp32)");
  if (!(backoff > 0.0f && backoff < 1.0f))
    return bad("backoff-factor", backoffFactor, "must lie in (0, 1) (in fp32)");
  if (hysteresis < 1)
    return bad("hysteresis", hysteresis,
               "must be >= 1 overflowing step (1: back off on every "
               "overflow, as PyTorch)");
  LossScaleMode mode = resolvedLossScale();
  if (mode != LossScaleMode::None &&
      (initScale < minScale || initScale > maxScale))
    return bad("init-scale", initScale,
               "lies outside [min-scale, max-scale] = [" +
                   formatValue(minScale) + ", " + formatValue(maxScale) + "]");
  if (precision == Precision::BF16 && mode != LossScaleMode::None)
    return ("loss-scale=" + stringifyLossScaleMode(mode).str() +
            ": no loss scaling with precision=bf16: bf16 has fp32's exponent "
            "range (8 exponent bits, smallest normal ~1.2e-38), so gradients "
            "do not underflow and loss scaling only costs a check and "
            "skipped steps; PyTorch's GradScaler is for fp16 only. Use "
            "loss-scale=none or auto with bf16");
  return "";
}

// e.g. "bf16 params=bf16-kahan": no commas, the name is a CSV field.
std::string MixedPrecisionConfig::runName() const {
  std::string name = stringifyPrecision(precision).str();
  if (lossScale != LossScaleMode::None)
    name += " + " + stringifyLossScaleMode(lossScale).str();
  if (masterWeights != MasterWeights::F32)
    name += " params=" + stringifyMasterWeights(masterWeights).str();
  return name;
}

bool mlir::amp::keepsStateBits(llvm::StringRef name) {
  return llvm::is_contained({"underflow-stats", "update-stats",
                             "autocast-report", "recompute",
                             "recompute-elementwise"},
                            name);
}

bool mlir::amp::shapesTrainingOnly(llvm::StringRef name) {
  return llvm::is_contained({"init-scale", "growth-interval", "growth-factor",
                             "backoff-factor", "hysteresis", "min-scale",
                             "max-scale", "rounding-seed", "underflow-stats",
                             "update-stats"},
                            name);
}
