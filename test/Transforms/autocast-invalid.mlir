// RUN: not amp-opt %s -amp-autocast=precision=f8 2>&1 | FileCheck %s
// CHECK: for the --precision option: 'f8' is not a precision (f16, bf16 or f32)
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
