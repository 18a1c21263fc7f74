// linalg.softmax is decomposed (max, sub, exp, sum, div) and lowers.
// RUN: amp-opt %s --amp-lower-to-llvm | FileCheck %s --implicit-check-not="linalg."
// RUN: amp-opt %s --amp-lower-to-llvm="polynomial-erf=false" | FileCheck %s --check-prefix=LIBM
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

// math.erf (an exact GELU's) has no LLVM intrinsic: amp-cpu-polynomial-erf's
// rational approximation (a division of two polynomials, the sign copied
// from x), no libm call; with polynomial-erf=false, libm's erff.
// CHECK: llvm.func @gelu_erf
// CHECK-NOT: llvm.call @erff
// CHECK: llvm.fdiv
// CHECK: llvm.intr.copysign
// CHECK-NOT: llvm.call @erff
// LIBM: llvm.func @gelu_erf
// LIBM: llvm.call @erff
func.func @gelu_erf(%a: f32) -> f32 {
  %r = math.erf %a : f32
  return %r : f32
}
