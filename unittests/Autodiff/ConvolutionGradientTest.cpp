//===- ConvolutionGradientTest.cpp - windows vs finite differences --------===//
//
// Convolutions and pooling: the filter's cotangent is a correlation of the
// input with the output's cotangent, the input's a transposed convolution
// (dilated by the stride, padded by (K - 1) * dilation); strided, dilated
// and padded (tensor.pad in front, as torch-mlir writes it) cases in both
// layouts, depthwise, and max / sum pooling. Inputs are random, so no two
// elements of a pooling window tie (TieRuleTest checks ties).
//
//===----------------------------------------------------------------------===//

#include "GradientCheck.h"

#include "gtest/gtest.h"

using namespace mlir::amp::autodifftest;

namespace {

// 1x2x9x8 input padded by 1 -> 1x2x11x10; 3x2x3x2 filter, strides (2, 3),
// dilations (2, 1): output 1x3x(11 - 5) / 2 + 1 = 4 x (10 - 2) / 3 + 1 = 3.
// The last input row (10) is read by no output position.
TEST(ConvolutionGradient, Conv2DNchwFchwStridedDilatedPadded) {
  expectGradientsMatchFiniteDifferences(R"mlir(
func.func @f(%x: tensor<1x2x9x8xf64>, %w: tensor<3x2x3x2xf64>) -> tensor<f64> {
  %zero = arith.constant 0.0 : f64
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f64
  } : tensor<1x2x9x8xf64> to tensor<1x2x11x10xf64>
  %e = tensor.empty() : tensor<1x3x4x3xf64>
  %acc = linalg.fill ins(%zero : f64) outs(%e : tensor<1x3x4x3xf64>) -> tensor<1x3x4x3xf64>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<[2, 1]> : tensor<2xi64>, strides = dense<[2, 3]> : tensor<2xi64>}
      ins(%p, %w : tensor<1x2x11x10xf64>, tensor<3x2x3x2xf64>) outs(%acc : tensor<1x3x4x3xf64>) -> tensor<1x3x4x3xf64>
)mlir" + returnSumOfSquares("%y", {1, 3, 4, 3}) +
                                        "}\n");
}

// Batch 2, 7x7 input, 3x3 filter, stride 2, dilation 1: output 3x3.
TEST(ConvolutionGradient, Conv2DNhwcHwcfStrided) {
  expectGradientsMatchFiniteDifferences(R"mlir(
func.func @f(%x: tensor<2x7x7x2xf64>, %w: tensor<3x3x2x4xf64>) -> tensor<f64> {
  %zero = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<2x3x3x4xf64>
  %acc = linalg.fill ins(%zero : f64) outs(%e : tensor<2x3x3x4xf64>) -> tensor<2x3x3x4xf64>
  %y = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %w : tensor<2x7x7x2xf64>, tensor<3x3x2x4xf64>) outs(%acc : tensor<2x3x3x4xf64>) -> tensor<2x3x3x4xf64>
)mlir" + returnSumOfSquares("%y", {2, 3, 3, 4}) +
                                        "}\n");
}

// Dilation 2 and stride 1 in NHWC: 8x6 input, 2x3 filter -> 6x2.
TEST(ConvolutionGradient, Conv2DNhwcHwcfDilated) {
  expectGradientsMatchFiniteDifferences(R"mlir(
func.func @f(%x: tensor<1x8x6x3xf64>, %w: tensor<2x3x3x2xf64>) -> tensor<f64> {
  %zero = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<1x6x2x2xf64>
  %acc = linalg.fill ins(%zero : f64) outs(%e : tensor<1x6x2x2xf64>) -> tensor<1x6x2x2xf64>
  %y = linalg.conv_2d_nhwc_hwcf {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x8x6x3xf64>, tensor<2x3x3x2xf64>) outs(%acc : tensor<1x6x2x2xf64>) -> tensor<1x6x2x2xf64>
)mlir" + returnSumOfSquares("%y", {1, 6, 2, 2}) +
                                        "}\n");
}

// Depthwise 3x3, stride 2, dilation 2 on 1x3x9x9: output (9 - 5) / 2 + 1 = 3.
TEST(ConvolutionGradient, DepthwiseConv2DNchwChw) {
  expectGradientsMatchFiniteDifferences(R"mlir(
func.func @f(%x: tensor<1x3x9x9xf64>, %w: tensor<3x3x3xf64>) -> tensor<f64> {
  %zero = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<1x3x3x3xf64>
  %acc = linalg.fill ins(%zero : f64) outs(%e : tensor<1x3x3x3xf64>) -> tensor<1x3x3x3xf64>
  %y = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<2> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %w : tensor<1x3x9x9xf64>, tensor<3x3x3xf64>) outs(%acc : tensor<1x3x3x3xf64>) -> tensor<1x3x3x3xf64>
)mlir" + returnSumOfSquares("%y", {1, 3, 3, 3}) +
                                        "}\n");
}

// 2x2 windows with stride 1 overlap: every inner input element is in 4
// windows.
TEST(ConvolutionGradient, PoolingNchwMaxOverlapping) {
  expectGradientsMatchFiniteDifferences(R"mlir(
func.func @f(%x: tensor<1x2x5x4xf64>) -> tensor<f64> {
  %ninf = arith.constant 0xFFF0000000000000 : f64
  %k = tensor.empty() : tensor<2x2xf64>
  %e = tensor.empty() : tensor<1x2x4x3xf64>
  %init = linalg.fill ins(%ninf : f64) outs(%e : tensor<1x2x4x3xf64>) -> tensor<1x2x4x3xf64>
  %y = linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %k : tensor<1x2x5x4xf64>, tensor<2x2xf64>) outs(%init : tensor<1x2x4x3xf64>) -> tensor<1x2x4x3xf64>
)mlir" + returnSumOfSquares("%y", {1, 2, 4, 3}) +
                                        "}\n");
}

TEST(ConvolutionGradient, PoolingNhwcMaxStrided) {
  expectGradientsMatchFiniteDifferences(R"mlir(
func.func @f(%x: tensor<2x6x6x2xf64>) -> tensor<f64> {
  %ninf = arith.constant 0xFFF0000000000000 : f64
  %k = tensor.empty() : tensor<2x2xf64>
  %e = tensor.empty() : tensor<2x3x3x2xf64>
  %init = linalg.fill ins(%ninf : f64) outs(%e : tensor<2x3x3x2xf64>) -> tensor<2x3x3x2xf64>
  %y = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %k : tensor<2x6x6x2xf64>, tensor<2x2xf64>) outs(%init : tensor<2x3x3x2xf64>) -> tensor<2x3x3x2xf64>
)mlir" + returnSumOfSquares("%y", {2, 3, 3, 2}) +
                                        "}\n");
}

// Min pooling (the First rule's other direction), 3x2 windows, stride 1.
TEST(ConvolutionGradient, PoolingNhwcMin) {
  expectGradientsMatchFiniteDifferences(R"mlir(
func.func @f(%x: tensor<1x4x4x2xf64>) -> tensor<f64> {
  %pinf = arith.constant 0x7FF0000000000000 : f64
  %k = tensor.empty() : tensor<3x2xf64>
  %e = tensor.empty() : tensor<1x2x3x2xf64>
  %init = linalg.fill ins(%pinf : f64) outs(%e : tensor<1x2x3x2xf64>) -> tensor<1x2x3x2xf64>
  %y = linalg.pooling_nhwc_min {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %k : tensor<1x4x4x2xf64>, tensor<3x2xf64>) outs(%init : tensor<1x2x3x2xf64>) -> tensor<1x2x3x2xf64>
)mlir" + returnSumOfSquares("%y", {1, 2, 3, 2}) +
                                        "}\n");
}

// 3x3 sum pooling with stride 2 in NCHW, and with dilation 2 in NHWC.
TEST(ConvolutionGradient, PoolingSumBothLayouts) {
  expectGradientsMatchFiniteDifferences(R"mlir(
func.func @f(%x: tensor<1x2x7x7xf64>, %z: tensor<1x9x9x2xf64>) -> tensor<f64> {
  %zero = arith.constant 0.0 : f64
  %k = tensor.empty() : tensor<3x3xf64>
  %e = tensor.empty() : tensor<1x2x3x3xf64>
  %init = linalg.fill ins(%zero : f64) outs(%e : tensor<1x2x3x3xf64>) -> tensor<1x2x3x3xf64>
  %a = linalg.pooling_nchw_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %k : tensor<1x2x7x7xf64>, tensor<3x3xf64>) outs(%init : tensor<1x2x3x3xf64>) -> tensor<1x2x3x3xf64>
  %en = tensor.empty() : tensor<1x3x3x2xf64>
  %initn = linalg.fill ins(%zero : f64) outs(%en : tensor<1x3x3x2xf64>) -> tensor<1x3x3x2xf64>
  %b = linalg.pooling_nhwc_sum {dilations = dense<2> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%z, %k : tensor<1x9x9x2xf64>, tensor<3x3xf64>) outs(%initn : tensor<1x3x3x2xf64>) -> tensor<1x3x3x2xf64>
  %et = tensor.empty() : tensor<1x2x3x3xf64>
  %bt = linalg.transpose ins(%b : tensor<1x3x3x2xf64>) outs(%et : tensor<1x2x3x3xf64>) permutation = [0, 3, 1, 2]
  %eo = tensor.empty() : tensor<1x2x3x3xf64>
  %y = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (n, c, h, w)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%a, %bt : tensor<1x2x3x3xf64>, tensor<1x2x3x3xf64>) outs(%eo : tensor<1x2x3x3xf64>) {
  ^bb0(%u: f64, %v: f64, %o: f64):
    %m = arith.mulf %u, %v : f64
    linalg.yield %m : f64
  } -> tensor<1x2x3x3xf64>
)mlir" + returnSumOfSquares("%y", {1, 2, 3, 3}) +
                                        "}\n");
}

} // namespace
