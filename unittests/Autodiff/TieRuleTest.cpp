//===- TieRuleTest.cpp - where the cotangent goes when maxima tie ---------===//
//
// Finite differences cannot check ties (the one-sided slopes differ), so
// these tests compare with the documented rules computed here in C++:
//  - max/min pooling: all of an output's cotangent to the first maximum of
//    its window in row-major window order (PyTorch's max_pool2d backward);
//  - max/min reductions (linalg.generic, linalg.reduce): split evenly among
//    the equal elements, the init value included (PyTorch's amax/amin);
//  - arith.maximumf / minimumf of two equal operands: half each
//    (PyTorch's maximum/minimum).
// Inputs are small integers, so that ties are frequent.
//
//===----------------------------------------------------------------------===//

#include "GradientCheck.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace mlir::amp::autodifftest;

namespace {

std::unique_ptr<GradientProgram> buildOrFail(const std::string &source) {
  std::string error;
  auto program = GradientProgram::build(source, error);
  EXPECT_TRUE(program) << error;
  return program;
}

/// Small integers 0..2 for argument 0, uniform weights for the others.
Fill integersThenWeights() {
  Fill uniform = uniformFill(9);
  return [uniform](unsigned arg, int64_t i) {
    return arg == 0 ? double((i * 7 + i / 3) % 3) : uniform(arg, i);
  };
}

// 1x1x4x5 input, 2x2 windows, stride 1: overlapping windows with ties; the
// loss is sum(pool(x) * w), so output (oh, ow) sends w[oh, ow].
TEST(TieRule, MaxPoolingSendsToTheFirstMaximum) {
  auto program = buildOrFail(R"mlir(
func.func @f(%x: tensor<1x1x4x5xf64>, %w: tensor<1x1x3x4xf64>) -> tensor<f64> {
  %ninf = arith.constant 0xFFF0000000000000 : f64
  %zero = arith.constant 0.0 : f64
  %k = tensor.empty() : tensor<2x2xf64>
  %e = tensor.empty() : tensor<1x1x3x4xf64>
  %init = linalg.fill ins(%ninf : f64) outs(%e : tensor<1x1x3x4xf64>) -> tensor<1x1x3x4xf64>
  %y = linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %k : tensor<1x1x4x5xf64>, tensor<2x2xf64>) outs(%init : tensor<1x1x3x4xf64>) -> tensor<1x1x3x4xf64>
  %l0 = tensor.empty() : tensor<f64>
  %li = linalg.fill ins(%zero : f64) outs(%l0 : tensor<f64>) -> tensor<f64>
  %loss = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> ()>],
                          iterator_types = ["reduction", "reduction", "reduction", "reduction"]}
      ins(%y, %w : tensor<1x1x3x4xf64>, tensor<1x1x3x4xf64>) outs(%li : tensor<f64>) {
  ^bb0(%a: f64, %b: f64, %acc: f64):
    %m = arith.mulf %a, %b : f64
    %r = arith.addf %acc, %m : f64
    linalg.yield %r : f64
  } -> tensor<f64>
  return %loss : tensor<f64>
}
)mlir");
  ASSERT_TRUE(program);
  program->fillArguments(integersThenWeights());
  std::vector<std::vector<double>> grads = program->gradients();
  ASSERT_EQ(grads.size(), 2u);
  const double *x = program->argument(0).as<double>();
  const double *w = program->argument(1).as<double>();
  std::vector<double> expected(20, 0.0);
  int ties = 0;
  for (int oh = 0; oh < 3; ++oh) {
    for (int ow = 0; ow < 4; ++ow) {
      int first = -1, count = 0;
      double best = -INFINITY;
      for (int kh = 0; kh < 2; ++kh)
        for (int kw = 0; kw < 2; ++kw)
          best = std::max(best, x[(oh + kh) * 5 + ow + kw]);
      for (int kh = 0; kh < 2; ++kh)
        for (int kw = 0; kw < 2; ++kw)
          if (x[(oh + kh) * 5 + ow + kw] == best) {
            if (first < 0)
              first = (oh + kh) * 5 + ow + kw;
            ++count;
          }
      ties += count > 1;
      expected[first] += w[oh * 4 + ow];
    }
  }
  EXPECT_GE(ties, 3) << "the input should make windows tie";
  for (int i = 0; i < 20; ++i)
    EXPECT_NEAR(grads[0][i], expected[i], 1e-12) << "input element " << i;
}

// Row maxima with linalg.generic + maximumf from an init argument, column
// minima with linalg.reduce + minimumf from +inf: ties split evenly.
TEST(TieRule, ReductionsSplitAmongTies) {
  auto program = buildOrFail(R"mlir(
func.func @f(%x: tensor<4x3xf64>, %init: tensor<4xf64>, %u: tensor<4xf64>, %v: tensor<3xf64>) -> tensor<f64> {
  %pinf = arith.constant 0x7FF0000000000000 : f64
  %zero = arith.constant 0.0 : f64
  %max = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x3xf64>) outs(%init : tensor<4xf64>) {
  ^bb0(%a: f64, %acc: f64):
    %m = arith.maximumf %acc, %a : f64
    linalg.yield %m : f64
  } -> tensor<4xf64>
  %e3 = tensor.empty() : tensor<3xf64>
  %i3 = linalg.fill ins(%pinf : f64) outs(%e3 : tensor<3xf64>) -> tensor<3xf64>
  %min = linalg.reduce { arith.minimumf } ins(%x : tensor<4x3xf64>) outs(%i3 : tensor<3xf64>) dimensions = [0]
  %l0 = tensor.empty() : tensor<f64>
  %li = linalg.fill ins(%zero : f64) outs(%l0 : tensor<f64>) -> tensor<f64>
  %lmax = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> ()>], iterator_types = ["reduction"]}
      ins(%max, %u : tensor<4xf64>, tensor<4xf64>) outs(%li : tensor<f64>) {
  ^bb0(%a: f64, %b: f64, %acc: f64):
    %m = arith.mulf %a, %b : f64
    %r = arith.addf %acc, %m : f64
    linalg.yield %r : f64
  } -> tensor<f64>
  %loss = linalg.generic {indexing_maps = [affine_map<(j) -> (j)>, affine_map<(j) -> (j)>, affine_map<(j) -> ()>], iterator_types = ["reduction"]}
      ins(%min, %v : tensor<3xf64>, tensor<3xf64>) outs(%lmax : tensor<f64>) {
  ^bb0(%a: f64, %b: f64, %acc: f64):
    %m = arith.mulf %a, %b : f64
    %r = arith.addf %acc, %m : f64
    linalg.yield %r : f64
  } -> tensor<f64>
  return %loss : tensor<f64>
}
)mlir");
  ASSERT_TRUE(program);
  // Rows: a 2-way tie, a tie with the init (2.0), no tie, a 3-way tie;
  // columns: 0 (3-way) and 2 tie at their minimum, 1 does not.
  const double xs[12] = {1, 2, 2, 2, 0, 1, 1, 1, 2, 1, 1, 1};
  const double inits[4] = {-1, 2, -1, -1};
  Fill weights = uniformFill(9);
  program->fillArguments([&](unsigned arg, int64_t i) {
    return arg == 0 ? xs[i] : arg == 1 ? inits[i] : weights(arg, i);
  });
  std::vector<std::vector<double>> grads = program->gradients();
  ASSERT_EQ(grads.size(), 4u);
  const double *x = program->argument(0).as<double>();
  const double *init = program->argument(1).as<double>();
  const double *u = program->argument(2).as<double>();
  const double *v = program->argument(3).as<double>();
  std::vector<double> dx(12, 0.0), dinit(4, 0.0);
  int ties = 0;
  for (int i = 0; i < 4; ++i) {
    double best = init[i];
    for (int j = 0; j < 3; ++j)
      best = std::max(best, x[i * 3 + j]);
    int count = init[i] == best;
    for (int j = 0; j < 3; ++j)
      count += x[i * 3 + j] == best;
    ties += count > 1;
    for (int j = 0; j < 3; ++j)
      if (x[i * 3 + j] == best)
        dx[i * 3 + j] += u[i] / count;
    if (init[i] == best)
      dinit[i] = u[i] / count;
  }
  for (int j = 0; j < 3; ++j) {
    double best = INFINITY;
    for (int i = 0; i < 4; ++i)
      best = std::min(best, x[i * 3 + j]);
    int count = 0;
    for (int i = 0; i < 4; ++i)
      count += x[i * 3 + j] == best;
    ties += count > 1;
    for (int i = 0; i < 4; ++i)
      if (x[i * 3 + j] == best)
        dx[i * 3 + j] += v[j] / count;
  }
  EXPECT_EQ(ties, 5) << "the input should make reductions tie";
  EXPECT_NE(dinit[1], 0.0) << "row 1's init should tie";
  for (int k = 0; k < 12; ++k)
    EXPECT_NEAR(grads[0][k], dx[k], 1e-12) << "x element " << k;
  for (int k = 0; k < 4; ++k)
    EXPECT_NEAR(grads[1][k], dinit[k], 1e-12) << "init element " << k;
}

TEST(TieRule, ElementwiseMaximumSplitsInHalf) {
  auto program = buildOrFail(R"mlir(
func.func @f(%a: tensor<4xf64>, %b: tensor<4xf64>, %w: tensor<4xf64>) -> tensor<f64> {
  %zero = arith.constant 0.0 : f64
  %m = arith.maximumf %a, %b : tensor<4xf64>
  %n = arith.minimumf %a, %b : tensor<4xf64>
  %l0 = tensor.empty() : tensor<f64>
  %li = linalg.fill ins(%zero : f64) outs(%l0 : tensor<f64>) -> tensor<f64>
  %loss = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> ()>], iterator_types = ["reduction"]}
      ins(%m, %n, %w : tensor<4xf64>, tensor<4xf64>, tensor<4xf64>) outs(%li : tensor<f64>) {
  ^bb0(%p: f64, %q: f64, %c: f64, %acc: f64):
    %s = arith.mulf %p, %c : f64
    %t = arith.addf %acc, %s : f64
    %r = arith.addf %t, %q : f64
    linalg.yield %r : f64
  } -> tensor<f64>
  return %loss : tensor<f64>
}
)mlir");
  ASSERT_TRUE(program);
  const double a[4] = {1.0, 2.0, -1.0, 0.5}, b[4] = {1.0, 1.0, 3.0, 0.5};
  program->fillArguments([&](unsigned arg, int64_t i) {
    return arg == 0 ? a[i] : arg == 1 ? b[i] : 0.25 * (i + 1);
  });
  std::vector<std::vector<double>> grads = program->gradients();
  ASSERT_EQ(grads.size(), 3u);
  for (int i = 0; i < 4; ++i) {
    double w = 0.25 * (i + 1);
    // max sends w, min sends 1: to the larger / smaller, half each on a tie.
    double da = a[i] > b[i] ? w : a[i] < b[i] ? 1.0 : 0.5 * (w + 1.0);
    double db = a[i] > b[i] ? 1.0 : a[i] < b[i] ? w : 0.5 * (w + 1.0);
    EXPECT_NEAR(grads[0][i], da, 1e-12) << "a element " << i;
    EXPECT_NEAR(grads[1][i], db, 1e-12) << "b element " << i;
  }
}

} // namespace
