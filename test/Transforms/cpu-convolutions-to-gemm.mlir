// RUN: amp-opt %s --split-input-file --amp-cpu-convolutions-to-gemm | FileCheck %s

// amp-cpu-convolutions-to-gemm: a convolution and its gradients as one
// GEMM per image (im2col) that amp-cpu-tile-contractions matches after
// bufferization. Numerics are checked by unittests/Runtime
// ConvolutionsAsGemmTest (conv-gemm on against off, and on two threads).

// The forward convolution: a loop over the batch; per image the input
// copied as im2col [c*kh*kw, oh*ow], the weight only viewed as [f, c*kh*kw],
// the GEMM into the output image viewed as [f, oh*ow].
// CHECK-DAG:   #[[WIN:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1 + d3, d2 + d4)>
// CHECK-DAG:   #[[ROW:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG:   #[[KJ:.*]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-DAG:   #[[IJ:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @forward_conv
// CHECK-SAME:    (%[[X:.*]]: tensor<2x3x6x6xf32>, %[[W:.*]]: tensor<4x3x3x3xf32>, %[[INIT:.*]]: tensor<2x4x4x4xf32>)
// CHECK:       %[[WM:.*]] = tensor.collapse_shape %[[W]] {{\[}}[0], [1, 2, 3]] : tensor<4x3x3x3xf32> into tensor<4x27xf32>
// CHECK:       %[[R:.*]] = scf.for %[[N:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[INIT]])
// CHECK:         %[[OUT:.*]] = tensor.extract_slice %[[ACC]][%[[N]], 0, 0, 0] [1, 4, 4, 4] [1, 1, 1, 1] : tensor<2x4x4x4xf32> to tensor<4x4x4xf32>
// CHECK:         %[[IMG:.*]] = tensor.extract_slice %[[X]][%[[N]], 0, 0, 0] [1, 3, 6, 6]
// CHECK:         %[[COL:.*]] = linalg.generic {indexing_maps = [#[[WIN]], {{.*}}]{{.*}} ins(%[[IMG]] : tensor<3x6x6xf32>) outs(%{{.*}} : tensor<3x3x3x4x4xf32>)
// CHECK:         %[[COLM:.*]] = tensor.collapse_shape %[[COL]] {{\[}}[0, 1, 2], [3, 4]] {{.*}} into tensor<27x16xf32>
// CHECK:         %[[C:.*]] = tensor.collapse_shape %[[OUT]] {{\[}}[0], [1, 2]] {{.*}} into tensor<4x16xf32>
// CHECK:         %[[G:.*]] = linalg.generic {indexing_maps = [#[[ROW]], #[[KJ]], #[[IJ]]], iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[WM]], %[[COLM]] : tensor<4x27xf32>, tensor<27x16xf32>) outs(%[[C]] : tensor<4x16xf32>)
// CHECK:           arith.mulf
// CHECK-NEXT:      arith.addf
// CHECK:         %[[E:.*]] = tensor.expand_shape %[[G]]
// CHECK:         %[[INS:.*]] = tensor.insert_slice %[[E]] into %[[ACC]][%[[N]], 0, 0, 0]
// CHECK:         scf.yield %[[INS]]
// CHECK:       return %[[R]]
func.func @forward_conv(%x: tensor<2x3x6x6xf32>, %w: tensor<4x3x3x3xf32>, %init: tensor<2x4x4x4xf32>) -> tensor<2x4x4x4xf32> {
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%x, %w : tensor<2x3x6x6xf32>, tensor<4x3x3x3xf32>) outs(%init : tensor<2x4x4x4xf32>) -> tensor<2x4x4x4xf32>
  return %0 : tensor<2x4x4x4xf32>
}

// -----

// The weight gradient: the batch is a reduction, carried by the loop; the
// output gradient is a matrix [f, oh*ow] already (a view); the input's
// im2col [c*kh*kw, oh*ow] (oh*ow innermost, the longer run) is the
// transposed B; bf16 operands stay bf16, widened in the GEMM's body.
// CHECK-DAG:   #[[JK:.*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-LABEL: func.func @weight_gradient
// CHECK-SAME:    (%[[X:.*]]: tensor<2x3x6x6xbf16>, %[[DY:.*]]: tensor<2x4x4x4xbf16>, %[[INIT:.*]]: tensor<4x3x3x3xf32>)
// CHECK:       scf.for %[[N:.*]] = {{.*}} iter_args(%[[ACC:.*]] = %[[INIT]]) -> (tensor<4x3x3x3xf32>)
// CHECK:         %[[COL:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<3x3x3x4x4xbf16>)
// CHECK:         %[[COLM:.*]] = tensor.collapse_shape %[[COL]] {{.*}} into tensor<27x16xbf16>
// CHECK:         %[[DYN:.*]] = tensor.extract_slice %[[DY]][%[[N]], 0, 0, 0] [1, 4, 4, 4]
// CHECK:         %[[DYM:.*]] = tensor.collapse_shape %[[DYN]] {{.*}} into tensor<4x16xbf16>
// CHECK:         %[[C:.*]] = tensor.collapse_shape %[[ACC]] {{\[}}[0], [1, 2, 3]] {{.*}} into tensor<4x27xf32>
// CHECK:         linalg.generic {indexing_maps = [#{{.*}}, #[[JK]], #{{.*}}]{{.*}} ins(%[[DYM]], %[[COLM]] : tensor<4x16xbf16>, tensor<27x16xbf16>) outs(%[[C]] : tensor<4x27xf32>)
// CHECK:           arith.extf
// CHECK:           arith.extf
// CHECK:           arith.mulf
// CHECK-NEXT:      arith.addf
// CHECK-NOT:     tensor.insert_slice
// CHECK:         scf.yield
#x = affine_map<(n, f, oh, ow, c, kh, kw) -> (n, c, oh + kh, ow + kw)>
#dy = affine_map<(n, f, oh, ow, c, kh, kw) -> (n, f, oh, ow)>
#dw = affine_map<(n, f, oh, ow, c, kh, kw) -> (f, c, kh, kw)>
func.func @weight_gradient(%x: tensor<2x3x6x6xbf16>, %dy: tensor<2x4x4x4xbf16>, %init: tensor<4x3x3x3xf32>) -> tensor<4x3x3x3xf32> {
  %0 = linalg.generic {indexing_maps = [#x, #dy, #dw],
      iterator_types = ["reduction", "parallel", "reduction", "reduction", "parallel", "parallel", "parallel"]}
      ins(%x, %dy : tensor<2x3x6x6xbf16>, tensor<2x4x4x4xbf16>) outs(%init : tensor<4x3x3x3xf32>) {
  ^bb0(%a: bf16, %b: bf16, %out: f32):
    %ea = arith.extf %a : bf16 to f32
    %eb = arith.extf %b : bf16 to f32
    %m = arith.mulf %ea, %eb : f32
    %s = arith.addf %out, %m : f32
    linalg.yield %s : f32
  } -> tensor<4x3x3x3xf32>
  return %0 : tensor<4x3x3x3xf32>
}

// -----

// The input gradient under a window mask: the weight's copy [f*kh*kw, c]
// is made once, before the loop; the mask goes into the copy of the output
// gradient, its linalg.index ops renumbered to the copy's loops
// (h: 1 -> 3, kh: 5 -> 1).
// CHECK-LABEL: func.func @input_gradient
// CHECK:       %[[WC:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<4x3x3x3xf32>)
// CHECK:       %[[WM:.*]] = tensor.collapse_shape %[[WC]] {{\[}}[0, 1, 2], [3]] {{.*}} into tensor<36x3xf32>
// CHECK:       scf.for
// CHECK:         linalg.generic {{.*}} outs(%{{.*}} : tensor<4x3x3x6x6xf32>)
// CHECK-NEXT:    ^bb0(%[[IN:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:      %[[H:.*]] = linalg.index 3 : index
// CHECK-NEXT:      %[[KH:.*]] = linalg.index 1 : index
// CHECK-NEXT:      %[[D:.*]] = arith.subi %[[H]], %[[KH]] : index
// CHECK:           %[[MASK:.*]] = arith.andi
// CHECK:           %[[SEL:.*]] = arith.select %[[MASK]], %[[IN]], %{{.*}} : f32
// CHECK-NEXT:      linalg.yield %[[SEL]] : f32
// CHECK:         tensor.collapse_shape {{.*}} into tensor<36x36xf32>
// CHECK:         linalg.generic {{.*}} ins(%[[WM]], %{{.*}} : tensor<36x3xf32>, tensor<36x36xf32>) outs(%{{.*}} : tensor<3x36xf32>)
#w = affine_map<(n, f, h, w, c, kh, kw) -> (f, c, kh, kw)>
#dyp = affine_map<(n, f, h, w, c, kh, kw) -> (n, f, h - kh + 2, w - kw + 2)>
#dx = affine_map<(n, f, h, w, c, kh, kw) -> (n, c, h, w)>
func.func @input_gradient(%w: tensor<4x3x3x3xf32>, %dy: tensor<2x4x8x8xf32>, %init: tensor<2x3x6x6xf32>) -> tensor<2x3x6x6xf32> {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  %0 = linalg.generic {indexing_maps = [#w, #dyp, #dx],
      iterator_types = ["parallel", "reduction", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%w, %dy : tensor<4x3x3x3xf32>, tensor<2x4x8x8xf32>) outs(%init : tensor<2x3x6x6xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %m = arith.mulf %b, %a : f32
    %h = linalg.index 2 : index
    %kh = linalg.index 5 : index
    %d = arith.subi %h, %kh : index
    %ge = arith.cmpi sge, %d, %c0 : index
    %lt = arith.cmpi slt, %d, %c4 : index
    %in = arith.andi %ge, %lt : i1
    %t = arith.select %in, %m, %zero : f32
    %s = arith.addf %out, %t : f32
    linalg.yield %s : f32
  } -> tensor<2x3x6x6xf32>
  return %0 : tensor<2x3x6x6xf32>
}

// -----

// A depthwise convolution reads its channel in the input, the weight and
// the output (a batch loop of the GEMM): left alone.
// CHECK-LABEL: func.func @depthwise_stays
// CHECK-NOT:   scf.for
// CHECK:       linalg.depthwise_conv_2d_nchw_chw
func.func @depthwise_stays(%x: tensor<2x3x6x6xf32>, %w: tensor<3x3x3xf32>, %init: tensor<2x3x4x4xf32>) -> tensor<2x3x4x4xf32> {
  %0 = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%x, %w : tensor<2x3x6x6xf32>, tensor<3x3x3xf32>) outs(%init : tensor<2x3x4x4xf32>) -> tensor<2x3x4x4xf32>
  return %0 : tensor<2x3x4x4xf32>
}

// -----

// f64 (a gradient check's step) has no micro-kernel: left alone.
// CHECK-LABEL: func.func @f64_stays
// CHECK-NOT:   scf.for
// CHECK:       linalg.conv_2d_nchw_fchw
func.func @f64_stays(%x: tensor<2x3x6x6xf64>, %w: tensor<4x3x3x3xf64>, %init: tensor<2x4x4x4xf64>) -> tensor<2x4x4x4xf64> {
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%x, %w : tensor<2x3x6x6xf64>, tensor<4x3x3x3xf64>) outs(%init : tensor<2x4x4x4xf64>) -> tensor<2x4x4x4xf64>
  return %0 : tensor<2x4x4x4xf64>
}

// -----

// A matmul already is what the kernels match.
// CHECK-LABEL: func.func @matmul_stays
// CHECK-NEXT:  linalg.matmul
func.func @matmul_stays(%a: tensor<4x8xf32>, %b: tensor<8x5xf32>, %init: tensor<4x5xf32>) -> tensor<4x5xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x5xf32>) outs(%init : tensor<4x5xf32>) -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// -----

// A mask that reads the batch loop goes into the per-image copy of the
// input that reads the batch (here the second input), with the batch index
// the loop's (break-it: it went into the weight's copy, made once before
// the loop, and the pass crashed).
// CHECK-LABEL: func.func @mask_reads_batch
// CHECK:       scf.for %[[N:.*]] = {{.*}} iter_args
// CHECK:         linalg.generic {{.*}} outs(%{{.*}} : tensor<3x3x3x4x4xf32>)
// CHECK:           %[[LT:.*]] = arith.cmpi slt, %[[N]], %{{.*}} : index
// CHECK:           arith.select %[[LT]]
#mw = affine_map<(n, f, oh, ow, c, kh, kw) -> (f, c, kh, kw)>
#mx = affine_map<(n, f, oh, ow, c, kh, kw) -> (n, c, oh + kh, ow + kw)>
#mo = affine_map<(n, f, oh, ow, c, kh, kw) -> (n, f, oh, ow)>
func.func @mask_reads_batch(%w: tensor<4x3x3x3xf32>, %x: tensor<2x3x6x6xf32>, %init: tensor<2x4x4x4xf32>) -> tensor<2x4x4x4xf32> {
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %0 = linalg.generic {indexing_maps = [#mw, #mx, #mo],
      iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%w, %x : tensor<4x3x3x3xf32>, tensor<2x3x6x6xf32>) outs(%init : tensor<2x4x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %m = arith.mulf %a, %b : f32
    %n = linalg.index 0 : index
    %ok = arith.cmpi slt, %n, %c1 : index
    %t = arith.select %ok, %m, %zero : f32
    %s = arith.addf %out, %t : f32
    linalg.yield %s : f32
  } -> tensor<2x4x4x4xf32>
  return %0 : tensor<2x4x4x4xf32>
}

// -----

// The output reads the reduction k and not the parallel q (as many
// results as parallel loops): not a GEMM, left alone (break-it: the pass
// wrote an op that failed to verify).
// CHECK-LABEL: func.func @output_reads_reduction_stays
// CHECK-NOT:   scf.for
// CHECK:       linalg.generic
#ra = affine_map<(i, j, k, q) -> (i, k + q, q)>
#rb = affine_map<(i, j, k, q) -> (k, j)>
#rc = affine_map<(i, j, k, q) -> (k, i, j)>
func.func @output_reads_reduction_stays(%A: tensor<2x6x3xf32>, %B: tensor<4x5xf32>, %C: tensor<4x2x5xf32>) -> tensor<4x2x5xf32> {
  %0 = linalg.generic {indexing_maps = [#ra, #rb, #rc], iterator_types = ["parallel", "parallel", "reduction", "parallel"]}
      ins(%A, %B : tensor<2x6x3xf32>, tensor<4x5xf32>) outs(%C : tensor<4x2x5xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  } -> tensor<4x2x5xf32>
  return %0 : tensor<4x2x5xf32>
}

// -----

// widen-bf16 (amp-lower-to-llvm sets it where the vdpbf16ps kernel is off):
// the im2col copy of a bf16 input is written in f32 and the GEMM widens
// only the other operand; without it the copy stays bf16 (@weight_gradient
// above). An f16 input's copy is f32 either way.
// RUN: amp-opt %s --split-input-file --amp-cpu-convolutions-to-gemm=widen-bf16=true | FileCheck %s --check-prefix=WIDEN
// WIDEN-LABEL: func.func @widened_copies
// WIDEN:       linalg.generic {{.*}} ins(%{{.*}} : tensor<3x6x6xbf16>) outs(%{{.*}} : tensor<3x3x3x4x4xf32>)
// WIDEN-NEXT:  ^bb0(%[[IN:.*]]: bf16, %{{.*}}: f32):
// WIDEN-NEXT:    %[[W:.*]] = arith.extf %[[IN]] : bf16 to f32
// WIDEN-NEXT:    linalg.yield %[[W]] : f32
// WIDEN:       linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<4x16xbf16>, tensor<27x16xf32>) outs(%{{.*}} : tensor<4x27xf32>)
// WIDEN-NEXT:  ^bb0(%[[A:.*]]: bf16, %[[B:.*]]: f32, %[[O:.*]]: f32):
// WIDEN-NEXT:    %[[EA:.*]] = arith.extf %[[A]] : bf16 to f32
// WIDEN-NEXT:    %[[M:.*]] = arith.mulf %[[EA]], %[[B]] : f32
// WIDEN-LABEL: func.func @f16_copy_in_f32
// WIDEN:       linalg.generic {{.*}} ins(%{{.*}} : tensor<3x6x6xf16>) outs(%{{.*}} : tensor<3x3x3x4x4xf32>)
// CHECK-LABEL: func.func @widened_copies
// CHECK:       outs(%{{.*}} : tensor<3x3x3x4x4xbf16>)
#wx = affine_map<(n, f, oh, ow, c, kh, kw) -> (n, c, oh + kh, ow + kw)>
#wdy = affine_map<(n, f, oh, ow, c, kh, kw) -> (n, f, oh, ow)>
#wdw = affine_map<(n, f, oh, ow, c, kh, kw) -> (f, c, kh, kw)>
func.func @widened_copies(%x: tensor<2x3x6x6xbf16>, %dy: tensor<2x4x4x4xbf16>, %init: tensor<4x3x3x3xf32>) -> tensor<4x3x3x3xf32> {
  %0 = linalg.generic {indexing_maps = [#wx, #wdy, #wdw],
      iterator_types = ["reduction", "parallel", "reduction", "reduction", "parallel", "parallel", "parallel"]}
      ins(%x, %dy : tensor<2x3x6x6xbf16>, tensor<2x4x4x4xbf16>) outs(%init : tensor<4x3x3x3xf32>) {
  ^bb0(%a: bf16, %b: bf16, %out: f32):
    %ea = arith.extf %a : bf16 to f32
    %eb = arith.extf %b : bf16 to f32
    %m = arith.mulf %ea, %eb : f32
    %s = arith.addf %out, %m : f32
    linalg.yield %s : f32
  } -> tensor<4x3x3x3xf32>
  return %0 : tensor<4x3x3x3xf32>
}

// -----

// CHECK-LABEL: func.func @f16_copy_in_f32
// CHECK:       outs(%{{.*}} : tensor<3x3x3x4x4xf32>)
func.func @f16_copy_in_f32(%x: tensor<2x3x6x6xf16>, %w: tensor<4x3x3x3xf16>, %init: tensor<2x4x4x4xf32>) -> tensor<2x4x4x4xf32> {
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%x, %w : tensor<2x3x6x6xf16>, tensor<4x3x3x3xf16>) outs(%init : tensor<2x4x4x4xf32>) -> tensor<2x4x4x4xf32>
  return %0 : tensor<2x4x4x4xf32>
}
