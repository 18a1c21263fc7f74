// amp-promote-to-f64 low-precision=true (what amp-run --check-gradients
// runs): f16 and bf16 become f64 too, their constants keep their values
// exactly, and the casts between them and f32 disappear, so a model's own
// roundings to 16 bits are left out of a gradient check.
// RUN: amp-opt %s --split-input-file --amp-promote-to-f64="low-precision=true" --verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @rounds(
// CHECK-SAME: %[[X:.*]]: tensor<4xf64>) -> tensor<4xf64>
// CHECK: arith.constant dense<[5.000000e-01, -2.500000e-01, 0.30078125, 1.000000e+00]> : tensor<4xf64>
// CHECK: ^bb0(%[[A:.*]]: f64, %[[B:.*]]: f64, %{{.*}}: f64):
// CHECK-NEXT: %[[C:.*]] = arith.constant 1.250000e-01 : f64
// CHECK-NEXT: %[[M:.*]] = arith.mulf %[[A]], %[[B]] : f64
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[M]], %[[C]] : f64
// CHECK-NEXT: linalg.yield %[[S]] : f64
// CHECK-NOT: truncf
// CHECK-NOT: extf
#id = affine_map<(i) -> (i)>
func.func @rounds(%x: tensor<4xf32>) -> tensor<4xf32> {
  // 0.3 rounded to bf16 is 0.30078125: kept exactly.
  %w = arith.constant dense<[0.5, -0.25, 0.3, 1.0]> : tensor<4xbf16>
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%x, %w : tensor<4xf32>, tensor<4xbf16>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %b: bf16, %o: f32):
    %c = arith.constant 0.125 : f16
    %t = arith.truncf %a : f32 to bf16
    %m = arith.mulf %t, %b : bf16
    %m16 = arith.extf %m : bf16 to f32
    %c32 = arith.extf %c : f16 to f32
    %s = arith.addf %m16, %c32 : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @blob() -> tensor<2xf16> {
  // expected-error @+1 {{amp-promote-to-f64: low-precision: a dense_resource of 'f16' is not promoted to f64 (only f32 blobs are)}}
  %c = arith.constant dense_resource<w> : tensor<2xf16>
  return %c : tensor<2xf16>
}
{-#
  dialect_resources: {
    builtin: {
      w: "0x02000000003C0040"
    }
  }
#-}
