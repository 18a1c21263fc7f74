//===- GradientCheck.h - finite-difference checks of amp-differentiate ----===//
//
// The harness of the autodiff tests: a module with `@f` returning a scalar
// tensor<f64> loss goes through `amp-differentiate{function=f}`; `@f` and
// `@f_grad` are JIT-compiled together (amp-lower-to-llvm, JitModule), and
// every gradient element (a seeded random subset of large arguments) is
// compared with the central finite difference
//   (f(x + h e_i) - f(x - h e_i)) / 2h,  h = 1e-6 max(1, |x_i|)
// (shared REFERENCE.md, "Reverse-mode autodiff: what the oracles do").
//
//===----------------------------------------------------------------------===//

#ifndef AMP_UNITTESTS_AUTODIFF_GRADIENTCHECK_H
#define AMP_UNITTESTS_AUTODIFF_GRADIENTCHECK_H

#include "amp/Runtime/HostTensor.h"
#include "amp/Runtime/JitModule.h"

#include "mlir/IR/MLIRContext.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace mlir::amp::autodifftest {

/// Element `index` of argument `arg` of @f.
using Fill = std::function<double(unsigned arg, int64_t index)>;

/// Uniform values in [-1, 1) from a seeded generator, different per
/// argument.
Fill uniformFill(uint64_t seed = 1);

/// `@f` and `@f_grad` of one module, JIT-compiled, with one buffer per
/// argument of @f (the gradient function takes the same arguments).
class GradientProgram {
public:
  /// Parses `source`, runs amp-differentiate{function=f} and compiles both
  /// functions; dynamic dimensions take `dynamicSize`. Null and `error` set
  /// on failure.
  static std::unique_ptr<GradientProgram>
  build(const std::string &source, std::string &error, int64_t dynamicSize = 3);

  /// Fills every argument with `fill`.
  void fillArguments(const Fill &fill);
  /// Runs @f and returns the loss.
  double loss();
  /// Runs @f_grad: the loss and one gradient per differentiated argument
  /// (`wrt()`), as doubles.
  std::vector<std::vector<double>> gradients(double *loss = nullptr);

  std::vector<unsigned> &wrt() { return wrtArgs; }
  runtime::HostTensor &argument(unsigned i) { return *args[i]; }
  unsigned numArguments() const { return args.size(); }

private:
  std::unique_ptr<MLIRContext> context;
  std::unique_ptr<runtime::JitModule> jit;
  std::vector<std::unique_ptr<runtime::HostTensor>> args, lossResult,
      gradResults;
  std::vector<unsigned> wrtArgs;
};

struct CheckOptions {
  Fill fill = uniformFill();
  int64_t dynamicSize = 3;
  /// Elements checked per argument (all when the argument has fewer).
  unsigned maxElementsPerArgument = 200;
  /// |g - fd| <= tolerance * max(|g|, |fd|, floor * max_j |g_j|): relative
  /// per element; `floor` keeps elements whose gradient is 0 (a masked
  /// position) from being divided by the finite difference's rounding.
  double tolerance = 1e-6;
  double floor = 1e-3;
  /// Each differentiated argument must have a gradient element of at least
  /// this size, so that the comparison cannot pass on zeros.
  double minLargestGradient = 1e-3;
  /// Arguments whose gradient is zero by construction (a bias followed by a
  /// normalization): every element must be within 1e-12 of 0.
  std::vector<unsigned> zeroGradientArguments;
  /// When > 0, each argument is checked along this many random directions v
  /// (entries +-1) instead of element by element: g . (x+ - x-) against
  /// f(x+) - f(x-), x+- = x +- h v. For whole models, whose losses are
  /// large enough that the rounding of f hides single small elements.
  unsigned directions = 0;
};

/// Builds the program and checks every differentiated argument's gradient
/// against central finite differences (gtest failures on mismatch).
void expectGradientsMatchFiniteDifferences(const std::string &source,
                                           const CheckOptions &options = {});

/// MLIR lines that reduce `value` (a tensor<...xf64> of `shape`) to
/// `%loss = sum(value^2)` of type tensor<f64>, and `return %loss`.
std::string returnSumOfSquares(const std::string &value,
                               const std::vector<int64_t> &shape);

} // namespace mlir::amp::autodifftest

#endif // AMP_UNITTESTS_AUTODIFF_GRADIENTCHECK_H
