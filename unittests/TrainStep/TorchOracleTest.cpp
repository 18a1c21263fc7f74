//===- TorchOracleTest.cpp - built steps against PyTorch autograd ---------===//
//
// The CNN and the transformer block of examples/pytorch/ (torch-mlir's form,
// the PyTorch models' weights as dense_resource constants) go
// through amp-build-train-step; the backward it builds (amp-differentiate's
// rules from the amp.loss_grad seed) runs in f32 on a fixed batch and is
// compared with PyTorch's autograd on the same model, weights and batch:
// gen_models.py --oracle loads the weights of the .mlir file into the torch
// model and writes torch's batch, cross-entropy loss and the gradient of
// every parameter (torch.autograd.grad, f32 and f64), keyed by the
// parameter's state_dict name, which is the dense_resource key the step's
// parameter starts from. Needs /usr/bin/python3 with Debian's python3-torch
// (scripts/install-deps.sh); skipped, loudly, without it.
//
//===----------------------------------------------------------------------===//

#include "GradientProgram.h"

#include "amp/Analysis/TrainingStep.h"
#include "amp/Runtime/BoundStep.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::trainsteptest;

namespace {

/// What gen_models.py --oracle writes.
struct Oracle {
  std::vector<double> input, label;
  /// By precision (32, 64): the loss and the gradients by parameter key.
  std::map<int, double> loss;
  std::map<int, std::map<std::string, std::vector<double>>> grads;
};

bool readOracle(const std::string &path, Oracle &oracle) {
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string tag, key;
    fields >> tag;
    if (tag == "loss32" || tag == "loss64") {
      fields >> oracle.loss[tag == "loss32" ? 32 : 64];
      continue;
    }
    bool grad = tag == "grad32" || tag == "grad64";
    if (grad)
      fields >> key;
    size_t n = 0;
    fields >> n;
    std::vector<double> values(n);
    for (double &v : values)
      fields >> v;
    if (!fields)
      return false;
    if (tag == "input")
      oracle.input = std::move(values);
    else if (tag == "label")
      oracle.label = std::move(values);
    else if (grad)
      oracle.grads[tag == "grad32" ? 32 : 64][key] = std::move(values);
  }
  return !oracle.input.empty() && oracle.grads[32].size() &&
         oracle.grads[32].size() == oracle.grads[64].size();
}

bool torchAvailable() {
  return std::system("/usr/bin/python3 -c 'import torch' >/dev/null 2>&1") == 0;
}

double largestMagnitude(const std::vector<double> &v) {
  double m = 0;
  for (double x : v)
    m = std::max(m, std::fabs(x));
  return m;
}

/// Runs the step built from examples/pytorch/<model>.mlir in f32 or f64 on
/// the oracle's batch, from the weights of the file (its parameters'
/// amp.initial_value), and compares the loss (relative error) and every
/// parameter's gradient g with PyTorch's t: `tolerance` bounds the relative
/// error ||g - t||_2 / ||t||_2 of each parameter's gradient. (Element by
/// element, f32 sums of many products of mixed sign, in two orders, differ
/// by up to ~1e-5 of the gradient's largest element: printed, not bounded.)
/// `zeroByConstruction` names parameters whose exact gradient is 0.
struct Agreement {
  double worstNormwise = 0, worstScaledMax = 0;
  double oursFromExact = 0, torchFromExact = 0;
};

Agreement compareWithTorch(const std::string &model, const Oracle &oracle,
                           int bits, double tolerance,
                           const std::set<std::string> &zeroByConstruction) {
  Agreement result;
  const Agreement failed{INFINITY, INFINITY, INFINITY, INFINITY};
  auto ctx = makeContext();
  OwningOpRef<ModuleOp> module =
      parseSourceTreeFile(*ctx, "examples/pytorch/" + model + ".mlir");
  if (!module || !runPipeline(*module, "amp-build-train-step"))
    return failed;
  // The parameters' keys and initial values, read before the step is
  // rewritten.
  auto train = module->lookupSymbol<func::FuncOp>("train_step");
  auto layout = runtime::StepLayout::read(*module, /*batch=*/1);
  if (!layout) {
    ADD_FAILURE() << llvm::toString(layout.takeError());
    return failed;
  }
  std::vector<std::string> keys;
  for (unsigned p : layout->params) {
    auto init = dyn_cast_or_null<DenseResourceElementsAttr>(
        train.getArgAttr(p, kInitialValueAttr));
    if (!init) {
      ADD_FAILURE() << "parameter #" << p << " has no dense_resource";
      return failed;
    }
    keys.push_back(init.getRawHandle().getKey().str());
  }
  const auto &torchGrads = oracle.grads.at(bits);
  // Every torch parameter is a parameter of the step, and back.
  EXPECT_EQ(keys.size(), torchGrads.size());

  auto program = GradientProgram::build(*module, /*inF64=*/bits == 64);
  if (!program)
    return failed;
  for (unsigned i = 0; i < program->numArguments(); ++i) {
    int64_t n = program->argument(i).spec().numElements();
    std::vector<double> values(n, 0.0);
    if (i == layout->input)
      values = oracle.input;
    else if (i == layout->label)
      values = oracle.label;
    else if (!layout->initialData[i].empty())
      for (int64_t e = 0; e < n; ++e)
        values[e] =
            reinterpret_cast<const float *>(layout->initialData[i].data())[e];
    EXPECT_EQ(int64_t(values.size()), n) << "argument #" << i;
    program->setArgument(i, values);
  }
  double loss = 0;
  std::vector<std::vector<double>> grads;
  if (!program->run(loss, grads))
    return failed;
  double torchLoss = oracle.loss.at(bits);
  EXPECT_LE(std::fabs(loss - torchLoss), tolerance * std::fabs(torchLoss))
      << model << " f" << bits << ": loss " << loss << ", torch " << torchLoss;

  double scale = 0; // the largest gradient element of the model
  for (const auto &[key, t] : torchGrads)
    scale = std::max(scale, largestMagnitude(t));
  for (size_t k = 0; k < keys.size(); ++k) {
    auto it = torchGrads.find(keys[k]);
    if (it == torchGrads.end()) {
      ADD_FAILURE() << keys[k] << " is not a torch parameter";
      continue;
    }
    const std::vector<double> &t = it->second, &g = grads[k];
    EXPECT_EQ(g.size(), t.size()) << keys[k];
    if (zeroByConstruction.count(keys[k])) {
      // Both are rounding: tiny against the model's gradients.
      EXPECT_LE(largestMagnitude(t), 1e-6 * scale) << keys[k];
      EXPECT_LE(largestMagnitude(g), 1e-6 * scale) << keys[k];
      continue;
    }
    double largest = largestMagnitude(t);
    // A gradient of zeros would agree with anything.
    EXPECT_GT(largest, 1e-4 * scale) << keys[k] << ": torch's gradient is ~0";
    size_t n = std::min(g.size(), t.size());
    double diff2 = 0, norm2 = 0, maxDiff = 0;
    size_t at = 0;
    for (size_t e = 0; e < n; ++e) {
      double d = std::fabs(g[e] - t[e]);
      diff2 += d * d;
      norm2 += t[e] * t[e];
      if (d > maxDiff) {
        maxDiff = d;
        at = e;
      }
    }
    double relative = std::sqrt(diff2 / norm2);
    result.worstNormwise = std::max(result.worstNormwise, relative);
    result.worstScaledMax = std::max(result.worstScaledMax, maxDiff / largest);
    // Our f32 gradient against torch's f64 one: how far each f32 program is
    // from the exact gradient (torch's own f32 distance is printed beside).
    if (bits == 32) {
      const std::vector<double> &exact = oracle.grads.at(64).at(keys[k]);
      const std::vector<double> &torch32 = t;
      double ours = 0, theirs = 0, norm = 0;
      for (size_t e = 0; e < n; ++e) {
        ours += (g[e] - exact[e]) * (g[e] - exact[e]);
        theirs += (torch32[e] - exact[e]) * (torch32[e] - exact[e]);
        norm += exact[e] * exact[e];
      }
      result.oursFromExact =
          std::max(result.oursFromExact, std::sqrt(ours / norm));
      result.torchFromExact =
          std::max(result.torchFromExact, std::sqrt(theirs / norm));
    }
    EXPECT_LE(relative, tolerance)
        << model << " f" << bits << " " << keys[k]
        << ": ||g - t|| / ||t|| = " << relative
        << "; the largest difference at [" << at << "]: ours " << g[at]
        << ", torch " << t[at];
  }
  std::cout << "[ oracle   ] " << model << " f" << bits << ": " << keys.size()
            << " parameters, loss " << loss << " (torch " << torchLoss
            << "); worst over the parameters: ||g - t|| / ||t|| "
            << result.worstNormwise << ", max|g - t| / max|t| "
            << result.worstScaledMax;
  if (bits == 32)
    std::cout << "; from torch's f64 gradient: ours " << result.oursFromExact
              << ", torch's f32 " << result.torchFromExact;
  std::cout << "\n";
  return result;
}

void expectAgreesWithTorch(const std::string &model,
                           const std::set<std::string> &zeroByConstruction) {
  if (!torchAvailable())
    GTEST_SKIP() << "/usr/bin/python3 cannot import torch (Debian's "
                    "python3-torch, scripts/install-deps.sh): the PyTorch "
                    "oracle is not checked";
  std::string oraclePath =
      testing::TempDir() + "amp-torch-oracle-" + model + ".txt";
  std::string command = "/usr/bin/python3 " + std::string(AMP_SOURCE_DIR) +
                        "/examples/pytorch/gen_models.py --oracle " + model +
                        " " + oraclePath;
  ASSERT_EQ(std::system(command.c_str()), 0) << command;
  Oracle oracle;
  ASSERT_TRUE(readOracle(oraclePath, oracle)) << oraclePath;
  std::remove(oraclePath.c_str());
  // f32 against f32 to 1e-5; f64 against f64 to 1e-7 (what is left there
  // is the f32 rounding of the IR's constants, eps = 1e-5 and 1/sqrt(2),
  // which torch's f64 run takes exact), so the f32 differences are
  // rounding, not a different function.
  compareWithTorch(model, oracle, 32, 1e-5, zeroByConstruction);
  compareWithTorch(model, oracle, 64, 1e-7, zeroByConstruction);
}

TEST(TorchOracle, CNN) { expectAgreesWithTorch("cnn", {}); }

// The key bias adds one number to every score of a query's row, which the
// softmax cancels: its gradient is 0 in exact arithmetic.
TEST(TorchOracle, Transformer) {
  expectAgreesWithTorch("transformer", {"k.bias"});
}

} // namespace
