// A causal self-attention block as torch-mlir exports it: the additive mask
// is a registered buffer, a dense_resource of 0 (may attend) and -inf (may
// not). amp-build-train-step leaves it a constant (with a remark), so the
// step builds, amp-run starts it from finite weights and trains it, and the
// backward is the loss's derivative. Before, the mask became a parameter:
// amp-run refused its -inf start value (and an optimizer would change a
// finite mask).
// RUN: amp-opt %s --amp-build-train-step="loss=mse optimizer=adam" -o %t.mlir 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK: remark: amp-build-train-step: constant 'attn.mask' stays a constant: it holds -inf (element 1)
// REMARK-NOT: see current operation
// RUN: FileCheck %s --check-prefix=STEP < %t.mlir
// STEP-LABEL: func.func @train_step(
// STEP-SAME: {amp.initial_value = dense_resource<attn.weight> : tensor<4x4xf32>, amp.role = "param"}
// STEP-NOT: amp.role = "param"
// STEP: arith.constant dense_resource<attn.mask> : tensor<4x4xf32>
// RUN: amp-run %t.mlir --data=synthetic --run=f32,f16+dynamic --max-steps=20 | FileCheck %s --check-prefix=TRAIN
// TRAIN: run{{ +}}train loss
// TRAIN-NEXT: f32{{ +}}0.{{[0-9]+}}{{ +}}-{{ +}}-{{ +}}0{{ +}}20
// TRAIN-NEXT: f16 + dynamic{{ +}}0.{{[0-9]+}}{{ +}}-{{ +}}{{[0-9]+}}{{ +}}0{{ +}}20
// RUN: amp-run %t.mlir --data=synthetic --check-gradients | FileCheck %s --check-prefix=GRAD
// GRAD: #0{{ +}}4x4xf32
// GRAD-NOT: #1
// GRAD: (tolerance 1e-05): passed
#x   = affine_map<(b, t, s, k) -> (b, t, k)>
#w   = affine_map<(b, t, s, k) -> (k, s)>
#o   = affine_map<(b, t, s, k) -> (b, t, s)>
#id3 = affine_map<(b, t, s) -> (b, t, s)>
#ts  = affine_map<(b, t, s) -> (t, s)>
#row = affine_map<(b, t, s) -> (b, t)>
#p   = affine_map<(b, t, d, s) -> (b, t, s)>
#v   = affine_map<(b, t, d, s) -> (b, s, d)>
#y   = affine_map<(b, t, d, s) -> (b, t, d)>
module {
func.func @forward(%x: tensor<2x4x4xf32>) -> tensor<2x4x4xf32> {
  %w = arith.constant dense_resource<attn.weight> : tensor<4x4xf32>
  %mask = arith.constant dense_resource<attn.mask> : tensor<4x4xf32>
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<2x4x4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %s = linalg.generic {indexing_maps = [#x, #w, #o], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%x, %w : tensor<2x4x4xf32>, tensor<4x4xf32>) outs(%z : tensor<2x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x4xf32>
  %sm = linalg.generic {indexing_maps = [#id3, #ts, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s, %mask : tensor<2x4x4xf32>, tensor<4x4xf32>) outs(%e : tensor<2x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<2x4x4xf32>
  %er = tensor.empty() : tensor<2x4xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%er : tensor<2x4xf32>) -> tensor<2x4xf32>
  %mx = linalg.generic {indexing_maps = [#id3, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%sm : tensor<2x4x4xf32>) outs(%mi : tensor<2x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.maximumf %a, %o : f32
    linalg.yield %r : f32
  } -> tensor<2x4xf32>
  %ex = linalg.generic {indexing_maps = [#id3, #row, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%sm, %mx : tensor<2x4x4xf32>, tensor<2x4xf32>) outs(%e : tensor<2x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %d = arith.subf %a, %b : f32
    %r = math.exp %d : f32
    linalg.yield %r : f32
  } -> tensor<2x4x4xf32>
  %zi = linalg.fill ins(%zero : f32) outs(%er : tensor<2x4xf32>) -> tensor<2x4xf32>
  %sum = linalg.generic {indexing_maps = [#id3, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%ex : tensor<2x4x4xf32>) outs(%zi : tensor<2x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.addf %a, %o : f32
    linalg.yield %r : f32
  } -> tensor<2x4xf32>
  %pr = linalg.generic {indexing_maps = [#id3, #row, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ex, %sum : tensor<2x4x4xf32>, tensor<2x4xf32>) outs(%e : tensor<2x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.divf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<2x4x4xf32>
  %y = linalg.generic {indexing_maps = [#p, #v, #y], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%pr, %x : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%z : tensor<2x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x4xf32>
  return %y : tensor<2x4x4xf32>
}
}
{-#
  dialect_resources: {
    builtin: {
      attn.weight: "0x04000000000000BFCDCC4C3ECDCC4CBE0000003FCDCCCC3D9A9999BECDCCCC3E00000000CDCCCCBE9A99993ECDCCCCBD000000BFCDCC4C3ECDCC4CBE0000003FCDCCCC3D",
      attn.mask: "0x0400000000000000000080FF000080FF000080FF0000000000000000000080FF000080FF000000000000000000000000000080FF00000000000000000000000000000000"
    }
  }
#-}
