//===- ThreadDeterminismTest.cpp - a step's bits do not depend on threads -===//
//
// amp-lower-to-llvm runs a step's parallel loops on `threads` threads
// (docs/passes.md, amp-cpu-parallelize and amp-cpu-tile-contractions): every
// output element is computed by one thread in the same order, so the
// results must be the same bits whatever the thread count. This test
// compiles the Fashion-MNIST steps with threads=1 (plain loops, no OpenMP)
// and threads=2 (OpenMP), runs both from the same state on the same
// batches for a few steps (state carried), and compares every result --
// loss, parameters, optimizer state, loss-scale state, found_inf -- byte for
// byte after every step. The same is checked against the step compiled
// with amp-lower-to-llvm's experimental fusion (fuse=true:
// amp-cpu-fuse-elementwise), which changes the order of loops and buffers
// but should change no arithmetic; one batch overflows f16, so that a
// skipped step is compared too. The MLP runs once more with each of
// bf16-kahan and bf16-stochastic parameters (amp-master-weights).
//
//===----------------------------------------------------------------------===//

#include "amp/Analysis/TrainingStep.h"
#include "amp/InitAll.h"
#include "amp/Pipelines/Pipelines.h"
#include "amp/Runtime/BoundStep.h"
#include "amp/Support/Diagnostics.h"

#include "RandomBatches.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include "gtest/gtest.h"

#include <cstring>
#include <memory>
#include <random>
#include <string>

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::runtime;

namespace {

struct Case {
  const char *model; ///< file under examples/fashion-mnist/
  Precision precision;
  LossScaleMode lossScale;
  MasterWeights masterWeights = MasterWeights::F32;
};

void PrintTo(const Case &c, std::ostream *os) {
  *os << c.model << " " << stringifyPrecision(c.precision).str()
      << (c.lossScale == LossScaleMode::Dynamic ? " + dynamic" : "") << " "
      << stringifyMasterWeights(c.masterWeights).str();
}

std::string caseName(const ::testing::TestParamInfo<Case> &info) {
  std::string model = info.param.model;
  std::string name = model.substr(0, model.find('.')) + "_" +
                     std::string(stringifyPrecision(info.param.precision));
  if (info.param.lossScale == LossScaleMode::Dynamic)
    name += "_dynamic";
  if (info.param.masterWeights != MasterWeights::F32)
    name += "_" + std::string(stringifyMasterWeights(info.param.masterWeights));
  for (char &ch : name)
    if (ch == '-')
      ch = '_';
  return name;
}

/// One step of `c`, rewritten and compiled with `threads`, in its initial
/// state (seed 0).
struct Compiled {
  std::unique_ptr<Backend> cpu;
  std::unique_ptr<BoundStep> step;
};

::testing::AssertionResult compile(MLIRContext &ctx, const Case &c,
                                   unsigned threads, bool fuse, Compiled &out) {
  std::string path =
      std::string(AMP_SOURCE_DIR) + "/examples/fashion-mnist/" + c.model;
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(path, &ctx);
  if (!module)
    return ::testing::AssertionFailure() << "cannot parse " << path;
  // Only the training step is compared (and compiled: seconds each).
  for (auto fn : llvm::make_early_inc_range(module->getOps<func::FuncOp>()))
    if (!fn->hasAttr(kTrainStepAttr))
      fn.erase();
  MixedPrecisionConfig mp;
  mp.precision = c.precision;
  mp.lossScale = c.lossScale;
  mp.masterWeights = c.masterWeights;
  mp.roundingSeed = 5;
  if (llvm::Error err = runPipeline(
          *module,
          [&](OpPassManager &pm) { buildMixedPrecisionPipeline(pm, mp); },
          "amp-mixed-precision"))
    return ::testing::AssertionFailure() << llvm::toString(std::move(err));
  LowerToLLVMConfig lowering;
  lowering.threads = threads;
  lowering.fuse = fuse;
  out.cpu = createCpuBackend(lowering);
  auto step = BoundStep::create(*module, *out.cpu, /*batch=*/0);
  if (!step)
    return ::testing::AssertionFailure() << llvm::toString(step.takeError());
  out.step = std::move(*step);
  std::mt19937_64 rng(0);
  out.step->resetState(rng, mp.initScale);
  return ::testing::AssertionSuccess();
}

/// Batch `index` (RandomBatches.h); batch kOverflowBatch has one input of
/// 1e6, which overflows f16 (max 65504) in the backward and makes a
/// loss-scaled step skip.
constexpr int kOverflowBatch = 2;
void fillBatch(BoundStep &step, int index) {
  fillRandomBatch(step, index, [&](HostTensor &x) {
    if (index == kOverflowBatch)
      x.as<float>()[7] = 1e6f;
  });
}

class ThreadDeterminism : public ::testing::TestWithParam<Case> {};

TEST_P(ThreadDeterminism, SameBitsOnOneAndTwoThreadsAndFused) {
  DialectRegistry registry;
  registerAllDialectsAndExtensions(registry);
  MLIRContext ctx(registry);
  Compiled one, two, fused;
  ASSERT_TRUE(compile(ctx, GetParam(), 1, /*fuse=*/false, one));
  ASSERT_TRUE(compile(ctx, GetParam(), 2, /*fuse=*/false, two));
  ASSERT_TRUE(compile(ctx, GetParam(), 1, /*fuse=*/true, fused));
  const std::pair<Compiled *, const char *> others[] = {
      {&two, "threads=2"}, {&fused, "threads=1 fuse=true"}};
  constexpr int kSteps = 4;
  bool skipped = false;
  for (int s = 0; s < kSteps; ++s) {
    for (Compiled *c : {&one, &two, &fused}) {
      fillBatch(*c->step, s);
      llvm::Error err = c->step->run();
      ASSERT_FALSE(err) << llvm::toString(std::move(err));
    }
    for (auto [other, name] : others) {
      ASSERT_EQ(one.step->numResults(), other->step->numResults());
      for (size_t r = 0; r < one.step->numResults(); ++r) {
        const HostTensor &a = one.step->result(r).host();
        const HostTensor &b = other->step->result(r).host();
        ASSERT_EQ(a.sizeInBytes(), b.sizeInBytes());
        const auto *pa = static_cast<const unsigned char *>(a.data());
        const auto *pb = static_cast<const unsigned char *>(b.data());
        size_t firstDiff = a.sizeInBytes();
        for (size_t i = 0; i < a.sizeInBytes(); ++i)
          if (pa[i] != pb[i]) {
            firstDiff = i;
            break;
          }
        ASSERT_EQ(firstDiff, a.sizeInBytes())
            << "step " << s + 1 << ": result #" << r << " differs from byte "
            << firstDiff << " of " << a.sizeInBytes()
            << " between threads=1 and " << name;
      }
    }
    if (auto flag = one.step->layout().foundInfResult)
      skipped |= one.step->result(*flag).host().as<uint8_t>()[0] != 0;
    // The loss changes from step to step: the state is really carried.
    for (Compiled *c : {&one, &two, &fused})
      c->step->carry();
  }
  // The overflowing batch did exercise the skip region where there is one.
  if (one.step->layout().foundInfResult)
    EXPECT_TRUE(skipped) << "batch " << kOverflowBatch + 1 << " did not skip";
}

INSTANTIATE_TEST_SUITE_P(
    FashionMnist, ThreadDeterminism,
    // (Each case compiles its step twice, seconds each: two cases that
    // between them have every kind of parallel loop -- contraction blocks
    // with widened operands, elementwise and reduction chunks, the fused
    // check's or-flag, batched contractions and softmax.)
    ::testing::Values(Case{"mlp.mlir", Precision::F16, LossScaleMode::Dynamic},
                      Case{"transformer.mlir", Precision::F32,
                           LossScaleMode::None},
                      // bf16 parameters (amp-master-weights): the Kahan
                      // update and the stochastic rounding's random bits,
                      // with the skipped step.
                      Case{"mlp.mlir", Precision::F16, LossScaleMode::Dynamic,
                           MasterWeights::BF16Kahan},
                      Case{"mlp.mlir", Precision::F16, LossScaleMode::Dynamic,
                           MasterWeights::BF16Stochastic}),
    caseName);

} // namespace
