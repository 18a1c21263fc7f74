// Autocast on torch-mlir-style weights: `arith.constant dense_resource<...>`
// with the bytes in the `dialect_resources` section (a 4-byte alignment
// header, then little-endian f32 data), or `dense_resource<__elided__>` when
// printed without them. A narrowed constant with data gets a new f16/bf16
// blob (a new resource; the warnings of dense constants); without data the
// f32 constant stays and is rounded once by arith.truncf.
// RUN: amp-opt %s -split-input-file -amp-autocast=precision=f16 -verify-diagnostics | FileCheck %s
// RUN: amp-opt %s -split-input-file -amp-autocast=precision=bf16 2>&1 | FileCheck %s --check-prefix=BF16

// Weights 1, 2, 3, 4 become f16 0x3C00, 0x4000, 0x4200, 0x4400 (bf16 0x3F80,
// 0x4000, 0x4040, 0x4080), stored little-endian after the 2-byte alignment
// header; the f32 blob is no longer referenced and not printed.
// CHECK-LABEL: func.func @real_blob
// CHECK: %[[W:.*]] = arith.constant dense_resource<w1_f16> : tensor<2x2xf16>
// CHECK: linalg.matmul ins(%{{.*}}, %[[W]] : tensor<4x2xf16>, tensor<2x2xf16>) outs(%{{.*}} : tensor<4x2xf32>)
// CHECK-NOT: arith.truncf {{.*}}tensor<2x2xf32>
// CHECK: dialect_resources
// CHECK-NEXT: builtin
// CHECK-NEXT: w1_f16: "0x02000000003C004000420044"
// CHECK-NOT: w1:
// BF16-NOT: warning:
// BF16-LABEL: func.func @real_blob
// BF16: arith.constant dense_resource<w1_bf16> : tensor<2x2xbf16>
// BF16: w1_bf16: "0x02000000803F004040408040"
func.func @real_blob(%x: tensor<4x2xf32>) -> tensor<4x2xf32> {
  %w = arith.constant dense_resource<w1> : tensor<2x2xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x2xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<4x2xf32>) -> tensor<4x2xf32>
  %y = linalg.matmul ins(%x, %w : tensor<4x2xf32>, tensor<2x2xf32>) outs(%acc : tensor<4x2xf32>) -> tensor<4x2xf32>
  return %y : tensor<4x2xf32>
}

{-#
  dialect_resources: {
    builtin: {
      w1: "0x040000000000803F000000400000404000008040"
    }
  }
#-}

// -----

// Elided data (a model printed without its weights): the f32 constant is
// kept and cast once; nothing is guessed.
// CHECK-LABEL: func.func @elided
// CHECK: %[[W:.*]] = arith.constant dense_resource<__elided__> : tensor<2x2xf32>
// CHECK: %[[WL:.*]] = arith.truncf %[[W]] : tensor<2x2xf32> to tensor<2x2xf16>
// CHECK: linalg.matmul ins(%{{.*}}, %[[WL]] : tensor<4x2xf16>, tensor<2x2xf16>)
// BF16-LABEL: func.func @elided
// BF16: arith.truncf %{{.*}} : tensor<2x2xf32> to tensor<2x2xbf16>
func.func @elided(%x: tensor<4x2xf32>) -> tensor<4x2xf32> {
  %w = arith.constant dense_resource<__elided__> : tensor<2x2xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x2xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<4x2xf32>) -> tensor<4x2xf32>
  %y = linalg.matmul ins(%x, %w : tensor<4x2xf32>, tensor<2x2xf32>) outs(%acc : tensor<4x2xf32>) -> tensor<4x2xf32>
  return %y : tensor<4x2xf32>
}

// -----

// A blob of the wrong size (3 floats for 4 elements) is not read either.
// CHECK-LABEL: func.func @short_blob
// CHECK: arith.truncf %{{.*}} : tensor<2x2xf32> to tensor<2x2xf16>
func.func @short_blob(%x: tensor<4x2xf32>) -> tensor<4x2xf32> {
  %w = arith.constant dense_resource<short> : tensor<2x2xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x2xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<4x2xf32>) -> tensor<4x2xf32>
  %y = linalg.matmul ins(%x, %w : tensor<4x2xf32>, tensor<2x2xf32>) outs(%acc : tensor<4x2xf32>) -> tensor<4x2xf32>
  return %y : tensor<4x2xf32>
}

{-#
  dialect_resources: {
    builtin: {
      short: "0x040000000000803F0000004000004040"
    }
  }
#-}

// -----

// Values 0.5, -1, 70000 (above f16's 65504) and 1e-9 (below 2^-24): the
// same warnings as a dense constant, located at the constant; in bf16
// (fp32's range) neither happens.
// CHECK-LABEL: func.func @overflow
// CHECK: arith.constant dense_resource<big_f16> : tensor<2x2xf16>
// CHECK: big_f16: "0x02000000003800BC007C0000"
func.func @overflow(%x: tensor<4x2xf32>) -> tensor<4x2xf32> {
  // expected-warning @+2 {{amp-autocast: constant value 7.000000e+04 overflows 'f16' and becomes inf}}
  // expected-warning @+1 {{amp-autocast: constant value 1.000000e-09 flushes to zero in 'f16'}}
  %w = arith.constant dense_resource<big> : tensor<2x2xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x2xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<4x2xf32>) -> tensor<4x2xf32>
  %y = linalg.matmul ins(%x, %w : tensor<4x2xf32>, tensor<2x2xf32>) outs(%acc : tensor<4x2xf32>) -> tensor<4x2xf32>
  return %y : tensor<4x2xf32>
}

{-#
  dialect_resources: {
    builtin: {
      big: "0x040000000000003F000080BF00B888475F708930"
    }
  }
#-}
