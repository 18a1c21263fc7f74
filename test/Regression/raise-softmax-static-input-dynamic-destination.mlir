// amp-raise-softmax on a model whose input is dynamic in the batch but
// multiplied by a static [4, 8] weight: after the raise, canonicalization
// made the softmax's input static (tensor<4x8xf32>) and left its
// destination dynamic, and upstream's decomposition built generics that
// did not verify (found by a break-it run, 2026-12-06). The decomposition
// now computes in the input's type and casts the result; the step trains
// and its gradients match finite differences. The softmax's scale (0.5)
// is at most 1, so the raise applies.
// RUN: amp-opt %s --amp-build-train-step="loss=mse" -o %t.mlir 2>/dev/null
// RUN: FileCheck %s --check-prefix=STEP < %t.mlir
// STEP: linalg.softmax dimension(1)
// RUN: amp-run %t.mlir --run=f32 --max-steps=3 --data=synthetic --batch-size=4 | FileCheck %s --check-prefix=TRAIN
// TRAIN: f32{{ +}}0.{{[0-9]+}}
// RUN: amp-run %t.mlir --data=synthetic --batch-size=4 --check-gradients | FileCheck %s --check-prefix=GRAD
// GRAD: (tolerance 1e-05): passed
func.func @forward(%xin: tensor<?x8xf32>) -> (tensor<?x8xf32>) {
  %w = arith.constant dense_resource<sm.weight> : tensor<4x8xf32>
  %cc0 = arith.constant 0 : index
  %nn = tensor.dim %xin, %cc0 : tensor<?x8xf32>
  %ex = tensor.empty(%nn) : tensor<?x8xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%xin, %w : tensor<?x8xf32>, tensor<4x8xf32>) outs(%ex : tensor<?x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %p = arith.mulf %a, %b : f32
    linalg.yield %p : f32
  } -> tensor<?x8xf32>
  %ninit = arith.constant 0xFF800000 : f32
  %sinitv = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x8xf32>
  %eT = tensor.empty(%n) : tensor<?x8xf32>
  %eR = tensor.empty(%n) : tensor<?xf32>
  %eRs = tensor.empty(%n) : tensor<?xf32>
  %minit = linalg.fill ins(%ninit : f32) outs(%eR : tensor<?xf32>) -> tensor<?xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<?x8xf32>) outs(%minit : tensor<?xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.maximumf %a, %o : f32
    linalg.yield %r : f32
  } -> tensor<?xf32>
  %e = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %m : tensor<?x8xf32>, tensor<?xf32>) outs(%eT : tensor<?x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %d = arith.subf %a, %b : f32
    %cs = arith.constant 0.5 : f32
    %ds = arith.mulf %d, %cs : f32
    %r = math.exp %ds : f32
    linalg.yield %r : f32
  } -> tensor<?x8xf32>
  %sinit = linalg.fill ins(%sinitv : f32) outs(%eRs : tensor<?xf32>) -> tensor<?xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%e : tensor<?x8xf32>) outs(%sinit : tensor<?xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.addf %a, %o : f32
    linalg.yield %r : f32
  } -> tensor<?xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%e, %s : tensor<?x8xf32>, tensor<?xf32>) outs(%eT : tensor<?x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.divf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<?x8xf32>
  return %y : tensor<?x8xf32>
}
