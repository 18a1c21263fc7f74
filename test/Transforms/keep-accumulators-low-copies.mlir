// amp-keep-accumulators-low, copies: the softmax's probabilities are f32
// (linalg.softmax is deny-class) and the attention's batch_matmul reads
// them rounded to bf16. The backward reads them twice: the softmax
// backward (in f32) and the batch_matmul's weight-side gradient (the bf16
// copy). The pass lets the softmax backward read the copy, widened, so the
// step keeps the probabilities once, in bf16 (4x8x8: 512 B instead of
// 1024 B in f32 plus 512 B in bf16).
// RUN: amp-opt %s --amp-build-train-step="loss=softmax-cross-entropy" 2>/dev/null > %t.step
// RUN: amp-opt %t.step --amp-autocast=precision=bf16 --amp-keep-accumulators-low | FileCheck %s --check-prefix=IR
// RUN: amp-opt %t.step --amp-mixed-precision="precision=bf16 loss-scale=none" --amp-memory-report=kept=true -o /dev/null 2>&1 | FileCheck %s --check-prefix=BF16
// RUN: amp-opt %t.step --amp-mixed-precision="precision=bf16 loss-scale=none keep-accumulators-low=false" --amp-memory-report=kept=true -o /dev/null 2>&1 | FileCheck %s --check-prefix=OFF

// IR-LABEL: func.func @train_step(
// IR: %[[P:.*]] = linalg.softmax dimension(2)
// IR: %[[T:.*]] = arith.truncf %[[P]] : tensor<4x8x8xf32> to tensor<4x8x8xbf16>
// IR-NEXT: %[[E:.*]] = arith.extf %[[T]] : tensor<4x8x8xbf16> to tensor<4x8x8xf32>
// IR: amp.loss_grad
// IR-NOT: %[[P]]{{[^0-9]}}
// The softmax backward: sum(dy * y), then y * (dy - sum).
// IR: linalg.generic {{.*}} ins(%{{.*}}, %[[E]] : tensor<4x8x8xf32>, tensor<4x8x8xf32>)
// IR-NOT: %[[P]]{{[^0-9]}}
// IR: linalg.generic {{.*}} ins(%[[E]], %{{.*}}, %{{.*}} : tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8xf32>)
// IR-NOT: %[[P]]{{[^0-9]}}
// IR: return

// BF16: kept for the backward
// BF16-NOT: tensor<4x8x8xf32>
// BF16: 512  tensor<4x8x8xbf16> from arith.truncf
// BF16-NOT: tensor<4x8x8xf32>
// BF16: peak live
// OFF: kept for the backward
// OFF: 1024  tensor<4x8x8xf32> from linalg.softmax
#x   = affine_map<(b, t, s, k) -> (b, t, k)>
#w   = affine_map<(b, t, s, k) -> (k, s)>
#o   = affine_map<(b, t, s, k) -> (b, t, s)>
#p   = affine_map<(b, t, d, s) -> (b, t, s)>
#v   = affine_map<(b, t, d, s) -> (b, s, d)>
#y   = affine_map<(b, t, d, s) -> (b, t, d)>
#mean_in  = affine_map<(b, t, d) -> (b, t, d)>
#mean_out = affine_map<(b, t, d) -> (b, d)>
module {
func.func @forward(%x: tensor<4x8x8xf32>) -> tensor<4x8xf32> {
  %w = arith.constant dense<0.125> : tensor<8x8xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %s = linalg.generic {indexing_maps = [#x, #w, #o], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%x, %w : tensor<4x8x8xf32>, tensor<8x8xf32>) outs(%z : tensor<4x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x8x8xf32>
  %pr = linalg.softmax dimension(2) ins(%s : tensor<4x8x8xf32>) outs(%e : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %att = linalg.generic {indexing_maps = [#p, #v, #y], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%pr, %x : tensor<4x8x8xf32>, tensor<4x8x8xf32>) outs(%z : tensor<4x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x8x8xf32>
  %er = tensor.empty() : tensor<4x8xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%er : tensor<4x8xf32>) -> tensor<4x8xf32>
  %logits = linalg.generic {indexing_maps = [#mean_in, #mean_out], iterator_types = ["parallel", "reduction", "parallel"]} ins(%att : tensor<4x8x8xf32>) outs(%zo : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.addf %o, %a : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  return %logits : tensor<4x8xf32>
}
}
