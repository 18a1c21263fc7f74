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
// Crashes. Some valid inputs crash upstream MLIR passes. `runPasses` runs a
// pass manager the way amp-opt does: a crash inside a pass becomes a located
// error naming the pass plus a reproducer file (on by default; see
// CrashContainmentConfig), instead of ending the process.
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
class Operation;
class PassManager;
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

/// How `runPasses` contains a crash inside a pass.
struct CrashContainmentConfig {
  /// false: `runPasses` is `pm.run(module)` (a crash ends the process).
  bool enabled = true;
  /// The reproducer file; empty: a new `amp-crash-reproducer-XXXXXX.mlir` in
  /// $TMPDIR (else /tmp). An existing file is replaced.
  std::string reproducerPath;
};

/// Runs `pm` on `module` (the top-level operation, e.g. the ModuleOp), like
/// `pm.run(module)`, with crash containment unless `config.enabled` is
/// false: a pass that crashes (SIGSEGV, SIGABRT from an assertion, ...) is
/// reported as one error through the context's diagnostic handlers, located
/// at the operation the pass ran on, "pass '<name>' (...) crashed on '<op>'
/// ...: an internal compiler error ...; reproducer: '<file>' (run it with
/// `amp-opt --run-reproducer <file>`)", and the result is failure. An
/// ordinary pass failure is reported by the pass itself, as without this.
/// The passes run single-threaded (multithreading is restored after), and
/// `pm` gets an instrumentation: call this once per pass manager. After a
/// crash, neither `pm` nor `module` may be used again.
///
/// With `diagnostics`, every diagnostic of the run (the crash error too) is
/// appended to it instead of going to the context's handlers, one per line
/// in the format that amp-opt and amp-run print: "file:line:col: error:
/// message" (notes and warnings alike; locations without a file as MLIR
/// prints them).
llvm::LogicalResult runPasses(PassManager &pm, Operation *module,
                              const CrashContainmentConfig &config = {},
                              std::string *diagnostics = nullptr);

} // namespace mlir::amp

#endif // AMP_AMPMLIR_H
