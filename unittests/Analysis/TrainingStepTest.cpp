//===- TrainingStepTest.cpp - the training-step contract ------------------===//
//
// TrainingStep::analyze and EvalStep::analyze on the Fashion-MNIST MLP
// example (examples/fashion-mnist/mlp.mlir).
//
//===----------------------------------------------------------------------===//

#include "amp/Analysis/TrainingStep.h"
#include "amp/InitAll.h"
#include "amp/Pipelines/Pipelines.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include "gtest/gtest.h"

#include <string>

using namespace mlir;
using namespace mlir::amp;

namespace {

class TrainingStepTest : public ::testing::Test {
protected:
  void SetUp() override {
    DialectRegistry registry;
    registerAllDialectsAndExtensions(registry);
    ctx = std::make_unique<MLIRContext>(registry);
    std::string path =
        std::string(AMP_SOURCE_DIR) + "/examples/fashion-mnist/mlp.mlir";
    module = parseSourceFile<ModuleOp>(path, ctx.get());
    ASSERT_TRUE(module) << "cannot parse " << path;
    trainFn = module->lookupSymbol<func::FuncOp>("train_step");
    evalFn = module->lookupSymbol<func::FuncOp>("eval_step");
    ASSERT_TRUE(trainFn);
    ASSERT_TRUE(evalFn);
  }

  std::unique_ptr<MLIRContext> ctx;
  OwningOpRef<ModuleOp> module;
  func::FuncOp trainFn, evalFn;
};

// The MLP's training step: 6 params, 6 optimizer states, input #12,
// label #13, loss result 0, arguments 0..11 updated by results 1..12.
TEST_F(TrainingStepTest, AnalyzesMlpTrainStepRoles) {
  FailureOr<TrainingStep> step = TrainingStep::analyze(trainFn);
  ASSERT_TRUE(succeeded(step));
  EXPECT_EQ(step->func, trainFn);
  EXPECT_EQ(step->params, (llvm::SmallVector<unsigned>{0, 1, 2, 3, 4, 5}));
  EXPECT_EQ(step->optStates, (llvm::SmallVector<unsigned>{6, 7, 8, 9, 10, 11}));
  EXPECT_EQ(step->input, 12u);
  EXPECT_EQ(step->label, 13u);
  EXPECT_EQ(step->lossResult, 0u);
  EXPECT_FALSE(step->foundInfResult.has_value());
  ASSERT_EQ(step->argRoles.size(), 14u);
  EXPECT_EQ(step->argRoles[0], ArgRole::Param);
  EXPECT_EQ(step->argRoles[6], ArgRole::OptState);
  EXPECT_EQ(step->argRoles[12], ArgRole::Input);
  EXPECT_EQ(step->argRoles[13], ArgRole::Label);
  EXPECT_EQ(step->argWithRole(ArgRole::Label), std::optional<unsigned>(13));
  EXPECT_FALSE(step->argWithRole(ArgRole::LossScale).has_value());
  ASSERT_EQ(step->updateOfArg.size(), 12u);
  for (unsigned a = 0; a < 12; ++a) {
    ASSERT_TRUE(step->updateOfArg.count(a)) << "argument #" << a;
    EXPECT_EQ(step->updateOfArg.lookup(a), a + 1) << "argument #" << a;
  }
}

// The backward markers: one amp.loss_grad on the loss, one amp.grad per
// parameter whose second operand is that parameter.
TEST_F(TrainingStepTest, FindsMlpGradientMarkers) {
  FailureOr<TrainingStep> step = TrainingStep::analyze(trainFn);
  ASSERT_TRUE(succeeded(step));
  ASSERT_TRUE(step->lossGrad);
  EXPECT_EQ(step->lossGrad.getLoss(),
            trainFn.front().getTerminator()->getOperand(0));
  ASSERT_EQ(step->gradOfParam.size(), 6u);
  for (unsigned p : step->params) {
    GradOp grad = step->gradOfParam.lookup(p);
    ASSERT_TRUE(grad) << "parameter #" << p;
    EXPECT_EQ(grad.getParam(), trainFn.getArgument(p));
  }
}

// The MLP's eval step: params 0..5, input #6, one logits result.
TEST_F(TrainingStepTest, AnalyzesMlpEvalStep) {
  FailureOr<EvalStep> eval = EvalStep::analyze(evalFn);
  ASSERT_TRUE(succeeded(eval));
  EXPECT_EQ(eval->func, evalFn);
  EXPECT_EQ(eval->params, (llvm::SmallVector<unsigned>{0, 1, 2, 3, 4, 5}));
  EXPECT_EQ(eval->input, 6u);
  EXPECT_EQ(eval->logitsResult, 0u);
}

// The eval step is not a training step: analyze rejects it (no label, no
// loss) with diagnostics.
TEST_F(TrainingStepTest, RejectsEvalStepAsTrainingStep) {
  int errors = 0;
  ScopedDiagnosticHandler handler(ctx.get(), [&](Diagnostic &d) {
    errors += d.getSeverity() == DiagnosticSeverity::Error;
    return success();
  });
  EXPECT_TRUE(failed(TrainingStep::analyze(evalFn)));
  EXPECT_GT(errors, 0);
}

// After dynamic loss scaling the markers are consumed: analyze needs
// requireMarkers = false and then sees the added scale state and found_inf.
TEST_F(TrainingStepTest, AnalyzesLossScaledStepWithoutMarkers) {
  MixedPrecisionConfig mp;
  mp.precision = Precision::F16;
  mp.lossScale = LossScaleMode::Dynamic;
  PassManager pm(ctx.get());
  buildMixedPrecisionPipeline(pm, mp);
  ASSERT_TRUE(succeeded(pm.run(*module)));
  trainFn = module->lookupSymbol<func::FuncOp>("train_step");
  ASSERT_TRUE(trainFn);

  {
    ScopedDiagnosticHandler quiet(ctx.get(),
                                  [](Diagnostic &) { return success(); });
    EXPECT_TRUE(failed(TrainingStep::analyze(trainFn)));
  }
  FailureOr<TrainingStep> step =
      TrainingStep::analyze(trainFn, /*requireMarkers=*/false);
  ASSERT_TRUE(succeeded(step));
  EXPECT_FALSE(step->lossGrad);
  EXPECT_TRUE(step->gradOfParam.empty());
  EXPECT_EQ(step->argWithRole(ArgRole::LossScale), std::optional<unsigned>(14));
  EXPECT_EQ(step->argWithRole(ArgRole::GrowthTracker),
            std::optional<unsigned>(15));
  EXPECT_EQ(step->argWithRole(ArgRole::HysteresisTracker),
            std::optional<unsigned>(16));
  EXPECT_EQ(step->argWithRole(ArgRole::ConsecutiveSkips),
            std::optional<unsigned>(17));
  EXPECT_EQ(step->foundInfResult, std::optional<unsigned>(17));
  EXPECT_EQ(step->updateOfArg.lookup(14), 13u);
  EXPECT_EQ(step->updateOfArg.lookup(15), 14u);
  EXPECT_EQ(step->updateOfArg.lookup(16), 15u);
  EXPECT_EQ(step->updateOfArg.lookup(17), 16u);
  EXPECT_EQ(step->updateOfArg.size(), 16u);
}

// The backward of the MLP: the seed, every gradient the amp.grad markers
// take (the 6 raw gradients), the activation gradients between them; no
// forward value (logits, loss) and no update.
TEST_F(TrainingStepTest, FindsMlpBackwardValues) {
  FailureOr<TrainingStep> step = TrainingStep::analyze(trainFn);
  ASSERT_TRUE(succeeded(step));
  const llvm::SetVector<Value> &bwd = step->backwardValues;
  EXPECT_TRUE(bwd.contains(step->lossGrad.getResult()));
  for (auto &[p, grad] : step->gradOfParam) {
    EXPECT_TRUE(bwd.contains(grad.getRaw())) << "raw gradient of #" << p;
    EXPECT_FALSE(bwd.contains(grad.getResult())) << "amp.grad of #" << p;
  }
  Operation *ret = trainFn.getBody().front().getTerminator();
  for (Value r : ret->getOperands())
    EXPECT_FALSE(bwd.contains(r));
  // seed, dz3, gw3, gb3, dh2, dz2, gw2, gb2, dh1, dz1, gw1, gb1.
  EXPECT_EQ(bwd.size(), 12u);
}

} // namespace
