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
#include "amp/Runtime/HostTensor.h"
#include "amp/Runtime/JitModule.h"

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

/// One training step, lowered in fp32 and JIT-compiled, with a buffer per
/// argument and per result.
struct Step {
  std::unique_ptr<MLIRContext> ctx;
  OwningOpRef<ModuleOp> module;
  std::unique_ptr<JitModule> jit;
  std::vector<std::unique_ptr<HostTensor>> args, results;
  std::vector<std::string> argRoles;
  std::map<unsigned, unsigned> resultOfArg; ///< amp.updates
  unsigned lossResult = 0;

  ::testing::AssertionResult load(const std::string &path) {
    DialectRegistry registry;
    registerAllDialectsAndExtensions(registry);
    ctx = std::make_unique<MLIRContext>(registry);
    module = parseSourceFile<ModuleOp>(path, ctx.get());
    if (!module)
      return ::testing::AssertionFailure() << "cannot parse " << path;
    MixedPrecisionOptions mp;
    mp.precision = "f32";
    mp.lossScale = "none";
    PassManager pm(ctx.get());
    buildMixedPrecisionPipeline(pm, mp);
    if (failed(pm.run(*module)))
      return ::testing::AssertionFailure() << "amp-mixed-precision failed";
    auto fn = module->lookupSymbol<func::FuncOp>("train_step");
    if (!fn)
      return ::testing::AssertionFailure() << "no @train_step";
    for (unsigned i = 0; i < fn.getNumArguments(); ++i) {
      auto role = fn.getArgAttrOfType<StringAttr>(i, kRoleAttr);
      argRoles.push_back(role ? role.getValue().str() : "");
      auto spec = TensorSpec::fromType(fn.getArgumentTypes()[i]);
      if (!spec)
        return ::testing::AssertionFailure()
               << llvm::toString(spec.takeError());
      args.push_back(std::make_unique<HostTensor>(*spec));
      args.back()->fillZero();
    }
    for (unsigned r = 0; r < fn.getNumResults(); ++r) {
      auto role = fn.getResultAttrOfType<StringAttr>(r, kRoleAttr);
      if (role && role.getValue() == "loss")
        lossResult = r;
      if (auto upd = fn.getResultAttrOfType<IntegerAttr>(r, kUpdatesAttr))
        resultOfArg[upd.getInt()] = r;
      auto spec = TensorSpec::fromType(fn.getResultTypes()[r]);
      if (!spec)
        return ::testing::AssertionFailure()
               << llvm::toString(spec.takeError());
      results.push_back(std::make_unique<HostTensor>(*spec));
    }
    auto compiled = JitModule::compile(*module, {"train_step"});
    if (!compiled)
      return ::testing::AssertionFailure()
             << llvm::toString(compiled.takeError());
    jit = std::move(*compiled);
    return ::testing::AssertionSuccess();
  }

  /// Calls the step; returns its loss (NaN on a failed call).
  float run() {
    std::vector<HostTensor *> buffers;
    for (auto &t : args)
      buffers.push_back(t.get());
    for (auto &t : results)
      buffers.push_back(t.get());
    if (llvm::Error err = jit->invoke("train_step", buffers)) {
      ADD_FAILURE() << llvm::toString(std::move(err));
      return std::nanf("");
    }
    return results[lossResult]->as<float>()[0];
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
  for (unsigned i = 0; i < step.args.size(); ++i) {
    HostTensor &t = *step.args[i];
    const std::string &role = step.argRoles[i];
    if (role == "param") {
      params.push_back(i);
      int64_t fanIn = t.spec().shape.size() > 1 ? t.spec().shape[0] : 64;
      float bound = initScale / std::sqrt(static_cast<float>(fanIn));
      std::uniform_real_distribution<float> u(-bound, bound);
      for (int64_t e = 0; e < t.spec().numElements(); ++e)
        t.as<float>()[e] = u(rng);
    } else if (role == "input") {
      std::uniform_real_distribution<float> u(0.0f, 1.0f);
      for (int64_t e = 0; e < t.spec().numElements(); ++e)
        t.as<float>()[e] = u(rng);
    } else if (role == "label") {
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
    HostTensor &w = *step.args[p];
    HostTensor &updated = *step.results[step.resultOfArg.at(p)];
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
    float *w = step.args[p]->as<float>();
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
