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
#include "amp/Runtime/BoundStep.h"
#include "amp/Support/Diagnostics.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <memory>
#include <random>
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

/// The tiny step's rewrite: f32, dynamic loss scaling, defaults otherwise.
MixedPrecisionConfig tinyStepConfig() {
  MixedPrecisionConfig config;
  config.precision = Precision::F32;
  config.lossScale = LossScaleMode::Dynamic;
  return config;
}

/// The tiny step after amp-mixed-precision, bound to the CPU backend
/// (BoundStep, what amp-run drives); roles as strings for the checks.
class CompiledStep {
public:
  static std::unique_ptr<CompiledStep> create(const MixedPrecisionConfig &cfg,
                                              const char *source = kTinyStep) {
    auto step = std::unique_ptr<CompiledStep>(new CompiledStep());
    std::string error;
    if (!step->init(cfg, source, error)) {
      ADD_FAILURE() << "cannot build the step (" << cfg.runName()
                    << "): " << error;
      return nullptr;
    }
    return step;
  }

  HostTensor &arg(unsigned i) { return bound->arg(i).host(); }
  HostTensor &result(unsigned i) { return bound->result(i).host(); }
  size_t numArgs() const { return bound->numArgs(); }
  size_t numResults() const { return bound->numResults(); }

  float *w() { return arg(kW).as<float>(); }
  float *v() { return arg(kV).as<float>(); }
  float *x() { return arg(kX).as<float>(); }
  float &scale() { return arg(scaleArg.value()).as<float>()[0]; }
  int32_t &tracker() { return arg(trackerArg.value()).as<int32_t>()[0]; }
  int32_t &hysteresisTracker() {
    return arg(hysteresisArg.value()).as<int32_t>()[0];
  }
  int32_t &skips() { return arg(skipsArg.value()).as<int32_t>()[0]; }
  int32_t newHysteresisTracker() {
    return result(hysteresisResult.value()).as<int32_t>()[0];
  }
  int32_t newSkips() { return result(skipsResult.value()).as<int32_t>()[0]; }
  float newScale() { return result(scaleResult.value()).as<float>()[0]; }
  int32_t newTracker() {
    return result(trackerResult.value()).as<int32_t>()[0];
  }
  uint8_t foundInf() { return result(foundInfResult.value()).as<uint8_t>()[0]; }

  void setState(const float *w0, const float *v0, const float *x0) {
    std::memcpy(w(), w0, 4 * sizeof(float));
    std::memcpy(v(), v0, 4 * sizeof(float));
    std::memcpy(x(), x0, 8 * sizeof(float));
  }

  /// One call of the compiled step.
  ::testing::AssertionResult run() {
    if (llvm::Error err = bound->run())
      return ::testing::AssertionFailure() << llvm::toString(std::move(err));
    return ::testing::AssertionSuccess();
  }

  /// Every result with amp.updates = i becomes argument i (as amp-run does).
  void carry() { bound->carry(); }

  std::map<unsigned, unsigned> updateOfArg;
  std::vector<std::string> argRoles, resultRoles;
  std::optional<unsigned> scaleArg, trackerArg, hysteresisArg, skipsArg,
      scaleResult, trackerResult, hysteresisResult, skipsResult, foundInfResult;

private:
  CompiledStep() = default;

  bool init(const MixedPrecisionConfig &cfg, const char *source,
            std::string &error) {
    DialectRegistry registry;
    registerAllDialectsAndExtensions(registry);
    ctx = std::make_unique<MLIRContext>(registry);
    DiagnosticCollector diagnostics(ctx.get());
    OwningOpRef<ModuleOp> module =
        parseSourceString<ModuleOp>(source, ctx.get());
    if (!module) {
      error = diagnostics.text();
      return false;
    }
    if (llvm::Error err = runPipeline(
            *module,
            [&](OpPassManager &pm) { buildMixedPrecisionPipeline(pm, cfg); },
            "amp-mixed-precision")) {
      error = llvm::toString(std::move(err));
      return false;
    }
    // The roles as the rewritten function names them (read before binding
    // lowers the function away).
    auto fn = module->lookupSymbol<func::FuncOp>("train_step");
    if (!fn) {
      error = "no @train_step after the pipeline";
      return false;
    }
    auto indexOf = [](const std::vector<std::string> &roles,
                      llvm::StringRef role) -> std::optional<unsigned> {
      for (auto [i, r] : llvm::enumerate(roles))
        if (r == role)
          return i;
      return std::nullopt;
    };
    for (unsigned i = 0; i < fn.getNumArguments(); ++i) {
      auto role = fn.getArgAttrOfType<StringAttr>(i, kRoleAttr);
      argRoles.push_back(role ? role.getValue().str() : "");
    }
    for (unsigned r = 0; r < fn.getNumResults(); ++r) {
      auto role = fn.getResultAttrOfType<StringAttr>(r, kRoleAttr);
      resultRoles.push_back(role ? role.getValue().str() : "");
      if (auto upd = fn.getResultAttrOfType<IntegerAttr>(r, kUpdatesAttr))
        updateOfArg[upd.getInt()] = r;
    }
    scaleArg = indexOf(argRoles, "loss_scale");
    trackerArg = indexOf(argRoles, "growth_tracker");
    hysteresisArg = indexOf(argRoles, "hysteresis_tracker");
    skipsArg = indexOf(argRoles, "consecutive_skips");
    scaleResult = indexOf(resultRoles, "loss_scale");
    trackerResult = indexOf(resultRoles, "growth_tracker");
    hysteresisResult = indexOf(resultRoles, "hysteresis_tracker");
    skipsResult = indexOf(resultRoles, "consecutive_skips");
    foundInfResult = indexOf(resultRoles, "found_inf");
    auto step = BoundStep::create(*module, *cpu, /*batch=*/0);
    if (!step) {
      error = llvm::toString(step.takeError());
      return false;
    }
    bound = std::move(*step);
    return true;
  }

  std::unique_ptr<MLIRContext> ctx;
  std::unique_ptr<Backend> cpu = createCpuBackend();
  std::unique_ptr<BoundStep> bound;
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

/// The scale rule of docs/loss-scaling.md written out independently:
/// PyTorch's `_amp_update_scale_` (shared REFERENCE.md, "Dynamic scale
/// update"), fp32 scale and int32 counters, extended with Megatron's
/// hysteresis (back off at the N-th overflow since the last growth; growth
/// refills it) and the min/max clamps.
struct ScaleRule {
  float growthFactor = 2.0f, backoffFactor = 0.5f;
  int32_t growthInterval = 2000, hysteresis = 1;
  float minScale = 5.9604644775390625e-08f, maxScale = 16777216.0f;
};
struct ScaleState {
  float scale;
  int32_t tracker = 0, overflowsSinceGrowth = 0, skips = 0;
};
void referenceUpdate(ScaleState &st, bool foundInf, const ScaleRule &r) {
  if (foundInf) {
    st.skips += 1;
    st.tracker = 0;
    st.overflowsSinceGrowth =
        std::min(st.overflowsSinceGrowth + 1, r.hysteresis);
    if (st.overflowsSinceGrowth == r.hysteresis)
      st.scale = std::max(st.scale * r.backoffFactor, r.minScale);
    return;
  }
  st.skips = 0;
  if (st.tracker + 1 == r.growthInterval) {
    float candidate = st.scale * r.growthFactor;
    if (std::isfinite(candidate))
      st.scale = std::min(candidate, r.maxScale);
    st.tracker = 0;
    st.overflowsSinceGrowth = 0;
  } else {
    st.tracker += 1;
  }
}

/// PyTorch's rule alone (hysteresis 1, no clamps reached).
void referenceUpdateScale(float &scale, int32_t &tracker, bool foundInf,
                          float growthFactor, float backoffFactor,
                          int32_t growthInterval) {
  ScaleRule r;
  r.growthFactor = growthFactor;
  r.backoffFactor = backoffFactor;
  r.growthInterval = growthInterval;
  r.minScale = 0x1p-126f;
  r.maxScale = 3.4e38f;
  ScaleState st{scale, tracker};
  referenceUpdate(st, foundInf, r);
  scale = st.scale;
  tracker = st.tracker;
}

bool sameBits(const float *a, const float *b, size_t n) {
  return std::memcmp(a, b, n * sizeof(float)) == 0;
}

// Dynamic loss scaling appends (loss_scale, growth_tracker) arguments and
// (new scale, new tracker, found_inf) results with the documented roles.
TEST(LossScalingExecution, DynamicSignature) {
  auto step = CompiledStep::create({});
  ASSERT_TRUE(step);
  ASSERT_EQ(step->numArgs(), 8u);
  ASSERT_EQ(step->numResults(), 8u);
  EXPECT_EQ(step->argRoles[4], "loss_scale");
  EXPECT_EQ(step->argRoles[5], "growth_tracker");
  EXPECT_EQ(step->argRoles[6], "hysteresis_tracker");
  EXPECT_EQ(step->argRoles[7], "consecutive_skips");
  EXPECT_EQ(step->arg(4).spec().kind, ElementKind::F32);
  for (unsigned i : {5u, 6u, 7u})
    EXPECT_EQ(step->arg(i).spec().kind, ElementKind::I32) << "argument " << i;
  EXPECT_EQ(step->resultRoles[kLossResult], "loss");
  EXPECT_EQ(step->scaleResult, std::optional<unsigned>(3));
  EXPECT_EQ(step->trackerResult, std::optional<unsigned>(4));
  EXPECT_EQ(step->hysteresisResult, std::optional<unsigned>(5));
  EXPECT_EQ(step->skipsResult, std::optional<unsigned>(6));
  EXPECT_EQ(step->foundInfResult, std::optional<unsigned>(7));
  EXPECT_EQ(step->result(7).spec().kind, ElementKind::I1);
  EXPECT_EQ(step->result(7).sizeInBytes(), 1u);
  std::map<unsigned, unsigned> expected{{0, 1}, {1, 2}, {4, 3},
                                        {5, 4}, {6, 5}, {7, 6}};
  EXPECT_EQ(step->updateOfArg, expected);
}

class CleanStepTest : public ::testing::TestWithParam<std::string> {};

// A clean step applies the SGD-momentum update (double reference), reports
// found_inf = 0, keeps the scale and counts one clean step.
TEST_P(CleanStepTest, AppliesUpdateAndCountsCleanStep) {
  MixedPrecisionConfig cfg = tinyStepConfig();
  cfg.precision = *parsePrecision(GetParam());
  auto step = CompiledStep::create(cfg);
  ASSERT_TRUE(step);
  step->setState(kInitW, kInitV, kCleanX);
  step->scale() = 32768.0f;
  step->tracker() = 0;
  ASSERT_TRUE(step->run());

  // f32: fp32 rounding only; f16: the inputs are f16-exact, allow f16 eps.
  double tol = cfg.precision == Precision::F32 ? 1e-6 : 1e-3;
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
  MixedPrecisionConfig cfg = tinyStepConfig();
  cfg.precision = *parsePrecision(precision);
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
    MixedPrecisionConfig cfg = tinyStepConfig();
    cfg.precision = *parsePrecision(precision);
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
  MixedPrecisionConfig cfg = tinyStepConfig();
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
  MixedPrecisionConfig cfg = tinyStepConfig();
  cfg.growthInterval = 3;
  cfg.initScale = 1.0;
  cfg.maxScale = 3.4e38; // the cap above FLT_MAX / 2: growth is refused
                         // because the product is not finite
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
  MixedPrecisionConfig cfg = tinyStepConfig();
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
  MixedPrecisionConfig scaled = tinyStepConfig(), plain = tinyStepConfig();
  scaled.lossScale = LossScaleMode::Static;
  scaled.initScale = GetParam();
  plain.lossScale = LossScaleMode::None;
  auto a = CompiledStep::create(scaled);
  auto b = CompiledStep::create(plain);
  ASSERT_TRUE(a && b);
  ASSERT_EQ(a->numResults(), 5u); // loss, w', v', consecutive_skips, found_inf
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

namespace {

//===----------------------------------------------------------------------===//
// Scale dynamics: clamps, hysteresis, consecutive skips
//===----------------------------------------------------------------------===//

struct RandomSequenceCase {
  const char *name;
  int growthInterval, hysteresis;
  float minScale, maxScale, initScale;
  unsigned seed;
  double overflowProbability;
  int steps;
  bool expectFloor, expectCap; // the pattern reaches them (checked)
};

void PrintTo(const RandomSequenceCase &c, std::ostream *os) { *os << c.name; }

class RandomScaleSequenceTest
    : public ::testing::TestWithParam<RandomSequenceCase> {};

// A random clean/overflow pattern of >= 50 steps: after every step the
// compiled scale, growth tracker, hysteresis tracker, consecutive-skip count
// and found_inf equal the reference rule's (exactly), and a skipped step
// leaves w and v bit-identical.
TEST_P(RandomScaleSequenceTest, MatchesReferenceRule) {
  const RandomSequenceCase &c = GetParam();
  ASSERT_GE(c.steps, 50);
  MixedPrecisionConfig cfg = tinyStepConfig();
  cfg.growthInterval = c.growthInterval;
  cfg.hysteresis = c.hysteresis;
  cfg.minScale = c.minScale;
  cfg.maxScale = c.maxScale;
  cfg.initScale = c.initScale;
  auto step = CompiledStep::create(cfg);
  ASSERT_TRUE(step);
  ScaleRule rule;
  rule.growthInterval = c.growthInterval;
  rule.hysteresis = c.hysteresis;
  rule.minScale = c.minScale;
  rule.maxScale = c.maxScale;
  ScaleState ref{c.initScale};
  step->setState(kInitW, kInitV, kCleanX);
  step->scale() = c.initScale;
  std::mt19937 rng(c.seed);
  std::bernoulli_distribution overflowDist(c.overflowProbability);
  int atFloor = 0, atCap = 0, heldByHysteresis = 0, grew = 0, backedOff = 0;
  for (int s = 0; s < c.steps; ++s) {
    bool overflow = overflowDist(rng);
    SCOPED_TRACE("step " + std::to_string(s + 1) +
                 (overflow ? " (overflow)" : " (clean)"));
    std::memcpy(step->x(), kCleanX, sizeof(kCleanX));
    if (overflow)
      step->x()[2] = std::numeric_limits<float>::quiet_NaN();
    float w[4], v[4];
    std::memcpy(w, step->w(), sizeof(w));
    std::memcpy(v, step->v(), sizeof(v));
    ASSERT_TRUE(step->run());
    float before = ref.scale;
    referenceUpdate(ref, overflow, rule);
    atFloor += overflow && ref.scale == c.minScale && before == c.minScale;
    atCap += !overflow && ref.tracker == 0 && before == c.maxScale;
    heldByHysteresis += overflow && ref.scale == before && before > c.minScale;
    grew += ref.scale > before;
    backedOff += ref.scale < before;
    ASSERT_EQ(step->foundInf(), overflow ? 1 : 0);
    ASSERT_EQ(step->newScale(), ref.scale);
    ASSERT_EQ(step->newTracker(), ref.tracker);
    ASSERT_EQ(step->newHysteresisTracker(), ref.overflowsSinceGrowth);
    ASSERT_EQ(step->newSkips(), ref.skips);
    ASSERT_EQ(sameBits(step->result(kWResult).as<float>(), w, 4), overflow);
    ASSERT_EQ(sameBits(step->result(kVResult).as<float>(), v, 4), overflow);
    ASSERT_GE(step->newScale(), c.minScale);
    ASSERT_LE(step->newScale(), c.maxScale);
    step->carry();
  }
  EXPECT_GT(grew, 0);
  EXPECT_GT(backedOff, 0);
  if (c.hysteresis > 1)
    EXPECT_GT(heldByHysteresis, 0);
  if (c.expectFloor)
    EXPECT_GT(atFloor, 0);
  if (c.expectCap)
    EXPECT_GT(atCap, 0);
}

INSTANTIATE_TEST_SUITE_P(
    Patterns, RandomScaleSequenceTest,
    ::testing::Values(
        // PyTorch's rule (defaults otherwise).
        RandomSequenceCase{"pytorch_interval2", 2, 1, 0x1p-24f, 0x1p24f,
                           1024.0f, 1, 0.3, 60, false, false},
        // Hysteresis 2 between a floor of 256 and a cap of 4096.
        RandomSequenceCase{"hysteresis2_clamped", 3, 2, 256.0f, 4096.0f,
                           1024.0f, 2, 0.35, 80, true, true},
        // Hysteresis 3, scales around and below 1... up to a cap of 8.
        RandomSequenceCase{"hysteresis3_small_scales", 2, 3, 0.25f, 8.0f, 2.0f,
                           3, 0.6, 70, true, false}),
    [](const ::testing::TestParamInfo<RandomSequenceCase> &info) {
      return std::string(info.param.name);
    });

// Growth stops at the cap: from 2^23 with growth_interval 1 the scale
// reaches 2^24 (the default max-scale) and stays there on clean steps.
TEST(LossScalingExecution, GrowthStopsAtCap) {
  MixedPrecisionConfig cfg = tinyStepConfig();
  cfg.growthInterval = 1;
  cfg.initScale = 0x1p23;
  auto step = CompiledStep::create(cfg);
  ASSERT_TRUE(step);
  step->setState(kInitW, kInitV, kSmallX);
  step->scale() = 0x1p23f;
  const float expected[4] = {0x1p24f, 0x1p24f, 0x1p24f, 0x1p24f};
  for (float e : expected) {
    ASSERT_TRUE(step->run());
    EXPECT_EQ(step->foundInf(), 0);
    EXPECT_EQ(step->newScale(), e);
    EXPECT_EQ(step->newTracker(), 0);
    step->carry();
  }
}

// At the floor an overflowing step keeps the scale (it cannot back off
// further), skips the update and counts the consecutive skips; a clean step
// resets the count.
TEST(LossScalingExecution, FloorHoldsAndSkipsAreCounted) {
  MixedPrecisionConfig cfg = tinyStepConfig();
  cfg.minScale = 1.0;
  cfg.initScale = 2.0;
  auto step = CompiledStep::create(cfg);
  ASSERT_TRUE(step);
  step->setState(kInitW, kInitV, kCleanX);
  step->scale() = 2.0f;
  const float scales[3] = {1.0f, 1.0f, 1.0f};
  for (int s = 0; s < 3; ++s) {
    step->x()[0] = std::numeric_limits<float>::infinity();
    ASSERT_TRUE(step->run());
    EXPECT_EQ(step->foundInf(), 1);
    EXPECT_EQ(step->newScale(), scales[s]);
    EXPECT_EQ(step->newSkips(), s + 1);
    EXPECT_TRUE(sameBits(step->result(kWResult).as<float>(), kInitW, 4));
    step->carry();
  }
  std::memcpy(step->x(), kCleanX, sizeof(kCleanX));
  ASSERT_TRUE(step->run());
  EXPECT_EQ(step->foundInf(), 0);
  EXPECT_EQ(step->newSkips(), 0);
}

//===----------------------------------------------------------------------===//
// Gradient accumulation over micro-batches
//===----------------------------------------------------------------------===//

// The tiny model over 4 micro-batches of 2 rows of an 8x4 input: the seed
// sits in the loop, gradients and the loss accumulate in f32 iter_args,
// amp.grad and the SGD-momentum update follow the loop.
constexpr const char *kMicroBatchStep = R"mlir(
#x_map = affine_map<(b, i) -> (b, i)>
#w_map = affine_map<(b, i) -> (i)>
#s_map = affine_map<(b, i) -> ()>
#id1 = affine_map<(i) -> (i)>
module {
func.func @train_step(
    %w: tensor<4xf32> {amp.role = "param"},
    %v: tensor<4xf32> {amp.role = "opt_state"},
    %x: tensor<8x4xf32> {amp.role = "input"},
    %y: tensor<8xi32> {amp.role = "label"})
  -> (tensor<f32> {amp.role = "loss"},
      tensor<4xf32> {amp.updates = 0 : i64},
      tensor<4xf32> {amp.updates = 1 : i64})
  attributes {amp.train_step} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<f32>
  %e4 = tensor.empty() : tensor<4xf32>
  %gz = linalg.fill ins(%zero : f32) outs(%e4 : tensor<4xf32>) -> tensor<4xf32>
  %lz = linalg.fill ins(%zero : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %r:2 = scf.for %i = %c0 to %c4 step %c1 iter_args(%gacc = %gz, %lacc = %lz)
      -> (tensor<4xf32>, tensor<f32>) {
    %row = arith.muli %i, %c2 : index
    %xs = tensor.extract_slice %x[%row, 0] [2, 4] [1, 1]
        : tensor<8x4xf32> to tensor<2x4xf32>
    %le = tensor.empty() : tensor<f32>
    %l0 = linalg.fill ins(%zero : f32) outs(%le : tensor<f32>) -> tensor<f32>
    %loss = linalg.generic {indexing_maps = [#x_map, #w_map, #s_map],
                            iterator_types = ["reduction", "reduction"]}
        ins(%xs, %w : tensor<2x4xf32>, tensor<4xf32>) outs(%l0 : tensor<f32>) {
    ^bb0(%a: f32, %b: f32, %acc: f32):
      %p = arith.mulf %a, %b : f32
      %s = arith.addf %p, %acc : f32
      linalg.yield %s : f32
    } -> tensor<f32>
    %seed = amp.loss_grad %loss : tensor<f32>
    %ge = tensor.empty() : tensor<4xf32>
    %g0 = linalg.fill ins(%zero : f32) outs(%ge : tensor<4xf32>) -> tensor<4xf32>
    %dw = linalg.generic {indexing_maps = [#x_map, #s_map, #w_map],
                          iterator_types = ["reduction", "parallel"]}
        ins(%xs, %seed : tensor<2x4xf32>, tensor<f32>) outs(%g0 : tensor<4xf32>) {
    ^bb0(%a: f32, %s: f32, %acc: f32):
      %p = arith.mulf %a, %s : f32
      %q = arith.addf %p, %acc : f32
      linalg.yield %q : f32
    } -> tensor<4xf32>
    %fresh = tensor.empty() : tensor<4xf32>
    %gnext = linalg.add ins(%gacc, %dw : tensor<4xf32>, tensor<4xf32>)
        outs(%fresh : tensor<4xf32>) -> tensor<4xf32>
    %lnext = arith.addf %lacc, %loss : tensor<f32>
    scf.yield %gnext, %lnext : tensor<4xf32>, tensor<f32>
  }
  %g = amp.grad %r#0, %w : tensor<4xf32>
  %v_new = linalg.generic {indexing_maps = [#id1, #id1, #id1],
                           iterator_types = ["parallel"]}
      ins(%v, %g : tensor<4xf32>, tensor<4xf32>) outs(%e4 : tensor<4xf32>) {
  ^bb0(%vv: f32, %gg: f32, %o: f32):
    %mu = arith.constant 0.9 : f32
    %m = arith.mulf %mu, %vv : f32
    %q = arith.addf %m, %gg : f32
    linalg.yield %q : f32
  } -> tensor<4xf32>
  %w_new = linalg.generic {indexing_maps = [#id1, #id1, #id1],
                           iterator_types = ["parallel"]}
      ins(%w, %v_new : tensor<4xf32>, tensor<4xf32>) outs(%e4 : tensor<4xf32>) {
  ^bb0(%ww: f32, %vv: f32, %o: f32):
    %lr = arith.constant 0.1 : f32
    %l = arith.mulf %lr, %vv : f32
    %q = arith.subf %ww, %l : f32
    linalg.yield %q : f32
  } -> tensor<4xf32>
  return %r#1, %w_new, %v_new : tensor<f32>, tensor<4xf32>, tensor<4xf32>
}
}
)mlir";

// The tiny model on the whole 8x4 batch at once (kTinyStep with B = 8).
std::string bigBatchStep() {
  std::string s = kTinyStep;
  for (auto [from, to] :
       {std::pair<std::string, std::string>{"2x4xf32", "8x4xf32"},
        {"tensor<2xi32>", "tensor<8xi32>"}}) {
    for (size_t pos = s.find(from); pos != std::string::npos;
         pos = s.find(from, pos + to.size()))
      s.replace(pos, from.size(), to);
  }
  return s;
}

const float kBatch8[32] = {0.5f,  1.0f,   -0.25f, 2.0f,  0.25f,  -0.5f, 0.75f,
                           1.0f,  0.1f,   0.7f,   -1.3f, 2.9f,   0.33f, -0.21f,
                           1.7f,  5.1f,   -0.6f,  0.05f, 0.125f, 1.5f,  0.9f,
                           -2.2f, 0.375f, 0.01f,  3.0f,  -0.4f,  0.2f,  0.8f,
                           1.25f, -1.0f,  0.6f,   -0.3f};

class AccumulationTest : public ::testing::TestWithParam<std::string> {};

// k = 4 micro-batches give the same loss and update as one batch 4 times
// larger (within fp32 rounding of the changed summation order), over 3
// steps with the state carried; the scale state advances once per step, not
// once per micro-batch. Under f16 autocast the two steps are painted
// differently (values carried by the micro-batch loop stay f32, while the
// one-batch step keeps the same activations in f16), so they agree only to
// a few f16 roundings (unit roundoff 2^-11, shared REFERENCE.md).
TEST_P(AccumulationTest, MicroBatchesMatchOneLargeBatch) {
  MixedPrecisionConfig cfg = tinyStepConfig();
  cfg.precision = *parsePrecision(GetParam());
  cfg.growthInterval = 2;
  auto micro = CompiledStep::create(cfg, kMicroBatchStep);
  std::string big = bigBatchStep();
  auto whole = CompiledStep::create(cfg, big.c_str());
  ASSERT_TRUE(micro && whole);
  for (CompiledStep *st : {micro.get(), whole.get()}) {
    std::memcpy(st->w(), kInitW, sizeof(kInitW));
    std::memcpy(st->v(), kInitV, sizeof(kInitV));
    std::memcpy(st->x(), kBatch8, sizeof(kBatch8));
    st->scale() = 1024.0f;
  }
  const float expectedScale[3] = {1024.0f, 2048.0f, 2048.0f};
  for (int s = 0; s < 3; ++s) {
    SCOPED_TRACE("step " + std::to_string(s + 1));
    ASSERT_TRUE(micro->run());
    ASSERT_TRUE(whole->run());
    EXPECT_EQ(micro->foundInf(), 0);
    const double tol = cfg.precision == Precision::F16 ? 2e-3 : 2e-6;
    float bigLoss = whole->result(kLossResult).as<float>()[0];
    EXPECT_NEAR(micro->result(kLossResult).as<float>()[0], bigLoss,
                tol * (1 + std::abs(bigLoss)));
    for (unsigned r : {kWResult, kVResult})
      for (int i = 0; i < 4; ++i)
        EXPECT_NEAR(micro->result(r).as<float>()[i],
                    whole->result(r).as<float>()[i],
                    tol * (1 + std::abs(whole->result(r).as<float>()[i])))
            << "result " << r << "[" << i << "]";
    EXPECT_EQ(micro->newScale(), expectedScale[s]);
    EXPECT_EQ(micro->newScale(), whole->newScale());
    EXPECT_EQ(micro->newTracker(), whole->newTracker());
    micro->carry();
    whole->carry();
  }
  // One non-finite value in the third micro-batch skips the whole step.
  float w[4], v[4];
  std::memcpy(w, micro->w(), sizeof(w));
  std::memcpy(v, micro->v(), sizeof(v));
  micro->x()[4 * 5 + 1] = std::numeric_limits<float>::infinity();
  ASSERT_TRUE(micro->run());
  EXPECT_EQ(micro->foundInf(), 1);
  EXPECT_EQ(micro->newScale(), 1024.0f);
  EXPECT_EQ(micro->newSkips(), 1);
  EXPECT_TRUE(sameBits(micro->result(kWResult).as<float>(), w, 4));
  EXPECT_TRUE(sameBits(micro->result(kVResult).as<float>(), v, 4));
}

INSTANTIATE_TEST_SUITE_P(Precisions, AccumulationTest,
                         ::testing::Values("f32", "f16"));

//===----------------------------------------------------------------------===//
// Global-norm clipping sees unscaled gradients
//===----------------------------------------------------------------------===//

// g = amp.grad; n = ||g||_2; c = min(1, max_norm / n) with max_norm = 1;
// v' = 0.9 v + c g; w' = w - 0.1 v'.
constexpr const char *kClipStep = R"mlir(
#x_map = affine_map<(b, i) -> (b, i)>
#w_map = affine_map<(b, i) -> (i)>
#s_map = affine_map<(b, i) -> ()>
#id1 = affine_map<(i) -> (i)>
#red1 = affine_map<(i) -> ()>
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
  %n0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %n2 = linalg.generic {indexing_maps = [#id1, #red1],
                        iterator_types = ["reduction"]}
      ins(%g : tensor<4xf32>) outs(%n0 : tensor<f32>) {
  ^bb0(%a: f32, %acc: f32):
    %p = arith.mulf %a, %a : f32
    %r = arith.addf %p, %acc : f32
    linalg.yield %r : f32
  } -> tensor<f32>
  %n2s = tensor.extract %n2[] : tensor<f32>
  %norm = math.sqrt %n2s : f32
  %max_norm = arith.constant 1.0 : f32
  %one = arith.constant 1.0 : f32
  %q = arith.divf %max_norm, %norm : f32
  %clip = arith.minimumf %q, %one : f32
  %v_new = linalg.generic {indexing_maps = [#id1, #id1, #id1],
                           iterator_types = ["parallel"]}
      ins(%v, %g : tensor<4xf32>, tensor<4xf32>) outs(%e4 : tensor<4xf32>) {
  ^bb0(%vv: f32, %gg: f32, %o: f32):
    %mu = arith.constant 0.9 : f32
    %m = arith.mulf %mu, %vv : f32
    %cg = arith.mulf %gg, %clip : f32
    %r = arith.addf %m, %cg : f32
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

class ClipTest : public ::testing::TestWithParam<std::string> {};

// With S = 32768 the clip acts on the true gradient norm: kCleanX has
// ||g|| = sqrt(10.0625) > 1 (clipped by 1/3.17), kSmallX ||g|| = 0.5 (not
// clipped). A clip before unscale would see S * ||g|| and shrink the
// update by another factor of ~S; the test tells the two apart. (S stays
// below 65504: the seed feeds an f16 contraction directly here.)
TEST_P(ClipTest, ClipsOnTrueGradientNorm) {
  MixedPrecisionConfig cfg = tinyStepConfig();
  cfg.precision = *parsePrecision(GetParam());
  cfg.initScale = 32768.0;
  auto step = CompiledStep::create(cfg, kClipStep);
  ASSERT_TRUE(step);
  for (const float *x : {kCleanX, kSmallX}) {
    step->setState(kInitW, kInitV, x);
    step->scale() = 32768.0f;
    step->tracker() = 0;
    ASSERT_TRUE(step->run());
    ASSERT_EQ(step->foundInf(), 0);
    double g[4], n2 = 0;
    for (int i = 0; i < 4; ++i) {
      g[i] = double(x[i]) + double(x[4 + i]);
      n2 += g[i] * g[i];
    }
    double clip = std::min(1.0, 1.0 / std::sqrt(n2));
    double wrongClip = std::min(1.0, 1.0 / (32768.0 * std::sqrt(n2)));
    double tol = cfg.precision == Precision::F32 ? 1e-6 : 1e-3;
    const float *w1 = step->result(kWResult).as<float>();
    for (int i = 0; i < 4; ++i) {
      double v1 = 0.9 * kInitV[i] + clip * g[i];
      double w1ref = kInitW[i] - 0.1 * v1;
      double w1wrong = kInitW[i] - 0.1 * (0.9 * kInitV[i] + wrongClip * g[i]);
      EXPECT_NEAR(w1[i], w1ref, tol * (1 + std::abs(w1ref)))
          << "w'[" << i << "]";
      if (clip < 1.0)
        EXPECT_GT(std::abs(w1[i] - w1wrong), 1e-3) << "w'[" << i << "]";
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Precisions, ClipTest, ::testing::Values("f32", "f16"));

//===----------------------------------------------------------------------===//
// Adam: the whole optimizer state, step counter included, survives a skip
//===----------------------------------------------------------------------===//

// Adam (Kingma & Ba 2015; PyTorch torch.optim.Adam, bias correction with the
// step counter t): t' = t + 1; m' = b1 m + (1 - b1) g;
// v' = b2 v + (1 - b2) g^2; w' = w - lr (m' / (1 - b1^t')) /
// (sqrt(v' / (1 - b2^t')) + eps), b1 = 0.9, b2 = 0.999, lr = 0.01,
// eps = 1e-8.
constexpr const char *kAdamStep = R"mlir(
#x_map = affine_map<(b, i) -> (b, i)>
#w_map = affine_map<(b, i) -> (i)>
#s_map = affine_map<(b, i) -> ()>
#id1 = affine_map<(i) -> (i)>
module {
func.func @train_step(
    %w: tensor<4xf32> {amp.role = "param"},
    %m: tensor<4xf32> {amp.role = "opt_state"},
    %v: tensor<4xf32> {amp.role = "opt_state"},
    %t: tensor<i32> {amp.role = "opt_state"},
    %x: tensor<2x4xf32> {amp.role = "input"},
    %y: tensor<2xi32> {amp.role = "label"})
  -> (tensor<f32> {amp.role = "loss"},
      tensor<4xf32> {amp.updates = 0 : i64},
      tensor<4xf32> {amp.updates = 1 : i64},
      tensor<4xf32> {amp.updates = 2 : i64},
      tensor<i32> {amp.updates = 3 : i64})
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
  %one_i = arith.constant dense<1> : tensor<i32>
  %t1 = arith.addi %t, %one_i : tensor<i32>
  %ti = tensor.extract %t1[] : tensor<i32>
  %tf = arith.sitofp %ti : i32 to f32
  %one = arith.constant 1.0 : f32
  %b1 = arith.constant 0.9 : f32
  %b2 = arith.constant 0.999 : f32
  %b1t = math.powf %b1, %tf : f32
  %b2t = math.powf %b2, %tf : f32
  %bc1 = arith.subf %one, %b1t : f32
  %bc2 = arith.subf %one, %b2t : f32
  %m_new = linalg.generic {indexing_maps = [#id1, #id1, #id1],
                           iterator_types = ["parallel"]}
      ins(%m, %g : tensor<4xf32>, tensor<4xf32>) outs(%e4 : tensor<4xf32>) {
  ^bb0(%mm: f32, %gg: f32, %o: f32):
    %c_b1 = arith.constant 0.9 : f32
    %c_1mb1 = arith.constant 0.1 : f32
    %a = arith.mulf %c_b1, %mm : f32
    %b = arith.mulf %c_1mb1, %gg : f32
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %v_new = linalg.generic {indexing_maps = [#id1, #id1, #id1],
                           iterator_types = ["parallel"]}
      ins(%v, %g : tensor<4xf32>, tensor<4xf32>) outs(%e4 : tensor<4xf32>) {
  ^bb0(%vv: f32, %gg: f32, %o: f32):
    %c_b2 = arith.constant 0.999 : f32
    %c_1mb2 = arith.constant 0.001 : f32
    %a = arith.mulf %c_b2, %vv : f32
    %g2 = arith.mulf %gg, %gg : f32
    %b = arith.mulf %c_1mb2, %g2 : f32
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %w_new = linalg.generic {indexing_maps = [#id1, #id1, #id1, #id1],
                           iterator_types = ["parallel"]}
      ins(%w, %m_new, %v_new : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>)
      outs(%e4 : tensor<4xf32>) {
  ^bb0(%ww: f32, %mm: f32, %vv: f32, %o: f32):
    %lr = arith.constant 0.01 : f32
    %eps = arith.constant 1.0e-8 : f32
    %mh = arith.divf %mm, %bc1 : f32
    %vh = arith.divf %vv, %bc2 : f32
    %sq = math.sqrt %vh : f32
    %den = arith.addf %sq, %eps : f32
    %u = arith.divf %mh, %den : f32
    %lu = arith.mulf %lr, %u : f32
    %r = arith.subf %ww, %lu : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  return %loss, %w_new, %m_new, %v_new, %t1
    : tensor<f32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>
}
}
)mlir";

class AdamSkipTest
    : public ::testing::TestWithParam<std::tuple<std::string, std::string>> {};

// A clean step applies Adam (double reference, t = 5 -> 6); an overflowing
// step returns w, m, v and t bit-identical (compared as bits), with
// dynamic and with static loss scaling.
TEST_P(AdamSkipTest, SkipKeepsEveryStateBitIdentical) {
  auto [precision, mode] = GetParam();
  MixedPrecisionConfig cfg = tinyStepConfig();
  cfg.precision = *parsePrecision(precision);
  cfg.lossScale = *parseLossScaleMode(mode);
  auto step = CompiledStep::create(cfg, kAdamStep);
  ASSERT_TRUE(step);
  const float m0[4] = {0.01f, -0.02f, 0.3f, 0.0f};
  const float v0[4] = {0.001f, 0.004f, 0.02f, 0.5f};
  auto reset = [&](const float *x) {
    std::memcpy(step->arg(0).as<float>(), kInitW, sizeof(kInitW));
    std::memcpy(step->arg(1).as<float>(), m0, sizeof(m0));
    std::memcpy(step->arg(2).as<float>(), v0, sizeof(v0));
    step->arg(3).as<int32_t>()[0] = 5;
    std::memcpy(step->arg(4).as<float>(), x, 8 * sizeof(float));
    if (step->scaleArg)
      step->scale() = 32768.0f;
  };
  reset(kCleanX);
  ASSERT_TRUE(step->run());
  ASSERT_EQ(step->foundInf(), 0);
  EXPECT_EQ(step->result(4).as<int32_t>()[0], 6);
  double tol = precision == "f32" ? 1e-5 : 1e-3;
  for (int i = 0; i < 4; ++i) {
    double g = double(kCleanX[i]) + double(kCleanX[4 + i]);
    double m1 = 0.9 * m0[i] + 0.1 * g, v1 = 0.999 * v0[i] + 0.001 * g * g;
    double mh = m1 / (1 - std::pow(0.9, 6)), vh = v1 / (1 - std::pow(0.999, 6));
    double w1 = kInitW[i] - 0.01 * mh / (std::sqrt(vh) + 1e-8);
    EXPECT_NEAR(step->result(2).as<float>()[i], m1, tol * (1 + std::abs(m1)));
    EXPECT_NEAR(step->result(3).as<float>()[i], v1, tol * (1 + std::abs(v1)));
    EXPECT_NEAR(step->result(1).as<float>()[i], w1, tol * (1 + std::abs(w1)));
  }
  float x[8];
  std::memcpy(x, kCleanX, sizeof(x));
  x[5] = std::numeric_limits<float>::infinity();
  reset(x);
  ASSERT_TRUE(step->run());
  ASSERT_EQ(step->foundInf(), 1);
  EXPECT_TRUE(sameBits(step->result(1).as<float>(), kInitW, 4));
  EXPECT_TRUE(sameBits(step->result(2).as<float>(), m0, 4));
  EXPECT_TRUE(sameBits(step->result(3).as<float>(), v0, 4));
  int32_t t = step->result(4).as<int32_t>()[0];
  EXPECT_EQ(std::memcmp(&t, step->arg(3).as<int32_t>(), sizeof(t)), 0);
  EXPECT_EQ(t, 5);
  EXPECT_EQ(step->newSkips(), 1);
}

INSTANTIATE_TEST_SUITE_P(
    Modes, AdamSkipTest,
    ::testing::Combine(::testing::Values("f32", "f16"),
                       ::testing::Values("dynamic", "static")),
    [](const ::testing::TestParamInfo<std::tuple<std::string, std::string>>
           &info) {
      return std::get<0>(info.param) + "_" + std::get<1>(info.param);
    });

} // namespace

namespace {

//===----------------------------------------------------------------------===//
// L2 weight decay (shared REFERENCE.md, "Failure modes": decay added to the
// raw gradient is divided by S with it; it belongs in the update)
//===----------------------------------------------------------------------===//

// The tiny step's loss and gradient (kTinyStep up to its amp.grad), then SGD
// with L2 decay 0.5: w' = w - 0.1 (g + 0.5 w), in the update on the unscaled
// gradient or on the raw gradient; v' = v (unused).
std::string decayStep(const char *tail) {
  std::string tiny = kTinyStep;
  return tiny.substr(0, tiny.find("  %g = amp.grad")) +
         "  %half = arith.constant dense<0.5> : tensor<4xf32>\n"
         "  %decay = arith.mulf %w, %half : tensor<4xf32>\n" +
         tail;
}
constexpr const char *kDecayInUpdate = R"mlir(
  %g = amp.grad %dw, %w : tensor<4xf32>
  %gd = arith.addf %g, %decay : tensor<4xf32>
  %lr = arith.constant dense<0.1> : tensor<4xf32>
  %step = arith.mulf %gd, %lr : tensor<4xf32>
  %w_new = arith.subf %w, %step : tensor<4xf32>
  return %loss, %w_new, %v : tensor<f32>, tensor<4xf32>, tensor<4xf32>
}
}
)mlir";
constexpr const char *kDecayOnRawGradient = R"mlir(
  %raw = arith.addf %dw, %decay : tensor<4xf32>
  %g = amp.grad %raw, %w : tensor<4xf32>
  %lr = arith.constant dense<0.1> : tensor<4xf32>
  %step = arith.mulf %g, %lr : tensor<4xf32>
  %w_new = arith.subf %w, %step : tensor<4xf32>
  return %loss, %w_new, %v : tensor<f32>, tensor<4xf32>, tensor<4xf32>
}
}
)mlir";

class WeightDecayTest : public ::testing::TestWithParam<double> {};

// Decay in the update: S = 2^k (static) trains bit-identically to S = 1 over
// 20 carried steps, and the weights follow a double reference of the decayed
// SGD within fp32 rounding.
TEST_P(WeightDecayTest, DecayInTheUpdateIsIndependentOfTheScale) {
  std::string source = decayStep(kDecayInUpdate);
  MixedPrecisionConfig scaled = tinyStepConfig(), unit = tinyStepConfig();
  scaled.lossScale = unit.lossScale = LossScaleMode::Static;
  scaled.initScale = GetParam();
  unit.initScale = 1.0;
  auto a = CompiledStep::create(scaled, source.c_str());
  auto b = CompiledStep::create(unit, source.c_str());
  ASSERT_TRUE(a && b);
  const float x[8] = {0.1f, 0.7f, -1.3f, 2.9f, 0.33f, -0.21f, 1.7f, 5.1f};
  const float w[4] = {0.3f, -1.1f, 2.2f, 0.05f};
  const float v[4] = {0, 0, 0, 0};
  a->setState(w, v, x);
  b->setState(w, v, x);
  double ref[4] = {w[0], w[1], w[2], w[3]};
  for (int step = 0; step < 20; ++step) {
    ASSERT_TRUE(a->run());
    ASSERT_TRUE(b->run());
    ASSERT_EQ(a->foundInf(), 0) << "step " << step;
    ASSERT_TRUE(sameBits(a->result(kWResult).as<float>(),
                         b->result(kWResult).as<float>(), 4))
        << "step " << step << ", S = " << GetParam();
    for (int i = 0; i < 4; ++i) {
      double g = double(x[i]) + double(x[4 + i]);
      ref[i] -= 0.1 * (g + 0.5 * ref[i]);
      EXPECT_NEAR(a->result(kWResult).as<float>()[i], ref[i],
                  1e-5 * (1 + std::fabs(ref[i])))
          << "step " << step << ", element " << i;
    }
    a->carry();
    b->carry();
  }
}

INSTANTIATE_TEST_SUITE_P(Scales, WeightDecayTest,
                         ::testing::Values(2.0, 1024.0, 16777216.0));

// Decay on the raw gradient is refused with a located error that says what
// to do (with S = 2^15 it would have been divided by S).
TEST(WeightDecay, DecayOnTheRawGradientIsRefused) {
  std::string source = decayStep(kDecayOnRawGradient);
  DialectRegistry registry;
  registerAllDialectsAndExtensions(registry);
  MLIRContext ctx(registry);
  std::string errors;
  llvm::raw_string_ostream os(errors);
  ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &d) {
    if (d.getSeverity() == DiagnosticSeverity::Error)
      os << d.getLocation() << ": " << d << "\n";
    return success();
  });
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(source, &ctx);
  ASSERT_TRUE(module);
  MixedPrecisionConfig mp;
  mp.precision = Precision::F16;
  PassManager pm(&ctx);
  buildMixedPrecisionPipeline(pm, mp);
  EXPECT_TRUE(failed(pm.run(*module)));
  // Located on the addition (%raw's line and column).
  size_t at = source.find("%raw = arith.addf");
  std::string line =
      std::to_string(1 + std::count(source.begin(), source.begin() + at, '\n'));
  EXPECT_NE(errors.find(":" + line + ":10): this addition in the backward"),
            std::string::npos)
      << errors;
  EXPECT_NE(errors.find("apply weight decay in the update on the unscaled "
                        "gradient"),
            std::string::npos)
      << errors;
}

} // namespace
