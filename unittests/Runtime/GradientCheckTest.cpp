//===- GradientCheckTest.cpp - the shipped backward passes, checked -------===//
//
// The Fashion-MNIST steps (examples/fashion-mnist/mlp.mlir, transformer.mlir)
// have hand-written backward passes. This test checks them against the loss
// the same step returns: with zero momentum buffers, one SGD-momentum step
// applies w' = w - lr * g, so g = (w - w') / lr is the gradient the step
// computed, and it must match the central finite difference (L(w + eps e_i) -
// L(w - eps e_i)) / (2 eps) of the step's loss output, for the largest-gradient
// elements and a few random ones of every parameter. All in fp32
// (precision=f32, no loss scaling), JIT-compiled on the CPU.
//
//===----------------------------------------------------------------------===//

#include "amp/Analysis/TrainingStep.h"
#include "amp/InitAll.h"
#include "amp/Pipelines/Pipelines.h"
#include "amp/Runtime/BoundStep.h"
#include "amp/Support/Diagnostics.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <numeric>
#include <random>
#include <string>
#include <vector>

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::runtime;

namespace {

/// One training step in fp32 bound to the CPU backend (BoundStep), with its
/// host buffers.
struct Step {
  std::unique_ptr<MLIRContext> ctx;
  std::unique_ptr<Backend> cpu = createCpuBackend();
  std::unique_ptr<BoundStep> bound;

  ::testing::AssertionResult load(const std::string &path) {
    DialectRegistry registry;
    registerAllDialectsAndExtensions(registry);
    ctx = std::make_unique<MLIRContext>(registry);
    OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(path, ctx.get());
    if (!module)
      return ::testing::AssertionFailure() << "cannot parse " << path;
    MixedPrecisionConfig mp;
    mp.precision = Precision::F32;
    mp.lossScale = LossScaleMode::None;
    if (llvm::Error err = runPipeline(
            *module,
            [&](OpPassManager &pm) { buildMixedPrecisionPipeline(pm, mp); },
            "amp-mixed-precision"))
      return ::testing::AssertionFailure() << llvm::toString(std::move(err));
    auto step = BoundStep::create(*module, *cpu, /*batch=*/0);
    if (!step)
      return ::testing::AssertionFailure() << llvm::toString(step.takeError());
    bound = std::move(*step);
    return ::testing::AssertionSuccess();
  }

  const StepLayout &layout() const { return bound->layout(); }
  HostTensor &arg(unsigned i) { return bound->arg(i).host(); }
  HostTensor &updated(unsigned param) {
    for (auto [a, r] : layout().updates)
      if (a == param)
        return bound->result(r).host();
    ADD_FAILURE() << "argument " << param << " is not updated";
    return bound->result(0).host();
  }

  /// Calls the step; returns its loss (NaN on a failed call).
  float run() {
    if (llvm::Error err = bound->run()) {
      ADD_FAILURE() << llvm::toString(std::move(err));
      return std::nanf("");
    }
    return bound->result(layout().lossResult).host().as<float>()[0];
  }
};

/// Checks the step in examples/fashion-mnist/`file` (SGD momentum with
/// learning rate `lr`, `numParams` parameters), parameters drawn from
/// U(+-initScale / sqrt(fan_in)).
void checkBackward(const std::string &file, unsigned numParams, float lr,
                   float initScale) {
  Step step;
  ASSERT_TRUE(step.load(std::string(AMP_SOURCE_DIR) +
                        "/examples/fashion-mnist/" + file));
  // Parameters as amp-run draws them (U(+-1/sqrt(fan_in)); biases too, so
  // that they are not all zero), inputs in [0, 1), labels in [0, 10).
  std::mt19937 rng(7);
  std::vector<unsigned> params;
  for (unsigned i = 0; i < step.bound->numArgs(); ++i) {
    HostTensor &t = step.arg(i);
    ArgRole role = step.layout().argRoles[i];
    if (role == ArgRole::Param) {
      params.push_back(i);
      int64_t fanIn = t.spec().shape.size() > 1 ? t.spec().shape[0] : 64;
      float bound = initScale / std::sqrt(static_cast<float>(fanIn));
      std::uniform_real_distribution<float> u(-bound, bound);
      for (int64_t e = 0; e < t.spec().numElements(); ++e)
        t.as<float>()[e] = u(rng);
    } else if (role == ArgRole::Input) {
      std::uniform_real_distribution<float> u(0.0f, 1.0f);
      for (int64_t e = 0; e < t.spec().numElements(); ++e)
        t.as<float>()[e] = u(rng);
    } else if (role == ArgRole::Label) {
      std::uniform_int_distribution<int32_t> u(0, 9);
      for (int64_t e = 0; e < t.spec().numElements(); ++e)
        t.as<int32_t>()[e] = u(rng);
    }
  }
  ASSERT_EQ(params.size(), numParams);
  float loss = step.run();
  ASSERT_TRUE(std::isfinite(loss));
  if (initScale == 1.0f) // amp-run's scale: near-uniform predictions
    EXPECT_NEAR(loss, std::log(10.0f), 0.5f);

  // Analytic gradients from the update, before any argument changes.
  std::map<unsigned, std::vector<float>> grads;
  for (unsigned p : params) {
    HostTensor &w = step.arg(p);
    HostTensor &updated = step.updated(p);
    std::vector<float> g(w.spec().numElements());
    for (size_t e = 0; e < g.size(); ++e)
      g[e] = (w.as<float>()[e] - updated.as<float>()[e]) / lr;
    grads[p] = std::move(g);
  }

  // The loss (about 2.3) is an f32 with an ulp of 2.4e-7, which limits the
  // difference quotient to about 3e-5 / eps; ReLU kinks crossed by a large
  // step limit eps from above. 4e-3 keeps both below the tolerance.
  const float eps = 4e-3f;
  int checked = 0;
  for (unsigned p : params) {
    const std::vector<float> &g = grads[p];
    std::vector<size_t> order(g.size());
    std::iota(order.begin(), order.end(), 0);
    std::partial_sort(
        order.begin(), order.begin() + 3, order.end(),
        [&](size_t a, size_t b) { return std::fabs(g[a]) > std::fabs(g[b]); });
    std::vector<size_t> picks(order.begin(), order.begin() + 3);
    std::uniform_int_distribution<size_t> any(0, g.size() - 1);
    for (int r = 0; r < 2; ++r)
      picks.push_back(any(rng));
    float *w = step.arg(p).as<float>();
    for (size_t e : picks) {
      float saved = w[e];
      w[e] = saved + eps;
      float plus = step.run();
      w[e] = saved - eps;
      float minus = step.run();
      w[e] = saved;
      float numeric = (plus - minus) / (2 * eps);
      EXPECT_NEAR(g[e], numeric, 2e-4 + 0.05 * std::fabs(numeric))
          << "parameter argument " << p << ", element " << e;
      ++checked;
    }
    // The largest gradient of every parameter is not negligible, so the
    // comparison above is not trivially met by two near-zero numbers.
    EXPECT_GT(std::fabs(g[picks[0]]), 1e-3f) << "parameter argument " << p;
  }
  EXPECT_EQ(checked, 5 * static_cast<int>(numParams));
}

TEST(GradientCheck, MLPBackwardMatchesFiniteDifferences) {
  checkBackward("mlp.mlir", 6, 0.05f, 1.0f);
}

// Embedding, one attention head (softmax backward), ReLU feed-forward, two
// residuals, mean over tokens, classifier. Weights 3x amp-run's scale: at
// 1x the attention is nearly uniform and the query/key gradients are below
// the finite differences' resolution.
TEST(GradientCheck, TransformerBackwardMatchesFiniteDifferences) {
  checkBackward("transformer.mlir", 9, 0.05f, 3.0f);
}

} // namespace
