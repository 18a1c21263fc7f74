//===- TensorGradientTest.cpp - tensor rules vs finite differences --------===//
//
// Data movement: pad (also with a differentiated padding value), strided
// extract_slice, rank-reducing slices, insert_slice, collapse_shape,
// expand_shape, concat, cast, extract, insert, splat and from_elements.
// Each case multiplies the moved data by another argument before the loss,
// so that the cotangent that reaches the op is not uniform.
//
//===----------------------------------------------------------------------===//

#include "GradientCheck.h"

#include "gtest/gtest.h"

using namespace mlir::amp::autodifftest;

namespace {

/// `%r = %y * %w` elementwise for %y, %w of `type` (rank 2), then the loss.
std::string weighted(const std::string &type, std::vector<int64_t> shape) {
  return "  %we = tensor.empty() : " + type +
         "\n"
         "  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, "
         "j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], "
         "iterator_types = [\"parallel\", \"parallel\"]} ins(%y, %w : " +
         type + ", " + type + ") outs(%we : " + type +
         ") {\n"
         "  ^bb0(%wa: f64, %wb: f64, %wo: f64):\n"
         "    %wm = arith.mulf %wa, %wb : f64\n"
         "    linalg.yield %wm : f64\n"
         "  } -> " +
         type + "\n" + returnSumOfSquares("%r", shape);
}

TEST(TensorGradient, PadWithDifferentiatedValue) {
  expectGradientsMatchFiniteDifferences(R"mlir(
func.func @f(%x: tensor<2x3xf64>, %v: tensor<f64>, %w: tensor<5x4xf64>) -> tensor<f64> {
  %pv = tensor.extract %v[] : tensor<f64>
  %y = tensor.pad %x low[1, 0] high[2, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %pv : f64
  } : tensor<2x3xf64> to tensor<5x4xf64>
)mlir" + weighted("tensor<5x4xf64>", {5, 4}) +
                                        "}\n");
}

TEST(TensorGradient, StridedAndRankReducingSlices) {
  expectGradientsMatchFiniteDifferences(R"mlir(
func.func @f(%x: tensor<5x6xf64>, %w: tensor<2x3xf64>) -> tensor<f64> {
  %s = tensor.extract_slice %x[1, 0] [2, 3] [2, 2] : tensor<5x6xf64> to tensor<2x3xf64>
  %row = tensor.extract_slice %x[4, 1] [1, 3] [1, 1] : tensor<5x6xf64> to tensor<3xf64>
  %e = tensor.empty() : tensor<2x3xf64>
  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%s, %row : tensor<2x3xf64>, tensor<3xf64>) outs(%e : tensor<2x3xf64>) {
  ^bb0(%a: f64, %b: f64, %o: f64):
    %m = arith.mulf %a, %b : f64
    linalg.yield %m : f64
  } -> tensor<2x3xf64>
)mlir" + weighted("tensor<2x3xf64>", {2, 3}) +
                                        "}\n");
}

// The destination's overwritten part gets no gradient; the rest does.
TEST(TensorGradient, InsertSlice) {
  expectGradientsMatchFiniteDifferences(R"mlir(
func.func @f(%src: tensor<2xf64>, %dst: tensor<3x4xf64>, %w: tensor<3x4xf64>) -> tensor<f64> {
  %y = tensor.insert_slice %src into %dst[1, 1] [1, 2] [1, 2] : tensor<2xf64> into tensor<3x4xf64>
)mlir" + weighted("tensor<3x4xf64>", {3, 4}) +
                                        "}\n");
}

TEST(TensorGradient, ReshapesAndConcat) {
  expectGradientsMatchFiniteDifferences(R"mlir(
func.func @f(%x: tensor<2x3x2xf64>, %z: tensor<3x4xf64>, %w: tensor<4x4xf64>) -> tensor<f64> {
  %c = tensor.collapse_shape %x [[0, 1], [2]] : tensor<2x3x2xf64> into tensor<6x2xf64>
  %t = tensor.expand_shape %c [[0, 1], [2]] output_shape [2, 3, 2] : tensor<6x2xf64> into tensor<2x3x2xf64>
  %c2 = tensor.collapse_shape %t [[0], [1, 2]] : tensor<2x3x2xf64> into tensor<2x6xf64>
  %sl = tensor.extract_slice %c2[0, 0] [1, 4] [1, 1] : tensor<2x6xf64> to tensor<1x4xf64>
  %dyn = tensor.cast %sl : tensor<1x4xf64> to tensor<?x4xf64>
  %back = tensor.cast %dyn : tensor<?x4xf64> to tensor<1x4xf64>
  %y = tensor.concat dim(0) %back, %z : (tensor<1x4xf64>, tensor<3x4xf64>) -> tensor<4x4xf64>
)mlir" + weighted("tensor<4x4xf64>", {4, 4}) +
                                        "}\n");
}

TEST(TensorGradient, ScalarsInAndOut) {
  expectGradientsMatchFiniteDifferences(R"mlir(
func.func @f(%x: tensor<2x3xf64>, %s: tensor<f64>, %w: tensor<2x2xf64>) -> tensor<f64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %a = tensor.extract %x[%c0, %c1] : tensor<2x3xf64>
  %b = tensor.extract %x[%c1, %c2] : tensor<2x3xf64>
  %v = tensor.extract %s[] : tensor<f64>
  %ab = arith.mulf %a, %b : f64
  %fe = tensor.from_elements %a, %ab, %v, %b : tensor<2x2xf64>
  %sp = tensor.splat %v : tensor<2x2xf64>
  %ins = tensor.insert %ab into %sp[%c1, %c0] : tensor<2x2xf64>
  %e = tensor.empty() : tensor<2x2xf64>
  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%fe, %ins : tensor<2x2xf64>, tensor<2x2xf64>) outs(%e : tensor<2x2xf64>) {
  ^bb0(%p: f64, %q: f64, %o: f64):
    %m = arith.addf %p, %q : f64
    linalg.yield %m : f64
  } -> tensor<2x2xf64>
)mlir" + weighted("tensor<2x2xf64>", {2, 2}) +
                                        "}\n");
}

} // namespace
