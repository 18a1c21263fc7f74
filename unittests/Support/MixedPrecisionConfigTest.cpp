//===- MixedPrecisionConfigTest.cpp - the rewrite's options, once ---------===//
//
// Every option of the registered `amp-mixed-precision` pipeline reaches the
// pipeline that the embedding API builds from MixedPrecisionConfig (a test
// value per option must change the built pipeline), and validate() names
// the option and the value of each bad setting.
//
//===----------------------------------------------------------------------===//

#include "amp/Support/MixedPrecisionConfig.h"
#include "amp/AmpMLIR.h"
#include "amp/InitAll.h"
#include "amp/Pipelines/Pipelines.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <map>
#include <regex>
#include <string>

using namespace mlir;
using namespace mlir::amp;

namespace {

/// The textual pipeline that the API builds for `config`.
std::string pipelineOf(const MixedPrecisionConfig &config) {
  OpPassManager pm("builtin.module");
  addMixedPrecisionPipeline(pm, config);
  std::string text;
  llvm::raw_string_ostream os(text);
  pm.printAsTextualPipeline(os);
  return text;
}

/// The option names of the registered pipeline, from its own printer (which
/// leaves out empty lists: the two known ones are given a value first).
std::vector<std::string> pipelineOptionNames() {
  std::unique_ptr<MixedPrecisionOptions> options =
      MixedPrecisionOptions::createFromString(
          "autocast-allow=linalg.generic autocast-deny=linalg.matmul");
  std::string text;
  llvm::raw_string_ostream os(text);
  options->print(os);
  std::vector<std::string> names;
  std::regex name(R"(([a-z][a-z-]*)=)");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), name);
       it != std::sregex_iterator(); ++it)
    names.push_back((*it)[1]);
  return names;
}

TEST(MixedPrecisionConfig, EveryPipelineOptionReachesTheBuiltPipeline) {
  DialectRegistry registry;
  registerAllDialectsAndExtensions(registry);
  registerAllPassesAndPipelines();
  MLIRContext ctx(registry);
  // A non-default value per option, in the pipeline's own syntax. An option
  // added to AMP_MIXED_PRECISION_OPTIONS needs a line here.
  const std::map<std::string, std::string> testValues = {
      {"precision", "bf16"},
      {"loss-scale", "static"},
      {"init-scale", "1024"},
      {"growth-interval", "7"},
      {"growth-factor", "3"},
      {"backoff-factor", "0.25"},
      {"hysteresis", "2"},
      {"min-scale", "0.5"},
      {"max-scale", "65536"},
      {"underflow-stats", "true"},
      {"master-weights", "bf16-kahan"},
      {"rounding-seed", "9"},
      {"update-stats", "true"},
      {"keep-accumulators-low", "false"},
      {"recompute", "false"},
      {"recompute-elementwise", "false"},
      {"autocast-report", "report.json"},
      {"autocast-allow", "linalg.generic"},
      {"autocast-deny", "linalg.matmul"},
  };
  std::vector<std::string> names = pipelineOptionNames();
  ASSERT_GE(names.size(), 13u);
  std::string defaults = pipelineOf(MixedPrecisionConfig());
  for (const std::string &name : names) {
    SCOPED_TRACE(name);
    auto it = testValues.find(name);
    ASSERT_NE(it, testValues.end()) << "no test value for option " << name;
    std::string text = name + "=" + it->second;
    // bf16 takes no loss scaling: test the scale options with f16.
    if (name == "loss-scale")
      text += " precision=f16";
    // The seed only matters to stochastic rounding: compared with seed 0.
    std::string base = defaults;
    if (name == "rounding-seed") {
      text += " master-weights=bf16-stochastic";
      MixedPrecisionConfig stochastic;
      stochastic.masterWeights = MasterWeights::BF16Stochastic;
      base = pipelineOf(stochastic);
    }
    std::unique_ptr<MixedPrecisionOptions> parsed =
        MixedPrecisionOptions::createFromString(text);
    ASSERT_TRUE(parsed);
    MixedPrecisionConfig config = parsed->toConfig();
    EXPECT_NE(pipelineOf(config), base)
        << name << " does not reach the pipeline built from the config";
  }
}

TEST(MixedPrecisionConfig, ParsersAndMessages) {
  EXPECT_EQ(parsePrecision("bf16"), Precision::BF16);
  EXPECT_EQ(parsePrecision("fp16"), std::nullopt);
  EXPECT_EQ(parseLossScaleMode("static"), LossScaleMode::Static);
  EXPECT_EQ(parseLossScaleMode("Dynamic"), std::nullopt);
  EXPECT_EQ(describeBadPrecision("f8"),
            "'f8' is not a precision (f16, bf16 or f32)");
  EXPECT_EQ(resolveLossScaleMode(Precision::F16, LossScaleMode::Auto),
            LossScaleMode::Dynamic);
  EXPECT_EQ(resolveLossScaleMode(Precision::BF16, LossScaleMode::Auto),
            LossScaleMode::None);
  MixedPrecisionConfig config;
  EXPECT_EQ(config.runName(), "f16 + auto");
  config.lossScale = LossScaleMode::None;
  EXPECT_EQ(config.runName(), "f16");
  EXPECT_EQ(parseMasterWeights("bf16-kahan"), MasterWeights::BF16Kahan);
  EXPECT_EQ(parseMasterWeights("bf16-sr"), std::nullopt);
  EXPECT_EQ(describeBadMasterWeights("fp8"),
            "'fp8' is not a master-weights mode (f32, bf16, bf16-kahan or "
            "bf16-stochastic)");
  config.masterWeights = MasterWeights::BF16Stochastic;
  EXPECT_EQ(config.runName(), "f16 params=bf16-stochastic");
}

TEST(MixedPrecisionConfig, ValidateNamesTheOptionAndTheValue) {
  EXPECT_EQ(MixedPrecisionConfig().validate(), "");
  auto why = [](auto set) {
    MixedPrecisionConfig config;
    set(config);
    return config.validate();
  };
  EXPECT_EQ(why([](auto &c) { c.growthFactor = INFINITY; }),
            "growth-factor=inf: must be finite and > 1 (in fp32)");
  EXPECT_EQ(why([](auto &c) { c.growthFactor = 1; }),
            "growth-factor=1: must be finite and > 1 (in fp32)");
  EXPECT_EQ(why([](auto &c) { c.backoffFactor = 1; }),
            "backoff-factor=1: must lie in (0, 1) (in fp32)");
  EXPECT_EQ(why([](auto &c) { c.growthInterval = 0; }),
            "growth-interval=0: must be >= 1 clean step");
  EXPECT_EQ(why([](auto &c) { c.initScale = 1e39; }),
            "init-scale=1e+39: must be a finite fp32 value of at least 2^-126 "
            "(1.17549e-38): the scale and its inverse 1/S are stored in "
            "fp32");
  EXPECT_EQ(why([](auto &c) {
              c.initScale = c.minScale = 1e-39;
            }).rfind("init-scale=1e-39: must be a finite fp32 value", 0),
            0u);
  EXPECT_EQ(why([](auto &c) { c.growthFactor = 1e308; }),
            "growth-factor=1e+308: must be finite and > 1 (in fp32)");
  EXPECT_EQ(why([](auto &c) { c.backoffFactor = 1e-50; }),
            "backoff-factor=1e-50: must lie in (0, 1) (in fp32)");
  EXPECT_EQ(why([](auto &c) { c.minScale = 8, c.initScale = 4; }),
            "init-scale=4: lies outside [min-scale, max-scale] = [8, "
            "1.67772e+07]");
  // Static scaling uses S too; no loss scaling does not.
  EXPECT_NE(why([](auto &c) {
              c.lossScale = LossScaleMode::Static, c.initScale = 1e30;
            }),
            "");
  EXPECT_EQ(why([](auto &c) {
              c.lossScale = LossScaleMode::None, c.initScale = 1e30;
            }),
            "");
  EXPECT_EQ(why([](auto &c) { c.minScale = 4, c.maxScale = 2; }),
            "min-scale=4: exceeds max-scale=2");
  std::string bf16 = why([](auto &c) {
    c.precision = Precision::BF16, c.lossScale = LossScaleMode::Dynamic;
  });
  EXPECT_EQ(bf16.rfind("loss-scale=dynamic: no loss scaling with "
                       "precision=bf16",
                       0),
            0u)
      << bf16;
}

} // namespace
