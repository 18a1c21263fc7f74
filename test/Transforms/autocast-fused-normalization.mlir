// A fused normalization (torch-mlir's eval-mode batch_norm: one elementwise
// generic computing (x - mean) * rsqrt(var + eps) * gamma + beta, the four
// statistics indexed by the channel only) is infer, not deny: its
// range-sensitive math reads only per-channel operands. Between two
// convolutions it runs low: the activation in and out in f16, the
// statistics kept f32 (the body computes in f32). TensorFlow's
// FusedBatchNorm is on the infer list; PyTorch runs batch_norm in its
// input's type with f32 statistics. Before, the deny class of the rsqrt
// spread into the ReLU, the max-pool and the residual adds of every ResNet
// block, which stayed f32.
// RUN: amp-opt %s -split-input-file -amp-autocast=remarks=true 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
// RUN: amp-opt %s -split-input-file -amp-autocast | FileCheck %s
// Idempotent.
// RUN: amp-opt %s -split-input-file -amp-autocast > %t.once.mlir
// RUN: amp-opt %t.once.mlir -split-input-file -amp-autocast > %t.twice.mlir
// RUN: diff %t.once.mlir %t.twice.mlir

// REMARK: remark: autocast: infer (fused normalization: rsqrt/sqrt of per-channel statistics only; the activation follows its inputs, the statistics stay fp32 (TF FusedBatchNorm: infer)); low: rule 3: between allow ops
// REMARK: remark: autocast: clear ({{.*}}); low: rule 3: between allow ops
// CHECK-LABEL: func.func @conv_bn_relu_conv
// CHECK: %[[C1:.*]] = linalg.conv_2d_nchw_fchw {{.*}} -> tensor<1x4x6x6xf32>
// CHECK: %[[X:.*]] = arith.truncf %[[C1]] : tensor<1x4x6x6xf32> to tensor<1x4x6x6xf16>
// CHECK: %[[BN:.*]] = linalg.generic
// CHECK-SAME: ins(%[[X]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : tensor<1x4x6x6xf16>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>)
// CHECK: ^bb0(%[[IN:.*]]: f16, %{{.*}}: f32, %{{.*}}: f32, %{{.*}}: f32, %{{.*}}: f32, %{{.*}}: f16):
// CHECK: arith.extf %[[IN]] : f16 to f32
// CHECK: math.rsqrt %{{.*}} : f32
// CHECK: arith.truncf %{{.*}} : f32 to f16
// CHECK: } -> tensor<1x4x6x6xf16>
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#c = affine_map<(d0, d1, d2, d3) -> (d1)>
func.func @conv_bn_relu_conv(%x: tensor<1x3x8x8xf32>, %w1: tensor<4x3x3x3xf32>, %w2: tensor<4x4x3x3xf32>, %gamma: tensor<4xf32>, %beta: tensor<4xf32>, %mean: tensor<4xf32>, %var: tensor<4xf32>) -> tensor<1x4x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<1x4x6x6xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %c1 = linalg.conv_2d_nchw_fchw ins(%x, %w1 : tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) outs(%f1 : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %bn = linalg.generic {indexing_maps = [#map, #c, #c, #c, #c, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c1, %gamma, %beta, %mean, %var : tensor<1x4x6x6xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) outs(%e1 : tensor<1x4x6x6xf32>) {
  ^bb0(%in: f32, %g: f32, %b: f32, %m: f32, %v: f32, %out: f32):
    %eps = arith.constant 1.0e-5 : f32
    %a = arith.addf %v, %eps : f32
    %r = math.rsqrt %a : f32
    %s = arith.subf %in, %m : f32
    %n = arith.mulf %s, %r : f32
    %y = arith.mulf %n, %g : f32
    %z = arith.addf %y, %b : f32
    linalg.yield %z : f32
  } -> tensor<1x4x6x6xf32>
  %relu = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%bn : tensor<1x4x6x6xf32>) outs(%e1 : tensor<1x4x6x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %p = arith.cmpf ugt, %in, %zero : f32
    %q = arith.select %p, %in, %zero : f32
    linalg.yield %q : f32
  } -> tensor<1x4x6x6xf32>
  %e2 = tensor.empty() : tensor<1x4x4x4xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %c2 = linalg.conv_2d_nchw_fchw ins(%relu, %w2 : tensor<1x4x6x6xf32>, tensor<4x4x3x3xf32>) outs(%f2 : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  return %c2 : tensor<1x4x4x4xf32>
}

// -----

// Negative: the rsqrt reads the activation itself (x * rsqrt(x * x + eps)):
// range-sensitive per element, deny, and it spreads into the ReLU.
// REMARK: remark: autocast: deny (exp/log/pow/rsqrt/sqrt/erf/reciprocal: range-sensitive, fp32); f32
// CHECK-LABEL: func.func @rsqrt_of_activation
// CHECK: linalg.generic
// CHECK-SAME: ins(%{{.*}} : tensor<1x4x6x6xf32>)
// CHECK: } -> tensor<1x4x6x6xf32>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @rsqrt_of_activation(%x: tensor<1x3x8x8xf32>, %w1: tensor<4x3x3x3xf32>, %w2: tensor<4x4x3x3xf32>) -> tensor<1x4x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<1x4x6x6xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %c1 = linalg.conv_2d_nchw_fchw ins(%x, %w1 : tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) outs(%f1 : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %n = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c1 : tensor<1x4x6x6xf32>) outs(%e1 : tensor<1x4x6x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %eps = arith.constant 1.0e-5 : f32
    %sq = arith.mulf %in, %in : f32
    %a = arith.addf %sq, %eps : f32
    %r = math.rsqrt %a : f32
    %y = arith.mulf %in, %r : f32
    linalg.yield %y : f32
  } -> tensor<1x4x6x6xf32>
  %e2 = tensor.empty() : tensor<1x4x4x4xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %c2 = linalg.conv_2d_nchw_fchw ins(%n, %w2 : tensor<1x4x6x6xf32>, tensor<4x4x3x3xf32>) outs(%f2 : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  return %c2 : tensor<1x4x4x4xf32>
}
