// The precision policy, one op family per line, checked through remarks in
// program order: class (reason); chosen precision.
// RUN: amp-opt %s -amp-autocast=remarks=true 2>&1 >/dev/null | FileCheck %s
// RUN: amp-opt %s -amp-autocast=remarks=true 2>&1 >/dev/null | FileCheck %s --check-prefix=NOUNKNOWN
// RUN: amp-opt %s -amp-autocast | amp-opt -amp-autocast > /dev/null
// NOUNKNOWN-NOT: remark: autocast: unknown

// CHECK: remark: autocast: clear (control flow
// CHECK: remark: autocast: allow (contraction{{.*}}; mixed
// CHECK: remark: autocast: allow (contraction{{.*}}; mixed
// CHECK: remark: autocast: allow (convolution{{.*}}; mixed
// CHECK: remark: autocast: allow (convolution{{.*}}; mixed
// CHECK: remark: autocast: clear (max/min pooling
// CHECK: remark: autocast: infer (sum pooling
// CHECK: remark: autocast: deny (exp/log
// CHECK: remark: autocast: infer (elementwise arithmetic
// CHECK: remark: autocast: clear (elementwise max/select/compare/copy
// CHECK: remark: autocast: deny (reduction: accumulates in fp32)
// CHECK: remark: autocast: clear (max/min reduction
// CHECK: remark: autocast: deny (softmax
// CHECK: remark: autocast: clear (data movement)
// CHECK: remark: autocast: clear (data movement)
// CHECK: remark: autocast: clear (tensor data movement)
// CHECK: remark: autocast: clear (tensor data movement)
// CHECK: remark: autocast: clear (tensor data movement)
// CHECK: remark: autocast: deny (exp/log
// CHECK: remark: autocast: infer (elementwise arithmetic
// CHECK: remark: autocast: clear (max/select/compare
func.func @families(%a: tensor<2x4x8xf32>, %b: tensor<2x8x4xf32>, %c: tensor<2x4x4xf32>,
                    %img: tensor<1x6x6x4xf32>, %k: tensor<3x3x4x4xf32>, %dk: tensor<3x3x4xf32>,
                    %o: tensor<1x4x4x4xf32>, %win: tensor<2x2xf32>, %po: tensor<1x3x3x4xf32>,
                    %v: tensor<16xf32>, %s: tensor<f32>, %m: tensor<4x4xf32>, %mv: tensor<4xf32>,
                    %row: tensor<4xf32>)
    -> (tensor<2x4x4xf32>, tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>, tensor<1x3x3x4xf32>, tensor<1x3x3x4xf32>,
        tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<f32>, tensor<f32>, tensor<4x4xf32>,
        tensor<4x4xf32>, tensor<4x4xf32>, tensor<2x4xf32>, tensor<8x2xf32>, tensor<8x4xf32>,
        tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) {
  %bm = linalg.batch_matmul ins(%a, %b : tensor<2x4x8xf32>, tensor<2x8x4xf32>) outs(%c : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %mm = linalg.matvec ins(%m, %row : tensor<4x4xf32>, tensor<4xf32>) outs(%mv : tensor<4xf32>) -> tensor<4xf32>
  %cv = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%img, %k : tensor<1x6x6x4xf32>, tensor<3x3x4x4xf32>) outs(%o : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %dw = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%img, %dk : tensor<1x6x6x4xf32>, tensor<3x3x4xf32>) outs(%o : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %pmax = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%img, %win : tensor<1x6x6x4xf32>, tensor<2x2xf32>) outs(%po : tensor<1x3x3x4xf32>) -> tensor<1x3x3x4xf32>
  %psum = linalg.pooling_nhwc_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%img, %win : tensor<1x6x6x4xf32>, tensor<2x2xf32>) outs(%po : tensor<1x3x3x4xf32>) -> tensor<1x3x3x4xf32>
  %ex = linalg.exp ins(%v : tensor<16xf32>) outs(%v : tensor<16xf32>) -> tensor<16xf32>
  %ad = linalg.add ins(%v, %v : tensor<16xf32>, tensor<16xf32>) outs(%v : tensor<16xf32>) -> tensor<16xf32>
  %mx = linalg.max ins(%v, %v : tensor<16xf32>, tensor<16xf32>) outs(%v : tensor<16xf32>) -> tensor<16xf32>
  %sum = linalg.reduce ins(%v : tensor<16xf32>) outs(%s : tensor<f32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %r = arith.addf %in, %acc : f32
      linalg.yield %r : f32
    }
  %rmax = linalg.reduce ins(%v : tensor<16xf32>) outs(%s : tensor<f32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %r = arith.maximumf %in, %acc : f32
      linalg.yield %r : f32
    }
  %sm = linalg.softmax dimension(1) ins(%m : tensor<4x4xf32>) outs(%m : tensor<4x4xf32>) -> tensor<4x4xf32>
  %tr = linalg.transpose ins(%m : tensor<4x4xf32>) outs(%m : tensor<4x4xf32>) permutation = [1, 0]
  %bc = linalg.broadcast ins(%row : tensor<4xf32>) outs(%m : tensor<4x4xf32>) dimensions = [0]
  %sl = tensor.extract_slice %m[0, 0] [2, 4] [1, 1] : tensor<4x4xf32> to tensor<2x4xf32>
  %rs = tensor.expand_shape %v [[0, 1]] output_shape [8, 2] : tensor<16xf32> into tensor<8x2xf32>
  %cc = tensor.concat dim(0) %m, %m : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<8x4xf32>
  %lg = math.log %v : tensor<16xf32>
  %mu = arith.mulf %v, %v : tensor<16xf32>
  %neg = arith.negf %v : tensor<16xf32>
  return %bm, %cv, %dw, %pmax, %psum, %ex, %ad, %mx, %sum, %rmax, %sm, %tr, %bc, %sl, %rs, %cc, %lg, %mu, %neg
    : tensor<2x4x4xf32>, tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>, tensor<1x3x3x4xf32>, tensor<1x3x3x4xf32>,
      tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<f32>, tensor<f32>, tensor<4x4xf32>,
      tensor<4x4xf32>, tensor<4x4xf32>, tensor<2x4xf32>, tensor<8x2xf32>, tensor<8x4xf32>,
      tensor<16xf32>, tensor<16xf32>, tensor<16xf32>
}
