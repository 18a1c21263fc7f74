// Bilinear upsampling (F.interpolate(x, scale_factor=2, mode="bilinear",
// align_corners=False)) as torch-mlir lowers it (2026-12-07;
// amp-differentiate refused it before): a generic over the output whose body
// reads four elements of the source with tensor.extract and yields their
// weighted sum, the weights computed from linalg.index. The adjoint is the
// gather's scatter-add of each element's weight times the output's
// cotangent (the weight: the body with that element 1 and the others 0,
// less the body with all 0), PyTorch's upsample_bilinear2d_backward.
// RUN: amp-opt %s --amp-build-train-step="loss=mse function=forward" -o %t1.mlir
// RUN: amp-run %t1.mlir --data=synthetic --check-gradients | FileCheck %s --check-prefix=GRAD
// RUN: amp-opt %s --amp-build-train-step="loss=mse batch=8 function=forward" -o %t8.mlir
// RUN: amp-run %t8.mlir --data=synthetic --check-gradients | FileCheck %s --check-prefix=GRAD
// GRAD: #0{{ +}}2x2x1x1xf32
// GRAD: (tolerance 1e-05): passed
// RUN: amp-run %t8.mlir --data=synthetic --run=f32,f16+dynamic,bf16 --max-steps=3 --threads=1 --progress=false 2>&1 | FileCheck %s --check-prefix=TRAIN
// TRAIN: f32{{ +}}[[L:[0-9]\.[0-9][0-9]]]
// TRAIN: f16 + dynamic{{ +}}[[L]]
// TRAIN: bf16{{ +}}[[L]]
// The forward at batch 8 and dynamic, example by example, bit for bit:
// RUN: %python %amp_src_root/scripts/check-rebatch-forward.py %s %amp_obj_root | FileCheck %s --check-prefix=EXEC
// EXEC: max |fwd1 - fwd8| = 0, max |fwd1 - fwd(dynamic at 8)| = 0, max |fwd1| = {{[0-9.]+}}
//
// A body that multiplies two gathered elements is refused, located:
// RUN: not amp-opt %s --split-input-file --amp-differentiate="function=square" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: build-train-step-bilinear.mlir:[[#@LINE+79]]:10: error: amp-differentiate: this op computes non-linearly with elements that its linalg.generic gathers with tensor.extract from a differentiated tensor; a gather is differentiated when its output is a linear combination of them (an embedding lookup, bilinear upsampling) or their masked sum (adaptive average pooling)

  func.func @forward(%arg0: tensor<1x2x3x3xf32>) -> tensor<1x2x6x6xf32> {
    %w = arith.constant dense<[[[[0.7]], [[-0.4]]], [[[0.3]], [[0.9]]]]> : tensor<2x2x1x1xf32>
    %zero = arith.constant 0.000000e+00 : f32
    %half = arith.constant 5.000000e-01 : f32
    %one = arith.constant 1.000000e+00 : f32
    %c2_i64 = arith.constant 2 : i64
    %c1_i64 = arith.constant 1 : i64
    %e3 = tensor.empty() : tensor<1x2x3x3xf32>
    %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
    %conv = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%arg0, %w : tensor<1x2x3x3xf32>, tensor<2x2x1x1xf32>) outs(%z3 : tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
    %e6 = tensor.empty() : tensor<1x2x6x6xf32>
    %up = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%e6 : tensor<1x2x6x6xf32>) {
    ^bb0(%out: f32):
      %n = linalg.index 0 : index
      %c = linalg.index 1 : index
      %oh = linalg.index 2 : index
      %ow = linalg.index 3 : index
      %y64 = arith.index_cast %oh : index to i64
      %yf = arith.sitofp %y64 : i64 to f32
      %ya = arith.addf %yf, %half : f32
      %yb = arith.mulf %ya, %half : f32
      %yc = arith.subf %yb, %half : f32
      %yd = arith.maximumf %yc, %zero : f32
      %yfl = math.floor %yd : f32
      %y0i = arith.fptosi %yfl : f32 to i64
      %y0c = arith.minsi %y0i, %c2_i64 : i64
      %y1a = arith.addi %y0c, %c1_i64 : i64
      %y1c = arith.minsi %y1a, %c2_i64 : i64
      %yl = arith.subf %yd, %yfl : f32
      %yl0 = arith.subf %one, %yl : f32
      %y0 = arith.index_cast %y0c : i64 to index
      %y1 = arith.index_cast %y1c : i64 to index
      %x64 = arith.index_cast %ow : index to i64
      %xf = arith.sitofp %x64 : i64 to f32
      %xa = arith.addf %xf, %half : f32
      %xb = arith.mulf %xa, %half : f32
      %xc = arith.subf %xb, %half : f32
      %xd = arith.maximumf %xc, %zero : f32
      %xfl = math.floor %xd : f32
      %x0i = arith.fptosi %xfl : f32 to i64
      %x0c = arith.minsi %x0i, %c2_i64 : i64
      %x1a = arith.addi %x0c, %c1_i64 : i64
      %x1c = arith.minsi %x1a, %c2_i64 : i64
      %xl = arith.subf %xd, %xfl : f32
      %xl0 = arith.subf %one, %xl : f32
      %x0 = arith.index_cast %x0c : i64 to index
      %x1 = arith.index_cast %x1c : i64 to index
      %p00 = tensor.extract %conv[%n, %c, %y0, %x0] : tensor<1x2x3x3xf32>
      %p01 = tensor.extract %conv[%n, %c, %y0, %x1] : tensor<1x2x3x3xf32>
      %p10 = tensor.extract %conv[%n, %c, %y1, %x0] : tensor<1x2x3x3xf32>
      %p11 = tensor.extract %conv[%n, %c, %y1, %x1] : tensor<1x2x3x3xf32>
      %t0 = arith.mulf %p00, %xl0 : f32
      %t1 = arith.mulf %p01, %xl : f32
      %top = arith.addf %t0, %t1 : f32
      %b0 = arith.mulf %p10, %xl0 : f32
      %b1 = arith.mulf %p11, %xl : f32
      %bot = arith.addf %b0, %b1 : f32
      %u0 = arith.mulf %top, %yl0 : f32
      %u1 = arith.mulf %bot, %yl : f32
      %r = arith.addf %u0, %u1 : f32
      linalg.yield %r : f32
    } -> tensor<1x2x6x6xf32>
    %9 = tensor.empty() : tensor<2x2x6x6xf32>
    return %up : tensor<1x2x6x6xf32>
  }

// -----

func.func @square(%t: tensor<4xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %e4 = tensor.empty() : tensor<4xf32>
  %sq = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%e4 : tensor<4xf32>) {
  ^bb0(%o: f32):
    %k = linalg.index 0 : index
    %v = tensor.extract %t[%k] : tensor<4xf32>
    %p = arith.mulf %v, %v : f32
    linalg.yield %p : f32
  } -> tensor<4xf32>
  %l = linalg.reduce { arith.addf } ins(%sq : tensor<4xf32>) outs(%i : tensor<f32>) dimensions = [0]
  return %l : tensor<f32>
}
