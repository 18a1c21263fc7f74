// The structured adjoint of linalg ops: one generic per differentiated
// operand over the op's iteration space, writing with the operand's map and
// reducing over the dimensions it drops; convolution windows through a
// dilated, padded cotangent and a mask; max pooling's first-maximum index;
// max reductions' tie count; softmax's own rule. (Values are checked by
// unittests/Autodiff against finite differences.)
// RUN: amp-opt %s -split-input-file -amp-differentiate -mlir-print-local-scope | FileCheck %s

// dA[m, k] = sum_n dC[m, n] B[k, n]: n becomes the reduction; dB likewise;
// the accumulator argument gets dC itself.
// CHECK-LABEL: func.func @matmul_grad(
// CHECK-SAME:      %[[A:[^:]+]]: tensor<4x3xf32>, %[[B:[^:]+]]: tensor<3x5xf32>, %[[C:[^:]+]]: tensor<4x5xf32>)
// CHECK:         %[[DC:.*]] = linalg.generic {{.*}} ins(%{{.*}} : tensor<f32>) outs(%{{.*}} : tensor<4x5xf32>)
// CHECK:         %[[DA:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d2)>], iterator_types = ["parallel", "reduction", "parallel"]} ins(%[[B]], %[[DC]] : tensor<3x5xf32>, tensor<4x5xf32>)
// CHECK:           arith.mulf
// CHECK:           arith.addf
// CHECK:         %[[DB:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d2, d1)>], iterator_types = ["reduction", "parallel", "parallel"]} ins(%[[A]], %[[DC]] : tensor<4x3xf32>, tensor<4x5xf32>)
// CHECK:         return %{{.*}}, %[[DA]], %[[DB]], %[[DC]]
func.func @matmul(%a: tensor<4x3xf32>, %b: tensor<3x5xf32>, %c: tensor<4x5xf32>) -> tensor<f32> {
  %y = linalg.matmul ins(%a, %b : tensor<4x3xf32>, tensor<3x5xf32>) outs(%c : tensor<4x5xf32>) -> tensor<4x5xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %l = linalg.reduce { arith.addf } ins(%y : tensor<4x5xf32>) outs(%i : tensor<f32>) dimensions = [0, 1]
  return %l : tensor<f32>
}

// -----

// Stride 2, 2x2 kernel on 5x5: the output cotangent is dilated by 2 and
// padded by K - 1 = 1 into 6x6, read at i - k + 1, and positions no output
// read (t = i - k odd or outside [0, 4)) are masked; the filter's cotangent
// is the correlation of the input (its window map) with the cotangent.
// CHECK-LABEL: func.func @conv_strided_grad(
// CHECK-SAME:      %[[X:[^:]+]]: tensor<1x1x5x5xf32>, %[[W:[^:]+]]: tensor<1x1x2x2xf32>)
// CHECK:         %[[DY:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<1x1x2x2xf32>)
// CHECK:         %[[PAD:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x1x6x6xf32>)
// CHECK:         %[[DIL:.*]] = tensor.insert_slice %[[DY]] into %[[PAD]][0, 0, 1, 1] [1, 1, 2, 2] [1, 1, 2, 2] : tensor<1x1x2x2xf32> into tensor<1x1x6x6xf32>
// CHECK:         %[[DX:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2 - d5 + 1, d3 - d6 + 1)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d4, d2, d3)>], iterator_types = ["parallel", "reduction", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%[[W]], %[[DIL]] :
// CHECK:           arith.remsi
// CHECK:           arith.select
// CHECK:         %[[DW:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d4, d2 * 2 + d5, d3 * 2 + d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>], iterator_types = ["reduction", "parallel", "reduction", "reduction", "parallel", "parallel", "parallel"]} ins(%[[X]], %[[DY]] :
// CHECK:         return %{{.*}}, %[[DX]], %[[DW]]
func.func @conv_strided(%x: tensor<1x1x5x5xf32>, %w: tensor<1x1x2x2xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x1x2x2xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %w : tensor<1x1x5x5xf32>, tensor<1x1x2x2xf32>) outs(%acc : tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32>
  %es = tensor.empty() : tensor<f32>
  %i = linalg.fill ins(%zero : f32) outs(%es : tensor<f32>) -> tensor<f32>
  %l = linalg.reduce { arith.addf } ins(%y : tensor<1x1x2x2xf32>) outs(%i : tensor<f32>) dimensions = [0, 1, 2, 3]
  return %l : tensor<f32>
}

// -----

// Max pooling (First rule): the first maximum's linear window index per
// output (-1 when the init wins; i8, the narrowest type that holds the 4
// window positions), then each input position takes the cotangent of the
// windows whose index it is. A 2x2 window with stride 2 covers the input
// exactly once: the cotangent is written as a 1x1x2x2x2x2 blocked view
// (output position, window position) and collapsed, without a dilated copy.
// CHECK-LABEL: func.func @max_pool_grad(
// CHECK:         %[[START:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<1x1x2x2xi8>)
// CHECK:           arith.select %{{.*}}, %c-1_i8, %c127_i8 : i8
// CHECK:         %[[FIRST:.*]] = linalg.generic {{.*}} outs(%[[START]] : tensor<1x1x2x2xi8>)
// CHECK:           arith.index_cast %{{.*}} : index to i8
// CHECK:           arith.minsi
// CHECK-NOT:     tensor.insert_slice
// CHECK:         %[[BLOCKED:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d4, d3, d5)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%{{.*}}, %[[FIRST]] : tensor<1x1x2x2xf32>, tensor<1x1x2x2xi8>) outs(%{{.*}} : tensor<1x1x2x2x2x2xf32>)
// CHECK:           arith.cmpi eq, %{{.*}}, %{{.*}} : i8
// CHECK:         %[[DX:.*]] = tensor.collapse_shape %[[BLOCKED]] {{\[}}[0], [1], [2, 3], [4, 5]] : tensor<1x1x2x2x2x2xf32> into tensor<1x1x4x4xf32>
// CHECK:         return %{{.*}}, %[[DX]]
func.func @max_pool(%x: tensor<1x1x4x4xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %k = tensor.empty() : tensor<2x2xf32>
  %e = tensor.empty() : tensor<1x1x2x2xf32>
  %init = linalg.fill ins(%ninf : f32) outs(%e : tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32>
  %y = linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %k : tensor<1x1x4x4xf32>, tensor<2x2xf32>) outs(%init : tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32>
  %es = tensor.empty() : tensor<f32>
  %i = linalg.fill ins(%zero : f32) outs(%es : tensor<f32>) -> tensor<f32>
  %l = linalg.reduce { arith.addf } ins(%y : tensor<1x1x2x2xf32>) outs(%i : tensor<f32>) dimensions = [0, 1, 2, 3]
  return %l : tensor<f32>
}

// -----

// Overlapping windows (3x3, stride 2): the cotangent and the tie (i8) are
// read from dilated, padded copies, and positions no window read get 0.
// CHECK-LABEL: func.func @max_pool_overlapping_grad(
// CHECK:         %[[START:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<1x1x2x2xi8>)
// CHECK:         %[[FIRST:.*]] = linalg.generic {{.*}} outs(%[[START]] : tensor<1x1x2x2xi8>)
// CHECK:         tensor.insert_slice %[[FIRST]] into %{{.*}}[0, 0, 2, 2] [1, 1, 2, 2] [1, 1, 2, 2] : tensor<1x1x2x2xi8> into tensor<1x1x7x7xi8>
// CHECK:         %[[DX:.*]] = linalg.generic
// CHECK:           arith.cmpi eq, %{{.*}}, %{{.*}} : i8
// CHECK:           arith.remsi
// CHECK:         } -> tensor<1x1x5x5xf32>
// CHECK:         return %{{.*}}, %[[DX]]
func.func @max_pool_overlapping(%x: tensor<1x1x5x5xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %k = tensor.empty() : tensor<3x3xf32>
  %e = tensor.empty() : tensor<1x1x2x2xf32>
  %init = linalg.fill ins(%ninf : f32) outs(%e : tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32>
  %y = linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %k : tensor<1x1x5x5xf32>, tensor<3x3xf32>) outs(%init : tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32>
  %es = tensor.empty() : tensor<f32>
  %i = linalg.fill ins(%zero : f32) outs(%es : tensor<f32>) -> tensor<f32>
  %l = linalg.reduce { arith.addf } ins(%y : tensor<1x1x2x2xf32>) outs(%i : tensor<f32>) dimensions = [0, 1, 2, 3]
  return %l : tensor<f32>
}

// -----

// amax (Split rule): count the elements equal to the maximum (the init
// too), then dr / count to each of them.
// CHECK-LABEL: func.func @amax_grad(
// CHECK:         %[[INITEQ:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %[[MAX:.*]] : tensor<3xf32>, tensor<3xf32>)
// CHECK:         %[[COUNT:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]{{.*}} outs(%[[INITEQ]] : tensor<3xf32>)
// CHECK:           arith.cmpf oeq
// CHECK:         %[[DX:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %{{.*}}, %[[MAX]], %[[COUNT]] :
// CHECK:           arith.divf
// CHECK:           arith.select
// CHECK:         return %{{.*}}, %[[DX]]
func.func @amax(%x: tensor<3x4xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<3xf32>
  %init = linalg.fill ins(%ninf : f32) outs(%e : tensor<3xf32>) -> tensor<3xf32>
  %m = linalg.reduce { arith.maximumf } ins(%x : tensor<3x4xf32>) outs(%init : tensor<3xf32>) dimensions = [1]
  %es = tensor.empty() : tensor<f32>
  %i = linalg.fill ins(%zero : f32) outs(%es : tensor<f32>) -> tensor<f32>
  %l = linalg.reduce { arith.addf } ins(%m : tensor<3xf32>) outs(%i : tensor<f32>) dimensions = [0]
  return %l : tensor<f32>
}

// -----

// softmax: dx = y * (dy - sum_dim(dy * y)).
// CHECK-LABEL: func.func @softmax_grad(
// CHECK-SAME:      %{{[^:]+}}: tensor<2x3xf32>, %[[W:[^:]+]]: tensor<2x3xf32>)
// CHECK:         %[[Y:.*]] = linalg.softmax
// CHECK:         arith.constant dense<1.000000e+00>
// CHECK:         %[[DY:.*]] = arith.mulf %{{.*}}, %[[W]] : tensor<2x3xf32>
// CHECK:         %[[S:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]} ins(%[[DY]], %[[Y]] : tensor<2x3xf32>, tensor<2x3xf32>)
// CHECK:         %[[DX:.*]] = linalg.generic {{.*}} ins(%[[Y]], %[[DY]], %[[S]] : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2xf32>)
// CHECK:           arith.subf
// CHECK:           arith.mulf
// CHECK:         return %{{.*}}, %[[DX]], %{{.*}}
func.func @softmax(%x: tensor<2x3xf32>, %w: tensor<2x3xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x3xf32>
  %s = linalg.softmax dimension(1) ins(%x : tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  %p = arith.mulf %s, %w : tensor<2x3xf32>
  %es = tensor.empty() : tensor<f32>
  %i = linalg.fill ins(%zero : f32) outs(%es : tensor<f32>) -> tensor<f32>
  %l = linalg.reduce { arith.addf } ins(%p : tensor<2x3xf32>) outs(%i : tensor<f32>) dimensions = [0, 1]
  return %l : tensor<f32>
}

// -----

// torch-mlir's ReLU, select(x > 0, x, 0) with the zero captured and the
// batch-1 input read through a constant index: the mask comes from the
// result (PyTorch's threshold_backward(grad, result, 0)), so the backward
// reads y and not x.
// CHECK-LABEL: func.func @relu_grad(
// CHECK-SAME:      %[[X:[^:]+]]: tensor<1x3xf32>)
// CHECK:         %[[Y:.*]] = linalg.generic
// CHECK:           arith.cmpf ugt
// CHECK:         %[[DX:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (0, d1)>], {{.*}} ins(%{{.*}}, %[[Y]] : tensor<1x3xf32>, tensor<1x3xf32>)
// CHECK-NEXT:    ^bb0(%[[DYA:[^:]+]]: f32, %[[YA:[^:]+]]: f32, %[[ACC:[^:]+]]: f32):
// CHECK-NEXT:      %[[C:.*]] = arith.cmpf ugt, %[[YA]], %{{.*}} : f32
// CHECK-NEXT:      arith.constant 0.0
// CHECK-NEXT:      %[[D:.*]] = arith.select %[[C]], %[[DYA]], %{{.*}} : f32
// CHECK-NEXT:      %[[S:.*]] = arith.addf %[[ACC]], %[[D]]
// CHECK-NEXT:      linalg.yield %[[S]]
// CHECK:         return %{{.*}}, %[[DX]]
func.func @relu(%x: tensor<1x3xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x3xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<1x3xf32>) outs(%e : tensor<1x3xf32>) {
  ^bb0(%a: f32, %o: f32):
    %c = arith.cmpf ugt, %a, %zero : f32
    %r = arith.select %c, %a, %zero : f32
    linalg.yield %r : f32
  } -> tensor<1x3xf32>
  %p = arith.mulf %y, %y : tensor<1x3xf32>
  %es = tensor.empty() : tensor<f32>
  %i = linalg.fill ins(%zero : f32) outs(%es : tensor<f32>) -> tensor<f32>
  %l = linalg.reduce { arith.addf } ins(%p : tensor<1x3xf32>) outs(%i : tensor<f32>) dimensions = [0, 1]
  return %l : tensor<f32>
}

// -----

// A leaky ReLU, select(x > 0, x, 0.01 x), is not a ReLU: the backward
// compares x.
// CHECK-LABEL: func.func @leaky_relu_grad(
// CHECK-SAME:      %[[X:[^:]+]]: tensor<3xf32>)
// CHECK:         linalg.generic {{.*}} ins(%[[X]], %{{.*}} : tensor<3xf32>, tensor<3xf32>)
func.func @leaky_relu(%x: tensor<3xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                       iterator_types = ["parallel"]}
      ins(%x : tensor<3xf32>) outs(%e : tensor<3xf32>) {
  ^bb0(%a: f32, %o: f32):
    %slope = arith.constant 0.01 : f32
    %c = arith.cmpf ugt, %a, %zero : f32
    %s = arith.mulf %a, %slope : f32
    %r = arith.select %c, %a, %s : f32
    linalg.yield %r : f32
  } -> tensor<3xf32>
  %es = tensor.empty() : tensor<f32>
  %i = linalg.fill ins(%zero : f32) outs(%es : tensor<f32>) -> tensor<f32>
  %l = linalg.reduce { arith.addf } ins(%y : tensor<3xf32>) outs(%i : tensor<f32>) dimensions = [0]
  return %l : tensor<f32>
}
