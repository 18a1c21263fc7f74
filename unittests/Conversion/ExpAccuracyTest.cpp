//===- ExpAccuracyTest.cpp - f32 exp lowered by amp-lower-to-llvm ---------===//
//
// amp-lower-to-llvm computes f32 `math.exp` as upstream's polynomial
// (amp-cpu-polynomial-exp, on by default) instead of libm's expf. Its
// contract (CPU/Passes.td), checked here over every 251st f32 bit pattern
// of both signs (17.1M inputs, every exponent) and the edge cases:
//   - normal results within 2 ulp of exp computed in double and rounded to
//     f32 (measured: at most 1 ulp), 8 ulp for x in (88.376, 88.7228]
//     where 2^n would overflow and the approximation clamps n (measured:
//     5 here, 6 in a dense sweep of that range);
//   - results below 2^-126 (x < -87.34) are in [0, 2^-126) (flushed to 0
//     from x < -87.65, subnormal approximations above);
//   - overflow: +inf where exp overflows f32; exp(+inf) = +inf,
//     exp(-inf) = 0;
//   - NaN in, the same NaN out (bits and payload).
// Both forms the lowering produces are run: a long row (LLVM's loop
// vectorizer) and a softmax's row of 28 (amp-cpu-vectorize-rows: vectors
// of 16 and 12); they must give the same bits. With polynomial-exp=false
// the same inputs go through libm, within 1 ulp.
//
//===----------------------------------------------------------------------===//

#include "AccuracyHarness.h"

#include "amp/InitAll.h"
#include "amp/Runtime/JitModule.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <vector>

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::runtime;
using namespace amp_test;

namespace {

constexpr int64_t kRow = 28;

/// @long: y = exp(x) over one row of n; @rows: y[i, j] = exp(x[i, j] -
/// m[i]) over rows of 28 (a softmax's numerator; m is zeros here).
std::string source(int64_t n) {
  std::string rows = std::to_string(n / kRow);
  std::string all = std::to_string(n);
  return R"(
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @long(%x: tensor<)" +
         all + R"(xf32>) -> tensor<)" + all + R"(xf32> {
  %e = tensor.empty() : tensor<)" +
         all + R"(xf32>
  %y = linalg.generic {indexing_maps = [#id1, #id1],
      iterator_types = ["parallel"]}
      ins(%x : tensor<)" +
         all + R"(xf32>) outs(%e : tensor<)" + all + R"(xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = math.exp %a : f32
    linalg.yield %r : f32
  } -> tensor<)" +
         all + R"(xf32>
  return %y : tensor<)" +
         all + R"(xf32>
}
func.func @rows(%x: tensor<)" +
         rows + R"(x28xf32>, %m: tensor<)" + rows + R"(xf32>)
    -> tensor<)" +
         rows + R"(x28xf32> {
  %e = tensor.empty() : tensor<)" +
         rows + R"(x28xf32>
  %y = linalg.generic {indexing_maps = [#id2, #row, #id2],
      iterator_types = ["parallel", "parallel"]}
      ins(%x, %m : tensor<)" +
         rows + R"(x28xf32>, tensor<)" + rows + R"(xf32>)
      outs(%e : tensor<)" +
         rows + R"(x28xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %d = arith.subf %a, %b : f32
    %r = math.exp %d : f32
    linalg.yield %r : f32
  } -> tensor<)" +
         rows + R"(x28xf32>
  return %y : tensor<)" +
         rows + R"(x28xf32>
})";
}

/// exp of `x` by @long and by @rows, compiled with `polynomialExp`.
struct Results {
  std::vector<float> longRow, rows;
};

Results run(const std::vector<float> &x, bool polynomialExp) {
  int64_t n = static_cast<int64_t>(x.size());
  LowerToLLVMConfig lowering;
  lowering.threads = 1;
  lowering.polynomialExp = polynomialExp;
  std::unique_ptr<JitModule> jit =
      compileForTest(source(n), {"long", "rows"}, lowering);
  if (!jit)
    return {};
  auto tensor = [](std::vector<int64_t> shape) {
    return std::make_unique<HostTensor>(TensorSpec{std::move(shape)});
  };
  Results results;
  auto in = tensor({n}), out = tensor({n});
  std::memcpy(in->as<float>(), x.data(), n * sizeof(float));
  if (llvm::Error err = jit->invoke("long", {in.get(), out.get()})) {
    ADD_FAILURE() << llvm::toString(std::move(err));
    return {};
  }
  results.longRow.assign(out->as<float>(), out->as<float>() + n);
  auto in2 = tensor({n / kRow, kRow}), m = tensor({n / kRow}),
       out2 = tensor({n / kRow, kRow});
  std::memcpy(in2->as<float>(), x.data(), n * sizeof(float));
  std::fill_n(m->as<float>(), n / kRow, 0.0f);
  if (llvm::Error err = jit->invoke("rows", {in2.get(), m.get(), out2.get()})) {
    ADD_FAILURE() << llvm::toString(std::move(err));
    return {};
  }
  results.rows.assign(out2->as<float>(), out2->as<float>() + n);
  return results;
}

/// Every 251st bit pattern (both signs, NaNs included), the specials and
/// the edges.
std::vector<float> inputs() {
  return sweepWithEdges({1.0f, -1.0f, 88.7228394f, 88.72284f, 88.7228f, 88.8f,
                         -87.33654f, -87.34f, -87.65f, -87.8f, -103.97f,
                         -104.0f, 1e-8f, -1e-8f},
                        kRow);
}

/// The largest x whose 2^n the approximation does not clamp: x log2(e) +
/// 1/2 < 128.
constexpr float kLastUnclamped = 88.3762589f;
/// The bound above it (measured: see the test's output).
constexpr double kNearOverflowUlps = 8;

/// Checks `got` against the contract for every input; the worst ulp error
/// of the normal results.
double worstNearOverflow = 0;

double check(const std::vector<float> &x, const std::vector<float> &got,
             double maxUlps, bool flushes) {
  double worst = 0;
  int failures = 0;
  auto fail = [&](size_t i, const char *what) {
    if (++failures <= 10)
      ADD_FAILURE() << what << ": exp(" << x[i] << " = 0x" << std::hex
                    << bitsOf(x[i]) << std::dec << ") gave " << got[i] << " (0x"
                    << std::hex << bitsOf(got[i]) << std::dec
                    << "), exp in double " << std::exp(double(x[i]));
  };
  for (size_t i = 0; i < x.size(); ++i) {
    if (std::isnan(x[i])) {
      // (libm quiets a signaling NaN; the polynomial passes it through.)
      if (flushes ? bitsOf(got[i]) != bitsOf(x[i]) : !std::isnan(got[i]))
        fail(i, "NaN not passed through");
      continue;
    }
    float want = static_cast<float>(std::exp(static_cast<double>(x[i])));
    if (std::isinf(want)) {
      if (got[i] != want)
        fail(i, "overflow");
      continue;
    }
    if (want < FLT_MIN) {
      bool ok = flushes ? got[i] >= 0 && got[i] < FLT_MIN
                        : ulps(got[i], want) <= maxUlps;
      if (!ok)
        fail(i, "below 2^-126");
      continue;
    }
    double error = ulps(got[i], want);
    // (Where 2^n would overflow, n = 128, the approximation takes n = 127
    // and a polynomial argument up to 0.77: less accurate.)
    bool nearOverflow = flushes && x[i] > kLastUnclamped;
    if (nearOverflow)
      worstNearOverflow = std::max(worstNearOverflow, error);
    else
      worst = std::max(worst, error);
    if (!(error <= (nearOverflow ? kNearOverflowUlps : maxUlps)))
      fail(i, "inaccurate");
  }
  EXPECT_EQ(failures, 0);
  return worst;
}

TEST(ExpAccuracy, PolynomialWithinThreeUlpsNaNPassedThrough) {
  std::vector<float> x = inputs();
  Results poly = run(x, /*polynomialExp=*/true);
  ASSERT_EQ(poly.longRow.size(), x.size());
  ASSERT_EQ(poly.rows.size(), x.size());
  double worst = check(x, poly.longRow, 2.0, /*flushes=*/true);
  RecordProperty("worst_ulps", std::to_string(worst));
  std::printf("polynomial exp: worst error %.3f ulp over %zu inputs, %.3f "
              "ulp above %.7g\n",
              worst, x.size(), worstNearOverflow, kLastUnclamped);
  // The vector rows and the long loop: the same bits (NaNs: both NaN; the
  // rows' x - 0 quiets a signaling one).
  int differ = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    bool same = std::isnan(x[i])
                    ? std::isnan(poly.rows[i])
                    : bitsOf(poly.longRow[i]) == bitsOf(poly.rows[i]);
    if (!same && ++differ <= 5)
      ADD_FAILURE() << "exp(" << x[i] << "): " << poly.longRow[i]
                    << " in a long row, " << poly.rows[i] << " in rows of 28";
  }
  EXPECT_EQ(differ, 0);
  // Flushed below about -87.65 (n = -127 in the approximation).
  for (size_t i = 0; i < x.size(); ++i)
    if (x[i] < -87.8f)
      EXPECT_EQ(bitsOf(poly.longRow[i]), 0u) << "exp(" << x[i] << ")";
}

TEST(ExpAccuracy, LibmWhenAsked) {
  // polynomial-exp=false: libm's expf, within 1 ulp, subnormals kept.
  std::vector<float> x = inputs();
  Results libm = run(x, /*polynomialExp=*/false);
  ASSERT_EQ(libm.longRow.size(), x.size());
  check(x, libm.longRow, 1.0, /*flushes=*/false);
  check(x, libm.rows, 1.0, /*flushes=*/false);
}

} // namespace
