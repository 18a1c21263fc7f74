//===- PropertyTest.cpp - semantic properties of autocast / loss scaling --===//
//
// Properties checked on generated training steps (tools/amp-robustness
// Generator: linear layers, quadratic loss, SGD / momentum / RMSprop, random
// shapes), compiled with the JIT and run on random inputs:
//  (a) autocast to f32 is the identity: no low-precision type appears, and
//      the step computes bit-identical results to the step lowered without
//      the mixed-precision pipeline; autocast to f16 of a function without
//      allow-list ops changes nothing;
//  (b) autocast is idempotent: running it twice prints the same IR as once;
//  (c) static loss scaling with S = 1 on a clean step gives bit-identical
//      loss and updates to no loss scaling (f32 and f16);
//  (d) S = 2^k gives the same updates as S = 1 within fp32 rounding;
//  (e) +inf, -inf or NaN in any one gradient element of any parameter skips
//      the step: found_inf = 1 and every parameter and optimizer-state
//      result is bit-identical to its argument.
// Arguments and results are found by role (amp.role, amp.updates and the
// generator's amp_test.* attributes), never by position, so the tests hold
// when passes add state (step counters, skip counters, ...).
//
//===----------------------------------------------------------------------===//

#include "Generator.h"
#include "amp/Analysis/TrainingStep.h"
#include "amp/InitAll.h"
#include "amp/Runtime/HostTensor.h"
#include "amp/Runtime/JitModule.h"
#include "amp/Runtime/ParameterInit.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::runtime;
using robustness::generateTrainingStep;
using robustness::TrainingStepOptions;

namespace {

constexpr unsigned kNumSteps = 6; // generated steps per property

DialectRegistry &registry() {
  static DialectRegistry *r = [] {
    auto *reg = new DialectRegistry();
    registerAllDialectsAndExtensions(*reg);
    registerAllPassesAndPipelines();
    return reg;
  }();
  return *r;
}

/// Runs a textual pass pipeline on `module`; diagnostics go to `errors`.
LogicalResult runPipeline(ModuleOp module, StringRef pipeline,
                          std::string &errors) {
  llvm::raw_string_ostream os(errors);
  ScopedDiagnosticHandler handler(module.getContext(), [&](Diagnostic &d) {
    os << d.getLocation() << ": " << d << "\n";
    return success();
  });
  PassManager pm(module.getContext(), ModuleOp::getOperationName(),
                 OpPassManager::Nesting::Implicit);
  if (failed(parsePassPipeline(pipeline, pm, os)))
    return failure();
  return pm.run(module);
}

std::string print(Operation *op) {
  std::string s;
  llvm::raw_string_ostream os(s);
  op->print(os);
  return s;
}

/// A generated step after an optional pipeline, JIT-compiled, with one host
/// buffer per argument and per result and the roles read from the function
/// type before lowering.
class Step {
public:
  /// `pipeline` empty: the step is lowered as written (amp markers lowered
  /// by amp-lower-to-standard, no autocast, no loss scaling). `lowering`:
  /// amp-lower-to-llvm's options (default: one thread, no fusion).
  static std::unique_ptr<Step> create(const std::string &text,
                                      const std::string &pipeline,
                                      const LowerToLLVMConfig &lowering = {}) {
    auto step = std::unique_ptr<Step>(new Step());
    std::string error;
    if (!step->init(text, pipeline, lowering, error)) {
      ADD_FAILURE() << "cannot build the step with '" << pipeline
                    << "': " << error << "\n"
                    << text;
      return nullptr;
    }
    return step;
  }

  /// Random inputs: parameters and input in [-1, 1], optimizer state in
  /// [0, 1] (RMSprop's second moment is non-negative), pokes 0.
  void randomize(uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    for (unsigned i = 0; i < args.size(); ++i) {
      HostTensor &t = *args[i];
      t.fillZero();
      bool state = argRoles[i] == "opt_state";
      // bf16 parameters and Kahan buffers (amp-master-weights).
      if (t.spec().kind == ElementKind::BF16) {
        for (int64_t e = 0; e < t.spec().numElements(); ++e)
          t.as<uint16_t>()[e] =
              roundToBF16(state ? std::abs(u(rng)) * 0x1p-9f : u(rng));
        continue;
      }
      if (t.spec().kind != ElementKind::F32 || pokeOf.count(i))
        continue;
      float *p = t.as<float>();
      for (int64_t e = 0; e < t.spec().numElements(); ++e)
        p[e] = state ? std::abs(u(rng)) : u(rng);
    }
  }

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

  HostTensor &arg(unsigned i) { return *args[i]; }
  HostTensor &result(unsigned r) { return *results[r]; }

  std::vector<std::string> argRoles, resultRoles;
  std::map<unsigned, unsigned> resultOfArg; ///< amp.updates
  std::map<unsigned, unsigned> pokeOf;      ///< poke arg -> param arg
  std::vector<unsigned> params;             ///< param args in order
  std::optional<unsigned> lossResult, foundInfResult, scaleArg, scaleResult;

private:
  Step() = default;

  bool init(const std::string &text, const std::string &pipeline,
            const LowerToLLVMConfig &lowering, std::string &error) {
    ctx = std::make_unique<MLIRContext>(registry());
    ctx->allowUnregisteredDialects();
    llvm::raw_string_ostream os(error);
    {
      ScopedDiagnosticHandler handler(ctx.get(), [&](Diagnostic &d) {
        os << d.getLocation() << ": " << d << "\n";
        return success();
      });
      module = parseSourceString<ModuleOp>(text, ctx.get());
    }
    if (!module)
      return false;
    if (!pipeline.empty() && failed(runPipeline(*module, pipeline, error)))
      return false;
    auto fn = module->lookupSymbol<func::FuncOp>("train_step");
    if (!fn) {
      os << "no @train_step";
      return false;
    }
    for (unsigned i = 0; i < fn.getNumArguments(); ++i) {
      auto role = fn.getArgAttrOfType<StringAttr>(i, kRoleAttr);
      argRoles.push_back(role ? role.getValue().str() : "");
      if (argRoles.back() == "param")
        params.push_back(i);
      if (argRoles.back() == "loss_scale")
        scaleArg = i;
      if (auto poke = fn.getArgAttrOfType<IntegerAttr>(i, "amp_test.poke_of"))
        pokeOf[i] = poke.getInt();
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
      if (resultRoles.back() == "loss")
        lossResult = r;
      if (resultRoles.back() == "found_inf")
        foundInfResult = r;
      if (auto upd = fn.getResultAttrOfType<IntegerAttr>(r, kUpdatesAttr)) {
        resultOfArg[upd.getInt()] = r;
        if (scaleArg && unsigned(upd.getInt()) == *scaleArg)
          scaleResult = r;
      }
      auto spec = TensorSpec::fromType(fn.getResultTypes()[r]);
      if (!spec) {
        os << llvm::toString(spec.takeError());
        return false;
      }
      results.push_back(std::make_unique<HostTensor>(*spec));
    }
    auto compiled = JitModule::compile(*module, {"train_step"}, lowering);
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

/// Copies every argument of `from` into the same-role argument of `to`
/// (parameters, optimizer state, input, label; matched in order per role).
void copyInputs(Step &from, Step &to) {
  std::map<std::string, std::vector<unsigned>> byRole;
  for (unsigned i = 0; i < to.argRoles.size(); ++i)
    byRole[to.argRoles[i]].push_back(i);
  std::map<std::string, unsigned> next;
  for (unsigned i = 0; i < from.argRoles.size(); ++i) {
    const std::string &role = from.argRoles[i];
    if (role == "loss_scale" || role == "growth_tracker")
      continue;
    auto &slots = byRole[role];
    unsigned k = next[role]++;
    ASSERT_LT(k, slots.size()) << "no argument for role " << role;
    HostTensor &dst = to.arg(slots[k]);
    ASSERT_EQ(dst.sizeInBytes(), from.arg(i).sizeInBytes());
    std::memcpy(dst.data(), from.arg(i).data(), dst.sizeInBytes());
  }
}

bool sameBytes(HostTensor &a, HostTensor &b) {
  return a.sizeInBytes() == b.sizeInBytes() &&
         std::memcmp(a.data(), b.data(), a.sizeInBytes()) == 0;
}

/// Loss and every parameter/optimizer-state update of `a` and `b` are
/// bit-identical (results matched through the argument they update).
void expectSameUpdates(Step &a, Step &b, const std::string &what) {
  ASSERT_TRUE(a.lossResult && b.lossResult);
  EXPECT_TRUE(sameBytes(a.result(*a.lossResult), b.result(*b.lossResult)))
      << what << ": loss differs";
  std::map<std::string, std::vector<unsigned>> bByRole;
  for (unsigned i = 0; i < b.argRoles.size(); ++i)
    bByRole[b.argRoles[i]].push_back(i);
  std::map<std::string, unsigned> next;
  for (unsigned i = 0; i < a.argRoles.size(); ++i) {
    const std::string &role = a.argRoles[i];
    if (role != "param" && role != "opt_state")
      continue;
    unsigned j = bByRole[role][next[role]++];
    ASSERT_TRUE(a.resultOfArg.count(i) && b.resultOfArg.count(j));
    EXPECT_TRUE(
        sameBytes(a.result(a.resultOfArg[i]), b.result(b.resultOfArg[j])))
        << what << ": update of argument #" << i << " (" << role << ") differs";
  }
}

TrainingStepOptions executable(bool pokes = false) {
  TrainingStepOptions o;
  o.staticShapes = true;
  o.pokes = pokes;
  return o;
}

// (a) precision=f32: no low-precision type anywhere, and bit-identical
// results to the step lowered without the mixed-precision pipeline.
TEST(AutocastProperty, F32IsIdentity) {
  for (unsigned seed = 1; seed <= kNumSteps; ++seed) {
    SCOPED_TRACE("step seed " + std::to_string(seed));
    std::string text = generateTrainingStep(seed, executable());
    {
      MLIRContext ctx(registry());
      auto module = parseSourceString<ModuleOp>(text, &ctx);
      ASSERT_TRUE(module);
      std::string errors;
      ASSERT_TRUE(succeeded(runPipeline(
          *module, "amp-mixed-precision{precision=f32 loss-scale=none}",
          errors)))
          << errors;
      std::string ir = print(*module);
      EXPECT_EQ(ir.find("f16"), std::string::npos) << ir;
      EXPECT_EQ(ir.find("truncf"), std::string::npos) << ir;
    }
    auto plain = Step::create(text, "");
    auto f32 = Step::create(
        text, "amp-mixed-precision{precision=f32 loss-scale=none}");
    ASSERT_TRUE(plain && f32);
    plain->randomize(seed);
    copyInputs(*plain, *f32);
    ASSERT_TRUE(plain->run());
    ASSERT_TRUE(f32->run());
    expectSameUpdates(*plain, *f32, "f32 pipeline vs plain");
  }
}

// (a) A policy with nothing to demote: f16 autocast of functions without
// allow-list ops (elementwise, reductions, softmax) changes nothing.
TEST(AutocastProperty, NoAllowOpsIsIdentity) {
  const char *kNoContractions = R"mlir(
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @f(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %g = linalg.generic {indexing_maps = [#id, #id, #id],
                       iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m = arith.mulf %x, %y : f32
    %t = math.tanh %m : f32
    linalg.yield %t : f32
  } -> tensor<4x8xf32>
  %s = linalg.softmax dimension(1) ins(%g : tensor<4x8xf32>)
                      outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %x = math.exp %s : tensor<4x8xf32>
  %z = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<4xf32>
  %i = linalg.fill ins(%z : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %r = linalg.reduce ins(%x : tensor<4x8xf32>) outs(%i : tensor<4xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %q = arith.addf %in, %acc : f32
      linalg.yield %q : f32
    }
  return %r : tensor<4xf32>
}
)mlir";
  for (const char *precision : {"f16", "bf16"}) {
    MLIRContext ctx(registry());
    auto module = parseSourceString<ModuleOp>(kNoContractions, &ctx);
    ASSERT_TRUE(module);
    std::string before = print(*module), errors;
    ASSERT_TRUE(succeeded(runPipeline(
        *module, std::string("amp-autocast{precision=") + precision + "}",
        errors)))
        << errors;
    EXPECT_EQ(print(*module), before) << precision;
  }
}

// (b) Autocast twice prints the same IR as autocast once.
TEST(AutocastProperty, Idempotent) {
  for (const char *precision : {"f16", "bf16"})
    for (unsigned seed = 1; seed <= 2 * kNumSteps; ++seed) {
      SCOPED_TRACE(std::string(precision) + ", step seed " +
                   std::to_string(seed));
      MLIRContext ctx(registry());
      auto module = parseSourceString<ModuleOp>(
          generateTrainingStep(seed, TrainingStepOptions()), &ctx);
      ASSERT_TRUE(module);
      std::string pass =
                      std::string("amp-autocast{precision=") + precision + "}",
                  errors;
      std::string original = print(*module);
      ASSERT_TRUE(succeeded(runPipeline(*module, pass, errors))) << errors;
      std::string once = print(*module);
      // Every generated step has matmuls: the first run demotes them.
      EXPECT_NE(once, original);
      ASSERT_TRUE(succeeded(runPipeline(*module, pass, errors))) << errors;
      EXPECT_EQ(print(*module), once);
    }
}

// (c) Static S = 1 on a clean step: bit-identical to no loss scaling, also
// with amp-lower-to-llvm's elementwise fusion (fuse=true), which fuses the
// unscale into the optimizer's update.
TEST(LossScalingProperty, ScaleOneIsBitIdentical) {
  for (bool fuse : {false, true})
    for (const char *precision : {"f32", "f16"})
      for (unsigned seed = 1; seed <= kNumSteps; ++seed) {
        SCOPED_TRACE(std::string(precision) + ", step seed " +
                     std::to_string(seed) + (fuse ? ", fuse=true" : ""));
        std::string text = generateTrainingStep(seed, executable());
        std::string base =
            std::string("amp-mixed-precision{precision=") + precision;
        LowerToLLVMConfig lowering;
        lowering.fuse = fuse;
        auto none = Step::create(text, base + " loss-scale=none}", lowering);
        auto one = Step::create(
            text, base + " loss-scale=static init-scale=1.0}", lowering);
        ASSERT_TRUE(none && one);
        none->randomize(seed);
        copyInputs(*none, *one);
        ASSERT_TRUE(none->run());
        ASSERT_TRUE(one->run());
        ASSERT_TRUE(one->foundInfResult);
        EXPECT_EQ(one->result(*one->foundInfResult).as<uint8_t>()[0], 0);
        expectSameUpdates(*none, *one, "S = 1 vs no scaling");
      }
}

// (d) S = 2^k: the same updates as S = 1 within fp32 rounding (f32 step).
TEST(LossScalingProperty, PowerOfTwoScaleMatchesScaleOne) {
  for (int k : {1, 10, 24})
    for (unsigned seed = 1; seed <= kNumSteps / 2; ++seed) {
      SCOPED_TRACE("k = " + std::to_string(k) + ", step seed " +
                   std::to_string(seed));
      std::string text = generateTrainingStep(seed, executable());
      auto one = Step::create(
          text, "amp-mixed-precision{precision=f32 loss-scale=static "
                "init-scale=1.0}");
      auto scaled = Step::create(
          text, "amp-mixed-precision{precision=f32 loss-scale=static "
                "init-scale=" +
                    std::to_string(std::ldexp(1.0, k)) + "}");
      ASSERT_TRUE(one && scaled);
      one->randomize(seed);
      copyInputs(*one, *scaled);
      ASSERT_TRUE(one->run());
      ASSERT_TRUE(scaled->run());
      EXPECT_EQ(scaled->result(*scaled->foundInfResult).as<uint8_t>()[0], 0);
      for (unsigned p : one->params) {
        HostTensor &a = one->result(one->resultOfArg[p]);
        HostTensor &b = scaled->result(scaled->resultOfArg[p]);
        for (int64_t e = 0; e < a.spec().numElements(); ++e) {
          float x = a.as<float>()[e], y = b.as<float>()[e];
          // A few fp32 ulps of the operands of the update.
          EXPECT_NEAR(x, y,
                      4 * std::numeric_limits<float>::epsilon() *
                          std::max(1.0f, std::abs(x)))
              << "param arg #" << p << " element " << e;
        }
      }
    }
}

// (e) A non-finite value in any one gradient element of any parameter skips
// the whole step: found_inf = 1, every parameter and optimizer-state result
// bit-identical to its argument, the scale backs off.
TEST(LossScalingProperty, AnyNonFiniteGradientElementSkipsTheStep) {
  const float bad[3] = {std::numeric_limits<float>::infinity(),
                        -std::numeric_limits<float>::infinity(),
                        std::numeric_limits<float>::quiet_NaN()};
  unsigned injections = 0;
  for (const char *precision : {"f32", "f16"})
    for (unsigned seed = 1; seed <= kNumSteps / 2; ++seed) {
      SCOPED_TRACE(std::string(precision) + ", step seed " +
                   std::to_string(seed));
      std::string text = generateTrainingStep(seed, executable(true));
      auto step = Step::create(
          text, std::string("amp-mixed-precision{precision=") + precision +
                    " loss-scale=dynamic init-scale=1024}");
      ASSERT_TRUE(step);
      ASSERT_TRUE(step->scaleArg && step->scaleResult && step->foundInfResult);
      ASSERT_EQ(step->pokeOf.size(), step->params.size());
      // A clean step first: it must update (else the test proves nothing).
      step->randomize(seed);
      step->arg(*step->scaleArg).as<float>()[0] = 1024.0f;
      ASSERT_TRUE(step->run());
      ASSERT_EQ(step->result(*step->foundInfResult).as<uint8_t>()[0], 0);
      unsigned firstParam = step->params.front();
      EXPECT_FALSE(sameBytes(step->arg(firstParam),
                             step->result(step->resultOfArg[firstParam])));

      for (auto [poke, param] : step->pokeOf) {
        int64_t n = step->arg(poke).spec().numElements();
        for (int64_t e = 0; e < n; ++e)
          for (float value : bad) {
            SCOPED_TRACE("param arg #" + std::to_string(param) + " element " +
                         std::to_string(e) + " = " + std::to_string(value));
            step->randomize(seed);
            step->arg(*step->scaleArg).as<float>()[0] = 1024.0f;
            step->arg(poke).as<float>()[e] = value;
            ASSERT_TRUE(step->run());
            ++injections;
            EXPECT_EQ(step->result(*step->foundInfResult).as<uint8_t>()[0], 1);
            EXPECT_EQ(step->result(*step->scaleResult).as<float>()[0], 512.0f);
            for (auto [a, r] : step->resultOfArg) {
              const std::string &role = step->argRoles[a];
              if (role != "param" && role != "opt_state")
                continue;
              EXPECT_TRUE(sameBytes(step->arg(a), step->result(r)))
                  << "argument #" << a << " (" << role << ") changed";
            }
          }
      }
    }
  EXPECT_GT(injections, 100u);
  std::printf("non-finite gradient elements injected: %u\n", injections);
}

/// The skip region holds for every master-weights mode: on a step with a
/// non-finite gradient the bf16 parameters, the Kahan compensation buffers
/// and the stochastic rounding's counter come back bit-identical.
TEST(MasterWeightsProperty, SkippedStepKeepsEveryStateInEveryMode) {
  unsigned checked = 0;
  for (const char *mode : {"bf16", "bf16-kahan", "bf16-stochastic"})
    for (unsigned seed = 1; seed <= 4; ++seed) {
      SCOPED_TRACE(std::string(mode) + ", step seed " + std::to_string(seed));
      std::string text = generateTrainingStep(seed, executable(true));
      auto step =
          Step::create(text, std::string("amp-mixed-precision{precision=f16 "
                                         "loss-scale=dynamic init-scale=1024 "
                                         "master-weights=") +
                                 mode + "}");
      ASSERT_TRUE(step);
      ASSERT_TRUE(step->scaleArg && step->foundInfResult);
      ASSERT_FALSE(step->pokeOf.empty());
      auto [poke, param] = *step->pokeOf.begin();
      step->randomize(seed);
      step->arg(*step->scaleArg).as<float>()[0] = 1024.0f;
      step->arg(poke).as<float>()[0] = std::numeric_limits<float>::infinity();
      ASSERT_TRUE(step->run());
      EXPECT_EQ(step->result(*step->foundInfResult).as<uint8_t>()[0], 1);
      for (auto [a, r] : step->resultOfArg) {
        const std::string &role = step->argRoles[a];
        if (role != "param" && role != "opt_state")
          continue;
        ++checked;
        EXPECT_TRUE(sameBytes(step->arg(a), step->result(r)))
            << "argument #" << a << " (" << role << ") changed";
      }
    }
  EXPECT_GT(checked, 12u);
}

} // namespace
