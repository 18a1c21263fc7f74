// linalg.softmax is decomposed (max, sub, exp, sum, div) and lowers.
// RUN: amp-opt %s --amp-lower-to-llvm | FileCheck %s --implicit-check-not="linalg."
// CHECK: llvm.func @softmax
// The exp as amp-cpu-polynomial-exp's polynomial (no libm call):
// CHECK-NOT: llvm.intr.exp
// CHECK: llvm.intr.fma
// CHECK-NOT: llvm.intr.exp
func.func @softmax(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %r = linalg.softmax dimension(1) ins(%a : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// math.erf (GELU) has no LLVM intrinsic: it becomes a libm call.
// CHECK: llvm.func @gelu_erf
// CHECK: llvm.call @erff
func.func @gelu_erf(%a: f32) -> f32 {
  %r = math.erf %a : f32
  return %r : f32
}
