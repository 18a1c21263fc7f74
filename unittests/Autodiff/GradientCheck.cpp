//===- GradientCheck.cpp - finite-difference checks of amp-differentiate --===//

#include "GradientCheck.h"

#include "amp/Autodiff/Passes.h"
#include "amp/InitAll.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <random>

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::runtime;
using namespace mlir::amp::autodifftest;

Fill mlir::amp::autodifftest::uniformFill(uint64_t seed) {
  return [seed](unsigned arg, int64_t index) {
    std::mt19937_64 rng(seed * 1000003ULL + arg * 7919ULL + index);
    return std::uniform_real_distribution<double>(-1.0, 1.0)(rng);
  };
}

static double readElement(const HostTensor &t, int64_t i) {
  switch (t.spec().kind) {
  case ElementKind::F64:
    return t.as<double>()[i];
  case ElementKind::F32:
    return t.as<float>()[i];
  case ElementKind::I64:
    return double(t.as<int64_t>()[i]);
  case ElementKind::I32:
    return double(t.as<int32_t>()[i]);
  default:
    return std::nan("");
  }
}

static void writeElement(HostTensor &t, int64_t i, double v) {
  switch (t.spec().kind) {
  case ElementKind::F64:
    t.as<double>()[i] = v;
    break;
  case ElementKind::F32:
    t.as<float>()[i] = float(v);
    break;
  case ElementKind::I64:
    t.as<int64_t>()[i] = int64_t(v);
    break;
  case ElementKind::I32:
    t.as<int32_t>()[i] = int32_t(v);
    break;
  default:
    break;
  }
}

/// One buffer per type into `buffers`; false (and why in `os`) for a type
/// without a host spec.
static bool allocate(TypeRange types, int64_t dynamicSize,
                     std::vector<std::unique_ptr<HostTensor>> &buffers,
                     llvm::raw_ostream &os) {
  for (Type type : types) {
    auto spec = TensorSpec::fromType(type, dynamicSize);
    if (!spec) {
      os << llvm::toString(spec.takeError()) << "\n";
      return false;
    }
    buffers.push_back(std::make_unique<HostTensor>(*spec));
  }
  return true;
}

std::unique_ptr<GradientProgram>
GradientProgram::build(const std::string &source, std::string &error,
                       int64_t dynamicSize) {
  auto program = std::unique_ptr<GradientProgram>(new GradientProgram());
  DialectRegistry registry;
  registerAllDialectsAndExtensions(registry);
  program->context = std::make_unique<MLIRContext>(registry);
  MLIRContext *ctx = program->context.get();
  llvm::raw_string_ostream os(error);
  ScopedDiagnosticHandler handler(ctx, [&](Diagnostic &diag) {
    os << diag.getLocation() << ": " << diag << "\n";
    return success();
  });
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(source, ctx);
  if (!module) {
    os << "cannot parse the test module\n";
    return nullptr;
  }
  PassManager pm(ctx);
  DifferentiateOptions options;
  options.function = "f";
  pm.addPass(createDifferentiate(options));
  if (failed(pm.run(*module))) {
    os << "amp-differentiate failed\n";
    return nullptr;
  }
  auto f = module->lookupSymbol<func::FuncOp>("f");
  auto grad = module->lookupSymbol<func::FuncOp>("f_grad");
  // @f_grad returns the loss, then one gradient per float tensor argument
  // in argument order (the pass's default wrt).
  if (!allocate(f.getArgumentTypes(), dynamicSize, program->args, os) ||
      !allocate(grad.getResultTypes(), dynamicSize, program->gradResults, os) ||
      !allocate(f.getResultTypes(), dynamicSize, program->lossResult, os))
    return nullptr;
  for (auto [i, type] : llvm::enumerate(f.getArgumentTypes())) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (tensor && isa<FloatType>(tensor.getElementType()))
      program->wrtArgs.push_back(i);
  }
  if (program->wrtArgs.size() + 1 != grad.getNumResults()) {
    os << "@f_grad has " << grad.getNumResults() << " results for "
       << program->wrtArgs.size() << " float tensor arguments\n";
    return nullptr;
  }
  auto jit = JitModule::compile(*module, {"f", "f_grad"});
  if (!jit) {
    os << llvm::toString(jit.takeError()) << "\n";
    return nullptr;
  }
  program->jit = std::move(*jit);
  return program;
}

void GradientProgram::fillArguments(const Fill &fill) {
  for (auto [a, t] : llvm::enumerate(args))
    for (int64_t i = 0; i < t->spec().numElements(); ++i)
      writeElement(*t, i, fill(a, i));
}

double GradientProgram::loss() {
  std::vector<HostTensor *> buffers;
  for (auto &t : args)
    buffers.push_back(t.get());
  buffers.push_back(lossResult.front().get());
  if (llvm::Error err = jit->invoke("f", buffers)) {
    ADD_FAILURE() << llvm::toString(std::move(err));
    return std::nan("");
  }
  return readElement(*lossResult.front(), 0);
}

std::vector<std::vector<double>> GradientProgram::gradients(double *loss) {
  std::vector<HostTensor *> buffers;
  for (auto &t : args)
    buffers.push_back(t.get());
  for (auto &t : gradResults)
    buffers.push_back(t.get());
  if (llvm::Error err = jit->invoke("f_grad", buffers)) {
    ADD_FAILURE() << llvm::toString(std::move(err));
    return {};
  }
  if (loss)
    *loss = readElement(*gradResults.front(), 0);
  std::vector<std::vector<double>> grads;
  for (size_t r = 1; r < gradResults.size(); ++r) {
    HostTensor &g = *gradResults[r];
    std::vector<double> values(g.spec().numElements());
    for (size_t i = 0; i < values.size(); ++i)
      values[i] = readElement(g, i);
    grads.push_back(std::move(values));
  }
  return grads;
}

/// The directional form of the check (CheckOptions::directions).
static void expectDirectionalDerivatives(GradientProgram &program, unsigned arg,
                                         const std::vector<double> &g,
                                         const CheckOptions &options,
                                         std::mt19937 &rng) {
  HostTensor &x = program.argument(arg);
  int64_t n = x.spec().numElements();
  std::vector<double> saved(n);
  double scale = 1.0;
  for (int64_t i = 0; i < n; ++i) {
    saved[i] = readElement(x, i);
    scale = std::max(scale, std::fabs(saved[i]));
  }
  double h = 1e-6 * scale;
  std::bernoulli_distribution sign;
  for (unsigned d = 0; d < options.directions; ++d) {
    std::vector<double> up(n), down(n);
    for (int64_t i = 0; i < n; ++i) {
      double step = sign(rng) ? h : -h;
      writeElement(x, i, saved[i] + step);
      up[i] = readElement(x, i);
    }
    double plus = program.loss();
    double predicted = 0;
    for (int64_t i = 0; i < n; ++i) {
      writeElement(x, i, 2 * saved[i] - up[i]);
      down[i] = readElement(x, i);
      predicted += g[i] * (up[i] - down[i]);
    }
    double minus = program.loss();
    for (int64_t i = 0; i < n; ++i)
      writeElement(x, i, saved[i]);
    double actual = plus - minus;
    double rel = std::fabs(predicted - actual) /
                 std::max(std::fabs(predicted), std::fabs(actual));
    EXPECT_LE(rel, options.tolerance)
        << "argument " << arg << ", direction " << d << ": g . dx " << predicted
        << ", f(x+) - f(x-) " << actual;
    EXPECT_GE(std::fabs(predicted), 1e-9) << "argument " << arg;
  }
}

void mlir::amp::autodifftest::expectGradientsMatchFiniteDifferences(
    const std::string &source, const CheckOptions &options) {
  std::string error;
  auto program = GradientProgram::build(source, error, options.dynamicSize);
  ASSERT_TRUE(program) << error;
  program->fillArguments(options.fill);
  double gradLoss = 0;
  std::vector<std::vector<double>> grads = program->gradients(&gradLoss);
  ASSERT_EQ(grads.size(), program->wrt().size());
  double loss = program->loss();
  ASSERT_TRUE(std::isfinite(loss));
  EXPECT_EQ(loss, gradLoss) << "@f_grad's loss differs from @f's";

  std::mt19937 rng(11);
  for (auto [w, arg] : llvm::enumerate(program->wrt())) {
    HostTensor &x = program->argument(arg);
    const std::vector<double> &g = grads[w];
    double largest = 0;
    for (double v : g) {
      ASSERT_TRUE(std::isfinite(v)) << "argument " << arg;
      largest = std::max(largest, std::fabs(v));
    }
    if (llvm::is_contained(options.zeroGradientArguments, arg)) {
      EXPECT_LE(largest, 1e-12) << "argument " << arg << " should get 0";
      continue;
    }
    if (options.directions > 0) {
      expectDirectionalDerivatives(*program, arg, g, options, rng);
      continue;
    }
    EXPECT_GE(largest, options.minLargestGradient)
        << "argument " << arg << ": the gradient is (nearly) zero, so the "
        << "check would pass on anything";
    std::vector<int64_t> elements(g.size());
    std::iota(elements.begin(), elements.end(), 0);
    if (elements.size() > options.maxElementsPerArgument) {
      std::shuffle(elements.begin(), elements.end(), rng);
      elements.resize(options.maxElementsPerArgument);
    }
    double worst = 0;
    for (int64_t i : elements) {
      double saved = readElement(x, i);
      double h = 1e-6 * std::max(1.0, std::fabs(saved));
      writeElement(x, i, saved + h);
      double up = readElement(x, i);
      double plus = program->loss();
      writeElement(x, i, saved - h);
      double down = readElement(x, i);
      double minus = program->loss();
      writeElement(x, i, saved);
      double fd = (plus - minus) / (up - down);
      double scale =
          std::max({std::fabs(g[i]), std::fabs(fd), options.floor * largest});
      double rel = std::fabs(g[i] - fd) / scale;
      worst = std::max(worst, rel);
      EXPECT_LE(rel, options.tolerance)
          << "argument " << arg << ", element " << i << ": gradient " << g[i]
          << ", finite difference " << fd;
    }
    char text[32];
    std::snprintf(text, sizeof(text), "%.3g", worst);
    ::testing::Test::RecordProperty(
        "worst_relative_error_arg" + std::to_string(arg), text);
  }
}

std::string
mlir::amp::autodifftest::returnSumOfSquares(const std::string &value,
                                            const std::vector<int64_t> &shape) {
  std::string dims, type = "tensor<";
  for (size_t d = 0; d < shape.size(); ++d) {
    dims += (d ? ", d" : "d") + std::to_string(d);
    type += std::to_string(shape[d]) + "x";
  }
  type += "f64>";
  std::string iterators;
  for (size_t d = 0; d < shape.size(); ++d)
    iterators += std::string(d ? ", " : "") + "\"reduction\"";
  return "  %ss_zero = arith.constant 0.0 : f64\n"
         "  %ss_empty = tensor.empty() : tensor<f64>\n"
         "  %ss_init = linalg.fill ins(%ss_zero : f64) outs(%ss_empty : "
         "tensor<f64>) -> tensor<f64>\n"
         "  %loss = linalg.generic {indexing_maps = [affine_map<(" +
         dims + ") -> (" + dims + ")>, affine_map<(" + dims +
         ") -> ()>], iterator_types = [" + iterators + "]} ins(" + value +
         " : " + type +
         ") outs(%ss_init : tensor<f64>) {\n"
         "  ^bb0(%ss_a: f64, %ss_acc: f64):\n"
         "    %ss_sq = arith.mulf %ss_a, %ss_a : f64\n"
         "    %ss_sum = arith.addf %ss_acc, %ss_sq : f64\n"
         "    linalg.yield %ss_sum : f64\n"
         "  } -> tensor<f64>\n"
         "  return %loss : tensor<f64>\n";
}
