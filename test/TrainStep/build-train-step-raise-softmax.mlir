// amp-build-train-step raises the model's decomposed softmax (here an
// attention's exp((s - max s) * c)) to linalg.softmax before
// differentiating it (raise-softmax, default true): the backward is
// linalg.softmax's adjoint, which reads the probabilities only. The step
// trains as the step built from the four ops does (raise-softmax=false):
// the same losses to 5 decimals over 3 steps (the scale is applied before
// the max instead of after), and its gradients match finite differences.
// RUN: amp-opt %s --amp-build-train-step="loss=softmax-cross-entropy" -o %t.raised.mlir
// RUN: amp-opt %s --amp-build-train-step="loss=softmax-cross-entropy raise-softmax=false" -o %t.ops.mlir
// RUN: FileCheck %s --check-prefix=RAISED < %t.raised.mlir
// RAISED-LABEL: func.func @train_step(
// RAISED: linalg.softmax dimension(2)
// RUN: FileCheck %s --check-prefix=OPS < %t.ops.mlir
// OPS-LABEL: func.func @train_step(
// OPS-NOT: linalg.softmax
// OPS: return
// RUN: amp-run %t.raised.mlir --run=f32 --max-steps=3 --threads=1 --data=synthetic --synthetic-examples=64 --csv=%t.raised.csv
// RUN: amp-run %t.ops.mlir --run=f32 --max-steps=3 --threads=1 --data=synthetic --synthetic-examples=64 --csv=%t.ops.csv
// RUN: awk -F, 'NR > 1 { printf "%%s %%.5f\n", $2, $4 }' %t.raised.csv > %t.a
// RUN: awk -F, 'NR > 1 { printf "%%s %%.5f\n", $2, $4 }' %t.ops.csv > %t.b
// RUN: diff %t.a %t.b
// RUN: FileCheck %s --check-prefix=STEPS --input-file=%t.a
// STEPS: 1 2.934
// STEPS: 3 2.059
// RUN: amp-run %t.raised.mlir --data=synthetic --check-gradients | FileCheck %s --check-prefix=GRAD
// GRAD: #0{{ +}}8x8xf32
// GRAD: (tolerance 1e-05): passed
#x   = affine_map<(b, t, s, k) -> (b, t, k)>
#w   = affine_map<(b, t, s, k) -> (k, s)>
#o   = affine_map<(b, t, s, k) -> (b, t, s)>
#id3 = affine_map<(b, t, s) -> (b, t, s)>
#row = affine_map<(b, t, s) -> (b, t)>
#p   = affine_map<(b, t, d, s) -> (b, t, s)>
#v   = affine_map<(b, t, d, s) -> (b, s, d)>
#y   = affine_map<(b, t, d, s) -> (b, t, d)>
#mean_in  = affine_map<(b, t, d) -> (b, t, d)>
#mean_out = affine_map<(b, t, d) -> (b, d)>
module {
func.func @forward(%x: tensor<4x8x8xf32>) -> tensor<4x8xf32> {
  %w = arith.constant dense_resource<attn.weight> : tensor<8x8xf32>
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<4x8x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %s = linalg.generic {indexing_maps = [#x, #w, #o], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%x, %w : tensor<4x8x8xf32>, tensor<8x8xf32>) outs(%z : tensor<4x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x8x8xf32>
  %er = tensor.empty() : tensor<4x8xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%er : tensor<4x8xf32>) -> tensor<4x8xf32>
  %mx = linalg.generic {indexing_maps = [#id3, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%s : tensor<4x8x8xf32>) outs(%mi : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.maximumf %a, %o : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %ex = linalg.generic {indexing_maps = [#id3, #row, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s, %mx : tensor<4x8x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %c = arith.constant 0.353553385 : f32
    %d = arith.subf %a, %b : f32
    %ds = arith.mulf %d, %c : f32
    %r = math.exp %ds : f32
    linalg.yield %r : f32
  } -> tensor<4x8x8xf32>
  %zi = linalg.fill ins(%zero : f32) outs(%er : tensor<4x8xf32>) -> tensor<4x8xf32>
  %sum = linalg.generic {indexing_maps = [#id3, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%ex : tensor<4x8x8xf32>) outs(%zi : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.addf %a, %o : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %pr = linalg.generic {indexing_maps = [#id3, #row, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ex, %sum : tensor<4x8x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.divf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<4x8x8xf32>
  %att = linalg.generic {indexing_maps = [#p, #v, #y], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%pr, %x : tensor<4x8x8xf32>, tensor<4x8x8xf32>) outs(%z : tensor<4x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x8x8xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%er : tensor<4x8xf32>) -> tensor<4x8xf32>
  %logits = linalg.generic {indexing_maps = [#mean_in, #mean_out], iterator_types = ["parallel", "reduction", "parallel"]} ins(%att : tensor<4x8x8xf32>) outs(%zo : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.addf %o, %a : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  return %logits : tensor<4x8xf32>
}
}
{-#
  dialect_resources: {
    builtin: {
      attn.weight: "0x04000000000000BFCDCC4C3ECDCC4CBE0000003FCDCCCC3D9A9999BECDCCCC3E00000000CDCCCCBE9A99993ECDCCCCBD000000BFCDCC4C3ECDCC4CBE0000003FCDCCCC3D000000BFCDCC4C3ECDCC4CBE0000003FCDCCCC3D9A9999BECDCCCC3E00000000CDCCCCBE9A99993ECDCCCCBD000000BFCDCC4C3ECDCC4CBE0000003FCDCCCC3D000000BFCDCC4C3ECDCC4CBE0000003FCDCCCC3D9A9999BECDCCCC3E00000000CDCCCCBE9A99993ECDCCCCBD000000BFCDCC4C3ECDCC4CBE0000003FCDCCCC3D000000BFCDCC4C3ECDCC4CBE0000003FCDCCCC3D9A9999BECDCCCC3E00000000CDCCCCBE9A99993ECDCCCCBD000000BFCDCC4C3ECDCC4CBE0000003FCDCCCC3D"
    }
  }
#-}
