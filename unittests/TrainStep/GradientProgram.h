//===- GradientProgram.h - a training step's backward, callable -*- C++ -*-===//
//
// The harness of the training-step tests: a module's `amp.train_step` made
// into a function returning (loss, the raw gradient of every parameter)
// (runtime::makeGradientFunction), its markers lowered (seed 1), compiled
// with amp's CPU pipeline and called on host buffers in f32.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_UNITTESTS_TRAINSTEP_GRADIENTPROGRAM_H
#define AMP_UNITTESTS_TRAINSTEP_GRADIENTPROGRAM_H

#include "amp/Runtime/HostTensor.h"
#include "amp/Runtime/JitModule.h"

#include "mlir/IR/BuiltinOps.h"

#include <memory>
#include <string>
#include <vector>

namespace mlir::amp::trainsteptest {

/// A new context with every dialect, extension and adjoint rule of amp.
std::unique_ptr<MLIRContext> makeContext();

/// Parses `path` (relative to the source tree); null and a gtest failure
/// when it does not parse.
OwningOpRef<ModuleOp> parseSourceTreeFile(MLIRContext &ctx,
                                          const std::string &path);

/// Runs the textual pass pipeline `pipeline` (e.g.
/// "amp-build-train-step{optimizer=sgd}") on `module`; false and a gtest
/// failure with the diagnostics when it fails.
bool runPipeline(ModuleOp module, const std::string &pipeline);

class GradientProgram {
public:
  /// Compiles the gradient function of the training step of `module` (which
  /// it rewrites: clone it first to keep it), in f64 (amp-promote-to-f64)
  /// with `inF64`. Null and a gtest failure on error.
  static std::unique_ptr<GradientProgram> build(ModuleOp module,
                                                bool inF64 = false);
  /// Compiles `name`, a function of `module` returning (loss, the gradient
  /// of its arguments `params`, in order).
  static std::unique_ptr<GradientProgram>
  fromFunction(ModuleOp module, llvm::StringRef name,
               std::vector<unsigned> params);

  runtime::HostTensor &argument(unsigned i) { return *args[i]; }
  unsigned numArguments() const { return args.size(); }
  /// The training step's parameter argument indices, in order.
  const std::vector<unsigned> &params() const { return paramArgs; }
  /// Sets argument `i` from `values` (one per element; widened or rounded
  /// to its element type).
  void setArgument(unsigned i, const std::vector<double> &values);
  /// Calls it: the loss and one gradient per parameter.
  bool run(double &loss, std::vector<std::vector<double>> &grads);

private:
  std::string name;
  std::unique_ptr<runtime::JitModule> jit;
  std::vector<std::unique_ptr<runtime::HostTensor>> args, results;
  std::vector<unsigned> paramArgs;
};

} // namespace mlir::amp::trainsteptest

#endif // AMP_UNITTESTS_TRAINSTEP_GRADIENTPROGRAM_H
