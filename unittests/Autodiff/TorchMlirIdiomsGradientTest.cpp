//===- TorchMlirIdiomsGradientTest.cpp - what torch-mlir really emits -----===//
//
// The forms torch-mlir's linalg-on-tensors export writes, checked against
// central finite differences in f64: constant indices in indexing maps (a
// size-1 dimension broadcast, `(d0, d1) -> (0, d1)`, and keepdim reductions
// into it, `(d0, d1) -> (d0, 0)`), batch norm over a batch of 1, the
// layer norm with keepdim statistics, a max + argmax two-result reduction,
// adaptive average pooling as `pooling_nchw_sum` + divide, hardswish as
// cmpf/select chains, depthwise convolution with stride and padding, the
// ReLU whose backward masks with the result, the embedding lookup
// (tensor.extract of a weight row by a token id) and its scatter-add.
//
//===----------------------------------------------------------------------===//

#include "GradientCheck.h"

#include "gtest/gtest.h"

using namespace mlir::amp::autodifftest;

namespace {

// A linear layer at batch 1 as torch-mlir writes it: the bias added through
// a constant index into the size-1 batch dimension of the matmul result.
TEST(TorchMlirIdioms, ConstantIndexBroadcast) {
  expectGradientsMatchFiniteDifferences(R"mlir(
func.func @f(%x: tensor<1x3xf64>, %w: tensor<3x5xf64>, %b: tensor<5xf64>) -> tensor<f64> {
  %zero = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<1x5xf64>
  %acc = linalg.fill ins(%zero : f64) outs(%e : tensor<1x5xf64>) -> tensor<1x5xf64>
  %mm = linalg.matmul ins(%x, %w : tensor<1x3xf64>, tensor<3x5xf64>) outs(%acc : tensor<1x5xf64>) -> tensor<1x5xf64>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%mm, %b : tensor<1x5xf64>, tensor<5xf64>) outs(%e : tensor<1x5xf64>) {
  ^bb0(%a: f64, %c: f64, %o: f64):
    %s = arith.addf %a, %c : f64
    %t = math.tanh %s : f64
    linalg.yield %t : f64
  } -> tensor<1x5xf64>
)mlir" + returnSumOfSquares("%y", {1, 5}) +
                                        "}\n");
}

// A constant index into a dimension longer than 1 reads one row: only that
// row gets a cotangent, the others get exactly 0.
TEST(TorchMlirIdioms, ConstantIndexSelectsRow) {
  expectGradientsMatchFiniteDifferences(R"mlir(
func.func @f(%x: tensor<3x4xf64>) -> tensor<f64> {
  %e = tensor.empty() : tensor<2x4xf64>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (2, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<3x4xf64>) outs(%e : tensor<2x4xf64>) {
  ^bb0(%a: f64, %o: f64):
    %s = arith.mulf %a, %a : f64
    linalg.yield %s : f64
  } -> tensor<2x4xf64>
)mlir" + returnSumOfSquares("%y", {2, 4}) +
                                        "}\n");
}

// torch-mlir's layer norm: mean and variance as keepdim sums into a
// size-1 dimension (output map `(d0, d1) -> (d0, 0)`), read back through
// the same constant index.
TEST(TorchMlirIdioms, KeepdimLayerNorm) {
  expectGradientsMatchFiniteDifferences(R"mlir(
func.func @f(%x: tensor<3x6xf64>, %g: tensor<6xf64>) -> tensor<f64> {
  %zero = arith.constant 0.0 : f64
  %n = arith.constant 6.0 : f64
  %eps = arith.constant 1.0e-5 : f64
  %e1 = tensor.empty() : tensor<3x1xf64>
  %z1 = linalg.fill ins(%zero : f64) outs(%e1 : tensor<3x1xf64>) -> tensor<3x1xf64>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>],
                         iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<3x6xf64>) outs(%z1 : tensor<3x1xf64>) {
  ^bb0(%a: f64, %o: f64):
    %s = arith.addf %a, %o : f64
    linalg.yield %s : f64
  } -> tensor<3x1xf64>
  %mean = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>],
                          iterator_types = ["parallel", "parallel"]}
      ins(%sum : tensor<3x1xf64>) outs(%e1 : tensor<3x1xf64>) {
  ^bb0(%a: f64, %o: f64):
    %s = arith.divf %a, %n : f64
    linalg.yield %s : f64
  } -> tensor<3x1xf64>
  %e = tensor.empty() : tensor<3x6xf64>
  %c = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x, %mean : tensor<3x6xf64>, tensor<3x1xf64>) outs(%e : tensor<3x6xf64>) {
  ^bb0(%a: f64, %m: f64, %o: f64):
    %s = arith.subf %a, %m : f64
    linalg.yield %s : f64
  } -> tensor<3x6xf64>
  %sq = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>],
                        iterator_types = ["parallel", "reduction"]}
      ins(%c : tensor<3x6xf64>) outs(%z1 : tensor<3x1xf64>) {
  ^bb0(%a: f64, %o: f64):
    %p = arith.mulf %a, %a : f64
    %s = arith.addf %p, %o : f64
    linalg.yield %s : f64
  } -> tensor<3x1xf64>
  %rstd = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>],
                          iterator_types = ["parallel", "parallel"]}
      ins(%sq : tensor<3x1xf64>) outs(%e1 : tensor<3x1xf64>) {
  ^bb0(%a: f64, %o: f64):
    %v = arith.divf %a, %n : f64
    %ve = arith.addf %v, %eps : f64
    %r = math.rsqrt %ve : f64
    linalg.yield %r : f64
  } -> tensor<3x1xf64>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%c, %rstd, %g : tensor<3x6xf64>, tensor<3x1xf64>, tensor<6xf64>) outs(%e : tensor<3x6xf64>) {
  ^bb0(%a: f64, %r: f64, %w: f64, %o: f64):
    %s = arith.mulf %a, %r : f64
    %t = arith.mulf %s, %w : f64
    linalg.yield %t : f64
  } -> tensor<3x6xf64>
  %ew = tensor.empty() : tensor<3x6xf64>
  %k = arith.constant dense<[[1.0, -2.0, 0.5, 3.0, -1.0, 2.0], [0.25, 1.0, -1.5, 2.0, 0.5, -0.75], [2.0, 0.5, 1.0, -1.0, 1.5, 0.25]]> : tensor<3x6xf64>
  %yk = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                        iterator_types = ["parallel", "parallel"]}
      ins(%y, %k : tensor<3x6xf64>, tensor<3x6xf64>) outs(%ew : tensor<3x6xf64>) {
  ^bb0(%a: f64, %b: f64, %o: f64):
    %s = arith.mulf %a, %b : f64
    linalg.yield %s : f64
  } -> tensor<3x6xf64>
)mlir" + returnSumOfSquares("%yk", {3, 6}) +
                                        "}\n");
}

// torch-mlir's max(dim, keepdim=True): one generic with two results, the
// maximum (f64) and its index (i64, from linalg.index), both into a size-1
// dimension. The index carries no cotangent; the maximum gets the Split
// rule.
TEST(TorchMlirIdioms, MaxWithArgmaxKeepdim) {
  expectGradientsMatchFiniteDifferences(R"mlir(
func.func @f(%x: tensor<3x5xf64>) -> tensor<f64> {
  %ninf = arith.constant 0xFFF0000000000000 : f64
  %c0 = arith.constant 0 : i64
  %e1 = tensor.empty() : tensor<3x1xf64>
  %m0 = linalg.fill ins(%ninf : f64) outs(%e1 : tensor<3x1xf64>) -> tensor<3x1xf64>
  %ei = tensor.empty() : tensor<3x1xi64>
  %i0 = linalg.fill ins(%c0 : i64) outs(%ei : tensor<3x1xi64>) -> tensor<3x1xi64>
  %r:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, 0)>],
                         iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<3x5xf64>) outs(%m0, %i0 : tensor<3x1xf64>, tensor<3x1xi64>) {
  ^bb0(%a: f64, %m: f64, %i: i64):
    %idx = linalg.index 1 : index
    %ii = arith.index_cast %idx : index to i64
    %mx = arith.maximumf %a, %m : f64
    %gt = arith.cmpf ogt, %a, %m : f64
    %ni = arith.select %gt, %ii, %i : i64
    linalg.yield %mx, %ni : f64, i64
  } -> (tensor<3x1xf64>, tensor<3x1xi64>)
  %e = tensor.empty() : tensor<3x5xf64>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x, %r#0 : tensor<3x5xf64>, tensor<3x1xf64>) outs(%e : tensor<3x5xf64>) {
  ^bb0(%a: f64, %m: f64, %o: f64):
    %s = arith.subf %a, %m : f64
    %t = math.exp %s : f64
    linalg.yield %t : f64
  } -> tensor<3x5xf64>
)mlir" + returnSumOfSquares("%y", {3, 5}) +
                                        "}\n");
}

// Adaptive average pooling to 1x1 as torch-mlir writes it: a
// pooling_nchw_sum over the whole plane into 1x1 (kernel tensor.empty),
// then a divide by the window size, then a flatten; hardswish as the
// cmpf/select chain (x * relu6(x + 3) / 6).
TEST(TorchMlirIdioms, AdaptiveAvgPoolHardswish) {
  expectGradientsMatchFiniteDifferences(R"mlir(
func.func @f(%x: tensor<1x3x4x4xf64>) -> tensor<f64> {
  %zero = arith.constant 0.0 : f64
  %three = arith.constant 3.0 : f64
  %six = arith.constant 6.0 : f64
  %area = arith.constant 16.0 : f64
  %e = tensor.empty() : tensor<1x3x4x4xf64>
  %hs = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                        iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<1x3x4x4xf64>) outs(%e : tensor<1x3x4x4xf64>) {
  ^bb0(%a: f64, %o: f64):
    %p = arith.addf %a, %three : f64
    %lt = arith.cmpf ult, %p, %zero : f64
    %lo = arith.select %lt, %zero, %p : f64
    %gt = arith.cmpf ugt, %lo, %six : f64
    %hi = arith.select %gt, %six, %lo : f64
    %m = arith.mulf %a, %hi : f64
    %d = arith.divf %m, %six : f64
    linalg.yield %d : f64
  } -> tensor<1x3x4x4xf64>
  %ep = tensor.empty() : tensor<1x3x1x1xf64>
  %zp = linalg.fill ins(%zero : f64) outs(%ep : tensor<1x3x1x1xf64>) -> tensor<1x3x1x1xf64>
  %k = tensor.empty() : tensor<4x4xf64>
  %s = linalg.pooling_nchw_sum {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%hs, %k : tensor<1x3x4x4xf64>, tensor<4x4xf64>) outs(%zp : tensor<1x3x1x1xf64>) -> tensor<1x3x1x1xf64>
  %avg = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (0, d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                         iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s : tensor<1x3x1x1xf64>) outs(%ep : tensor<1x3x1x1xf64>) {
  ^bb0(%a: f64, %o: f64):
    %d = arith.divf %a, %area : f64
    linalg.yield %d : f64
  } -> tensor<1x3x1x1xf64>
  %flat = tensor.collapse_shape %avg [[0], [1, 2, 3]] : tensor<1x3x1x1xf64> into tensor<1x3xf64>
)mlir" + returnSumOfSquares("%flat", {1, 3}) +
                                        "}\n");
}

// MobileNet's depthwise convolution with stride 2 and padding 1, followed
// by eval-mode batch norm over a batch of 1 (statistics broadcast through
// `(d0, d1, d2, d3) -> (d1)`, the activation through `(0, d1, d2, d3)`).
TEST(TorchMlirIdioms, DepthwiseStridedBatchNorm) {
  expectGradientsMatchFiniteDifferences(R"mlir(
func.func @f(%x: tensor<1x2x5x5xf64>, %w: tensor<2x3x3xf64>, %g: tensor<2xf64>) -> tensor<f64> {
  %zero = arith.constant 0.0 : f64
  %padded = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f64
  } : tensor<1x2x5x5xf64> to tensor<1x2x7x7xf64>
  %e = tensor.empty() : tensor<1x2x3x3xf64>
  %z = linalg.fill ins(%zero : f64) outs(%e : tensor<1x2x3x3xf64>) -> tensor<1x2x3x3xf64>
  %c = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
      ins(%padded, %w : tensor<1x2x7x7xf64>, tensor<2x3x3xf64>) outs(%z : tensor<1x2x3x3xf64>) -> tensor<1x2x3x3xf64>
  %mean = arith.constant dense<[0.5, -0.25]> : tensor<2xf64>
  %rstd = arith.constant dense<[1.5, 0.75]> : tensor<2xf64>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %mean, %rstd, %g : tensor<1x2x3x3xf64>, tensor<2xf64>, tensor<2xf64>, tensor<2xf64>) outs(%e : tensor<1x2x3x3xf64>) {
  ^bb0(%a: f64, %m: f64, %r: f64, %s: f64, %o: f64):
    %d = arith.subf %a, %m : f64
    %n = arith.mulf %d, %r : f64
    %t = arith.mulf %n, %s : f64
    linalg.yield %t : f64
  } -> tensor<1x2x3x3xf64>
)mlir" + returnSumOfSquares("%y", {1, 2, 3, 3}) +
                                        "}\n");
}

// torch-mlir's ReLU at batch 1 (the zero captured, ugt, input read through
// `(0, d1)`) and a second one with the zero in the body and ogt, between
// two linear maps: the backward masks with the ReLU's result instead of its
// input (StructuredAdjoint's matchReluOnResult).
TEST(TorchMlirIdioms, ReluMaskFromResult) {
  expectGradientsMatchFiniteDifferences(R"mlir(
func.func @f(%x: tensor<1x4xf64>, %w: tensor<4x6xf64>, %v: tensor<6x3xf64>) -> tensor<f64> {
  %zero = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<1x6xf64>
  %z = linalg.fill ins(%zero : f64) outs(%e : tensor<1x6xf64>) -> tensor<1x6xf64>
  %h = linalg.matmul ins(%x, %w : tensor<1x4xf64>, tensor<4x6xf64>) outs(%z : tensor<1x6xf64>) -> tensor<1x6xf64>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%h : tensor<1x6xf64>) outs(%e : tensor<1x6xf64>) {
  ^bb0(%a: f64, %o: f64):
    %c = arith.cmpf ugt, %a, %zero : f64
    %s = arith.select %c, %a, %zero : f64
    linalg.yield %s : f64
  } -> tensor<1x6xf64>
  %e3 = tensor.empty() : tensor<1x3xf64>
  %z3 = linalg.fill ins(%zero : f64) outs(%e3 : tensor<1x3xf64>) -> tensor<1x3xf64>
  %o = linalg.matmul ins(%r, %v : tensor<1x6xf64>, tensor<6x3xf64>) outs(%z3 : tensor<1x3xf64>) -> tensor<1x3xf64>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%o : tensor<1x3xf64>) outs(%e3 : tensor<1x3xf64>) {
  ^bb0(%a: f64, %b: f64):
    %zl = arith.constant 0.0 : f64
    %c = arith.cmpf ogt, %a, %zl : f64
    %s = arith.select %c, %a, %zl : f64
    linalg.yield %s : f64
  } -> tensor<1x3xf64>
)mlir" + returnSumOfSquares("%y", {1, 3}) +
                                        "}\n");
}

// aten.embedding as torch-mlir lowers it: a generic over the output that
// reads the weight row of each token id (i64 -> index_cast) with
// tensor.extract; the adjoint scatter-adds into the weight. Ids repeat (the
// rows' cotangents add up), row 5 is never read (its gradient is exactly
// 0), and a matmul after the lookup makes the cotangents differ per row.
TEST(TorchMlirIdioms, EmbeddingLookup) {
  CheckOptions options;
  Fill uniform = uniformFill(3);
  options.fill = [uniform](unsigned arg, int64_t index) {
    return arg == 1 ? double((index * 7 + 3) % 5) : uniform(arg, index);
  };
  expectGradientsMatchFiniteDifferences(R"mlir(
func.func @f(%table: tensor<6x4xf64>, %ids: tensor<2x5xi64>, %w: tensor<4x3xf64>) -> tensor<f64> {
  %zero = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<2x5x4xf64>
  %rows = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                          iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%ids : tensor<2x5xi64>) outs(%e : tensor<2x5x4xf64>) {
  ^bb0(%id: i64, %o: f64):
    %i = arith.index_cast %id : i64 to index
    %j = linalg.index 2 : index
    %v = tensor.extract %table[%i, %j] : tensor<6x4xf64>
    linalg.yield %v : f64
  } -> tensor<2x5x4xf64>
  %flat = tensor.collapse_shape %rows [[0, 1], [2]] : tensor<2x5x4xf64> into tensor<10x4xf64>
  %e3 = tensor.empty() : tensor<10x3xf64>
  %z3 = linalg.fill ins(%zero : f64) outs(%e3 : tensor<10x3xf64>) -> tensor<10x3xf64>
  %y = linalg.matmul ins(%flat, %w : tensor<10x4xf64>, tensor<4x3xf64>) outs(%z3 : tensor<10x3xf64>) -> tensor<10x3xf64>
)mlir" + returnSumOfSquares("%y", {10, 3}) + "}\n",
                                        options);
}

} // namespace
