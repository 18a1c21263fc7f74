// RUN: not amp-opt %s -amp-autocast=precision=f8 2>&1 | FileCheck %s
// CHECK: for the --precision option: 'f8' is not a precision (f16, bf16 or f32)
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}

// An op forced low (allow=) that does not accept f16: its own verifier
// error, then one error located at it that names it and what to do (before:
// one error on the module that named no op).
// RUN: not amp-opt %s -amp-autocast="allow=arith.bitcast" 2>&1 | FileCheck %s --check-prefix=VERIFY
// VERIFY: autocast-invalid.mlir:[[@LINE+4]]:8: error: 'arith.bitcast' op operand type 'tensor<4xf16>' and result type 'tensor<4xi32>' are cast incompatible
// VERIFY: autocast-invalid.mlir:[[@LINE+3]]:8: error: amp-autocast: 'arith.bitcast' painted f16 does not verify with low-precision types (error above); name it in deny= to keep it f32
// VERIFY-NOT: error
func.func @bitcast(%a: tensor<4xf32>) -> tensor<4xi32> {
  %b = arith.bitcast %a : tensor<4xf32> to tensor<4xi32>
  return %b : tensor<4xi32>
}
