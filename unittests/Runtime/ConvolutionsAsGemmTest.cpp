//===- ConvolutionsAsGemmTest.cpp - convolutions on the GEMM kernels ------===//
//
// amp-cpu-convolutions-to-gemm (amp-lower-to-llvm conv-gemm, default on)
// runs a convolution, its weight gradient and its input gradient as one
// GEMM per image on the micro-kernels instead of loop nests. This test
// builds a training step (amp-build-train-step) from a small CNN with a
// padded convolution and a strided, dilated one (whose input gradient then
// has windows, masks and stride conditions), randomizes its parameters,
// and runs it in f32 and bf16 with conv-gemm on and off from the same state
// on the same batches: every result (loss, parameters, momentum) must agree
// to the rounding of a sum in another order, and with conv-gemm on the
// results must be the same bits on 1 and 2 threads.
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
#include "mlir/Pass/PassRegistry.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstring>
#include <memory>
#include <random>

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::runtime;

namespace {

/// Batch 4 of 3x9x9 images: conv3x3 (3 -> 4, pad 1) -> 4x9x9, ReLU,
/// conv2x2 (4 -> 5, stride 2, dilation 2) -> 5x4x4, flatten, linear
/// 80 -> 10. The second convolution's input gradient has both the
/// dilation's windows and the stride's divisibility masks.
constexpr const char *kModel = R"mlir(
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
module {
  func.func @forward(%x: tensor<4x3x9x9xf32>) -> tensor<4x10xf32> {
    %w1 = arith.constant dense<0.1> : tensor<4x3x3x3xf32>
    %w2 = arith.constant dense<0.05> : tensor<5x4x2x2xf32>
    %w3 = arith.constant dense<0.02> : tensor<80x10xf32>
    %zero = arith.constant 0.0 : f32
    %padded = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%i: index, %j: index, %k: index, %l: index):
      tensor.yield %zero : f32
    } : tensor<4x3x9x9xf32> to tensor<4x3x11x11xf32>
    %e1 = tensor.empty() : tensor<4x4x9x9xf32>
    %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4x4x9x9xf32>) -> tensor<4x4x9x9xf32>
    %c1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
        ins(%padded, %w1 : tensor<4x3x11x11xf32>, tensor<4x3x3x3xf32>)
        outs(%f1 : tensor<4x4x9x9xf32>) -> tensor<4x4x9x9xf32>
    %r1 = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
        ins(%c1 : tensor<4x4x9x9xf32>) outs(%e1 : tensor<4x4x9x9xf32>) {
    ^bb0(%in: f32, %out: f32):
      %m = arith.maximumf %in, %zero : f32
      linalg.yield %m : f32
    } -> tensor<4x4x9x9xf32>
    %e2 = tensor.empty() : tensor<4x5x4x4xf32>
    %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<4x5x4x4xf32>) -> tensor<4x5x4x4xf32>
    %c2 = linalg.conv_2d_nchw_fchw {dilations = dense<2> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
        ins(%r1, %w2 : tensor<4x4x9x9xf32>, tensor<5x4x2x2xf32>)
        outs(%f2 : tensor<4x5x4x4xf32>) -> tensor<4x5x4x4xf32>
    %flat = tensor.collapse_shape %c2 [[0], [1, 2, 3]] : tensor<4x5x4x4xf32> into tensor<4x80xf32>
    %e3 = tensor.empty() : tensor<4x10xf32>
    %f3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x10xf32>) -> tensor<4x10xf32>
    %y = linalg.matmul ins(%flat, %w3 : tensor<4x80xf32>, tensor<80x10xf32>)
        outs(%f3 : tensor<4x10xf32>) -> tensor<4x10xf32>
    return %y : tensor<4x10xf32>
  }
}
)mlir";

struct Compiled {
  std::unique_ptr<Backend> cpu;
  std::unique_ptr<BoundStep> step;
};

/// The step in `precision`, compiled with conv-gemm `asGemm` on `threads`,
/// its parameters U[-0.5, 0.5) (seed 7; the model's splat weights would
/// hide a permuted channel).
::testing::AssertionResult compile(MLIRContext &ctx, Precision precision,
                                   bool asGemm, unsigned threads,
                                   Compiled &out) {
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(kModel, &ctx);
  if (!module)
    return ::testing::AssertionFailure() << "the model does not parse";
  PassManager build(&ctx);
  if (failed(parsePassPipeline(
          "amp-build-train-step{loss=softmax-cross-entropy eval-step=false}",
          build)) ||
      failed(build.run(*module)))
    return ::testing::AssertionFailure() << "amp-build-train-step failed";
  MixedPrecisionConfig mp;
  mp.precision = precision;
  mp.lossScale = LossScaleMode::None;
  if (llvm::Error err = runPipeline(
          *module,
          [&](OpPassManager &pm) { buildMixedPrecisionPipeline(pm, mp); },
          "amp-mixed-precision"))
    return ::testing::AssertionFailure() << llvm::toString(std::move(err));
  LowerToLLVMConfig lowering;
  lowering.threads = threads;
  lowering.convolutionsAsGemm = asGemm;
  out.cpu = createCpuBackend(lowering);
  auto step = BoundStep::create(*module, *out.cpu, /*batch=*/0);
  if (!step)
    return ::testing::AssertionFailure() << llvm::toString(step.takeError());
  out.step = std::move(*step);
  std::mt19937_64 rng(0);
  out.step->resetState(rng, mp.initScale);
  std::mt19937 values(7);
  std::uniform_real_distribution<float> u(-0.5f, 0.5f);
  for (unsigned p : out.step->layout().params) {
    HostTensor &host = out.step->arg(p).host();
    for (size_t i = 0; i < host.sizeInBytes() / sizeof(float); ++i)
      host.as<float>()[i] = u(values);
    out.step->arg(p).upload();
  }
  return ::testing::AssertionSuccess();
}

class ConvolutionsAsGemm : public ::testing::TestWithParam<Precision> {};

TEST_P(ConvolutionsAsGemm, AgreesWithLoopsAndSameBitsOnTwoThreads) {
  DialectRegistry registry;
  registerAllDialectsAndExtensions(registry);
  registerAmpPassesAndPipelines();
  MLIRContext ctx(registry);
  Precision precision = GetParam();
  Compiled loops, gemm, gemm2;
  ASSERT_TRUE(compile(ctx, precision, /*asGemm=*/false, 1, loops));
  ASSERT_TRUE(compile(ctx, precision, /*asGemm=*/true, 1, gemm));
  ASSERT_TRUE(compile(ctx, precision, /*asGemm=*/true, 2, gemm2));
  // f32: sums of <= 324 products in another order; bf16: the same, with the
  // f32 results rounded to bf16 (8 bits) where the step keeps them, so a
  // tie can round the other way (one bf16 ulp, 2^-8 relative).
  double tolerance = precision == Precision::F32 ? 1e-5 : 1e-2;
  constexpr int kSteps = 3;
  for (int s = 0; s < kSteps; ++s) {
    for (Compiled *c : {&loops, &gemm, &gemm2}) {
      fillRandomBatch(*c->step, s);
      llvm::Error err = c->step->run();
      ASSERT_FALSE(err) << llvm::toString(std::move(err));
    }
    ASSERT_EQ(loops.step->numResults(), gemm.step->numResults());
    for (size_t r = 0; r < loops.step->numResults(); ++r) {
      const HostTensor &a = loops.step->result(r).host();
      const HostTensor &b = gemm.step->result(r).host();
      const HostTensor &b2 = gemm2.step->result(r).host();
      ASSERT_EQ(a.sizeInBytes(), b.sizeInBytes());
      ASSERT_EQ(0, std::memcmp(b.data(), b2.data(), b.sizeInBytes()))
          << "step " << s + 1 << ": result #" << r
          << " differs between threads=1 and threads=2";
      if (a.sizeInBytes() % sizeof(float) != 0)
        continue;
      // Relative to the result's largest element (cancellation makes
      // elementwise relative errors meaningless near zero).
      size_t n = a.sizeInBytes() / sizeof(float);
      double scale = 0, worst = 0;
      for (size_t i = 0; i < n; ++i)
        scale = std::max(scale, std::fabs(double(a.as<float>()[i])));
      for (size_t i = 0; i < n; ++i)
        worst = std::max(worst, std::fabs(double(a.as<float>()[i]) -
                                          double(b.as<float>()[i])));
      EXPECT_LE(worst, tolerance * std::max(scale, 1e-30))
          << "step " << s + 1 << ": result #" << r << " (" << n
          << " elements): conv-gemm off and on differ by " << worst
          << ", largest element " << scale;
    }
    for (Compiled *c : {&loops, &gemm, &gemm2})
      c->step->carry();
  }
}

INSTANTIATE_TEST_SUITE_P(Precisions, ConvolutionsAsGemm,
                         ::testing::Values(Precision::F32, Precision::BF16),
                         [](const ::testing::TestParamInfo<Precision> &info) {
                           return std::string(stringifyPrecision(info.param));
                         });

} // namespace
