//===- MasterWeightsExecutionTest.cpp - bf16 storage and update stats -----===//
//
// Runs a tiny training step (w' = w - g with g the input's column sum, so
// the test chooses every update) through `amp-mixed-precision` and the JIT
// and checks numbers that can be computed by hand:
// - amp-instrument-updates: the lost-update counts and the norms of a
//   hand-computed case, for f32 master weights (nothing lost in f32; what
//   bf16 would lose) and for bf16 storage (lost = stored value unchanged);
// - bf16-stochastic: unbiased (the mean of 65536 roundings of 1 + 2^-9 is
//   1 + 2^-9 within four standard errors), deterministic for a seed and a
//   step, different for another seed or step;
// - bf16-kahan: 64 updates of -2^-10 to w = 1, each lost by plain bf16,
//   add up to the f32 result in w + c;
// - the skip region: on a step with a non-finite gradient every parameter,
//   compensation buffer and the random counter stay bit-identical.
//
//===----------------------------------------------------------------------===//

#include "amp/Analysis/TrainingStep.h"
#include "amp/InitAll.h"
#include "amp/Pipelines/Pipelines.h"
#include "amp/Runtime/BoundStep.h"
#include "amp/Runtime/ParameterInit.h"
#include "amp/Support/Diagnostics.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <vector>

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::runtime;

namespace {

/// loss = sum_{b,i} w[i] * x[b,i]; g = column sums of x; w' = w - g.
std::string tinyStep(int64_t n) {
  std::string text = R"mlir(
#x_map = affine_map<(b, i) -> (b, i)>
#w_map = affine_map<(b, i) -> (i)>
#s_map = affine_map<(b, i) -> ()>
#id1 = affine_map<(i) -> (i)>
module {
func.func @train_step(
    %w: tensor<Nxf32> {amp.role = "param"},
    %x: tensor<2xNxf32> {amp.role = "input"},
    %y: tensor<2xi32> {amp.role = "label"})
  -> (tensor<f32> {amp.role = "loss"}, tensor<Nxf32> {amp.updates = 0 : i64})
  attributes {amp.train_step} {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<f32>
  %l0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %loss = linalg.generic {indexing_maps = [#x_map, #w_map, #s_map],
                          iterator_types = ["reduction", "reduction"]}
      ins(%x, %w : tensor<2xNxf32>, tensor<Nxf32>) outs(%l0 : tensor<f32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %r = arith.addf %p, %acc : f32
    linalg.yield %r : f32
  } -> tensor<f32>
  %seed = amp.loss_grad %loss : tensor<f32>
  %e = tensor.empty() : tensor<Nxf32>
  %g0 = linalg.fill ins(%zero : f32) outs(%e : tensor<Nxf32>) -> tensor<Nxf32>
  %dw = linalg.generic {indexing_maps = [#x_map, #s_map, #w_map],
                        iterator_types = ["reduction", "parallel"]}
      ins(%x, %seed : tensor<2xNxf32>, tensor<f32>) outs(%g0 : tensor<Nxf32>) {
  ^bb0(%a: f32, %s: f32, %acc: f32):
    %p = arith.mulf %a, %s : f32
    %r = arith.addf %p, %acc : f32
    linalg.yield %r : f32
  } -> tensor<Nxf32>
  %g = amp.grad %dw, %w : tensor<Nxf32>
  %w_new = arith.subf %w, %g : tensor<Nxf32>
  return %loss, %w_new : tensor<f32>, tensor<Nxf32>
}
}
)mlir";
  std::string size = std::to_string(n);
  for (size_t at; (at = text.find("xN")) != std::string::npos;)
    text.replace(at, 2, "x" + size);
  for (size_t at; (at = text.find("<N")) != std::string::npos;)
    text.replace(at, 2, "<" + size);
  return text;
}

/// The tiny step of `n` weights rewritten with `cfg` and bound to the CPU.
struct Tiny {
  std::unique_ptr<MLIRContext> ctx;
  std::unique_ptr<Backend> cpu;
  std::unique_ptr<BoundStep> step;
  int64_t n = 0;
  std::optional<unsigned> statsResult, foundInfResult;

  static std::unique_ptr<Tiny>
  create(int64_t n, const MixedPrecisionConfig &cfg, unsigned threads = 1) {
    auto t = std::make_unique<Tiny>();
    t->n = n;
    DialectRegistry registry;
    registerAllDialectsAndExtensions(registry);
    t->ctx = std::make_unique<MLIRContext>(registry);
    DiagnosticCollector diagnostics(t->ctx.get());
    OwningOpRef<ModuleOp> module =
        parseSourceString<ModuleOp>(tinyStep(n), t->ctx.get());
    if (!module) {
      ADD_FAILURE() << diagnostics.text();
      return nullptr;
    }
    if (llvm::Error err = runPipeline(
            *module,
            [&](OpPassManager &pm) { buildMixedPrecisionPipeline(pm, cfg); },
            "amp-mixed-precision")) {
      ADD_FAILURE() << llvm::toString(std::move(err));
      return nullptr;
    }
    LowerToLLVMConfig lowering;
    lowering.threads = threads;
    t->cpu = createCpuBackend(lowering);
    auto step = BoundStep::create(*module, *t->cpu, /*batch=*/0);
    if (!step) {
      ADD_FAILURE() << llvm::toString(step.takeError());
      return nullptr;
    }
    t->step = std::move(*step);
    t->statsResult = t->step->layout().updateStatsResult;
    t->foundInfResult = t->step->layout().foundInfResult;
    return t;
  }

  bool bf16() const {
    return step->arg(0).host().spec().kind == ElementKind::BF16;
  }
  /// Sets w (rounded to bf16 when stored so), x = (g; 0) so that the
  /// intended update is -g, every other state argument 0.
  void set(const std::vector<float> &w, const std::vector<float> &g) {
    for (unsigned i = 0; i < step->numArgs(); ++i)
      step->arg(i).host().fillZero();
    HostTensor &hw = step->arg(0).host();
    for (int64_t k = 0; k < n; ++k) {
      if (bf16())
        hw.as<uint16_t>()[k] = roundToBF16(w[k]);
      else
        hw.as<float>()[k] = w[k];
      step->arg(1).host().as<float>()[k] = g[k];
    }
    for (unsigned i = 0; i < step->numArgs(); ++i)
      step->arg(i).upload();
  }
  void run() {
    llvm::Error err = step->run();
    ASSERT_FALSE(err) << llvm::toString(std::move(err));
    for (unsigned r = 0; r < step->numResults(); ++r)
      step->result(r).download();
  }
  /// Stored value k of argument `i` (or result) as a float.
  static float valueOf(const HostTensor &t, int64_t k) {
    if (t.spec().kind == ElementKind::BF16) {
      uint32_t bits = uint32_t(t.as<uint16_t>()[k]) << 16;
      float f;
      std::memcpy(&f, &bits, 4);
      return f;
    }
    return t.as<float>()[k];
  }
  float newW(int64_t k) { return valueOf(step->result(1).host(), k); }
  const double *stats() {
    return step->result(statsResult.value()).host().as<double>();
  }
};

MixedPrecisionConfig config(MasterWeights mode, bool stats = false) {
  MixedPrecisionConfig cfg;
  cfg.precision = Precision::F32;
  cfg.lossScale = LossScaleMode::None;
  cfg.masterWeights = mode;
  cfg.updateStats = stats;
  return cfg;
}

// w = (1, 1, 1, 256), intended update -(2^-10, 2^-6, 0, 0.5): bf16's
// spacing is 2^-7 above 1 and 2^-8 below, 2 above 256 and 1 below, so
// 1 - 2^-10 and 255.5 (a tie, to even: 256) round back: 2 of the 3
// non-zero updates are lost in bf16; 1 - 2^-6 is exact.
const std::vector<float> kW = {1.0f, 1.0f, 1.0f, 256.0f};
const std::vector<float> kG = {0x1p-10f, 0x1p-6f, 0.0f, 0.5f};

TEST(UpdateStats, F32MasterWeightsLoseNothingAndReportWhatBF16Would) {
  auto t = Tiny::create(4, config(MasterWeights::F32, /*stats=*/true));
  ASSERT_TRUE(t);
  t->set(kW, kG);
  t->run();
  const double *s = t->stats();
  EXPECT_EQ(s[0], 0x1p-20 + 0x1p-12 + 0.25); // ||w' - w||^2
  EXPECT_EQ(s[1], 3.0 + 65536.0);            // ||w||^2
  EXPECT_EQ(s[2], 3.0);                      // intended updates
  EXPECT_EQ(s[3], 0.0);                      // lost in f32
  EXPECT_EQ(s[4], 2.0);                      // lost in bf16
}

TEST(UpdateStats, BF16StorageCountsTheUpdatesRoundedAway) {
  auto t = Tiny::create(4, config(MasterWeights::BF16, /*stats=*/true));
  ASSERT_TRUE(t);
  ASSERT_TRUE(t->bf16());
  t->set(kW, kG);
  t->run();
  EXPECT_EQ(t->newW(0), 1.0f);
  EXPECT_EQ(t->newW(1), 1.0f - 0x1p-6f);
  EXPECT_EQ(t->newW(3), 256.0f);
  const double *s = t->stats();
  EXPECT_EQ(s[0], 0x1p-12); // only element 1 moved
  EXPECT_EQ(s[1], 3.0 + 65536.0);
  EXPECT_EQ(s[2], 3.0);
  EXPECT_EQ(s[3], 2.0); // stored value unchanged: lost
  EXPECT_EQ(s[4], 2.0);
}

TEST(StochasticRounding, UnbiasedAndDeterministicForASeedAndStep) {
  constexpr int64_t n = 65536;
  // Intended 1 + 2^-9: a quarter of the way from 1 to 1 + 2^-7.
  std::vector<float> w(n, 1.0f), g(n, -0x1p-9f);
  MixedPrecisionConfig cfg = config(MasterWeights::BF16Stochastic);
  cfg.roundingSeed = 7;
  auto a = Tiny::create(n, cfg), b = Tiny::create(n, cfg, /*threads=*/2);
  cfg.roundingSeed = 8;
  auto c = Tiny::create(n, cfg);
  ASSERT_TRUE(a && b && c);
  for (Tiny *t : {a.get(), b.get(), c.get()}) {
    t->set(w, g);
    t->run();
  }
  double sum = 0;
  int64_t up = 0;
  for (int64_t k = 0; k < n; ++k) {
    float v = a->newW(k);
    ASSERT_TRUE(v == 1.0f || v == 1.0f + 0x1p-7f) << v;
    sum += v;
    up += v != 1.0f;
  }
  double mean = sum / n, expected = 1.0 + 0x1p-9;
  double stderrOfMean = 0x1p-7 * std::sqrt(0.25 * 0.75 / n);
  EXPECT_NEAR(mean, expected, 4 * stderrOfMean) << up << " of " << n << " up";
  // The same seed and step: the same bits on 1 and 2 threads.
  EXPECT_EQ(std::memcmp(a->step->result(1).host().data(),
                        b->step->result(1).host().data(), 2 * n),
            0);
  // Another seed, or the next step: other bits.
  EXPECT_NE(std::memcmp(a->step->result(1).host().data(),
                        c->step->result(1).host().data(), 2 * n),
            0);
  // The counter advanced by one; from it the next step draws again.
  ASSERT_EQ(a->step->numArgs(), 4u); // w, x, y, rounding_counter
  EXPECT_EQ(a->step->result(2).host().as<int32_t>()[0], 1);
  std::vector<uint16_t> first(n);
  std::memcpy(first.data(), a->step->result(1).host().data(), 2 * n);
  a->step->arg(3).host().as<int32_t>()[0] = 1;
  a->step->arg(3).upload();
  a->run();
  EXPECT_NE(std::memcmp(first.data(), a->step->result(1).host().data(), 2 * n),
            0);
}

TEST(KahanSummation, RecoversUpdatesThatPlainBF16Loses) {
  std::vector<float> w(4, 1.0f), g(4, 0x1p-10f);
  auto plain = Tiny::create(4, config(MasterWeights::BF16));
  auto kahan = Tiny::create(4, config(MasterWeights::BF16Kahan));
  ASSERT_TRUE(plain && kahan);
  for (Tiny *t : {plain.get(), kahan.get()}) {
    t->set(w, g);
    for (int s = 0; s < 64; ++s) {
      t->run();
      t->step->carry();
      for (unsigned i = 0; i < t->step->numArgs(); ++i)
        t->step->arg(i).upload();
    }
  }
  // Plain bf16: every update of -2^-10 rounded back to 1.
  EXPECT_EQ(Tiny::valueOf(plain->step->arg(0).host(), 0), 1.0f);
  // Kahan: w + c is the f32 sum 1 - 64 * 2^-10 = 0.9375 (exact here).
  ASSERT_EQ(kahan->step->numArgs(), 4u); // w, x, y, kahan_compensation
  float wk = Tiny::valueOf(kahan->step->arg(0).host(), 0);
  float ck = Tiny::valueOf(kahan->step->arg(3).host(), 0);
  EXPECT_NEAR(wk, 0.9375f, 0x1p-8f);
  EXPECT_EQ(wk + ck, 0.9375f);
}

TEST(MasterWeightsSkip, OverflowKeepsParamsCompensationAndCounter) {
  for (MasterWeights mode : {MasterWeights::BF16, MasterWeights::BF16Kahan,
                             MasterWeights::BF16Stochastic}) {
    SCOPED_TRACE(stringifyMasterWeights(mode).str());
    MixedPrecisionConfig cfg = config(mode, /*stats=*/true);
    cfg.lossScale = LossScaleMode::Dynamic;
    auto t = Tiny::create(4, cfg);
    ASSERT_TRUE(t && t->foundInfResult);
    // Non-zero compensation and counter, so that keeping them is visible.
    t->set(kW, {0.25f, std::numeric_limits<float>::infinity(), 0.0f, 1.0f});
    const StepLayout &layout = t->step->layout();
    for (unsigned i : layout.optStates) {
      HostTensor &h = t->step->arg(i).host();
      for (int64_t k = 0; k < h.spec().numElements(); ++k) {
        if (h.spec().kind == ElementKind::BF16)
          h.as<uint16_t>()[k] = roundToBF16(0x1p-9f * float(k + 1));
        else if (h.spec().kind == ElementKind::I32)
          h.as<int32_t>()[k] = 41;
      }
      t->step->arg(i).upload();
    }
    if (auto scale = layout.argWithRole(ArgRole::LossScale)) {
      t->step->arg(*scale).host().as<float>()[0] = 1024.0f;
      t->step->arg(*scale).upload();
    }
    t->run();
    ASSERT_EQ(t->step->result(*t->foundInfResult).host().as<uint8_t>()[0], 1);
    for (auto [a, r] : layout.updates) {
      ArgRole role = layout.argRoles[a];
      if (role != ArgRole::Param && role != ArgRole::OptState)
        continue;
      const HostTensor &before = t->step->arg(a).host();
      const HostTensor &after = t->step->result(r).host();
      ASSERT_EQ(before.sizeInBytes(), after.sizeInBytes());
      EXPECT_EQ(std::memcmp(before.data(), after.data(), before.sizeInBytes()),
                0)
          << "argument #" << a << " changed on a skipped step";
    }
    EXPECT_EQ(t->stats()[2], 0.0); // nothing intended, nothing lost
  }
}

} // namespace
