//===- Pipelines.h - named amp pass pipelines -------------------*- C++ -*-===//
//
// The project's pipelines as C++ functions, so that a compiler embedding the
// library builds exactly what `amp-opt --amp-mixed-precision` and
// `--amp-lower-to-llvm` run.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_PIPELINES_PIPELINES_H
#define AMP_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir::amp {

/// Options of `amp-mixed-precision`.
struct MixedPrecisionOptions
    : public PassPipelineOptions<MixedPrecisionOptions> {
  Option<std::string> precision{
      *this, "precision",
      llvm::cl::desc("Autocast precision: f16, bf16, or f32 (no autocast)"),
      llvm::cl::init("f16")};
  Option<std::string> lossScale{
      *this, "loss-scale",
      llvm::cl::desc("Loss scaling: auto (dynamic for f16, none for bf16 "
                     "and f32), dynamic, static or none"),
      llvm::cl::init("auto")};
  Option<double> initScale{*this, "init-scale",
                           llvm::cl::desc("Initial / static loss scale S"),
                           llvm::cl::init(32768.0)};
  Option<int> growthInterval{*this, "growth-interval",
                             llvm::cl::desc("Clean steps before S grows"),
                             llvm::cl::init(2000)};
  Option<double> growthFactor{*this, "growth-factor",
                              llvm::cl::desc("Growth factor of S"),
                              llvm::cl::init(2.0)};
  Option<double> backoffFactor{*this, "backoff-factor",
                               llvm::cl::desc("Backoff factor of S"),
                               llvm::cl::init(0.5)};
  Option<int> hysteresis{
      *this, "hysteresis",
      llvm::cl::desc("Overflowing steps before S backs off (1 = PyTorch)"),
      llvm::cl::init(1)};
  Option<double> minScale{*this, "min-scale",
                          llvm::cl::desc("Floor of S (default 2^-24)"),
                          llvm::cl::init(5.9604644775390625e-08)};
  Option<double> maxScale{*this, "max-scale",
                          llvm::cl::desc("Cap of S (default 2^24)"),
                          llvm::cl::init(16777216.0)};
  Option<bool> underflowStats{
      *this, "underflow-stats",
      llvm::cl::desc("Run amp-instrument-underflow before loss scaling"),
      llvm::cl::init(false)};
};

/// Adds `amp-autocast` with `options.precision` (nothing for "f32").
void addAutocast(OpPassManager &pm, const MixedPrecisionOptions &options);

/// Adds `amp-loss-scaling` with the loss-scale options (mode from
/// `options.lossScale`).
void addLossScaling(OpPassManager &pm, const MixedPrecisionOptions &options);

/// Contract check, autocast (unless precision=f32), canonicalize + cse, loss
/// scaling (unless loss-scale=none), cse. The result still holds amp
/// ops (unscale_and_check, update_scale) and tensors.
void buildMixedPrecisionPipeline(OpPassManager &pm,
                                 const MixedPrecisionOptions &options);

/// Lowers a (mixed-precision or fp32) step to the LLVM dialect for the CPU:
/// amp ops to linalg, contraction loops ordered for SIMD, one-shot
/// bufferization with identity layouts at function boundaries, results as
/// caller-allocated out-params (every public function then returns nothing
/// and takes one memref per argument and per former result), ownership-based
/// deallocation, loops, bf16 expansion, LLVM. Functions that should be
/// callable from C need `llvm.emit_c_interface` before this runs.
void buildLowerToLLVMPipeline(OpPassManager &pm);

/// Registers `amp-mixed-precision` and `amp-lower-to-llvm`.
void registerAmpPipelines();

} // namespace mlir::amp

#endif // AMP_PIPELINES_PIPELINES_H
