//===- ElementwiseGradientTest.cpp - arith/math rules vs finite differences
//===//
//
// Every arith and math rule twice: on scalars inside a linalg.generic body
// (the symbolic differentiation of bodies) and on whole tensors (the same
// rules at function level). Inputs are kept where each function is smooth:
// log, sqrt, rsqrt and powf get positive arguments, and the kinks of absf,
// maximumf, minimumf and select are away from the sampled points.
//
//===----------------------------------------------------------------------===//

#include "GradientCheck.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace mlir::amp::autodifftest;

namespace {

/// `%y = expr(%x, %p)` elementwise in a generic body (`%a`, `%b` the
/// elements, `%r` the result).
std::string bodyCase(const std::string &ops) {
  return R"mlir(
func.func @f(%x: tensor<2x3xf64>, %p: tensor<2x3xf64>) -> tensor<f64> {
  %e = tensor.empty() : tensor<2x3xf64>
  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x, %p : tensor<2x3xf64>, tensor<2x3xf64>) outs(%e : tensor<2x3xf64>) {
  ^bb0(%a: f64, %b: f64, %o: f64):
)mlir" + ops +
         R"mlir(
    linalg.yield %r : f64
  } -> tensor<2x3xf64>
)mlir" + returnSumOfSquares("%y", {2, 3}) +
         "}\n";
}

/// The same with the ops applied to the tensors (`%a`, `%b` are the
/// arguments, of type tensor<2x3xf64>).
std::string tensorCase(const std::string &ops) {
  return R"mlir(
func.func @f(%a: tensor<2x3xf64>, %b: tensor<2x3xf64>) -> tensor<f64> {
)mlir" + ops +
         returnSumOfSquares("%r", {2, 3}) + "}\n";
}

/// %x in [-1, 1), %p in [0.5, 1.5).
CheckOptions positiveSecond() {
  CheckOptions options;
  Fill uniform = uniformFill(5);
  options.fill = [uniform](unsigned arg, int64_t i) {
    double u = uniform(arg, i);
    return arg == 1 ? 1.0 + 0.5 * u : u;
  };
  return options;
}

TEST(ElementwiseGradient, ArithInBody) {
  expectGradientsMatchFiniteDifferences(bodyCase(R"mlir(
    %s = arith.addf %a, %b : f64
    %d = arith.subf %s, %b : f64
    %m = arith.mulf %d, %b : f64
    %q = arith.divf %m, %b : f64
    %n = arith.negf %q : f64
    %t = arith.mulf %n, %a : f64
    %u = arith.divf %a, %b : f64
    %r = arith.subf %t, %u : f64
)mlir"),
                                        positiveSecond());
}

TEST(ElementwiseGradient, ExtremaAndSelectInBody) {
  expectGradientsMatchFiniteDifferences(bodyCase(R"mlir(
    %half = arith.constant 0.5 : f64
    %mx = arith.maximumf %a, %b : f64
    %mn = arith.minimumf %a, %b : f64
    %nx = arith.maxnumf %a, %half : f64
    %nn = arith.minnumf %b, %half : f64
    %c = arith.cmpf ogt, %a, %half : f64
    %sel = arith.select %c, %mx, %mn : f64
    %s1 = arith.mulf %sel, %nx : f64
    %r = arith.addf %s1, %nn : f64
)mlir"));
}

TEST(ElementwiseGradient, MathInBody) {
  expectGradientsMatchFiniteDifferences(bodyCase(R"mlir(
    %e1 = math.exp %a : f64
    %e2 = math.exp2 %a : f64
    %e3 = math.expm1 %a : f64
    %l1 = math.log %b : f64
    %l2 = math.log2 %b : f64
    %l3 = math.log10 %b : f64
    %l4 = math.log1p %b : f64
    %t1 = math.tanh %a : f64
    %t2 = math.tan %a : f64
    %s1 = math.sqrt %b : f64
    %s2 = math.rsqrt %b : f64
    %f1 = math.erf %a : f64
    %f2 = math.erfc %a : f64
    %c1 = math.sin %a : f64
    %c2 = math.cos %a : f64
    %ab = math.absf %a : f64
    %pw = math.powf %b, %a : f64
    %k = arith.constant 3 : i32
    %pi = math.fpowi %a, %k : f64, i32
    %fl = math.floor %a : f64
    %ce = math.ceil %a : f64
    %ro = math.round %a : f64
    %re = math.roundeven %a : f64
    %tr = math.trunc %a : f64
    %r1 = arith.addf %fl, %ce : f64
    %r2 = arith.addf %r1, %ro : f64
    %r3 = arith.addf %r2, %re : f64
    %rounded = arith.addf %r3, %tr : f64
    %v1 = arith.addf %e1, %e2 : f64
    %v2 = arith.addf %v1, %e3 : f64
    %v3 = arith.addf %v2, %l1 : f64
    %v4 = arith.addf %v3, %l2 : f64
    %v5 = arith.addf %v4, %l3 : f64
    %v6 = arith.addf %v5, %l4 : f64
    %v7 = arith.addf %v6, %t1 : f64
    %v8 = arith.addf %v7, %t2 : f64
    %v9 = arith.addf %v8, %s1 : f64
    %v10 = arith.addf %v9, %s2 : f64
    %v11 = arith.addf %v10, %f1 : f64
    %v12 = arith.addf %v11, %f2 : f64
    %v13 = arith.addf %v12, %c1 : f64
    %v14 = arith.addf %v13, %c2 : f64
    %v15 = arith.addf %v14, %ab : f64
    %v16 = arith.addf %v15, %pw : f64
    %v17 = arith.addf %v16, %pi : f64
    %r = arith.addf %v17, %rounded : f64
)mlir"),
                                        positiveSecond());
}

TEST(ElementwiseGradient, ArithAndMathOnTensors) {
  expectGradientsMatchFiniteDifferences(tensorCase(R"mlir(
  %s = arith.addf %a, %b : tensor<2x3xf64>
  %m = arith.mulf %s, %a : tensor<2x3xf64>
  %q = arith.divf %m, %b : tensor<2x3xf64>
  %n = arith.negf %q : tensor<2x3xf64>
  %x = math.exp %n : tensor<2x3xf64>
  %l = math.log %b : tensor<2x3xf64>
  %t = math.tanh %a : tensor<2x3xf64>
  %sq = math.sqrt %b : tensor<2x3xf64>
  %mx = arith.maximumf %t, %l : tensor<2x3xf64>
  %c = arith.cmpf ogt, %a, %t : tensor<2x3xf64>
  %sel = arith.select %c, %mx, %sq : tensor<2x3xi1>, tensor<2x3xf64>
  %u = arith.subf %x, %sel : tensor<2x3xf64>
  %r = arith.mulf %u, %sq : tensor<2x3xf64>
)mlir"),
                                        positiveSecond());
}

// extf: an f32 argument widened to f64; the difference quotient uses the
// perturbed f32 values, the gradient is f32.
TEST(ElementwiseGradient, ExtFFromF32) {
  expectGradientsMatchFiniteDifferences(R"mlir(
func.func @f(%x: tensor<2x3xf32>, %b: tensor<2x3xf64>) -> tensor<f64> {
  %w = arith.extf %x : tensor<2x3xf32> to tensor<2x3xf64>
  %p = arith.mulf %w, %b : tensor<2x3xf64>
  %r = math.sin %p : tensor<2x3xf64>
)mlir" + returnSumOfSquares("%r", {2, 3}) +
                                        "}\n");
}

// truncf rounds to the f32 grid, so its derivative is checked exactly: the
// loss sum(extf(truncf(x)) * c) has the gradient c (c exact in f32).
TEST(ElementwiseGradient, TruncFSendsTheCotangentBack) {
  std::string error;
  auto program = GradientProgram::build(R"mlir(
func.func @f(%x: tensor<4xf64>, %c: tensor<4xf32>) -> tensor<f64> {
  %t = arith.truncf %x : tensor<4xf64> to tensor<4xf32>
  %p = arith.mulf %t, %c : tensor<4xf32>
  %w = arith.extf %p : tensor<4xf32> to tensor<4xf64>
  %zero = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<f64>
  %i = linalg.fill ins(%zero : f64) outs(%e : tensor<f64>) -> tensor<f64>
  %loss = linalg.reduce { arith.addf } ins(%w : tensor<4xf64>) outs(%i : tensor<f64>) dimensions = [0]
  return %loss : tensor<f64>
}
)mlir",
                                        error);
  ASSERT_TRUE(program) << error;
  const double cs[4] = {0.5, -1.25, 3.0, 0.125};
  program->fillArguments([&](unsigned arg, int64_t i) {
    return arg == 0 ? 0.1 * (i + 1) : cs[i];
  });
  std::vector<std::vector<double>> grads = program->gradients();
  ASSERT_EQ(grads.size(), 2u);
  for (int i = 0; i < 4; ++i)
    EXPECT_EQ(grads[0][i], cs[i]) << "x element " << i;
}

} // namespace
