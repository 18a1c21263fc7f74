//===- AutocastExecutionTest.cpp - amp-autocast, executed -----------------===//
//
// Compiles small forward functions twice, fp32 and after `amp-autocast`
// (f16), lowers both with amp-lower-to-llvm, runs them on the CPU (JIT) and
// compares. Two groups:
//  - the fp16 failure modes of shared REFERENCE.md ("Failure modes users
//    hit"), each on inputs that trigger it: the autocast result must be
//    finite and within a stated tolerance of fp32;
//  - the three forward models of examples/models/ (MLP, CNN, transformer
//    block): relative error max|f16 - f32| / max|f32| within a stated bound
//    (the measured figures are printed and quoted in docs/autocast.md).
//
//===----------------------------------------------------------------------===//

#include "amp/InitAll.h"
#include "amp/Runtime/HostTensor.h"
#include "amp/Runtime/JitModule.h"
#include "amp/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::runtime;

namespace {

using Fill = std::function<float(unsigned arg, int64_t index)>;

/// Runs `@forward` of `source` (optionally after amp-autocast) on inputs
/// given by `fill` and returns the f32 elements of its single result.
std::vector<float> runForward(const std::string &source, bool autocast,
                              const Fill &fill,
                              const std::string &precision = "f16") {
  DialectRegistry registry;
  registerAllDialectsAndExtensions(registry);
  MLIRContext ctx(registry);
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(source, &ctx);
  if (!module) {
    ADD_FAILURE() << "cannot parse the model";
    return {};
  }
  if (autocast) {
    PassManager pm(&ctx);
    AutocastOptions options;
    options.precision = *parsePrecision(precision);
    pm.addPass(createAutocast(options));
    if (failed(pm.run(*module))) {
      ADD_FAILURE() << "amp-autocast failed";
      return {};
    }
  }
  auto fn = module->lookupSymbol<func::FuncOp>("forward");
  if (!fn || fn.getNumResults() != 1) {
    ADD_FAILURE() << "no @forward with one result";
    return {};
  }
  std::vector<std::unique_ptr<HostTensor>> buffers;
  for (Type t : fn.getArgumentTypes()) {
    auto spec = TensorSpec::fromType(t);
    if (!spec) {
      ADD_FAILURE() << llvm::toString(spec.takeError());
      return {};
    }
    buffers.push_back(std::make_unique<HostTensor>(*spec));
    HostTensor &b = *buffers.back();
    for (int64_t i = 0; i < b.spec().numElements(); ++i)
      b.as<float>()[i] = fill(buffers.size() - 1, i);
  }
  auto spec = TensorSpec::fromType(fn.getResultTypes()[0]);
  if (!spec) {
    ADD_FAILURE() << llvm::toString(spec.takeError());
    return {};
  }
  buffers.push_back(std::make_unique<HostTensor>(*spec));
  auto jit = JitModule::compile(*module, {"forward"});
  if (!jit) {
    ADD_FAILURE() << llvm::toString(jit.takeError());
    return {};
  }
  std::vector<HostTensor *> raw;
  for (auto &b : buffers)
    raw.push_back(b.get());
  if (llvm::Error err = (*jit)->invoke("forward", raw)) {
    ADD_FAILURE() << llvm::toString(std::move(err));
    return {};
  }
  HostTensor &out = *buffers.back();
  return std::vector<float>(out.as<float>(),
                            out.as<float>() + out.spec().numElements());
}

struct Comparison {
  bool finite = true;
  double maxAbsErr = 0, maxRef = 0;
  double relErr() const { return maxRef == 0 ? maxAbsErr : maxAbsErr / maxRef; }
};

/// Runs fp32 and autocast and compares element by element.
Comparison compareWithF32(const std::string &source, const Fill &fill,
                          std::vector<float> *f16Out = nullptr,
                          const std::string &precision = "f16") {
  std::vector<float> ref = runForward(source, false, fill);
  std::vector<float> low = runForward(source, true, fill, precision);
  Comparison c;
  EXPECT_EQ(ref.size(), low.size());
  for (size_t i = 0; i < ref.size() && i < low.size(); ++i) {
    c.finite &= std::isfinite(low[i]);
    c.maxAbsErr = std::max(c.maxAbsErr, double(std::fabs(low[i] - ref[i])));
    c.maxRef = std::max(c.maxRef, double(std::fabs(ref[i])));
  }
  if (f16Out)
    *f16Out = low;
  return c;
}

/// A deterministic pseudo-random value in [-1, 1) (64-bit LCG).
float uniform(uint64_t seed) {
  seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
  seed ^= seed >> 33;
  seed *= 0xff51afd7ed558ccdULL;
  seed ^= seed >> 33;
  return float(double(seed >> 11) / double(1ULL << 53) * 2.0 - 1.0);
}

//===----------------------------------------------------------------------===//
// Failure modes (REFERENCE.md)
//===----------------------------------------------------------------------===//

// Matmul accumulation: 4096 products 1 * 1. Accumulated in f16 the sum
// stalls at 2048 (2048 + 1 rounds to 2048); with f32 accumulation of f16
// inputs it is exactly 4096.
TEST(AutocastExecution, MatmulAccumulatesInF32) {
  const std::string src = R"mlir(
func.func @forward(%a: tensor<2x4096xf32>, %b: tensor<4096x2xf32>) -> tensor<2x2xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x2xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x2xf32>) -> tensor<2x2xf32>
  %r = linalg.matmul ins(%a, %b : tensor<2x4096xf32>, tensor<4096x2xf32>) outs(%f : tensor<2x2xf32>) -> tensor<2x2xf32>
  return %r : tensor<2x2xf32>
})mlir";
  std::vector<float> out;
  Comparison c =
      compareWithF32(src, [](unsigned, int64_t) { return 1.0f; }, &out);
  EXPECT_TRUE(c.finite);
  for (float v : out)
    EXPECT_EQ(v, 4096.0f);
}

// A mean over 65520 ones: in f16 the sum is inf (65520 rounds to inf) and
// the mean NaN/inf. The reduction is deny: it accumulates and divides in
// f32, even though its input comes out of an f16 matmul.
TEST(AutocastExecution, MeanOf65520OnesIsOne) {
  const std::string src = R"mlir(
func.func @forward(%a: tensor<65520x1xf32>, %b: tensor<1x1xf32>) -> tensor<1xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<65520x1xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<65520x1xf32>) -> tensor<65520x1xf32>
  %ones = linalg.matmul ins(%a, %b : tensor<65520x1xf32>, tensor<1x1xf32>) outs(%f : tensor<65520x1xf32>) -> tensor<65520x1xf32>
  %e1 = tensor.empty() : tensor<1xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1xf32>) -> tensor<1xf32>
  %mean = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>],
                          iterator_types = ["reduction", "parallel"]}
      ins(%ones : tensor<65520x1xf32>) outs(%s0 : tensor<1xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %inv = arith.constant 1.52625153e-05 : f32
    %t = arith.mulf %x, %inv : f32
    %r = arith.addf %t, %acc : f32
    linalg.yield %r : f32
  } -> tensor<1xf32>
  return %mean : tensor<1xf32>
})mlir";
  std::vector<float> out;
  Comparison c =
      compareWithF32(src, [](unsigned, int64_t) { return 1.0f; }, &out);
  EXPECT_TRUE(c.finite);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_NEAR(out[0], 1.0f, 1e-3f); // f32 itself: 0.9998
  EXPECT_LE(c.relErr(), 1e-6);
}

// Layer-norm whose variance exceeds 65504: rows of +-1000 around 0 out of a
// matmul; (x - mean)^2 = 1e6 overflows f16. Statistics stay f32.
TEST(AutocastExecution, LayerNormLargeVariance) {
  const std::string src = R"mlir(
#id2 = affine_map<(i, j) -> (i, j)>
#rows = affine_map<(i, j) -> (i)>
func.func @forward(%a: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> tensor<4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %x = linalg.matmul ins(%a, %w : tensor<4x8xf32>, tensor<8x8xf32>) outs(%f : tensor<4x8xf32>) -> tensor<4x8xf32>
  %e4 = tensor.empty() : tensor<4xf32>
  %z4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<4xf32>) -> tensor<4xf32>
  %s = linalg.generic {indexing_maps = [#id2, #rows], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x8xf32>) outs(%z4 : tensor<4xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %r = arith.addf %v, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %mean = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%s : tensor<4xf32>) outs(%e4 : tensor<4xf32>) {
  ^bb0(%v: f32, %o: f32):
    %n = arith.constant 8.0 : f32
    %r = arith.divf %v, %n : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %d = linalg.generic {indexing_maps = [#id2, #rows, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %mean : tensor<4x8xf32>, tensor<4xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%v: f32, %m: f32, %o: f32):
    %r = arith.subf %v, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %sq = linalg.generic {indexing_maps = [#id2, #rows], iterator_types = ["parallel", "reduction"]}
      ins(%d : tensor<4x8xf32>) outs(%z4 : tensor<4xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %p = arith.mulf %v, %v : f32
    %r = arith.addf %p, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %y = linalg.generic {indexing_maps = [#id2, #rows, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%d, %sq : tensor<4x8xf32>, tensor<4xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%v: f32, %q: f32, %o: f32):
    %n = arith.constant 8.0 : f32
    %eps = arith.constant 1.0e-5 : f32
    %var = arith.divf %q, %n : f32
    %ve = arith.addf %var, %eps : f32
    %rs = math.rsqrt %ve : f32
    %r = arith.mulf %v, %rs : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
})mlir";
  // a: identity rows scaled by 1000, w: +-1 pattern -> x rows of +-1000.
  Fill fill = [](unsigned arg, int64_t i) -> float {
    if (arg == 0)
      return (i / 8 == i % 8 % 4) ? 1000.0f : 0.0f;
    return ((i / 8 + i % 8) % 2) ? 1.0f : -1.0f;
  };
  std::vector<float> out;
  Comparison c = compareWithF32(src, fill, &out);
  EXPECT_TRUE(c.finite);
  EXPECT_GT(c.maxRef, 0.5);
  EXPECT_LE(c.relErr(), 2e-3) << "max abs err " << c.maxAbsErr;
}

// A mask of -65504 added to attention scores before softmax, one row fully
// masked: in f16 -65504 + (-16) is -inf and the masked row becomes NaN.
// The mask add feeds a deny op (softmax) and stays f32.
TEST(AutocastExecution, MaskedSoftmaxStaysFinite) {
  const std::string src = R"mlir(
#id2 = affine_map<(i, j) -> (i, j)>
func.func @forward(%q: tensor<4x8xf32>, %k: tensor<8x4xf32>, %mask: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %s = linalg.matmul ins(%q, %k : tensor<4x8xf32>, tensor<8x4xf32>) outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
  %m = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%s, %mask : tensor<4x4xf32>, tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<4x4xf32>
  %p = linalg.softmax dimension(1) ins(%m : tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %p : tensor<4x4xf32>
})mlir";
  Fill fill = [](unsigned arg, int64_t i) -> float {
    if (arg == 0)
      return -2.0f; // q
    if (arg == 1)
      return 1.0f + 0.125f * float(i % 4); // k: scores -16 - 2j
    // Row 0 fully masked, other rows mask the upper triangle.
    int64_t r = i / 4, col = i % 4;
    return (r == 0 || col > r) ? -65504.0f : 0.0f;
  };
  std::vector<float> out;
  Comparison c = compareWithF32(src, fill, &out);
  EXPECT_TRUE(c.finite);
  EXPECT_LE(c.maxAbsErr, 1e-3);
  float row0 = out[0] + out[1] + out[2] + out[3];
  EXPECT_NEAR(row0, 1.0f, 1e-5f);
}

// Softmax over 4096 equal logits: in f16 the denominator stalls (adding 1
// to 2048 does nothing) and the row no longer sums to 1.
TEST(AutocastExecution, SoftmaxOver4096EqualLogits) {
  const std::string src = R"mlir(
func.func @forward(%a: tensor<1x16xf32>, %w: tensor<16x4096xf32>) -> tensor<1x4096xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4096xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4096xf32>) -> tensor<1x4096xf32>
  %l = linalg.matmul ins(%a, %w : tensor<1x16xf32>, tensor<16x4096xf32>) outs(%f : tensor<1x4096xf32>) -> tensor<1x4096xf32>
  %p = linalg.softmax dimension(1) ins(%l : tensor<1x4096xf32>) outs(%e : tensor<1x4096xf32>) -> tensor<1x4096xf32>
  return %p : tensor<1x4096xf32>
})mlir";
  std::vector<float> out;
  Comparison c =
      compareWithF32(src, [](unsigned, int64_t) { return 0.5f; }, &out);
  EXPECT_TRUE(c.finite);
  double sum = 0;
  for (float v : out)
    sum += v;
  EXPECT_NEAR(sum, 1.0, 1e-4);
  EXPECT_LE(c.relErr(), 1e-5);
}

// An activation above 65504 (72000, out of an f16 matmul with f32
// accumulation) feeding exp(x - 72000): the matmul result stays f32 because
// its consumers are f32; in f16 it would be inf and exp(inf - 72000) inf.
TEST(AutocastExecution, LargeActivationFeedingExp) {
  const std::string src = R"mlir(
#id2 = affine_map<(i, j) -> (i, j)>
func.func @forward(%a: tensor<2x8xf32>, %w: tensor<8x2xf32>) -> tensor<2x2xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x2xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x2xf32>) -> tensor<2x2xf32>
  %h = linalg.matmul ins(%a, %w : tensor<2x8xf32>, tensor<8x2xf32>) outs(%f : tensor<2x2xf32>) -> tensor<2x2xf32>
  %y = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%h : tensor<2x2xf32>) outs(%e : tensor<2x2xf32>) {
  ^bb0(%v: f32, %o: f32):
    %c = arith.constant 72000.0 : f32
    %d = arith.subf %v, %c : f32
    %r = math.exp %d : f32
    linalg.yield %r : f32
  } -> tensor<2x2xf32>
  return %y : tensor<2x2xf32>
})mlir";
  // 8 products of 9000 * 1 = 72000 (9000 is exact in f16: spacing 8).
  std::vector<float> out;
  Comparison c = compareWithF32(
      src, [](unsigned arg, int64_t) { return arg == 0 ? 9000.0f : 1.0f; },
      &out);
  EXPECT_TRUE(c.finite);
  EXPECT_LE(c.maxAbsErr, 0.0) << "f16 " << out[0] << " vs max f32 " << c.maxRef;
  for (float v : out)
    EXPECT_NEAR(v, 1.0f, 1e-6f);
}

//===----------------------------------------------------------------------===//
// Models (examples/models)
//===----------------------------------------------------------------------===//

std::string readModel(const std::string &name) {
  std::string path = std::string(AMP_SOURCE_DIR) + "/examples/models/" + name;
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer) {
    ADD_FAILURE() << "cannot read " << path;
    return {};
  }
  return (*buffer)->getBuffer().str();
}

/// Inputs in [-1, 1); weights (every argument after the first) scaled by
/// 1/sqrt(8) so activations stay O(1); a transformer mask argument (#1)
/// masks the upper triangle with -65504 (causal).
Fill modelInputs(bool causalMaskArg1, int64_t maskWidth) {
  return [=](unsigned arg, int64_t i) -> float {
    if (causalMaskArg1 && arg == 1)
      return (i % maskWidth > i / maskWidth) ? -65504.0f : 0.0f;
    float u = uniform(uint64_t(arg) * 1000003ULL + uint64_t(i));
    return arg == 0 ? u : u * 0.35f;
  };
}

/// Stated tolerance of the models: relative error max|f16 - f32| /
/// max|f32| <= 1e-2 (f16 unit roundoff 2^-11 ~ 4.9e-4 per rounding, a few
/// roundings per layer).
constexpr double kModelTolerance = 1e-2;

void checkModel(const std::string &name, bool causal, int64_t maskWidth) {
  std::string src = readModel(name);
  ASSERT_FALSE(src.empty());
  Comparison c = compareWithF32(src, modelInputs(causal, maskWidth));
  EXPECT_TRUE(c.finite);
  EXPECT_GT(c.maxRef, 0.0);
  std::printf("[ model    ] %s: relative error f16 autocast vs fp32 = %.3e "
              "(max |f32| %.3f)\n",
              name.c_str(), c.relErr(), c.maxRef);
  EXPECT_LE(c.relErr(), kModelTolerance);
}

TEST(AutocastExecution, ModelMLP) { checkModel("mlp.mlir", false, 0); }
TEST(AutocastExecution, ModelCNN) { checkModel("cnn.mlir", false, 0); }
TEST(AutocastExecution, ModelTransformer) {
  checkModel("transformer.mlir", true, 16);
}

//===----------------------------------------------------------------------===//
// TOSA and torch-mlir weights
//===----------------------------------------------------------------------===//

// An f16 x f16 -> f32 tosa.matmul (what autocast makes of an f32 one) lowers
// through tosa-to-linalg-named and runs: 512 products 1 * 1 sum to exactly
// 512 (f32 accumulation; in f16 the sum would still be exact up to 2048, so
// the next test checks against fp32 on random values too).
TEST(AutocastExecution, TosaMatmulLowersInF16) {
  const std::string src = R"mlir(
func.func @forward(%a: tensor<1x4x512xf32>, %b: tensor<1x512x2xf32>) -> tensor<1x4x2xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %m = tosa.matmul %a, %b, %zp, %zp : (tensor<1x4x512xf32>, tensor<1x512x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x2xf32>
  return %m : tensor<1x4x2xf32>
})mlir";
  std::vector<float> out;
  Comparison c =
      compareWithF32(src, [](unsigned, int64_t) { return 1.0f; }, &out);
  EXPECT_TRUE(c.finite);
  ASSERT_EQ(out.size(), 8u);
  for (float v : out)
    EXPECT_EQ(v, 512.0f);
}

// The TOSA block of test/Transforms/autocast-tosa.mlir (matmul, bias add,
// clamp, matmul, exp, reduce_sum) on random inputs: autocast f16 against
// fp32 within the models' tolerance.
TEST(AutocastExecution, TosaBlockMatchesF32) {
  const std::string src = R"mlir(
func.func @forward(%a: tensor<1x4x8xf32>, %b: tensor<1x8x4xf32>, %bias: tensor<1x4x4xf32>, %w2: tensor<1x4x4xf32>) -> tensor<1x4x1xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %m = tosa.matmul %a, %b, %zp, %zp : (tensor<1x4x8xf32>, tensor<1x8x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4xf32>
  %s = tosa.add %m, %bias : (tensor<1x4x4xf32>, tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  %r = tosa.clamp %s {min_val = 0.0 : f32, max_val = 3.4028235e38 : f32} : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  %m2 = tosa.matmul %r, %w2, %zp, %zp : (tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4xf32>
  %e = tosa.exp %m2 : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<1x4x4xf32>) -> tensor<1x4x1xf32>
  return %sum : tensor<1x4x1xf32>
})mlir";
  Comparison c = compareWithF32(src, modelInputs(false, 0));
  EXPECT_TRUE(c.finite);
  EXPECT_GT(c.maxRef, 0.0);
  std::printf("[ tosa     ] relative error f16 autocast vs fp32 = %.3e\n",
              c.relErr());
  EXPECT_LE(c.relErr(), kModelTolerance);
}

/// The `dialect_resources` hex of `values` in `type`'s element type
/// (f32/f16/bf16 bit patterns given as uint32/uint16): the alignment as a
/// little-endian uint32, then the little-endian data, as torch-mlir writes
/// it.
template <typename Bits>
std::string resourceHex(const std::vector<Bits> &values) {
  std::string hex = "0x";
  auto byte = [&](unsigned b) {
    const char *digits = "0123456789ABCDEF";
    hex += digits[b >> 4];
    hex += digits[b & 15];
  };
  for (unsigned i = 0; i < 4; ++i)
    byte(i == 0 ? sizeof(Bits) : 0);
  for (Bits v : values)
    for (unsigned i = 0; i < sizeof(Bits); ++i)
      byte((v >> (8 * i)) & 0xff);
  return hex;
}

uint32_t f32Bits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}

// torch-mlir's weights: a linear layer x * W with W an `arith.constant
// dense_resource` blob of 64 x 16 random f32 values. The f32 model and its
// f16 and bf16 autocasts (new 16-bit blobs) lower and run; they agree
// within tolerance (and the f32 run equals a direct product in double).
TEST(AutocastExecution, ResourceWeightsMatchF32) {
  constexpr int kIn = 64, kOut = 16, kBatch = 4;
  std::vector<uint32_t> bits;
  std::vector<float> w;
  for (int i = 0; i < kIn * kOut; ++i) {
    w.push_back(uniform(7777 + i) * 0.25f);
    bits.push_back(f32Bits(w.back()));
  }
  std::string src = R"mlir(
func.func @forward(%x: tensor<4x64xf32>) -> tensor<4x16xf32> {
  %w = arith.constant dense_resource<fc_weight> : tensor<64x16xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %r = linalg.matmul ins(%x, %w : tensor<4x64xf32>, tensor<64x16xf32>) outs(%f : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}
{-#
  dialect_resources: {
    builtin: {
      fc_weight: ")mlir" +
                    resourceHex(bits) + R"mlir("
    }
  }
#-}
)mlir";
  Fill x = [](unsigned, int64_t i) { return uniform(31 + i); };
  std::vector<float> ref = runForward(src, false, x);
  ASSERT_EQ(ref.size(), size_t(kBatch * kOut));
  for (int b = 0; b < kBatch; ++b)
    for (int j = 0; j < kOut; ++j) {
      double sum = 0;
      for (int k = 0; k < kIn; ++k)
        sum += double(x(0, b * kIn + k)) * double(w[k * kOut + j]);
      EXPECT_NEAR(ref[b * kOut + j], sum, 1e-5) << b << ", " << j;
    }
  for (const char *precision : {"f16", "bf16"}) {
    Comparison c = compareWithF32(src, x, nullptr, precision);
    EXPECT_TRUE(c.finite) << precision;
    std::printf("[ resource ] relative error %s autocast vs fp32 = %.3e\n",
                precision, c.relErr());
    // bf16: 8 bits of mantissa (unit roundoff 2^-8), f16: 11.
    EXPECT_LE(c.relErr(),
              std::string(precision) == "bf16" ? 3e-2 : kModelTolerance)
        << precision;
    EXPECT_GT(c.maxAbsErr, 0.0) << precision << " really ran in low precision";
  }
}

} // namespace
