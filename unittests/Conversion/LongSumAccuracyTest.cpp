//===- LongSumAccuracyTest.cpp - long f32 sums lowered accurately ---------===//
//
// Sums over millions of f32 terms, lowered by amp-lower-to-llvm (which runs
// amp-split-long-sums) and run: the result must match a long double
// reference to the error of a blocked sum (about 2 sqrt(n) 2^-24 in the
// worst case, far less on average), not of one running f32 accumulator
// (0.7% off for an mse over 8.4M elements before the split). Terms are all
// positive, the worst case for a running sum. Measured: at most 1.1e-6
// relative with the split; without it 7.9e-3 (the mse), 2.1e-5 (the
// per-channel sums) and 2.7e-5 (the weight gradient), so the 4e-6 bound
// fails on the unsplit lowering. Each sum also runs on one and on two
// threads, which must give the same bits: the blocks depend on the shapes
// only. The cases cover the forms the split meets: a full reduction to a
// scalar (a loss), a per-channel sum over (n, h, w) (a bias gradient,
// batch-norm statistics), a convolution's weight gradient (the split loop
// inside window expressions) and a body that reads linalg.index of the
// split loop.
//
//===----------------------------------------------------------------------===//

#include "amp/InitAll.h"
#include "amp/Runtime/JitModule.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

#include <cmath>
#include <memory>
#include <random>
#include <string>
#include <vector>

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::runtime;

namespace {

/// Compiles `source`'s @f on `threads` threads and runs it on `args` (f32,
/// row-major), returning its f32 result of `resultShape`.
std::vector<float> run(const std::string &source, unsigned threads,
                       const std::vector<std::vector<float>> &args,
                       const std::vector<std::vector<int64_t>> &argShapes,
                       const std::vector<int64_t> &resultShape) {
  DialectRegistry registry;
  registerAllDialectsAndExtensions(registry);
  MLIRContext context(registry);
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(source, ParserConfig(&context));
  if (!module) {
    ADD_FAILURE() << "parse error";
    return {};
  }
  LowerToLLVMConfig lowering;
  lowering.threads = threads;
  auto jit = JitModule::compile(*module, {"f"}, lowering);
  if (!jit) {
    ADD_FAILURE() << llvm::toString(jit.takeError());
    return {};
  }
  std::vector<std::unique_ptr<HostTensor>> buffers;
  std::vector<HostTensor *> pointers;
  for (auto [values, shape] : llvm::zip_equal(args, argShapes)) {
    buffers.push_back(std::make_unique<HostTensor>(TensorSpec{shape}));
    std::copy(values.begin(), values.end(), buffers.back()->as<float>());
    pointers.push_back(buffers.back().get());
  }
  buffers.push_back(std::make_unique<HostTensor>(TensorSpec{resultShape}));
  pointers.push_back(buffers.back().get());
  if (llvm::Error err = (*jit)->invoke("f", pointers)) {
    ADD_FAILURE() << llvm::toString(std::move(err));
    return {};
  }
  const float *out = buffers.back()->as<float>();
  return std::vector<float>(out, out + buffers.back()->spec().numElements());
}

std::vector<float> uniform(int64_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(0.0f, 1.0f);
  std::vector<float> values(n);
  for (float &v : values)
    v = dist(gen);
  return values;
}

/// Runs @f on 1 and 2 threads: the same bits, and every element within
/// `tolerance` relative of `reference`.
void expectAccurate(const std::string &source,
                    const std::vector<std::vector<float>> &args,
                    const std::vector<std::vector<int64_t>> &argShapes,
                    const std::vector<int64_t> &resultShape,
                    const std::vector<long double> &reference,
                    double tolerance = 4e-6) {
  std::vector<float> one = run(source, 1, args, argShapes, resultShape);
  std::vector<float> two = run(source, 2, args, argShapes, resultShape);
  ASSERT_EQ(one.size(), reference.size());
  ASSERT_EQ(two.size(), reference.size());
  for (size_t i = 0; i < one.size(); ++i) {
    EXPECT_EQ(std::memcmp(&one[i], &two[i], sizeof(float)), 0)
        << "element " << i << ": " << one[i] << " on one thread, " << two[i]
        << " on two";
    double error =
        std::fabs(static_cast<double>((one[i] - reference[i]) / reference[i]));
    EXPECT_LT(error, tolerance) << "element " << i << ": " << one[i] << " vs "
                                << static_cast<double>(reference[i]);
  }
}

TEST(LongSumAccuracy, MeanSquareOverEightMillionElements) {
  // torch-mlir's mse: sum of d^2 * (1/N), term by term.
  constexpr int64_t n = 4 * 2 * 1048576;
  std::string source = R"(
#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#scalar = affine_map<(d0, d1, d2) -> ()>
func.func @f(%x: tensor<4x2x1048576xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %inv = arith.constant 1.1920928955078125e-07 : f32
  %e = tensor.empty() : tensor<f32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %r = linalg.generic {indexing_maps = [#id, #scalar],
      iterator_types = ["reduction", "reduction", "reduction"]}
      ins(%x : tensor<4x2x1048576xf32>) outs(%init : tensor<f32>) {
  ^bb0(%a: f32, %acc: f32):
    %sq = arith.mulf %a, %a : f32
    %t = arith.mulf %sq, %inv : f32
    %s = arith.addf %acc, %t : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  return %r : tensor<f32>
})";
  std::vector<float> x = uniform(n, 1);
  long double sum = 0;
  for (float v : x)
    sum += static_cast<long double>(v * v * 1.1920928955078125e-07f);
  expectAccurate(source, {x}, {{4, 2, 1048576}}, {}, {sum});
}

TEST(LongSumAccuracy, PerChannelSumOverBatchAndImage) {
  // A bias gradient: sum over (n, h, w) for each of 4 channels, 802816
  // terms each.
  std::string source = R"(
#in = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#out = affine_map<(d0, d1, d2, d3) -> (d1)>
func.func @f(%dy: tensor<64x4x112x112xf32>) -> tensor<4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %r = linalg.generic {indexing_maps = [#in, #out],
      iterator_types = ["reduction", "parallel", "reduction", "reduction"]}
      ins(%dy : tensor<64x4x112x112xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %acc, %a : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
})";
  std::vector<float> dy = uniform(64 * 4 * 112 * 112, 2);
  std::vector<long double> sums(4, 0);
  for (int64_t i = 0; i < static_cast<int64_t>(dy.size()); ++i)
    sums[(i / (112 * 112)) % 4] += dy[i];
  expectAccurate(source, {dy}, {{64, 4, 112, 112}}, {4}, sums);
}

TEST(LongSumAccuracy, ConvolutionWeightGradientWindows) {
  // dW[kh, kw] = sum over (n, oh, ow) of dy[n, oh, ow] * x[n, oh + kh,
  // ow + kw]: the reduction loops appear in window expressions.
  std::string source = R"(
#x = affine_map<(d0, d1, d2, d3, d4) -> (d2, d3 + d0, d4 + d1)>
#dy = affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4)>
#dw = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>
func.func @f(%x: tensor<16x130x130xf32>, %dy: tensor<16x128x128xf32>)
    -> tensor<3x3xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x3xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<3x3xf32>) -> tensor<3x3xf32>
  %r = linalg.generic {indexing_maps = [#x, #dy, #dw],
      iterator_types = ["parallel", "parallel", "reduction", "reduction",
                        "reduction"]}
      ins(%x, %dy : tensor<16x130x130xf32>, tensor<16x128x128xf32>)
      outs(%init : tensor<3x3xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<3x3xf32>
  return %r : tensor<3x3xf32>
})";
  std::vector<float> x = uniform(16 * 130 * 130, 3);
  std::vector<float> dy = uniform(16 * 128 * 128, 4);
  std::vector<long double> dw(9, 0);
  for (int kh = 0; kh < 3; ++kh)
    for (int kw = 0; kw < 3; ++kw)
      for (int n = 0; n < 16; ++n)
        for (int oh = 0; oh < 128; ++oh)
          for (int ow = 0; ow < 128; ++ow)
            dw[kh * 3 + kw] += static_cast<long double>(
                x[(n * 130 + oh + kh) * 130 + ow + kw] *
                dy[(n * 128 + oh) * 128 + ow]);
  expectAccurate(source, {x, dy}, {{16, 130, 130}, {16, 128, 128}}, {3, 3}, dw);
}

TEST(LongSumAccuracy, BodyReadsTheSplitLoopsIndex) {
  // sum over i of x[i] * (i mod 3): the index of the split loop must stay
  // the element's own.
  constexpr int64_t n = 1 << 20;
  std::string source = R"(
#id = affine_map<(d0) -> (d0)>
#scalar = affine_map<(d0) -> ()>
func.func @f(%x: tensor<1048576xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %c3 = arith.constant 3 : index
  %e = tensor.empty() : tensor<f32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %r = linalg.generic {indexing_maps = [#id, #scalar],
      iterator_types = ["reduction"]}
      ins(%x : tensor<1048576xf32>) outs(%init : tensor<f32>) {
  ^bb0(%a: f32, %acc: f32):
    %i = linalg.index 0 : index
    %m = arith.remui %i, %c3 : index
    %mi = arith.index_cast %m : index to i32
    %mf = arith.sitofp %mi : i32 to f32
    %t = arith.mulf %a, %mf : f32
    %s = arith.addf %acc, %t : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  return %r : tensor<f32>
})";
  std::vector<float> x = uniform(n, 5);
  long double sum = 0;
  for (int64_t i = 0; i < n; ++i)
    sum += static_cast<long double>(x[i] * static_cast<float>(i % 3));
  expectAccurate(source, {x}, {{n}}, {}, {sum});
}

} // namespace
