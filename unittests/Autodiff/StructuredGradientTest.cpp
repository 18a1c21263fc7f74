//===- StructuredGradientTest.cpp - linalg rules vs finite differences ----===//
//
// The structured adjoint (linalg.generic and the named ops) checked against
// central finite differences in f64: contractions (matmul, transposed maps,
// batch_matmul), broadcasts and projections, add / max / min reductions,
// transpose, broadcast, reduce, map, fill, elementwise and softmax.
//
//===----------------------------------------------------------------------===//

#include "GradientCheck.h"

#include "gtest/gtest.h"

using namespace mlir::amp::autodifftest;

namespace {

TEST(StructuredGradient, MatmulBiasTanh) {
  expectGradientsMatchFiniteDifferences(R"mlir(
func.func @f(%x: tensor<4x3xf64>, %w: tensor<3x5xf64>, %b: tensor<5xf64>) -> tensor<f64> {
  %zero = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<4x5xf64>
  %acc = linalg.fill ins(%zero : f64) outs(%e : tensor<4x5xf64>) -> tensor<4x5xf64>
  %mm = linalg.matmul ins(%x, %w : tensor<4x3xf64>, tensor<3x5xf64>) outs(%acc : tensor<4x5xf64>) -> tensor<4x5xf64>
  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%mm, %b : tensor<4x5xf64>, tensor<5xf64>) outs(%e : tensor<4x5xf64>) {
  ^bb0(%a: f64, %c: f64, %o: f64):
    %s = arith.addf %a, %c : f64
    %t = math.tanh %s : f64
    linalg.yield %t : f64
  } -> tensor<4x5xf64>
)mlir" + returnSumOfSquares("%y", {4, 5}) +
                                        "}\n");
}

// linalg.matmul with user indexing maps: C = A^T B^T (PyTorch's linear
// layer multiplies by the transposed out x in weight).
TEST(StructuredGradient, MatmulTransposedMaps) {
  expectGradientsMatchFiniteDifferences(R"mlir(
func.func @f(%a: tensor<3x4xf64>, %b: tensor<5x3xf64>) -> tensor<f64> {
  %zero = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<4x5xf64>
  %acc = linalg.fill ins(%zero : f64) outs(%e : tensor<4x5xf64>) -> tensor<4x5xf64>
  %y = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : tensor<3x4xf64>, tensor<5x3xf64>) outs(%acc : tensor<4x5xf64>) -> tensor<4x5xf64>
)mlir" + returnSumOfSquares("%y", {4, 5}) +
                                        "}\n");
}

// The accumulator is a function argument: its gradient is the output's.
TEST(StructuredGradient, BatchMatmulIntoArgument) {
  expectGradientsMatchFiniteDifferences(R"mlir(
func.func @f(%a: tensor<2x3x4xf64>, %b: tensor<2x4x5xf64>, %c: tensor<2x3x5xf64>) -> tensor<f64> {
  %y = linalg.batch_matmul ins(%a, %b : tensor<2x3x4xf64>, tensor<2x4x5xf64>) outs(%c : tensor<2x3x5xf64>) -> tensor<2x3x5xf64>
)mlir" + returnSumOfSquares("%y", {2, 3, 5}) +
                                        "}\n");
}

TEST(StructuredGradient, TransposeBroadcastReduce) {
  expectGradientsMatchFiniteDifferences(R"mlir(
func.func @f(%x: tensor<3x4xf64>, %v: tensor<2xf64>) -> tensor<f64> {
  %zero = arith.constant 0.0 : f64
  %et = tensor.empty() : tensor<4x3xf64>
  %t = linalg.transpose ins(%x : tensor<3x4xf64>) outs(%et : tensor<4x3xf64>) permutation = [1, 0]
  %eb = tensor.empty() : tensor<2x4x3xf64>
  %b = linalg.broadcast ins(%t : tensor<4x3xf64>) outs(%eb : tensor<2x4x3xf64>) dimensions = [0]
  %ev = tensor.empty() : tensor<2x4x3xf64>
  %bv = linalg.broadcast ins(%v : tensor<2xf64>) outs(%ev : tensor<2x4x3xf64>) dimensions = [1, 2]
  %em = tensor.empty() : tensor<2x4x3xf64>
  %m = linalg.map { arith.mulf } ins(%b, %bv : tensor<2x4x3xf64>, tensor<2x4x3xf64>) outs(%em : tensor<2x4x3xf64>)
  %er = tensor.empty() : tensor<2x3xf64>
  %ir = linalg.fill ins(%zero : f64) outs(%er : tensor<2x3xf64>) -> tensor<2x3xf64>
  %r = linalg.reduce { arith.addf } ins(%m : tensor<2x4x3xf64>) outs(%ir : tensor<2x3xf64>) dimensions = [1]
)mlir" + returnSumOfSquares("%r", {2, 3}) +
                                        "}\n");
}

// A scalar read from a tensor fills another tensor: the scalar gets the sum.
TEST(StructuredGradient, FillWithDifferentiatedScalar) {
  expectGradientsMatchFiniteDifferences(R"mlir(
func.func @f(%s: tensor<f64>, %x: tensor<3x2xf64>) -> tensor<f64> {
  %v = tensor.extract %s[] : tensor<f64>
  %e = tensor.empty() : tensor<3x2xf64>
  %filled = linalg.fill ins(%v : f64) outs(%e : tensor<3x2xf64>) -> tensor<3x2xf64>
  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%filled, %x : tensor<3x2xf64>, tensor<3x2xf64>) outs(%e : tensor<3x2xf64>) {
  ^bb0(%a: f64, %b: f64, %o: f64):
    %p = arith.mulf %a, %b : f64
    %q = arith.mulf %p, %v : f64
    linalg.yield %q : f64
  } -> tensor<3x2xf64>
)mlir" + returnSumOfSquares("%y", {3, 2}) +
                                        "}\n");
}

TEST(StructuredGradient, ElementwiseAndSoftmax) {
  expectGradientsMatchFiniteDifferences(R"mlir(
func.func @f(%x: tensor<3x4xf64>, %w: tensor<3x4xf64>) -> tensor<f64> {
  %e = tensor.empty() : tensor<3x4xf64>
  %ex = linalg.elementwise kind=#linalg.elementwise_kind<exp> ins(%x : tensor<3x4xf64>) outs(%e : tensor<3x4xf64>) -> tensor<3x4xf64>
  %s = linalg.softmax dimension(1) ins(%ex : tensor<3x4xf64>) outs(%e : tensor<3x4xf64>) -> tensor<3x4xf64>
  %y = linalg.elementwise kind=#linalg.elementwise_kind<mul> ins(%s, %w : tensor<3x4xf64>, tensor<3x4xf64>) outs(%e : tensor<3x4xf64>) -> tensor<3x4xf64>
)mlir" + returnSumOfSquares("%y", {3, 4}) +
                                        "}\n");
}

// Max over rows with arith.maximumf (PyTorch amax), min over columns with
// cmpf + select (torch-mlir's min.dim), both from a -inf / +inf fill.
TEST(StructuredGradient, MaxAndMinReductions) {
  expectGradientsMatchFiniteDifferences(R"mlir(
func.func @f(%x: tensor<4x5xf64>) -> tensor<f64> {
  %ninf = arith.constant 0xFFF0000000000000 : f64
  %pinf = arith.constant 0x7FF0000000000000 : f64
  %e4 = tensor.empty() : tensor<4xf64>
  %i4 = linalg.fill ins(%ninf : f64) outs(%e4 : tensor<4xf64>) -> tensor<4xf64>
  %max = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x5xf64>) outs(%i4 : tensor<4xf64>) {
  ^bb0(%a: f64, %acc: f64):
    %m = arith.maximumf %a, %acc : f64
    linalg.yield %m : f64
  } -> tensor<4xf64>
  %e5 = tensor.empty() : tensor<5xf64>
  %i5 = linalg.fill ins(%pinf : f64) outs(%e5 : tensor<5xf64>) -> tensor<5xf64>
  %min = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>], iterator_types = ["reduction", "parallel"]}
      ins(%x : tensor<4x5xf64>) outs(%i5 : tensor<5xf64>) {
  ^bb0(%a: f64, %acc: f64):
    %lt = arith.cmpf olt, %a, %acc : f64
    %m = arith.select %lt, %a, %acc : f64
    linalg.yield %m : f64
  } -> tensor<5xf64>
  %eo = tensor.empty() : tensor<4x5xf64>
  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%max, %min, %x : tensor<4xf64>, tensor<5xf64>, tensor<4x5xf64>) outs(%eo : tensor<4x5xf64>) {
  ^bb0(%a: f64, %b: f64, %c: f64, %o: f64):
    %p = arith.mulf %a, %b : f64
    %q = arith.addf %p, %c : f64
    linalg.yield %q : f64
  } -> tensor<4x5xf64>
)mlir" + returnSumOfSquares("%y", {4, 5}) +
                                        "}\n");
}

// A softmax cross-entropy like the example MLP's: stable row max, exp, sum,
// log, one-hot labels through linalg.index; the row max's two paths cancel.
TEST(StructuredGradient, SoftmaxCrossEntropy) {
  expectGradientsMatchFiniteDifferences(
      R"mlir(
func.func @f(%z: tensor<3x4xf64>, %y: tensor<3xi64>) -> tensor<f64> {
  %zero = arith.constant 0.0 : f64
  %ninf = arith.constant 0xFFF0000000000000 : f64
  %e3 = tensor.empty() : tensor<3xf64>
  %mi = linalg.fill ins(%ninf : f64) outs(%e3 : tensor<3xf64>) -> tensor<3xf64>
  %m = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%z : tensor<3x4xf64>) outs(%mi : tensor<3xf64>) {
  ^bb0(%a: f64, %acc: f64):
    %r = arith.maximumf %a, %acc : f64
    linalg.yield %r : f64
  } -> tensor<3xf64>
  %si = linalg.fill ins(%zero : f64) outs(%e3 : tensor<3xf64>) -> tensor<3xf64>
  %s = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%z, %m : tensor<3x4xf64>, tensor<3xf64>) outs(%si : tensor<3xf64>) {
  ^bb0(%a: f64, %mx: f64, %acc: f64):
    %d = arith.subf %a, %mx : f64
    %x = math.exp %d : f64
    %r = arith.addf %acc, %x : f64
    linalg.yield %r : f64
  } -> tensor<3xf64>
  %li = linalg.fill ins(%zero : f64) outs(%e3 : tensor<3xf64>) -> tensor<3xf64>
  %picked = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%z, %y : tensor<3x4xf64>, tensor<3xi64>) outs(%li : tensor<3xf64>) {
  ^bb0(%a: f64, %label: i64, %acc: f64):
    %j = linalg.index 1 : index
    %l = arith.index_cast %label : i64 to index
    %hit = arith.cmpi eq, %j, %l : index
    %v = arith.select %hit, %a, %zero : f64
    %r = arith.addf %acc, %v : f64
    linalg.yield %r : f64
  } -> tensor<3xf64>
  %ls = tensor.empty() : tensor<f64>
  %l0 = linalg.fill ins(%zero : f64) outs(%ls : tensor<f64>) -> tensor<f64>
  %loss = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> ()>], iterator_types = ["reduction"]}
      ins(%m, %s, %picked : tensor<3xf64>, tensor<3xf64>, tensor<3xf64>) outs(%l0 : tensor<f64>) {
  ^bb0(%mx: f64, %sum: f64, %p: f64, %acc: f64):
    %lse = math.log %sum : f64
    %a = arith.addf %mx, %lse : f64
    %nll = arith.subf %a, %p : f64
    %r = arith.addf %acc, %nll : f64
    linalg.yield %r : f64
  } -> tensor<f64>
  return %loss : tensor<f64>
}
)mlir",
      [] {
        CheckOptions o;
        Fill uniform = uniformFill(3);
        o.fill = [uniform](unsigned arg, int64_t i) {
          return arg == 1 ? double(i % 4) : uniform(arg, i);
        };
        return o;
      }());
}

// A parallel body that reads its output's block argument: the init is an
// input like the others (out = out * tanh(x)).
TEST(StructuredGradient, ParallelBodyReadsInit) {
  expectGradientsMatchFiniteDifferences(R"mlir(
func.func @f(%x: tensor<3x2xf64>, %init: tensor<3x2xf64>) -> tensor<f64> {
  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<3x2xf64>) outs(%init : tensor<3x2xf64>) {
  ^bb0(%a: f64, %o: f64):
    %t = math.tanh %a : f64
    %r = arith.mulf %o, %t : f64
    linalg.yield %r : f64
  } -> tensor<3x2xf64>
)mlir" + returnSumOfSquares("%y", {3, 2}) +
                                        "}\n");
}

// One generic with two outputs: a row sum of x * w and a row max of x.
TEST(StructuredGradient, TwoReductionOutputs) {
  expectGradientsMatchFiniteDifferences(R"mlir(
func.func @f(%x: tensor<3x4xf64>, %w: tensor<4xf64>) -> tensor<f64> {
  %zero = arith.constant 0.0 : f64
  %ninf = arith.constant 0xFFF0000000000000 : f64
  %e = tensor.empty() : tensor<3xf64>
  %s0 = linalg.fill ins(%zero : f64) outs(%e : tensor<3xf64>) -> tensor<3xf64>
  %m0 = linalg.fill ins(%ninf : f64) outs(%e : tensor<3xf64>) -> tensor<3xf64>
  %r:2 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i)>],
                         iterator_types = ["parallel", "reduction"]}
      ins(%x, %w : tensor<3x4xf64>, tensor<4xf64>) outs(%s0, %m0 : tensor<3xf64>, tensor<3xf64>) {
  ^bb0(%a: f64, %b: f64, %sum: f64, %max: f64):
    %p = arith.mulf %a, %b : f64
    %s = arith.addf %sum, %p : f64
    %m = arith.maximumf %max, %a : f64
    linalg.yield %s, %m : f64, f64
  } -> (tensor<3xf64>, tensor<3xf64>)
  %eo = tensor.empty() : tensor<3xf64>
  %y = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%r#0, %r#1 : tensor<3xf64>, tensor<3xf64>) outs(%eo : tensor<3xf64>) {
  ^bb0(%u: f64, %v: f64, %o: f64):
    %q = arith.mulf %u, %v : f64
    linalg.yield %q : f64
  } -> tensor<3xf64>
)mlir" + returnSumOfSquares("%y", {3}) + "}\n");
}

} // namespace
