// What an f16/bf16 step of a conv -> eval-mode batch norm -> ReLU -> conv
// block keeps for the backward (amp-memory-report), counted by hand:
// - the first convolution's f32 accumulator (2x2x4x4: 256 B in f32), which
//   the batch norm's backward reads for gamma's gradient:
//   amp-keep-accumulators-low stores it in f16 (128 B) and the backward
//   reads extf of it (amp-recompute-for-backward);
// - not the ReLU's result, which the ReLU's backward (threshold_backward)
//   and the second convolution's weight gradient read: the batch norm
//   (a fused normalization, infer: f16 in and out, f32 statistics) and the
//   ReLU are elementwise, so amp-recompute-for-backward recomputes them from
//   the kept accumulator and the batch norm's parameters (in f32 steps too);
// - the second convolution's accumulator, read by mse's backward (64 B in
//   f32, 32 B stored low).
// RUN: amp-opt %s --amp-build-train-step="loss=mse" 2>/dev/null > %t.step
// RUN: amp-opt %t.step --amp-mixed-precision="precision=f16 loss-scale=none" --amp-memory-report=kept=true -o /dev/null 2>&1 | FileCheck %s --check-prefix=F16
// RUN: amp-opt %t.step --amp-mixed-precision="precision=bf16 loss-scale=none" --amp-memory-report=kept=true -o /dev/null 2>&1 | FileCheck %s --check-prefix=BF16
// RUN: amp-opt %t.step --amp-mixed-precision="precision=f16 loss-scale=none keep-accumulators-low=false" --amp-memory-report=kept=true -o /dev/null 2>&1 | FileCheck %s --check-prefix=F32ACC
// RUN: amp-opt %t.step --amp-mixed-precision="precision=f32 loss-scale=none" --amp-memory-report=kept=true -o /dev/null 2>&1 | FileCheck %s --check-prefix=F32
// The pass alone: truncf + extf after each kept accumulator; the readers
// (forward and backward) read the extf.
// RUN: amp-opt %t.step --amp-autocast=precision=f16 --amp-keep-accumulators-low | FileCheck %s --check-prefix=IR

// F16: kept for the backward {{ *}}160 B, 2 values
// F16: 128  tensor<2x2x4x4xf16> from arith.truncf
// F16-NEXT: 32  tensor<2x2x2x2xf16> from arith.truncf
// BF16: kept for the backward {{ *}}160 B, 2 values
// BF16: 128  tensor<2x2x4x4xbf16> from arith.truncf
// BF16-NEXT: 32  tensor<2x2x2x2xbf16> from arith.truncf
// F32ACC: kept for the backward {{ *}}320 B, 2 values
// F32ACC: 256  tensor<2x2x4x4xf32> from linalg.conv_2d_nchw_fchw
// F32ACC-NEXT: 64  tensor<2x2x2x2xf32> from linalg.conv_2d_nchw_fchw
// F32: kept for the backward {{ *}}320 B, 2 values
// F32: 256  tensor<2x2x4x4xf32> from linalg.conv_2d_nchw_fchw
// F32-NEXT: 64  tensor<2x2x2x2xf32> from linalg.conv_2d_nchw_fchw

// IR: %[[C1:.*]] = linalg.conv_2d_nchw_fchw {{.*}} -> tensor<2x2x4x4xf32>
// IR-NEXT: %[[T1:.*]] = arith.truncf %[[C1]] : tensor<2x2x4x4xf32> to tensor<2x2x4x4xf16>
// IR-NEXT: %[[E1:.*]] = arith.extf %[[T1]] : tensor<2x2x4x4xf16> to tensor<2x2x4x4xf32>
// IR-NOT: %[[C1]]
// The batch norm runs in f16: it reads the f16 value (truncf of the extf,
// which the canonicalizer after the pass folds to %[[T1]]).
// IR-NEXT: %[[L1:.*]] = arith.truncf %[[E1]] : tensor<2x2x4x4xf32> to tensor<2x2x4x4xf16>
// IR-NEXT: linalg.generic {{.*}} ins(%[[L1]],
// IR: %[[C2:.*]] = linalg.conv_2d_nchw_fchw {{.*}} -> tensor<2x2x2x2xf32>
// IR-NEXT: %[[T2:.*]] = arith.truncf %[[C2]]
// IR-NEXT: arith.extf %[[T2]]
// IR-NOT: %[[C2]]
// IR: amp.loss_grad
// IR: linalg.generic {{.*}} ins({{.*}}%[[E1]]
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#ch = affine_map<(d0, d1, d2, d3) -> (d1)>
module {
  func.func @forward(%x: tensor<2x1x6x6xf32>) -> tensor<2x2x2x2xf32> {
    %zero = arith.constant 0.0 : f32
    %w1 = arith.constant dense<[[[[0.1, -0.2, 0.3], [0.2, 0.1, -0.1], [0.05, 0.3, -0.2]]], [[[-0.3, 0.1, 0.2], [0.1, -0.1, 0.2], [0.3, 0.2, 0.1]]]]> : tensor<2x1x3x3xf32>
    %b1 = arith.constant dense<[0.1, -0.1]> : tensor<2xf32>
    %mean = arith.constant dense<[0.05, -0.02]> : tensor<2xf32>
    %var = arith.constant dense<[1.5, 0.8]> : tensor<2xf32>
    %g = arith.constant dense<[1.0, 0.9]> : tensor<2xf32>
    %be = arith.constant dense<[0.0, 0.1]> : tensor<2xf32>
    %e1 = tensor.empty() : tensor<2x2x4x4xf32>
    %bias = linalg.generic {indexing_maps = [#ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%b1 : tensor<2xf32>) outs(%e1 : tensor<2x2x4x4xf32>) {
    ^bb0(%a: f32, %o: f32):
      linalg.yield %a : f32
    } -> tensor<2x2x4x4xf32>
    %c1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w1 : tensor<2x1x6x6xf32>, tensor<2x1x3x3xf32>) outs(%bias : tensor<2x2x4x4xf32>) -> tensor<2x2x4x4xf32>
    %bn = linalg.generic {indexing_maps = [#id, #ch, #ch, #ch, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c1, %mean, %var, %g, %be : tensor<2x2x4x4xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) outs(%e1 : tensor<2x2x4x4xf32>) {
    ^bb0(%a: f32, %m: f32, %v: f32, %gg: f32, %bb: f32, %o: f32):
      %d = arith.subf %a, %m : f32
      %eps = arith.constant 1.0e-5 : f32
      %ve = arith.addf %v, %eps : f32
      %rs = math.rsqrt %ve : f32
      %n = arith.mulf %d, %rs : f32
      %s = arith.mulf %n, %gg : f32
      %r = arith.addf %s, %bb : f32
      linalg.yield %r : f32
    } -> tensor<2x2x4x4xf32>
    %relu = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%bn : tensor<2x2x4x4xf32>) outs(%e1 : tensor<2x2x4x4xf32>) {
    ^bb0(%a: f32, %o: f32):
      %c = arith.cmpf ugt, %a, %zero : f32
      %r = arith.select %c, %a, %zero : f32
      linalg.yield %r : f32
    } -> tensor<2x2x4x4xf32>
    %w2 = arith.constant dense<0.25> : tensor<2x2x3x3xf32>
    %e2 = tensor.empty() : tensor<2x2x2x2xf32>
    %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<2x2x2x2xf32>) -> tensor<2x2x2x2xf32>
    %c2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%relu, %w2 : tensor<2x2x4x4xf32>, tensor<2x2x3x3xf32>) outs(%z2 : tensor<2x2x2x2xf32>) -> tensor<2x2x2x2xf32>
    return %c2 : tensor<2x2x2x2xf32>
  }
}
