// An op that the CPU pipeline cannot lower is a located error, not a
// silent success.
// RUN: not amp-opt %s -split-input-file --allow-unregistered-dialect --amp-lower-to-llvm 2>&1 | FileCheck %s
// CHECK: lower-to-llvm-errors.mlir:[[@LINE+3]]:8: error: amp-lower-to-llvm could not lower 'emitc.literal' to the LLVM dialect
// CHECK-NOT: could not lower 'emitc.literal'
func.func @f(%a: f32) -> f32 {
  %x = emitc.literal "1.0f" : f32
  %y = emitc.literal "2.0f" : f32
  %r = arith.addf %x, %y : f32
  return %r : f32
}

// -----

// An op of no dialect the pipeline lowers is refused before lowering,
// located, with what to do.
// CHECK: lower-to-llvm-errors.mlir:[[@LINE+2]]:8: error: amp-lower-to-llvm could not lower 'foo.opaque' to the LLVM dialect: the op is not registered; the CPU pipeline lowers func, linalg, tensor, arith, math, scf, memref, bufferization and amp ops (and TOSA through tosa-to-linalg); rewrite it with those, e.g. as a linalg.generic
func.func @g(%a: tensor<4xf32>) -> tensor<4xf32> {
  %r = "foo.opaque"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// threads= beyond 256 is refused (OpenMP's num_threads is an i32: 2^32 - 1
// became -1; found by a break-it run, 2026-12-07).
// RUN: not amp-opt %amp_src_root/examples/fashion-mnist/mlp.mlir --amp-lower-to-llvm="threads=4294967295" -o /dev/null 2>&1 | FileCheck %s --check-prefix=THREADS
// RUN: amp-opt %amp_src_root/examples/fashion-mnist/mlp.mlir --amp-lower-to-llvm="threads=256" -o /dev/null
// THREADS: error: amp-lower-to-llvm: threads=4294967295: must be 0 (every core), 1 (no OpenMP) or up to 256

// A stray option of amp-lower-to-llvm (it has only threads) is reported,
// not a silent exit 1.
// RUN: not amp-opt %amp_src_root/examples/fashion-mnist/mlp.mlir --amp-lower-to-llvm="bogus=1" 2>&1 | FileCheck %s --check-prefix=OPTION
// OPTION: no such option bogus
