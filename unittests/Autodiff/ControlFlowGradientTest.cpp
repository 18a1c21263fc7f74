//===- ControlFlowGradientTest.cpp - func/scf rules, dynamic shapes -------===//
//
// Calls (inlined into @f_grad), scf.for with a constant trip count
// (unrolled), scf.if (the backward branch recomputes its forward branch), a
// value with several uses (one summed cotangent), and a dynamic batch
// dimension (tensor.dim / tensor.empty with dynamic sizes; run with batch
// 3).
//
//===----------------------------------------------------------------------===//

#include "GradientCheck.h"

#include "gtest/gtest.h"

using namespace mlir::amp::autodifftest;

namespace {

TEST(ControlFlowGradient, CallToPrivateFunction) {
  expectGradientsMatchFiniteDifferences(R"mlir(
func.func private @scale_tanh(%x: tensor<2x3xf64>, %s: tensor<3xf64>) -> tensor<2x3xf64> {
  %e = tensor.empty() : tensor<2x3xf64>
  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : tensor<2x3xf64>, tensor<3xf64>) outs(%e : tensor<2x3xf64>) {
  ^bb0(%a: f64, %b: f64, %o: f64):
    %m = arith.mulf %a, %b : f64
    %t = math.tanh %m : f64
    linalg.yield %t : f64
  } -> tensor<2x3xf64>
  return %y : tensor<2x3xf64>
}
func.func @f(%x: tensor<2x3xf64>, %s: tensor<3xf64>) -> tensor<f64> {
  %h = func.call @scale_tanh(%x, %s) : (tensor<2x3xf64>, tensor<3xf64>) -> tensor<2x3xf64>
  %y = func.call @scale_tanh(%h, %s) : (tensor<2x3xf64>, tensor<3xf64>) -> tensor<2x3xf64>
)mlir" + returnSumOfSquares("%y", {2, 3}) +
                                        "}\n");
}

// Three iterations of h = tanh(h * w) carried through iter_args.
TEST(ControlFlowGradient, ForWithConstantTripCount) {
  expectGradientsMatchFiniteDifferences(R"mlir(
func.func @f(%x: tensor<4xf64>, %w: tensor<4xf64>) -> tensor<f64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %y = scf.for %i = %c0 to %c3 step %c1 iter_args(%h = %x) -> (tensor<4xf64>) {
    %e = tensor.empty() : tensor<4xf64>
    %n = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                         iterator_types = ["parallel"]}
        ins(%h, %w : tensor<4xf64>, tensor<4xf64>) outs(%e : tensor<4xf64>) {
    ^bb0(%a: f64, %b: f64, %o: f64):
      %m = arith.mulf %a, %b : f64
      %t = math.tanh %m : f64
      linalg.yield %t : f64
    } -> tensor<4xf64>
    scf.yield %n : tensor<4xf64>
  }
)mlir" + returnSumOfSquares("%y", {4}) + "}\n");
}

// The branch taken depends on an argument; both branches read %x and %w.
TEST(ControlFlowGradient, IfBothBranches) {
  const char *source = R"mlir(
func.func @f(%x: tensor<3xf64>, %w: tensor<3xf64>, %flag: tensor<i64>) -> tensor<f64> {
  %k = tensor.extract %flag[] : tensor<i64>
  %zero = arith.constant 0 : i64
  %c = arith.cmpi sgt, %k, %zero : i64
  %y = scf.if %c -> (tensor<3xf64>) {
    %m = arith.mulf %x, %w : tensor<3xf64>
    %t = math.tanh %m : tensor<3xf64>
    scf.yield %t : tensor<3xf64>
  } else {
    %s = arith.subf %x, %w : tensor<3xf64>
    %q = arith.mulf %s, %s : tensor<3xf64>
    scf.yield %q : tensor<3xf64>
  }
)mlir";
  for (int branch : {0, 1}) {
    CheckOptions options;
    Fill uniform = uniformFill(7);
    options.fill = [uniform, branch](unsigned arg, int64_t i) {
      return arg == 2 ? double(branch) : uniform(arg, i);
    };
    expectGradientsMatchFiniteDifferences(
        source + returnSumOfSquares("%y", {3}) + "}\n", options);
  }
}

// %h feeds three users; its cotangent is one sum of three contributions.
TEST(ControlFlowGradient, ValueWithSeveralUses) {
  expectGradientsMatchFiniteDifferences(R"mlir(
func.func @f(%x: tensor<3xf64>) -> tensor<f64> {
  %h = math.sin %x : tensor<3xf64>
  %a = arith.mulf %h, %x : tensor<3xf64>
  %b = math.exp %h : tensor<3xf64>
  %c = arith.addf %a, %b : tensor<3xf64>
  %y = arith.mulf %c, %h : tensor<3xf64>
)mlir" + returnSumOfSquares("%y", {3}) + "}\n");
}

// A dynamic batch: the gradient of x is tensor<?x4xf64>.
TEST(ControlFlowGradient, DynamicBatch) {
  expectGradientsMatchFiniteDifferences(R"mlir(
func.func @f(%x: tensor<?x4xf64>, %w: tensor<4x2xf64>, %b: tensor<2xf64>) -> tensor<f64> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f64
  %n = tensor.dim %x, %c0 : tensor<?x4xf64>
  %e = tensor.empty(%n) : tensor<?x2xf64>
  %acc = linalg.fill ins(%zero : f64) outs(%e : tensor<?x2xf64>) -> tensor<?x2xf64>
  %mm = linalg.matmul ins(%x, %w : tensor<?x4xf64>, tensor<4x2xf64>) outs(%acc : tensor<?x2xf64>) -> tensor<?x2xf64>
  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%mm, %b : tensor<?x2xf64>, tensor<2xf64>) outs(%e : tensor<?x2xf64>) {
  ^bb0(%a: f64, %c: f64, %o: f64):
    %s = arith.addf %a, %c : f64
    %t = math.tanh %s : f64
    linalg.yield %t : f64
  } -> tensor<?x2xf64>
  %l0 = tensor.empty() : tensor<f64>
  %li = linalg.fill ins(%zero : f64) outs(%l0 : tensor<f64>) -> tensor<f64>
  %loss = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>], iterator_types = ["reduction", "reduction"]}
      ins(%y : tensor<?x2xf64>) outs(%li : tensor<f64>) {
  ^bb0(%a: f64, %sum: f64):
    %sq = arith.mulf %a, %a : f64
    %r = arith.addf %sum, %sq : f64
    linalg.yield %r : f64
  } -> tensor<f64>
  return %loss : tensor<f64>
}
)mlir");
}

} // namespace
