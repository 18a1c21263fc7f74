//===- HandWrittenStepTest.cpp - mlp.mlir's backward vs amp-differentiate -===//
//
// examples/fashion-mnist/mlp.mlir has a backward written by hand (softmax
// minus one-hot, transposed contractions, ReLU masks, column sums). Its
// forward and loss, the ops before `amp.loss_grad`, are cut out into a
// function of their own and differentiated by amp-differentiate; on the
// same random parameters, batch and labels, both backwards give the same
// loss and the same gradients to f32 rounding.
//
//===----------------------------------------------------------------------===//

#include "GradientProgram.h"

#include "amp/Dialect/Amp/IR/AmpOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>
#include <random>

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::trainsteptest;

namespace {

/// Replaces the training step of `module` by @forward_loss: its arguments,
/// the ops before the seed, and the loss as the only result.
void cutOutForward(ModuleOp module) {
  for (auto fn : llvm::make_early_inc_range(module.getOps<func::FuncOp>()))
    if (fn.getSymName() != "train_step")
      fn.erase();
  auto fn = module.lookupSymbol<func::FuncOp>("train_step");
  Block &body = fn.getBody().front();
  LossGradOp seed;
  for (Operation &op : body)
    if (auto s = dyn_cast<LossGradOp>(op))
      seed = s;
  Value loss = seed.getLoss();
  while (&body.back() != seed.getOperation())
    body.back().erase();
  seed.erase();
  OpBuilder b = OpBuilder::atBlockEnd(&body);
  func::ReturnOp::create(b, fn.getLoc(), loss);
  fn.setFunctionType(b.getFunctionType(fn.getArgumentTypes(), loss.getType()));
  fn.removeResAttrsAttr();
  fn->removeAttr("amp.train_step");
  fn.setSymName("forward_loss");
}

TEST(HandWrittenStep, MLPBackwardEqualsAmpDifferentiate) {
  auto ctx = makeContext();
  OwningOpRef<ModuleOp> handWritten =
      parseSourceTreeFile(*ctx, "examples/fashion-mnist/mlp.mlir");
  ASSERT_TRUE(handWritten);
  OwningOpRef<ModuleOp> derived(cast<ModuleOp>((*handWritten)->clone()));
  auto byHand = GradientProgram::build(*handWritten);
  ASSERT_TRUE(byHand);
  const std::vector<unsigned> &params = byHand->params();
  ASSERT_EQ(params.size(), 6u);

  cutOutForward(*derived);
  std::string wrt;
  for (unsigned p : params)
    wrt += (wrt.empty() ? "" : ",") + std::to_string(p);
  ASSERT_TRUE(runPipeline(*derived, "amp-differentiate{function=forward_loss "
                                    "wrt=" +
                                        wrt + "}"));
  auto byRules =
      GradientProgram::fromFunction(*derived, "forward_loss_grad", params);
  ASSERT_TRUE(byRules);

  // The same arguments for both: weights U(-0.1, 0.1), pixels U(0, 1),
  // labels 0..9; the momentum buffers are not read.
  std::mt19937_64 rng(7);
  ASSERT_EQ(byHand->numArguments(), byRules->numArguments());
  for (unsigned i = 0; i < byHand->numArguments(); ++i) {
    runtime::HostTensor &a = byHand->argument(i), &b = byRules->argument(i);
    int64_t n = a.spec().numElements();
    bool isInput = i == byHand->numArguments() - 2;
    bool isLabel = i == byHand->numArguments() - 1;
    for (int64_t e = 0; e < n; ++e) {
      if (isLabel) {
        a.as<int32_t>()[e] = b.as<int32_t>()[e] = int32_t(rng() % 10);
        continue;
      }
      double u = std::uniform_real_distribution<double>(0, 1)(rng);
      float v = isInput ? float(u) : float(0.2 * u - 0.1);
      a.as<float>()[e] = b.as<float>()[e] = v;
    }
  }
  double lossByHand = 0, lossByRules = 0;
  std::vector<std::vector<double>> gradsByHand, gradsByRules;
  ASSERT_TRUE(byHand->run(lossByHand, gradsByHand));
  ASSERT_TRUE(byRules->run(lossByRules, gradsByRules));
  EXPECT_EQ(lossByHand, lossByRules) << "the same forward, the same loss";
  ASSERT_EQ(gradsByHand.size(), gradsByRules.size());
  double worstOverall = 0;
  for (size_t k = 0; k < gradsByHand.size(); ++k) {
    const std::vector<double> &h = gradsByHand[k], &r = gradsByRules[k];
    ASSERT_EQ(h.size(), r.size());
    double scale = 0;
    for (double v : h)
      scale = std::max(scale, std::fabs(v));
    EXPECT_GT(scale, 1e-4) << "parameter #" << params[k] << ": zeros";
    double worst = 0;
    size_t at = 0;
    for (size_t e = 0; e < h.size(); ++e) {
      double err = std::fabs(h[e] - r[e]) / scale;
      if (err > worst) {
        worst = err;
        at = e;
      }
    }
    worstOverall = std::max(worstOverall, worst);
    // f32 rounding: the two backwards sum the same products in other
    // orders; max_i |h_i - r_i| relative to the gradient's largest element.
    EXPECT_LE(worst, 1e-5) << "parameter #" << params[k] << "[" << at
                           << "]: by hand " << h[at] << ", by the rules "
                           << r[at];
  }
  std::cout << "[ mlp      ] worst relative difference " << worstOverall
            << "\n";
}

} // namespace
