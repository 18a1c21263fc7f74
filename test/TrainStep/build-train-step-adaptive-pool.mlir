// Adaptive average pooling to a size that does not divide the input's
// (2026-12-07; amp-differentiate refused it before). torch-mlir lowers
// F.adaptive_avg_pool2d(x, 3) of a 5x5 map to a generic over
// (n, c, oh, ow, kh, kw) that sums, over the largest window (3x3), the
// elements tensor.extract reads at start(o) + k, masked where the window is
// shorter (windows [0,2), [1,4), [3,5)), then a division by each window's
// size. The adjoint is the gather's scatter-add with the mask. @forward also
// sums a second window with the mask negated (select(outside, 0, x)) into a
// trained bias, so both mask forms and an init that is differentiated are
// checked against finite differences.
//
// RUN: amp-opt %s --amp-build-train-step="loss=mse function=forward" -o %t1.mlir
// RUN: amp-run %t1.mlir --data=synthetic --check-gradients | FileCheck %s --check-prefix=GRAD
// Re-batched to 8 (the gather's batch index is linalg.index 0):
// RUN: amp-opt %s --amp-build-train-step="loss=mse batch=8 function=forward" -o %t8.mlir
// RUN: amp-run %t8.mlir --data=synthetic --check-gradients | FileCheck %s --check-prefix=GRAD
// GRAD: argument   parameter
// GRAD: #0         2x2x1x1xf32
// GRAD: #1         2xf32
// GRAD: (tolerance 1e-05): passed
// RUN: amp-run %t8.mlir --data=synthetic --run=f32,f16+dynamic,bf16 --max-steps=3 --threads=1 --progress=false 2>&1 | FileCheck %s --check-prefix=TRAIN
// TRAIN: f32{{ +}}[[L:[0-9]\.[0-9]]]
// TRAIN: f16 + dynamic{{ +}}[[L]]
// TRAIN: bf16{{ +}}[[L]]
// The forward at batch 8 and dynamic, example by example, bit for bit:
// RUN: %python %amp_src_root/scripts/check-rebatch-forward.py %s %amp_obj_root | FileCheck %s --check-prefix=EXEC
// EXEC: max |fwd1 - fwd8| = 0, max |fwd1 - fwd(dynamic at 8)| = 0, max |fwd1| = {{[0-9.]+}}

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#ch = affine_map<(d0, d1, d2, d3) -> (d1)>
#win = affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5)>
#out = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>
  func.func @forward(%arg0: tensor<1x2x5x5xf32>) -> tensor<1x2x3x3xf32> {
    %w = arith.constant dense<[[[[0.8]], [[-0.3]]], [[[0.4]], [[0.6]]]]> : tensor<2x2x1x1xf32>
    %bias = arith.constant dense<[0.25, -0.5]> : tensor<2xf32>
    %zero = arith.constant 0.000000e+00 : f32
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c5 = arith.constant 5 : index
    %e5 = tensor.empty() : tensor<1x2x5x5xf32>
    %z5 = linalg.fill ins(%zero : f32) outs(%e5 : tensor<1x2x5x5xf32>) -> tensor<1x2x5x5xf32>
    %conv = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%arg0, %w : tensor<1x2x5x5xf32>, tensor<2x2x1x1xf32>) outs(%z5 : tensor<1x2x5x5xf32>) -> tensor<1x2x5x5xf32>
    %kernel = tensor.empty() : tensor<3x3xf32>
    %e3 = tensor.empty() : tensor<1x2x3x3xf32>
    %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
    // F.adaptive_avg_pool2d(conv, 3): window sums.
    %sum = linalg.generic {indexing_maps = [#win, #out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%kernel : tensor<3x3xf32>) outs(%z3 : tensor<1x2x3x3xf32>) {
    ^bb0(%in: f32, %o: f32):
      %n = linalg.index 0 : index
      %c = linalg.index 1 : index
      %oh = linalg.index 2 : index
      %ow = linalg.index 3 : index
      %kh = linalg.index 4 : index
      %kw = linalg.index 5 : index
      %a0 = arith.muli %oh, %c5 : index
      %hs = arith.floordivsi %a0, %c3 : index
      %a1 = arith.addi %oh, %c1 : index
      %a2 = arith.muli %a1, %c5 : index
      %he = arith.ceildivsi %a2, %c3 : index
      %h = arith.addi %hs, %kh : index
      %hin = arith.cmpi slt, %h, %he : index
      %hi = arith.select %hin, %h, %hs : index
      %b0 = arith.muli %ow, %c5 : index
      %ws = arith.floordivsi %b0, %c3 : index
      %b1 = arith.addi %ow, %c1 : index
      %b2 = arith.muli %b1, %c5 : index
      %we = arith.ceildivsi %b2, %c3 : index
      %v = arith.addi %ws, %kw : index
      %win = arith.cmpi slt, %v, %we : index
      %wi = arith.select %win, %v, %ws : index
      %x = tensor.extract %conv[%n, %c, %hi, %wi] : tensor<1x2x5x5xf32>
      %m = arith.andi %hin, %win : i1
      %t = arith.select %m, %x, %zero : f32
      %s = arith.addf %t, %o : f32
      linalg.yield %s : f32
    } -> tensor<1x2x3x3xf32>
    // The windows' sizes.
    %size = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%e3 : tensor<1x2x3x3xf32>) {
    ^bb0(%o: f32):
      %oh = linalg.index 2 : index
      %ow = linalg.index 3 : index
      %a0 = arith.muli %oh, %c5 : index
      %hs = arith.floordivsi %a0, %c3 : index
      %a1 = arith.addi %oh, %c1 : index
      %a2 = arith.muli %a1, %c5 : index
      %he = arith.ceildivsi %a2, %c3 : index
      %hn = arith.subi %he, %hs : index
      %b0 = arith.muli %ow, %c5 : index
      %ws = arith.floordivsi %b0, %c3 : index
      %b1 = arith.addi %ow, %c1 : index
      %b2 = arith.muli %b1, %c5 : index
      %we = arith.ceildivsi %b2, %c3 : index
      %wn = arith.subi %we, %ws : index
      %k = arith.muli %hn, %wn : index
      %ki = arith.index_cast %k : index to i64
      %kf = arith.sitofp %ki : i64 to f32
      linalg.yield %kf : f32
    } -> tensor<1x2x3x3xf32>
    %pool = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%sum, %size : tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>) outs(%e3 : tensor<1x2x3x3xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %d = arith.divf %a, %b : f32
      linalg.yield %d : f32
    } -> tensor<1x2x3x3xf32>
    // The same windows of the input summed into a bias, the mask negated.
    %bb = linalg.generic {indexing_maps = [#ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%bias : tensor<2xf32>) outs(%e3 : tensor<1x2x3x3xf32>) {
    ^bb0(%in: f32, %o: f32):
      linalg.yield %in : f32
    } -> tensor<1x2x3x3xf32>
    %sum2 = linalg.generic {indexing_maps = [#win, #out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%kernel : tensor<3x3xf32>) outs(%bb : tensor<1x2x3x3xf32>) {
    ^bb0(%in: f32, %o: f32):
      %n = linalg.index 0 : index
      %c = linalg.index 1 : index
      %oh = linalg.index 2 : index
      %ow = linalg.index 3 : index
      %kh = linalg.index 4 : index
      %kw = linalg.index 5 : index
      %a0 = arith.muli %oh, %c5 : index
      %hs = arith.floordivsi %a0, %c3 : index
      %a1 = arith.addi %oh, %c1 : index
      %a2 = arith.muli %a1, %c5 : index
      %he = arith.ceildivsi %a2, %c3 : index
      %h = arith.addi %hs, %kh : index
      %hout = arith.cmpi sge, %h, %he : index
      %hi = arith.select %hout, %hs, %h : index
      %x = tensor.extract %conv[%n, %c, %hi, %ow] : tensor<1x2x5x5xf32>
      %t = arith.select %hout, %zero, %x : f32
      %s = arith.addf %o, %t : f32
      linalg.yield %s : f32
    } -> tensor<1x2x3x3xf32>
    %y = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%pool, %sum2 : tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>) outs(%e3 : tensor<1x2x3x3xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %d = arith.addf %a, %b : f32
      linalg.yield %d : f32
    } -> tensor<1x2x3x3xf32>
    return %y : tensor<1x2x3x3xf32>
  }
