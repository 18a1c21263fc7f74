// CNN forward: conv3x3(3->8, no padding) + bias, batch-norm with batch
// statistics (mean and variance over N, H, W per channel, training mode),
// ReLU, 2x2 max-pool, depthwise conv3x3, ReLU, global average pool (sum pool
// then / 4), linear 8->10. Batch 2, 10x10x3 images, NHWC; the form
// torch-mlir emits (linalg on tensors, weights as function arguments).
#nhwc   = affine_map<(n, h, w, c) -> (n, h, w, c)>
#chan   = affine_map<(n, h, w, c) -> (c)>
#id2    = affine_map<(d0, d1) -> (d0, d1)>
#cols   = affine_map<(d0, d1) -> (d1)>
module {
func.func @forward(%x: tensor<2x10x10x3xf32>,
                   %k1: tensor<3x3x3x8xf32>, %kb1: tensor<8xf32>,
                   %gamma: tensor<8xf32>, %beta: tensor<8xf32>,
                   %k2: tensor<3x3x8xf32>,
                   %wf: tensor<8x10xf32>, %bf: tensor<10xf32>)
    -> tensor<2x10xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e1 = tensor.empty() : tensor<2x8x8x8xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<2x8x8x8xf32>) -> tensor<2x8x8x8xf32>
  %c1 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %k1 : tensor<2x10x10x3xf32>, tensor<3x3x3x8xf32>) outs(%f1 : tensor<2x8x8x8xf32>) -> tensor<2x8x8x8xf32>
  %y1 = linalg.generic {indexing_maps = [#nhwc, #chan, #nhwc], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c1, %kb1 : tensor<2x8x8x8xf32>, tensor<8xf32>) outs(%e1 : tensor<2x8x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<2x8x8x8xf32>
  // Batch-norm statistics over N*H*W = 128 values per channel.
  %e8 = tensor.empty() : tensor<8xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e8 : tensor<8xf32>) -> tensor<8xf32>
  %sum = linalg.generic {indexing_maps = [#nhwc, #chan], iterator_types = ["reduction", "reduction", "reduction", "parallel"]}
      ins(%y1 : tensor<2x8x8x8xf32>) outs(%s0 : tensor<8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %mean = linalg.generic {indexing_maps = [affine_map<(c) -> (c)>, affine_map<(c) -> (c)>], iterator_types = ["parallel"]}
      ins(%sum : tensor<8xf32>) outs(%e8 : tensor<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %n = arith.constant 128.0 : f32
    %r = arith.divf %a, %n : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %sq = linalg.generic {indexing_maps = [#nhwc, #chan, #chan], iterator_types = ["reduction", "reduction", "reduction", "parallel"]}
      ins(%y1, %mean : tensor<2x8x8x8xf32>, tensor<8xf32>) outs(%s0 : tensor<8xf32>) {
  ^bb0(%a: f32, %m: f32, %acc: f32):
    %d = arith.subf %a, %m : f32
    %d2 = arith.mulf %d, %d : f32
    %r = arith.addf %d2, %acc : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %rstd = linalg.generic {indexing_maps = [affine_map<(c) -> (c)>, affine_map<(c) -> (c)>], iterator_types = ["parallel"]}
      ins(%sq : tensor<8xf32>) outs(%e8 : tensor<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %n = arith.constant 128.0 : f32
    %eps = arith.constant 1.0e-5 : f32
    %v = arith.divf %a, %n : f32
    %ve = arith.addf %v, %eps : f32
    %r = math.rsqrt %ve : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %bn = linalg.generic {indexing_maps = [#nhwc, #chan, #chan, #chan, #chan, #nhwc], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y1, %mean, %rstd, %gamma, %beta : tensor<2x8x8x8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>)
      outs(%e1 : tensor<2x8x8x8xf32>) {
  ^bb0(%a: f32, %m: f32, %rs: f32, %g: f32, %b: f32, %o: f32):
    %d = arith.subf %a, %m : f32
    %n = arith.mulf %d, %rs : f32
    %s = arith.mulf %n, %g : f32
    %r = arith.addf %s, %b : f32
    linalg.yield %r : f32
  } -> tensor<2x8x8x8xf32>
  %relu1 = linalg.generic {indexing_maps = [#nhwc, #nhwc], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%bn : tensor<2x8x8x8xf32>) outs(%e1 : tensor<2x8x8x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.maximumf %a, %zero : f32
    linalg.yield %r : f32
  } -> tensor<2x8x8x8xf32>
  // 2x2 max pool, stride 2.
  %win2 = tensor.empty() : tensor<2x2xf32>
  %e5 = tensor.empty() : tensor<2x4x4x8xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%e5 : tensor<2x4x4x8xf32>) -> tensor<2x4x4x8xf32>
  %pool = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%relu1, %win2 : tensor<2x8x8x8xf32>, tensor<2x2xf32>) outs(%m0 : tensor<2x4x4x8xf32>) -> tensor<2x4x4x8xf32>
  // Depthwise 3x3.
  %e3 = tensor.empty() : tensor<2x2x2x8xf32>
  %f3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<2x2x2x8xf32>) -> tensor<2x2x2x8xf32>
  %dw = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%pool, %k2 : tensor<2x4x4x8xf32>, tensor<3x3x8xf32>) outs(%f3 : tensor<2x2x2x8xf32>) -> tensor<2x2x2x8xf32>
  %relu2 = linalg.generic {indexing_maps = [#nhwc, #nhwc], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%dw : tensor<2x2x2x8xf32>) outs(%e3 : tensor<2x2x2x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.maximumf %a, %zero : f32
    linalg.yield %r : f32
  } -> tensor<2x2x2x8xf32>
  // Global average pool: 2x2 sum pool, then / 4.
  %win3 = tensor.empty() : tensor<2x2xf32>
  %e11 = tensor.empty() : tensor<2x1x1x8xf32>
  %g0 = linalg.fill ins(%zero : f32) outs(%e11 : tensor<2x1x1x8xf32>) -> tensor<2x1x1x8xf32>
  %gsum = linalg.pooling_nhwc_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%relu2, %win3 : tensor<2x2x2x8xf32>, tensor<2x2xf32>) outs(%g0 : tensor<2x1x1x8xf32>) -> tensor<2x1x1x8xf32>
  %flat = tensor.collapse_shape %gsum [[0, 1, 2], [3]] : tensor<2x1x1x8xf32> into tensor<2x8xf32>
  %e28 = tensor.empty() : tensor<2x8xf32>
  %avg = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%flat : tensor<2x8xf32>) outs(%e28 : tensor<2x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %four = arith.constant 4.0 : f32
    %r = arith.divf %a, %four : f32
    linalg.yield %r : f32
  } -> tensor<2x8xf32>
  %e210 = tensor.empty() : tensor<2x10xf32>
  %f4 = linalg.fill ins(%zero : f32) outs(%e210 : tensor<2x10xf32>) -> tensor<2x10xf32>
  %fc = linalg.matmul ins(%avg, %wf : tensor<2x8xf32>, tensor<8x10xf32>) outs(%f4 : tensor<2x10xf32>) -> tensor<2x10xf32>
  %logits = linalg.generic {indexing_maps = [#id2, #cols, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%fc, %bf : tensor<2x10xf32>, tensor<10xf32>) outs(%e210 : tensor<2x10xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<2x10xf32>
  return %logits : tensor<2x10xf32>
}
}
