//===- LossScalingExecutionTest.cpp - loss scaling, executed --------------===//
//
// Runs a tiny hand-written training step through `amp-mixed-precision` and
// the JIT, and checks the numbers: the SGD-momentum update of a clean step,
// the bit-exact skip of an overflowing step, and the dynamic loss-scale
// state against PyTorch's `_amp_update_scale_` rule.
//
//===----------------------------------------------------------------------===//

#include "amp/Analysis/TrainingStep.h"
#include "amp/InitAll.h"
#include "amp/Pipelines/Pipelines.h"
#include "amp/Runtime/HostTensor.h"
#include "amp/Runtime/JitModule.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include "gtest/gtest.h"

#include <cfloat>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::runtime;

namespace {

// loss = sum_{b,i} W[i] * X[b,i]; dW[i] = seed * sum_b X[b,i] (the gradient
// is the input's column sum, so a non-finite X element makes it
// non-finite); SGD momentum: v' = 0.9 v + g, w' = w - 0.1 v'.
constexpr const char *kTinyStep = R"mlir(
#x_map = affine_map<(b, i) -> (b, i)>
#w_map = affine_map<(b, i) -> (i)>
#s_map = affine_map<(b, i) -> ()>
#id1 = affine_map<(i) -> (i)>
module {
func.func @train_step(
    %w: tensor<4xf32> {amp.role = "param"},
    %v: tensor<4xf32> {amp.role = "opt_state"},
    %x: tensor<2x4xf32> {amp.role = "input"},
    %y: tensor<2xi32> {amp.role = "label"})
  -> (tensor<f32> {amp.role = "loss"},
      tensor<4xf32> {amp.updates = 0 : i64},
      tensor<4xf32> {amp.updates = 1 : i64})
  attributes {amp.train_step} {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<f32>
  %l0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %loss = linalg.generic {indexing_maps = [#x_map, #w_map, #s_map],
                          iterator_types = ["reduction", "reduction"]}
      ins(%x, %w : tensor<2x4xf32>, tensor<4xf32>) outs(%l0 : tensor<f32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %r = arith.addf %p, %acc : f32
    linalg.yield %r : f32
  } -> tensor<f32>
  %seed = amp.loss_grad %loss : tensor<f32>
  %e4 = tensor.empty() : tensor<4xf32>
  %g0 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<4xf32>) -> tensor<4xf32>
  %dw = linalg.generic {indexing_maps = [#x_map, #s_map, #w_map],
                        iterator_types = ["reduction", "parallel"]}
      ins(%x, %seed : tensor<2x4xf32>, tensor<f32>) outs(%g0 : tensor<4xf32>) {
  ^bb0(%a: f32, %s: f32, %acc: f32):
    %p = arith.mulf %a, %s : f32
    %r = arith.addf %p, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %g = amp.grad %dw, %w : tensor<4xf32>
  %v_new = linalg.generic {indexing_maps = [#id1, #id1, #id1],
                           iterator_types = ["parallel"]}
      ins(%v, %g : tensor<4xf32>, tensor<4xf32>) outs(%e4 : tensor<4xf32>) {
  ^bb0(%vv: f32, %gg: f32, %o: f32):
    %mu = arith.constant 0.9 : f32
    %m = arith.mulf %mu, %vv : f32
    %r = arith.addf %m, %gg : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %w_new = linalg.generic {indexing_maps = [#id1, #id1, #id1],
                           iterator_types = ["parallel"]}
      ins(%w, %v_new : tensor<4xf32>, tensor<4xf32>) outs(%e4 : tensor<4xf32>) {
  ^bb0(%ww: f32, %vv: f32, %o: f32):
    %lr = arith.constant 0.1 : f32
    %l = arith.mulf %lr, %vv : f32
    %r = arith.subf %ww, %l : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  return %loss, %w_new, %v_new : tensor<f32>, tensor<4xf32>, tensor<4xf32>
}
}
)mlir";

// Fixed argument positions of the tiny step (loss scaling appends after).
constexpr unsigned kW = 0, kV = 1, kX = 2;
constexpr unsigned kLossResult = 0, kWResult = 1, kVResult = 2;

// Inputs: all exactly representable in f16, no cancellation in the update.
const float kInitW[4] = {1.0f, 2.0f, 3.0f, 4.0f};
const float kInitV[4] = {0.5f, -0.25f, 1.0f, 0.125f};
const float kCleanX[8] = {0.5f, 1.0f, -0.25f, 2.0f, 0.25f, -0.5f, 0.75f, 1.0f};
// Column sums 0.25: keeps S * dW finite even for S near FLT_MAX.
const float kSmallX[8] = {0.125f, 0.125f, 0.125f, 0.125f,
                          0.125f, 0.125f, 0.125f, 0.125f};

struct StepConfig {
  std::string precision = "f32";
  std::string lossScale = "dynamic";
  double initScale = 32768.0;
  int growthInterval = 2000;
  double growthFactor = 2.0;
  double backoffFactor = 0.5;
};

/// The tiny step after amp-mixed-precision, JIT-compiled, with one host
/// buffer per argument and per result; roles read from the rewritten
/// function type before lowering.
class CompiledStep {
public:
  static std::unique_ptr<CompiledStep> create(const StepConfig &cfg) {
    auto step = std::unique_ptr<CompiledStep>(new CompiledStep());
    std::string error;
    if (!step->init(cfg, error)) {
      ADD_FAILURE() << "cannot build the step (" << cfg.precision << ", "
                    << cfg.lossScale << "): " << error;
      return nullptr;
    }
    return step;
  }

  HostTensor &arg(unsigned i) { return *args[i]; }
  HostTensor &result(unsigned i) { return *results[i]; }
  size_t numArgs() const { return args.size(); }
  size_t numResults() const { return results.size(); }

  float *w() { return args[kW]->as<float>(); }
  float *v() { return args[kV]->as<float>(); }
  float *x() { return args[kX]->as<float>(); }
  float &scale() { return args[scaleArg.value()]->as<float>()[0]; }
  int32_t &tracker() { return args[trackerArg.value()]->as<int32_t>()[0]; }
  float newScale() { return results[scaleResult.value()]->as<float>()[0]; }
  int32_t newTracker() {
    return results[trackerResult.value()]->as<int32_t>()[0];
  }
  uint8_t foundInf() {
    return results[foundInfResult.value()]->as<uint8_t>()[0];
  }

  void setState(const float *w0, const float *v0, const float *x0) {
    std::memcpy(w(), w0, 4 * sizeof(float));
    std::memcpy(v(), v0, 4 * sizeof(float));
    std::memcpy(x(), x0, 8 * sizeof(float));
  }

  /// One call of the compiled step.
  ::testing::AssertionResult run() {
    std::vector<HostTensor *> buffers;
    for (auto &t : args)
      buffers.push_back(t.get());
    for (auto &t : results)
      buffers.push_back(t.get());
    if (llvm::Error err = jit->invoke("train_step", buffers))
      return ::testing::AssertionFailure() << llvm::toString(std::move(err));
    return ::testing::AssertionSuccess();
  }

  /// Every result with amp.updates = i becomes argument i (as amp-run does).
  void carry() {
    for (auto [a, r] : updateOfArg)
      std::swap(args[a], results[r]);
  }

  std::map<unsigned, unsigned> updateOfArg;
  std::vector<std::string> argRoles, resultRoles;
  std::optional<unsigned> scaleArg, trackerArg, scaleResult, trackerResult,
      foundInfResult;

private:
  CompiledStep() = default;

  bool init(const StepConfig &cfg, std::string &error) {
    DialectRegistry registry;
    registerAllDialectsAndExtensions(registry);
    ctx = std::make_unique<MLIRContext>(registry);
    llvm::raw_string_ostream os(error);
    ScopedDiagnosticHandler handler(ctx.get(), [&](Diagnostic &d) {
      os << d.getLocation() << ": " << d << "\n";
      return success();
    });
    module = parseSourceString<ModuleOp>(kTinyStep, ctx.get());
    if (!module)
      return false;
    MixedPrecisionOptions mp;
    mp.precision = cfg.precision;
    mp.lossScale = cfg.lossScale;
    mp.initScale = cfg.initScale;
    mp.growthInterval = cfg.growthInterval;
    mp.growthFactor = cfg.growthFactor;
    mp.backoffFactor = cfg.backoffFactor;
    PassManager pm(ctx.get());
    buildMixedPrecisionPipeline(pm, mp);
    if (failed(pm.run(*module)))
      return false;

    // The function type is read before lowering removes the func.func.
    auto fn = module->lookupSymbol<func::FuncOp>("train_step");
    if (!fn) {
      os << "no @train_step after the pipeline";
      return false;
    }
    for (unsigned i = 0; i < fn.getNumArguments(); ++i) {
      auto role = fn.getArgAttrOfType<StringAttr>(i, kRoleAttr);
      argRoles.push_back(role ? role.getValue().str() : "");
      if (argRoles.back() == "loss_scale")
        scaleArg = i;
      if (argRoles.back() == "growth_tracker")
        trackerArg = i;
      auto spec = TensorSpec::fromType(fn.getArgumentTypes()[i]);
      if (!spec) {
        os << llvm::toString(spec.takeError());
        return false;
      }
      args.push_back(std::make_unique<HostTensor>(*spec));
    }
    for (unsigned r = 0; r < fn.getNumResults(); ++r) {
      auto role = fn.getResultAttrOfType<StringAttr>(r, kRoleAttr);
      resultRoles.push_back(role ? role.getValue().str() : "");
      if (auto upd = fn.getResultAttrOfType<IntegerAttr>(r, kUpdatesAttr))
        updateOfArg[upd.getInt()] = r;
      if (resultRoles.back() == "loss_scale")
        scaleResult = r;
      if (resultRoles.back() == "growth_tracker")
        trackerResult = r;
      if (resultRoles.back() == "found_inf")
        foundInfResult = r;
      auto spec = TensorSpec::fromType(fn.getResultTypes()[r]);
      if (!spec) {
        os << llvm::toString(spec.takeError());
        return false;
      }
      results.push_back(std::make_unique<HostTensor>(*spec));
    }
    auto compiled = JitModule::compile(*module, {"train_step"});
    if (!compiled) {
      os << llvm::toString(compiled.takeError());
      return false;
    }
    jit = std::move(*compiled);
    return true;
  }

  std::unique_ptr<MLIRContext> ctx;
  OwningOpRef<ModuleOp> module;
  std::unique_ptr<JitModule> jit;
  std::vector<std::unique_ptr<HostTensor>> args, results;
};

/// The SGD-momentum step of the tiny model in double.
struct Reference {
  double loss = 0, w[4], v[4];
  Reference(const float *w0, const float *v0, const float *x) {
    for (int i = 0; i < 4; ++i) {
      double g = double(x[i]) + double(x[4 + i]);
      loss += double(w0[i]) * g;
      v[i] = 0.9 * double(v0[i]) + g;
      w[i] = double(w0[i]) - 0.1 * v[i];
    }
  }
};

/// Mirrors PyTorch's `_amp_update_scale_` (shared REFERENCE.md, "Dynamic
/// scale update"), in fp32 for the scale and int32 for the tracker.
void referenceUpdateScale(float &scale, int32_t &tracker, bool foundInf,
                          float growthFactor, float backoffFactor,
                          int32_t growthInterval) {
  if (foundInf) {
    scale = scale * backoffFactor;
    tracker = 0;
    return;
  }
  int32_t t = tracker + 1;
  if (t == growthInterval) {
    float candidate = scale * growthFactor;
    if (std::isfinite(candidate))
      scale = candidate;
    tracker = 0;
  } else {
    tracker = t;
  }
}

bool sameBits(const float *a, const float *b, size_t n) {
  return std::memcmp(a, b, n * sizeof(float)) == 0;
}

// Dynamic loss scaling appends (loss_scale, growth_tracker) arguments and
// (new scale, new tracker, found_inf) results with the documented roles.
TEST(LossScalingExecution, DynamicSignature) {
  auto step = CompiledStep::create({});
  ASSERT_TRUE(step);
  ASSERT_EQ(step->numArgs(), 6u);
  ASSERT_EQ(step->numResults(), 6u);
  EXPECT_EQ(step->argRoles[4], "loss_scale");
  EXPECT_EQ(step->argRoles[5], "growth_tracker");
  EXPECT_EQ(step->arg(4).spec().kind, ElementKind::F32);
  EXPECT_EQ(step->arg(5).spec().kind, ElementKind::I32);
  EXPECT_EQ(step->resultRoles[kLossResult], "loss");
  EXPECT_EQ(step->scaleResult, std::optional<unsigned>(3));
  EXPECT_EQ(step->trackerResult, std::optional<unsigned>(4));
  EXPECT_EQ(step->foundInfResult, std::optional<unsigned>(5));
  EXPECT_EQ(step->result(5).spec().kind, ElementKind::I1);
  EXPECT_EQ(step->result(5).sizeInBytes(), 1u);
  std::map<unsigned, unsigned> expected{{0, 1}, {1, 2}, {4, 3}, {5, 4}};
  EXPECT_EQ(step->updateOfArg, expected);
}

class CleanStepTest : public ::testing::TestWithParam<std::string> {};

// A clean step applies the SGD-momentum update (double reference), reports
// found_inf = 0, keeps the scale and counts one clean step.
TEST_P(CleanStepTest, AppliesUpdateAndCountsCleanStep) {
  StepConfig cfg;
  cfg.precision = GetParam();
  auto step = CompiledStep::create(cfg);
  ASSERT_TRUE(step);
  step->setState(kInitW, kInitV, kCleanX);
  step->scale() = 32768.0f;
  step->tracker() = 0;
  ASSERT_TRUE(step->run());

  // f32: fp32 rounding only; f16: the inputs are f16-exact, allow f16 eps.
  double tol = cfg.precision == "f32" ? 1e-6 : 1e-3;
  Reference ref(kInitW, kInitV, kCleanX);
  const float *w1 = step->result(kWResult).as<float>();
  const float *v1 = step->result(kVResult).as<float>();
  for (int i = 0; i < 4; ++i) {
    EXPECT_NEAR(w1[i], ref.w[i], tol * std::abs(ref.w[i])) << "w'[" << i << "]";
    EXPECT_NEAR(v1[i], ref.v[i], tol * std::abs(ref.v[i])) << "v'[" << i << "]";
  }
  EXPECT_NEAR(step->result(kLossResult).as<float>()[0], ref.loss,
              tol * std::abs(ref.loss));
  EXPECT_EQ(step->foundInf(), 0);
  EXPECT_EQ(step->newScale(), 32768.0f);
  EXPECT_EQ(step->newTracker(), 1);
}

INSTANTIATE_TEST_SUITE_P(Precisions, CleanStepTest,
                         ::testing::Values("f32", "f16"));

class OverflowStepTest
    : public ::testing::TestWithParam<std::tuple<std::string, int>> {};

// One +inf / -inf / NaN in the input makes the gradient non-finite: the step
// is skipped (w', v' bit-identical to w, v), found_inf = 1, the scale halves
// and the growth tracker resets.
TEST_P(OverflowStepTest, SkipsUpdateAndBacksOff) {
  auto [precision, which] = GetParam();
  const float bad[3] = {std::numeric_limits<float>::infinity(),
                        -std::numeric_limits<float>::infinity(),
                        std::numeric_limits<float>::quiet_NaN()};
  StepConfig cfg;
  cfg.precision = precision;
  auto step = CompiledStep::create(cfg);
  ASSERT_TRUE(step);
  float x[8];
  std::memcpy(x, kCleanX, sizeof(x));
  x[6] = bad[which];
  step->setState(kInitW, kInitV, x);
  step->scale() = 32768.0f;
  step->tracker() = 5;
  ASSERT_TRUE(step->run());
  EXPECT_TRUE(sameBits(step->result(kWResult).as<float>(), kInitW, 4));
  EXPECT_TRUE(sameBits(step->result(kVResult).as<float>(), kInitV, 4));
  EXPECT_EQ(step->foundInf(), 1);
  EXPECT_EQ(step->newScale(), 16384.0f);
  EXPECT_EQ(step->newTracker(), 0);
}

std::string overflowCaseName(
    const ::testing::TestParamInfo<std::tuple<std::string, int>> &info) {
  static const char *const names[] = {"PosInf", "NegInf", "NaN"};
  return std::get<0>(info.param) + "_" + names[std::get<1>(info.param)];
}

INSTANTIATE_TEST_SUITE_P(PrecisionsAndValues, OverflowStepTest,
                         ::testing::Combine(::testing::Values("f32", "f16"),
                                            ::testing::Values(0, 1, 2)),
                         overflowCaseName);

// An input that is finite in fp32 but above the f16 range (70000 > 65504)
// overflows only when autocast demotes it: f32 runs a clean step, f16
// detects the overflow and skips.
TEST(LossScalingExecution, F16RangeOverflowIsDetectedOnlyInF16) {
  float x[8];
  std::memcpy(x, kCleanX, sizeof(x));
  x[1] = 70000.0f;
  for (const char *precision : {"f32", "f16"}) {
    SCOPED_TRACE(precision);
    StepConfig cfg;
    cfg.precision = precision;
    auto step = CompiledStep::create(cfg);
    ASSERT_TRUE(step);
    step->setState(kInitW, kInitV, x);
    step->scale() = 1.0f;
    step->tracker() = 0;
    ASSERT_TRUE(step->run());
    bool f16 = std::string(precision) == "f16";
    EXPECT_EQ(step->foundInf(), f16 ? 1 : 0);
    EXPECT_EQ(step->newScale(), f16 ? 0.5f : 1.0f);
    EXPECT_EQ(sameBits(step->result(kWResult).as<float>(), kInitW, 4), f16);
  }
}

// With growth_interval = 3 the scale doubles after the third consecutive
// clean step and the tracker returns to 0 (state carried between calls).
TEST(LossScalingExecution, GrowsAfterIntervalCleanSteps) {
  StepConfig cfg;
  cfg.growthInterval = 3;
  auto step = CompiledStep::create(cfg);
  ASSERT_TRUE(step);
  step->setState(kInitW, kInitV, kCleanX);
  step->scale() = 1024.0f;
  step->tracker() = 0;
  const float scales[3] = {1024.0f, 1024.0f, 2048.0f};
  const int32_t trackers[3] = {1, 2, 0};
  for (int s = 0; s < 3; ++s) {
    SCOPED_TRACE("step " + std::to_string(s + 1));
    ASSERT_TRUE(step->run());
    EXPECT_EQ(step->foundInf(), 0);
    EXPECT_EQ(step->newScale(), scales[s]);
    EXPECT_EQ(step->newTracker(), trackers[s]);
    step->carry();
  }
  EXPECT_EQ(step->scale(), 2048.0f);
  EXPECT_EQ(step->tracker(), 0);
}

// Growth that would overflow fp32 is refused (scale near FLT_MAX stays, the
// tracker still resets); growth to a finite value just below is taken.
TEST(LossScalingExecution, RefusesGrowthToInfinity) {
  StepConfig cfg;
  cfg.growthInterval = 3;
  auto step = CompiledStep::create(cfg);
  ASSERT_TRUE(step);
  for (float s : {3e38f, 1.5e38f}) {
    SCOPED_TRACE(s);
    step->setState(kInitW, kInitV, kSmallX);
    step->scale() = s;
    step->tracker() = 2;
    ASSERT_TRUE(step->run());
    EXPECT_EQ(step->foundInf(), 0);
    float expected = std::isfinite(s * 2.0f) ? s * 2.0f : s;
    EXPECT_EQ(step->newScale(), expected);
    EXPECT_TRUE(std::isfinite(step->newScale()));
    EXPECT_EQ(step->newTracker(), 0);
  }
  // The constant test of the first case: 3e38 * 2 is not finite.
  EXPECT_FALSE(std::isfinite(3e38f * 2.0f));
}

struct SequenceCase {
  int growthInterval;
  double growthFactor, backoffFactor;
  const char *pattern; // 'C' clean step, 'O' overflowing step
};

// Printed by GoogleTest (and so by ctest's discovered names) instead of the
// bytes of the struct.
void PrintTo(const SequenceCase &c, std::ostream *os) { *os << c.pattern; }

class ScaleSequenceTest : public ::testing::TestWithParam<SequenceCase> {};

// Over a mixed clean/overflow sequence the compiled scale and tracker equal
// the reference rule after every step, exactly; skipped steps keep w, v.
TEST_P(ScaleSequenceTest, MatchesPyTorchRule) {
  const SequenceCase &c = GetParam();
  StepConfig cfg;
  cfg.growthInterval = c.growthInterval;
  cfg.growthFactor = c.growthFactor;
  cfg.backoffFactor = c.backoffFactor;
  auto step = CompiledStep::create(cfg);
  ASSERT_TRUE(step);
  step->setState(kInitW, kInitV, kCleanX);
  step->scale() = 1024.0f;
  step->tracker() = 0;
  float refScale = 1024.0f;
  int32_t refTracker = 0;
  std::string pattern = c.pattern;
  ASSERT_GE(pattern.size(), 12u);
  int grew = 0, backedOff = 0;
  for (size_t s = 0; s < pattern.size(); ++s) {
    SCOPED_TRACE("step " + std::to_string(s + 1) + " (" + pattern[s] + ")");
    bool overflow = pattern[s] == 'O';
    std::memcpy(step->x(), kCleanX, sizeof(kCleanX));
    if (overflow)
      step->x()[3] = std::numeric_limits<float>::infinity();
    float w[4], v[4];
    std::memcpy(w, step->w(), sizeof(w));
    std::memcpy(v, step->v(), sizeof(v));
    ASSERT_TRUE(step->run());
    float before = refScale;
    referenceUpdateScale(refScale, refTracker, overflow,
                         static_cast<float>(c.growthFactor),
                         static_cast<float>(c.backoffFactor), c.growthInterval);
    grew += refScale > before;
    backedOff += refScale < before;
    EXPECT_EQ(step->foundInf(), overflow ? 1 : 0);
    EXPECT_EQ(step->newScale(), refScale);
    EXPECT_EQ(step->newTracker(), refTracker);
    EXPECT_EQ(sameBits(step->result(kWResult).as<float>(), w, 4), overflow);
    EXPECT_EQ(sameBits(step->result(kVResult).as<float>(), v, 4), overflow);
    step->carry();
  }
  // The pattern exercises both directions of the rule.
  EXPECT_GT(grew, 0);
  EXPECT_GT(backedOff, 0);
}

INSTANTIATE_TEST_SUITE_P(
    Patterns, ScaleSequenceTest,
    ::testing::Values(SequenceCase{2, 2.0, 0.5, "CCOCCCOOCCCC"},
                      SequenceCase{3, 2.0, 0.5, "CCCOCCOCCCCCCOOOCC"},
                      SequenceCase{2, 4.0, 0.25, "OCCCCCOCOCCC"}),
    [](const ::testing::TestParamInfo<SequenceCase> &info) {
      // Stable names for ctest -R: interval, factors and the pattern.
      return "interval" + std::to_string(info.param.growthInterval) +
             "_growth" + std::to_string(int(info.param.growthFactor)) +
             "_backoff" + std::to_string(int(info.param.backoffFactor * 100)) +
             "_" + info.param.pattern;
    });

class StaticScaleTest : public ::testing::TestWithParam<double> {};

// Static loss scaling with a power-of-two S (S = 1 in particular) gives
// bit-identical loss and updates to no loss scaling (f32).
TEST_P(StaticScaleTest, MatchesNoScalingBitForBit) {
  StepConfig scaled, plain;
  scaled.lossScale = "static";
  scaled.initScale = GetParam();
  plain.lossScale = "none";
  auto a = CompiledStep::create(scaled);
  auto b = CompiledStep::create(plain);
  ASSERT_TRUE(a && b);
  ASSERT_EQ(a->numResults(), 4u); // loss, w', v', found_inf
  ASSERT_EQ(b->numResults(), 3u); // loss, w', v'
  // Inputs with inexact fp32 arithmetic, so that a changed rounding shows.
  const float x[8] = {0.1f, 0.7f, -1.3f, 2.9f, 0.33f, -0.21f, 1.7f, 5.1f};
  const float w[4] = {0.3f, -1.1f, 2.2f, 0.05f};
  const float v[4] = {0.01f, -0.7f, 0.4f, 1.9f};
  a->setState(w, v, x);
  b->setState(w, v, x);
  ASSERT_TRUE(a->run());
  ASSERT_TRUE(b->run());
  EXPECT_EQ(a->foundInf(), 0);
  for (unsigned r : {kLossResult, kWResult, kVResult})
    EXPECT_TRUE(sameBits(a->result(r).as<float>(), b->result(r).as<float>(),
                         a->result(r).spec().numElements()))
        << "result #" << r;
  // And the update is the real one, not a copy of the inputs.
  EXPECT_FALSE(sameBits(b->result(kWResult).as<float>(), w, 4));
}

INSTANTIATE_TEST_SUITE_P(Scales, StaticScaleTest,
                         ::testing::Values(1.0, 1024.0));

} // namespace
