//===- ErfAccuracyTest.cpp - f32 erf lowered by amp-lower-to-llvm ---------===//
//
// amp-lower-to-llvm computes f32 `math.erf` (an exact GELU's) as upstream's
// rational approximation (amp-cpu-polynomial-erf, on by default) instead
// of libm's erff. Its contract (CPU/Passes.td), checked here over every
// 251st f32 bit pattern of both signs (17.1M inputs) and the edge cases,
// against erf computed in double:
//   - within kAbsolute of erf (absolute error, the bound that matters to
//     a GELU, x/2 (1 + erf(x/sqrt 2)));
//   - for |x| < 0.8 within kRelativeUlps ulp of erf rounded to f32 (small
//     results keep their relative accuracy, down to the subnormals);
//   - erf(+-inf) = +-1, erf(+-0) = +-0, erf(NaN) is a NaN;
//   - the two forms the lowering produces (a long row, which LLVM's loop
//     vectorizer takes, and rows of 28, amp-cpu-vectorize-rows' vectors of
//     16 and 12) give the same bits.
// With polynomial-erf=false the same inputs go through libm, within 1 ulp.
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
/// The bounds of the contract (measured: see the test's output; over all
/// 2^32 inputs, a break-it run measured 2.86e-7 and 3.28 ulp).
constexpr double kAbsolute = 3e-7;
constexpr double kRelativeUlps = 4;

/// erf of `x` in both forms, compiled with `polynomialErf`.
UnaryResults run(const std::vector<float> &x, bool polynomialErf) {
  LowerToLLVMConfig lowering;
  lowering.threads = 1;
  lowering.polynomialErf = polynomialErf;
  return runUnary("math.erf", x, kRow, lowering);
}

/// Every 251st bit pattern (both signs, NaNs included), the specials and
/// the edges.
std::vector<float> inputs() {
  return sweepWithEdges(
      {std::numeric_limits<float>::denorm_min(), 0.8f, -0.8f,
       std::nextafter(0.8f, 0.0f), 2.0f, std::nextafter(2.0f, 0.0f), 3.75f,
       std::nextafter(3.75f, 0.0f), -3.75f, 1.0f, -1.0f, 1e-8f, -1e-8f},
      kRow);
}

/// Checks `got` against the contract for every input: absolute error
/// below `maxAbsolute`, and for |x| < 0.8 below `maxUlps` ulp. Returns
/// the worst of each.
std::pair<double, double> check(const std::vector<float> &x,
                                const std::vector<float> &got,
                                double maxAbsolute, double maxUlps) {
  double worstAbsolute = 0, worstUlps = 0;
  int failures = 0;
  auto fail = [&](size_t i, const char *what) {
    if (++failures <= 10)
      ADD_FAILURE() << what << ": erf(" << x[i] << " = 0x" << std::hex
                    << bitsOf(x[i]) << std::dec << ") gave " << got[i]
                    << ", erf in double " << std::erf(double(x[i]));
  };
  for (size_t i = 0; i < x.size(); ++i) {
    if (std::isnan(x[i])) {
      if (!std::isnan(got[i]))
        fail(i, "NaN not passed through");
      continue;
    }
    double want = std::erf(static_cast<double>(x[i]));
    double absolute = std::fabs(double(got[i]) - want);
    worstAbsolute = std::max(worstAbsolute, absolute);
    if (!(absolute <= maxAbsolute))
      fail(i, "inaccurate (absolute)");
    if (std::fabs(x[i]) < 0.8f) {
      double error = ulps(got[i], static_cast<float>(want));
      worstUlps = std::max(worstUlps, error);
      if (!(error <= maxUlps) || std::signbit(got[i]) != std::signbit(x[i]))
        fail(i, "inaccurate (relative)");
    }
  }
  EXPECT_EQ(failures, 0);
  return {worstAbsolute, worstUlps};
}

TEST(ErfAccuracy, RationalApproximationWithinBounds) {
  std::vector<float> x = inputs();
  UnaryResults poly = run(x, /*polynomialErf=*/true);
  ASSERT_EQ(poly.longRow.size(), x.size());
  ASSERT_EQ(poly.rows.size(), x.size());
  auto [absolute, relative] = check(x, poly.longRow, kAbsolute, kRelativeUlps);
  RecordProperty("worst_absolute", std::to_string(absolute));
  RecordProperty("worst_ulps_below_0_8", std::to_string(relative));
  std::printf("rational erf: worst absolute error %.3g, worst %.3f ulp for "
              "|x| < 0.8, over %zu inputs\n",
              absolute, relative, x.size());
  // The edges, exactly.
  auto erf = [&](float v) { return resultFor(x, poly.longRow, v); };
  float inf = std::numeric_limits<float>::infinity();
  EXPECT_EQ(erf(inf), 1.0f);
  EXPECT_EQ(erf(-inf), -1.0f);
  EXPECT_EQ(bitsOf(erf(0.0f)), bitsOf(0.0f));
  EXPECT_EQ(bitsOf(erf(-0.0f)), bitsOf(-0.0f));
  // The vector rows and the long loop: the same bits (NaNs: both NaN).
  EXPECT_EQ(countFormsDiffering("erf", x, poly), 0);
}

TEST(ErfAccuracy, LibmWhenAsked) {
  // polynomial-erf=false: libm's erff, within 1 ulp everywhere.
  std::vector<float> x = inputs();
  UnaryResults libm = run(x, /*polynomialErf=*/false);
  ASSERT_EQ(libm.longRow.size(), x.size());
  ASSERT_EQ(libm.rows.size(), x.size());
  EXPECT_EQ(countLibmBeyond(
                "erf", x, libm, [](double v) { return std::erf(v); }, 1.0),
            0);
}

} // namespace
