// Regression (found by amp-robustness): amp-check-llvm-lowering dereferenced
// the null Dialect of an op of an unregistered dialect and crashed. It must
// report the op as not lowered, with a located error.
// RUN: amp-opt %s --allow-unregistered-dialect -amp-check-llvm-lowering -verify-diagnostics

llvm.func @unknown(%a: f32) -> f32 {
  // expected-error @+1 {{amp-lower-to-llvm could not lower 'unknown.op' to the LLVM dialect}}
  %r = "unknown.op"(%a) : (f32) -> f32
  llvm.return %r : f32
}
