//===- TanhAccuracyTest.cpp - f32 tanh lowered by amp-lower-to-llvm -------===//
//
// amp-lower-to-llvm computes f32 `math.tanh` (a tanh-form GELU's, GPT-2's)
// as upstream's rational approximation (amp-cpu-polynomial-tanh, on by
// default) instead of libm's tanhf. Its contract (CPU/Passes.td), checked
// here over every 251st f32 bit pattern of both signs (17.1M inputs) and
// the edge cases, against tanh computed in double and rounded to f32:
//   - within kUlps ulp everywhere (subnormals included: there tanh(x) = x);
//   - tanh(+-inf) = +-1, tanh(+-0) = +-0, tanh(NaN) is a NaN, and the
//     result is never beyond +-1;
//   - the two forms the lowering produces (a long row and rows of 28)
//     give the same bits.
// With polynomial-tanh=false the same inputs go through libm's tanhf,
// within 2 ulp (glibc 2.36's own error).
//
//===----------------------------------------------------------------------===//

#include "AccuracyHarness.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

using namespace mlir::amp;
using namespace amp_test;

namespace {

constexpr int64_t kRow = 28;
/// The bound of the contract (measured: 5 ulp, at x = -3.7886, a result
/// near 1: 2.7e-7 absolute; see the test's output).
constexpr double kUlps = 6;
/// libm's: glibc 2.36's tanhf is itself 2 ulp off in places (tanh(0.0296)
/// = 0.02954458073, where tanh rounded to f32 is 0.02954457700).
constexpr double kLibmUlps = 2;

/// tanh of `x` in both forms, compiled with `polynomialTanh`.
UnaryResults run(const std::vector<float> &x, bool polynomialTanh) {
  LowerToLLVMConfig lowering;
  lowering.threads = 1;
  lowering.polynomialTanh = polynomialTanh;
  return runUnary("math.tanh", x, kRow, lowering);
}

/// Every 251st bit pattern (both signs, NaNs included), the specials and
/// the approximation's edges: its small-x cut at 0.0004 and its clamp
/// near 7.9988.
std::vector<float> inputs() {
  return sweepWithEdges({std::numeric_limits<float>::denorm_min(), 0.0004f,
                         std::nextafter(0.0004f, 0.0f), -0.0004f, 7.99881172f,
                         std::nextafter(7.99881172f, 0.0f), 9.0f, -9.0f, 1.0f,
                         -1.0f, 0.5f, 1e-8f, -1e-8f, 20.0f, -20.0f},
                        kRow);
}

TEST(TanhAccuracy, RationalApproximationWithinBounds) {
  std::vector<float> x = inputs();
  UnaryResults poly = run(x, /*polynomialTanh=*/true);
  ASSERT_EQ(poly.longRow.size(), x.size());
  ASSERT_EQ(poly.rows.size(), x.size());
  double worst = 0, worstAbsolute = 0;
  float worstAt = 0;
  int failures = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    float got = poly.longRow[i];
    if (std::isnan(x[i])) {
      if (!std::isnan(got) && ++failures <= 10)
        ADD_FAILURE() << "tanh(NaN) = " << got;
      continue;
    }
    double exact = std::tanh(static_cast<double>(x[i]));
    float want = static_cast<float>(exact);
    double error = ulps(got, want);
    if (error > worst) {
      worst = error;
      worstAt = x[i];
    }
    worstAbsolute = std::max(worstAbsolute, std::fabs(double(got) - exact));
    if ((!(error <= kUlps) || !(std::fabs(got) <= 1.0f) ||
         std::signbit(got) != std::signbit(x[i])) &&
        ++failures <= 10)
      ADD_FAILURE() << "tanh(" << x[i] << " = 0x" << std::hex << bitsOf(x[i])
                    << std::dec << ") gave " << got << ", want " << want << " ("
                    << error << " ulp)";
  }
  EXPECT_EQ(failures, 0);
  RecordProperty("worst_ulps", std::to_string(worst));
  std::printf("rational tanh: worst %.3f ulp (at x = %.9g), worst absolute "
              "error %.3g, over %zu inputs\n",
              worst, worstAt, worstAbsolute, x.size());
  // The edges, exactly.
  auto tanh = [&](float v) { return resultFor(x, poly.longRow, v); };
  float inf = std::numeric_limits<float>::infinity();
  EXPECT_EQ(tanh(inf), 1.0f);
  EXPECT_EQ(tanh(-inf), -1.0f);
  EXPECT_EQ(tanh(20.0f), 1.0f);
  EXPECT_EQ(bitsOf(tanh(0.0f)), bitsOf(0.0f));
  EXPECT_EQ(bitsOf(tanh(-0.0f)), bitsOf(-0.0f));
  EXPECT_EQ(tanh(std::numeric_limits<float>::denorm_min()),
            std::numeric_limits<float>::denorm_min());
  // The vector rows and the long loop: the same bits (NaNs: both NaN).
  EXPECT_EQ(countFormsDiffering("tanh", x, poly), 0);
}

TEST(TanhAccuracy, LibmWhenAsked) {
  // polynomial-tanh=false: libm's tanhf (LLVM's tanh intrinsic, a call
  // per lane).
  std::vector<float> x = inputs();
  UnaryResults libm = run(x, /*polynomialTanh=*/false);
  ASSERT_EQ(libm.longRow.size(), x.size());
  ASSERT_EQ(libm.rows.size(), x.size());
  EXPECT_EQ(
      countLibmBeyond(
          "tanh", x, libm, [](double v) { return std::tanh(v); }, kLibmUlps),
      0);
}

} // namespace
