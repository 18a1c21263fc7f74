// dense_resource constants (torch-mlir's weights, and what autocast makes of
// them) lower to LLVM globals that hold the blob's data: f32, f16 and bf16,
// checked in the LLVM IR the JIT compiles. A resource without data (elided)
// or of the wrong size is a located error up front.
// RUN: amp-opt %s -split-input-file --amp-lower-to-llvm -verify-diagnostics | FileCheck %s --check-prefix=LLVM
// RUN: amp-opt %s -split-input-file --amp-lower-to-llvm -verify-diagnostics | mlir-translate --mlir-to-llvmir --split-input-file | FileCheck %s

// LLVM: llvm.mlir.global private constant @__constant_2xf32(dense_resource<w32> : tensor<2xf32>)
// CHECK-DAG: @__constant_2xf32 = private constant [2 x float] [float 1.000000e+00, float 2.000000e+00]
// CHECK-DAG: @__constant_2xf16 = private constant [2 x half] [half 0xH3C00, half 0xH4000]
// CHECK-DAG: @__constant_2xbf16 = private constant [2 x bfloat] [bfloat 0xR3F80, bfloat 0xR4000]
func.func @f32w() -> tensor<2xf32> {
  %w = arith.constant dense_resource<w32> : tensor<2xf32>
  return %w : tensor<2xf32>
}
func.func @f16w() -> tensor<2xf16> {
  %w = arith.constant dense_resource<w16> : tensor<2xf16>
  return %w : tensor<2xf16>
}
func.func @bf16w() -> tensor<2xbf16> {
  %w = arith.constant dense_resource<wb16> : tensor<2xbf16>
  return %w : tensor<2xbf16>
}
{-#
  dialect_resources: {
    builtin: {
      w32: "0x040000000000803F00000040",
      w16: "0x02000000003C0040",
      wb16: "0x02000000803F0040"
    }
  }
#-}

// -----

func.func @elided() -> tensor<2xf32> {
  // expected-error @+1 {{'arith.constant' op holds dense_resource<__elided__> without data (the module was printed without its weights, e.g. with --mlir-elide-resource-strings-if-larger): amp-lower-to-llvm cannot put it into the program; export the model with its weights}}
  %w = arith.constant dense_resource<__elided__> : tensor<2xf32>
  return %w : tensor<2xf32>
}

// -----

func.func @short() -> tensor<4xf32> {
  // expected-error @+1 {{'arith.constant' op holds dense_resource<short> with 8 bytes of data, but 'tensor<4xf32>' needs 16 (one 'f32' per element)}}
  %w = arith.constant dense_resource<short> : tensor<4xf32>
  return %w : tensor<4xf32>
}
{-#
  dialect_resources: {
    builtin: {
      short: "0x040000000000803F00000040"
    }
  }
#-}

// -----

// A static shape of 2^64 elements: its byte size does not fit 64 bits. One
// error per type, at the first op found that defines a value of it.
func.func @huge(%a: tensor<4294967296x4294967296xf32>) -> tensor<4294967296x4294967296xf32> {
  // expected-error @+1 {{'arith.addf' op uses 'tensor<4294967296x4294967296xf32>', which holds 2^63 bytes or more: its size does not fit the 64-bit sizes and strides of amp-lower-to-llvm (they would wrap around); use smaller shapes or dynamic dimensions}}
  %r = arith.addf %a, %a : tensor<4294967296x4294967296xf32>
  return %r : tensor<4294967296x4294967296xf32>
}
