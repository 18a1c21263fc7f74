// RUN: amp-opt %s --split-input-file --amp-cpu-fuse-elementwise | FileCheck %s
// With unscale-only (amp-lower-to-llvm's default): the split and the unscale
// into the update as below, and no other fusion.
// RUN: amp-opt %s --split-input-file --amp-cpu-fuse-elementwise=unscale-only \
// RUN:   | FileCheck %s --check-prefix=UNSCALE

#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (j)>
#a = affine_map<(i, j, k) -> (i, k)>
#b = affine_map<(i, j, k) -> (k, j)>
#c = affine_map<(i, j, k) -> (i, j)>

// An autocast layer: the f32 contraction result rounded to f16, bias added,
// ReLU: three elementwise generics become one, the roundings kept (one
// conversion in, one out, and the round trip through f16 between the ops).
// The f16 cast of the activation feeding the next contraction stays out of
// that contraction.
// CHECK-LABEL: func.func @layer
// CHECK:     %[[MM:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]
// CHECK:       arith.extf
// CHECK:       arith.mulf
// CHECK:     %[[ACT:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]{{.*}} ins(%[[MM]], %{{.*}} : tensor<4x8xf32>, tensor<8xf16>)
// CHECK:       arith.truncf
// CHECK:       arith.extf
// CHECK:       arith.addf
// CHECK:       arith.truncf
// CHECK:       arith.extf
// CHECK:       arith.maximumf
// CHECK:       arith.truncf
// CHECK-NOT: linalg.generic
// CHECK:     return %[[ACT]]
// UNSCALE-LABEL: func.func @layer
// UNSCALE-COUNT-4: linalg.generic
// UNSCALE-NOT:     linalg.generic
// UNSCALE:         return
func.func @layer(%x: tensor<4x3xf16>, %w: tensor<3x8xf16>, %bias: tensor<8xf16>) -> tensor<4x8xf16> {
  %z = arith.constant 0.0 : f32
  %e32 = tensor.empty() : tensor<4x8xf32>
  %e16 = tensor.empty() : tensor<4x8xf16>
  %f = linalg.fill ins(%z : f32) outs(%e32 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %mm = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<4x3xf16>, tensor<3x8xf16>) outs(%f : tensor<4x8xf32>) {
  ^bb0(%p: f16, %q: f16, %o: f32):
    %pe = arith.extf %p : f16 to f32
    %qe = arith.extf %q : f16 to f32
    %m = arith.mulf %pe, %qe : f32
    %s = arith.addf %m, %o : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  %t = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mm : tensor<4x8xf32>) outs(%e16 : tensor<4x8xf16>) {
  ^bb0(%v: f32, %o: f16):
    %r = arith.truncf %v : f32 to f16
    linalg.yield %r : f16
  } -> tensor<4x8xf16>
  %biased = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%t, %bias : tensor<4x8xf16>, tensor<8xf16>) outs(%e16 : tensor<4x8xf16>) {
  ^bb0(%v: f16, %bb: f16, %o: f16):
    %ve = arith.extf %v : f16 to f32
    %be = arith.extf %bb : f16 to f32
    %s = arith.addf %ve, %be : f32
    %r = arith.truncf %s : f32 to f16
    linalg.yield %r : f16
  } -> tensor<4x8xf16>
  %relu = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%biased : tensor<4x8xf16>) outs(%e16 : tensor<4x8xf16>) {
  ^bb0(%v: f16, %o: f16):
    %ve = arith.extf %v : f16 to f32
    %m = arith.maximumf %ve, %z : f32
    %r = arith.truncf %m : f32 to f16
    linalg.yield %r : f16
  } -> tensor<4x8xf16>
  return %relu : tensor<4x8xf16>
}

// -----

#id = affine_map<(i, j) -> (i, j)>
#s = affine_map<(i, j) -> ()>

// The lowered unscale-and-check (unscaled gradient and found-inf flag from
// one reduction generic) is split: the flag reduction only reads the
// gradient, and the unscale (elementwise) is fused into the optimizer
// update that reads it.
// CHECK-LABEL: func.func @check_then_update
// CHECK-SAME: (%[[G:.*]]: tensor<4x8xf32>, %[[INV:.*]]: tensor<f32>, %[[P:.*]]: tensor<4x8xf32>)
// CHECK:     %[[FLAG:.*]] = linalg.generic {{.*}}iterator_types = ["reduction", "reduction"]{{.*}} ins(%[[G]] : tensor<4x8xf32>) outs(%{{.*}} : tensor<i1>)
// CHECK:       math.absf
// CHECK:       arith.ori
// CHECK-NOT:   arith.mulf
// CHECK:     %[[UPD:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]{{.*}} ins(%[[P]], %[[G]], %[[INV]] : tensor<4x8xf32>, tensor<4x8xf32>, tensor<f32>)
// CHECK:       arith.mulf
// CHECK:       arith.subf
// CHECK:     return %[[UPD]], %[[FLAG]]
// UNSCALE-LABEL: func.func @check_then_update
// UNSCALE-SAME: (%[[G:.*]]: tensor<4x8xf32>, %[[INV:.*]]: tensor<f32>, %[[P:.*]]: tensor<4x8xf32>)
// UNSCALE:     %[[FLAG:.*]] = linalg.generic {{.*}}iterator_types = ["reduction", "reduction"]{{.*}} ins(%[[G]] : tensor<4x8xf32>) outs(%{{.*}} : tensor<i1>)
// UNSCALE-NOT:   arith.mulf
// UNSCALE:     %[[UPD:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]{{.*}} ins(%[[P]], %[[G]], %[[INV]] : tensor<4x8xf32>, tensor<4x8xf32>, tensor<f32>)
// UNSCALE:       arith.mulf
// UNSCALE:       arith.subf
// UNSCALE-NOT: amp.cpu_split_elementwise
// UNSCALE:     return %[[UPD]], %[[FLAG]]
func.func @check_then_update(%g: tensor<4x8xf32>, %inv: tensor<f32>, %p: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<i1>) {
  %false = arith.constant false
  %inf = arith.constant 0x7F800000 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %eb = tensor.empty() : tensor<i1>
  %fb = linalg.fill ins(%false : i1) outs(%eb : tensor<i1>) -> tensor<i1>
  %u:2 = linalg.generic {indexing_maps = [#id, #s, #id, #s], iterator_types = ["reduction", "reduction"]}
      ins(%g, %inv : tensor<4x8xf32>, tensor<f32>) outs(%e, %fb : tensor<4x8xf32>, tensor<i1>) {
  ^bb0(%x: f32, %i: f32, %o: f32, %flag: i1):
    %m = arith.mulf %x, %i : f32
    %a = math.absf %x : f32
    %bad = arith.cmpf uge, %a, %inf : f32
    %f = arith.ori %flag, %bad : i1
    linalg.yield %m, %f : f32, i1
  } -> (tensor<4x8xf32>, tensor<i1>)
  %new = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%p, %u#0 : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%w: f32, %d: f32, %o: f32):
    %r = arith.subf %w, %d : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  return %new, %u#1 : tensor<4x8xf32>, tensor<i1>
}

// -----

// Regressions (break-it, 2026-12-01): each of these crashed the split. An
// elementwise result whose init another result reads, or a body with a
// region, is not split; a yielded value from above is kept.
// CHECK-LABEL: func.func @split_above
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @split_above(%a: tensor<4x8xf32>, %c: f32) -> (tensor<4xf32>, tensor<4x8xf32>) {
  %e0 = tensor.empty() : tensor<4x8xf32>
  %e1 = tensor.empty() : tensor<4xf32>
  %r:2 = linalg.generic {indexing_maps = [#id, #id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%a : tensor<4x8xf32>) outs(%e0, %e1 : tensor<4x8xf32>, tensor<4xf32>) {
  ^bb0(%x: f32, %o0: f32, %o1: f32):
    %s = arith.addf %x, %o1 : f32
    linalg.yield %c, %s : f32, f32
  } -> (tensor<4x8xf32>, tensor<4xf32>)
  %e2 = tensor.empty() : tensor<4x8xf32>
  %n = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%r#0 : tensor<4x8xf32>) outs(%e2 : tensor<4x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.negf %x : f32
    linalg.yield %y : f32
  } -> tensor<4x8xf32>
  return %r#1, %n : tensor<4xf32>, tensor<4x8xf32>
}

// -----

// CHECK-LABEL: func.func @split_readsew
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @split_readsew(%a: tensor<4x8xf32>, %i0: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4xf32>) {
  %e1 = tensor.empty() : tensor<4xf32>
  %r:2 = linalg.generic {indexing_maps = [#id, #id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%a : tensor<4x8xf32>) outs(%i0, %e1 : tensor<4x8xf32>, tensor<4xf32>) {
  ^bb0(%x: f32, %o0: f32, %o1: f32):
    %m = arith.mulf %x, %x : f32
    %t = arith.addf %o0, %o1 : f32
    %s = arith.addf %t, %x : f32
    linalg.yield %m, %s : f32, f32
  } -> (tensor<4x8xf32>, tensor<4xf32>)
  %e2 = tensor.empty() : tensor<4x8xf32>
  %n = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%r#0 : tensor<4x8xf32>) outs(%e2 : tensor<4x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.negf %x : f32
    linalg.yield %y : f32
  } -> tensor<4x8xf32>
  return %n, %r#1 : tensor<4x8xf32>, tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @split_region
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @split_region(%a: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4xf32>) {
  %e0 = tensor.empty() : tensor<4x8xf32>
  %cz = arith.constant 0.0 : f32
  %e1 = linalg.fill ins(%cz : f32) outs(%e0 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %f0 = tensor.empty() : tensor<4xf32>
  %f1 = linalg.fill ins(%cz : f32) outs(%f0 : tensor<4xf32>) -> tensor<4xf32>
  %r:2 = linalg.generic {indexing_maps = [#id, #id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%a : tensor<4x8xf32>) outs(%e1, %f1 : tensor<4x8xf32>, tensor<4xf32>) {
  ^bb0(%x: f32, %o0: f32, %o1: f32):
    %c = arith.cmpf ogt, %x, %cz : f32
    %z = scf.if %c -> f32 {
      scf.yield %o1 : f32
    } else {
      scf.yield %x : f32
    }
    %s = arith.addf %z, %x : f32
    linalg.yield %z, %s : f32, f32
  } -> (tensor<4x8xf32>, tensor<4xf32>)
  %e2 = tensor.empty() : tensor<4x8xf32>
  %n = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%r#0 : tensor<4x8xf32>) outs(%e2 : tensor<4x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.negf %x : f32
    linalg.yield %y : f32
  } -> tensor<4x8xf32>
  return %n, %r#1 : tensor<4x8xf32>, tensor<4xf32>
}
