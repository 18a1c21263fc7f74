// Painting rules of amp-autocast (TF grappler auto_mixed_precision, shared
// REFERENCE.md), one function per rule, checked through remarks.
// RUN: amp-opt %s -split-input-file -allow-unregistered-dialect -amp-autocast=remarks=true 2>&1 >/dev/null | FileCheck %s
// Idempotent on every case.
// RUN: amp-opt %s -split-input-file -allow-unregistered-dialect -amp-autocast > %t.once.mlir
// RUN: amp-opt %t.once.mlir -split-input-file -allow-unregistered-dialect -amp-autocast > %t.twice.mlir
// RUN: diff %t.once.mlir %t.twice.mlir

// Rule 3: infer between two allow ops is low; rule 2: deny (exp) spreads
// forward through infer even when an allow op follows.
// CHECK-LABEL: remark: autocast: clear (control flow
// CHECK: 17:8: remark: autocast: allow {{.*}}; mixed: rule 1
// CHECK: 18:10: remark: autocast: infer {{.*}}; low: rule 3: between allow ops
// CHECK: 20:8: remark: autocast: deny
// CHECK: 21:10: remark: autocast: infer {{.*}}; f32: rule 2: deny propagated from 'math.exp'
func.func @rules(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>, %c: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %m = linalg.matmul ins(%a, %b : tensor<4x4xf32>, tensor<4x4xf32>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
  %add = arith.addf %m, %m : tensor<4x4xf32>
  %m2 = linalg.matmul ins(%add, %b : tensor<4x4xf32>, tensor<4x4xf32>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
  %e = math.exp %m2 : tensor<4x4xf32>
  %mul = arith.mulf %e, %e : tensor<4x4xf32>
  %m3 = linalg.matmul ins(%mul, %b : tensor<4x4xf32>, tensor<4x4xf32>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %m3 : tensor<4x4xf32>
}

// -----

// Rule 4: a clear op (transpose) feeding an allow op follows it backwards.
// Negative: an infer op after the last allow op stays f32.
// CHECK: 33:8: remark: autocast: clear (data movement); low: rule 4: clear op next to low-precision 'linalg.matmul'
// CHECK: 35:8: remark: autocast: infer {{.*}}; f32: not between allow ops
func.func @clear_spreads(%w: tensor<4x8xf32>, %x: tensor<8x8xf32>, %c: tensor<8x4xf32>, %e: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %t = linalg.transpose ins(%w : tensor<4x8xf32>) outs(%e : tensor<8x4xf32>) permutation = [1, 0]
  %m = linalg.matmul ins(%x, %t : tensor<8x8xf32>, tensor<8x4xf32>) outs(%c : tensor<8x4xf32>) -> tensor<8x4xf32>
  %s = arith.addf %m, %m : tensor<8x4xf32>
  return %s : tensor<8x4xf32>
}

// -----

// Loop-carried accumulators are never demoted: the scf.for and its yield
// keep f32; the matmul inside reads low inputs.
// CHECK: 50:8: remark: autocast: clear (control flow
// CHECK: 51:10: remark: autocast: allow {{.*}}; mixed: rule 1
// CHECK: 52:5: remark: autocast: clear (control flow
func.func @loop(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>, %init: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %init) -> tensor<4x4xf32> {
    %m = linalg.matmul ins(%a, %b : tensor<4x4xf32>, tensor<4x4xf32>) outs(%acc : tensor<4x4xf32>) -> tensor<4x4xf32>
    scf.yield %m : tensor<4x4xf32>
  }
  return %r : tensor<4x4xf32>
}

// -----

// Overrides: deny=... keeps a matmul f32 (checked in autocast-options.mlir);
// an unknown op stays f32 and is reported as unknown.
// CHECK: 63:8: remark: autocast: unknown (unregistered op: stays fp32); f32: unknown op
func.func @unknown(%a: tensor<4xf32>) -> tensor<4xf32> {
  %r = "foo.bar"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
