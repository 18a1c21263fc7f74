// RUN: not amp-opt %s -amp-autocast=precision=f8 2>&1 | FileCheck %s
// CHECK: error: amp-autocast: precision must be f16, bf16 or f32 (f32: the pass changes nothing), got 'f8'
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
