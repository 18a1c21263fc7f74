//===- AmpMLIR.h - amp-mlir for embedding compilers -------------*- C++ -*-===//
//
// The one header a compiler that embeds amp-mlir includes: register the
// dialects, then add the mixed-precision passes (or the whole
// `amp-mixed-precision` pipeline) and the CPU lowering to its own
// `mlir::PassManager`. Link `AmpMLIR::AmpCompiler` (CMake:
// `find_package(AmpMLIR REQUIRED CONFIG)`); see docs/embedding.md.
//
// Input contract. The mixed-precision passes rewrite an already
// differentiated fp32 training step in upstream MLIR (func, linalg, tensor,
// arith, math, scf on tensors) marked as docs/training-step.md describes:
// a `func.func` with `amp.train_step`, `amp.role` on every argument
// ("param", "opt_state", "input", "label") and on the loss result,
// `amp.updates = i` on every new-state result, one `amp.loss_grad` seed and
// one `amp.grad` per parameter. Autocast alone needs no markers.
//
// Output. After the mixed-precision passes the step still holds tensors and
// the ops `amp.unscale_and_check` / `amp.update_scale` (docs/dialect.md).
// With loss-scale "dynamic" it gains four arguments, appended in this order,
// with the matching results (`amp.updates` = the argument): "loss_scale"
// (tensor<f32>), "growth_tracker", "hysteresis_tracker" and
// "consecutive_skips" (tensor<i32> each), and a fifth result "found_inf"
// (tensor<i1>, last); with "static" only "consecutive_skips" and
// "found_inf". The initial scale is not a constant of the step in dynamic
// mode: the caller passes it as the "loss_scale" argument.
// `addLowerToLLVMPipeline` turns that (or an fp32 step) into the LLVM dialect:
// every public function then returns nothing and takes one memref per argument
// and per former result (docs/architecture.md, "Calling convention of a lowered
// step").
//
// Pass managers. Every `add*` function expects `pm` to be anchored on
// `builtin.module` (as `mlir::PassManager pm(&context)` is) and appends to it.
//
// Errors. Nothing is checked when passes are added: invalid options
// (`MixedPrecisionConfig::validate`: init-scale <= 0 or not finite in fp32
// or outside [min-scale, max-scale], growth-interval < 1, growth-factor <= 1,
// backoff-factor outside (0, 1), hysteresis < 1, min/max scale out of order,
// loss scaling with bf16), contract violations and ops the CPU lowering
// cannot handle are
// reported when `pm.run(module)` runs, as errors through the context's
// diagnostic handlers (located on the module, function, argument or op), and
// `pm.run` then returns failure. The module may then be partly rewritten.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_AMPMLIR_H
#define AMP_AMPMLIR_H

#include "amp/Support/MixedPrecisionConfig.h"
#include "llvm/Support/LogicalResult.h"

#include <string>

namespace mlir {
class DialectRegistry;
class OpPassManager;
class PassManager;
class Operation;
} // namespace mlir

namespace mlir::amp {

// The options of the rewrite: `MixedPrecisionConfig`, `Precision` and
// `LossScaleMode` (amp/Support/MixedPrecisionConfig.h), the same struct that
// amp-opt's `--amp-mixed-precision="..."` and amp-run fill.

/// Adds to `registry` the `amp` dialect, the upstream dialects a training
/// step is written in (func, linalg, tensor, arith, math, scf) and the
/// interface implementations that the CPU lowering needs (bufferization,
/// buffer deallocation, ConvertToLLVM) and amp-differentiate needs (the
/// adjoint rules of amp/Autodiff/Implementations.h) plus the builtin/LLVM
/// to LLVM IR translations (for a JIT or `translateModuleToLLVMIR`). Call
/// it on the registry of the MLIRContext that parses the step; registering
/// something twice is harmless.
void registerAmpDialects(DialectRegistry &registry);

/// Adds `amp-autocast` with `config.precision`, `autocastAllow`,
/// `autocastDeny` and `autocastReport`; adds nothing when precision is "f32".
void addAutocastPass(OpPassManager &pm, const MixedPrecisionConfig &config);

/// Adds `amp-loss-scaling` (which checks the training-step contract first)
/// with `config.lossScale` and the scale options; `precision` picks the
/// "auto" mode and makes loss scaling with "bf16" an error.
void addLossScalingPass(OpPassManager &pm, const MixedPrecisionConfig &config);

/// Adds the whole `amp-mixed-precision` pipeline: contract check, autocast
/// (unless "f32"), loss scaling, canonicalize, cse. The same passes as
/// `amp-opt --amp-mixed-precision="..."` with these options.
void addMixedPrecisionPipeline(OpPassManager &pm,
                               const MixedPrecisionConfig &config);

/// Adds `amp-lower-to-llvm`: lowers a (mixed-precision or fp32) step to the
/// LLVM dialect for the CPU and fails, located, on any op left that is not
/// LLVM. Functions to be called from C need the `llvm.emit_c_interface`
/// attribute before it runs.
void addLowerToLLVMPipeline(OpPassManager &pm);

/// Runs `pm` on `op` and collects every diagnostic the run emits in the
/// format that amp-opt and amp-run print, one per line:
/// "file:line:col: error: message" (notes and warnings alike; locations
/// without a file as MLIR prints them). Returns what `pm.run` returns; the
/// diagnostics are not passed on to the context's other handlers.
llvm::LogicalResult runPassManager(PassManager &pm, Operation *op,
                                   std::string &diagnostics);

} // namespace mlir::amp

#endif // AMP_AMPMLIR_H
