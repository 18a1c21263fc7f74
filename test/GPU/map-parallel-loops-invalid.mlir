// A parallel reduction (the pipeline's loops come from linalg and have
// none) is refused, not mapped wrongly.
// RUN: not amp-opt %s --amp-gpu-map-parallel-loops 2>&1 | FileCheck %s --check-prefix=REDUCE
// REDUCE: error: amp-gpu-map-parallel-loops: an scf.parallel with reductions is not mapped to the GPU
func.func @reduction(%m: memref<8xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %z = arith.constant 0.0 : f32
  %s = scf.parallel (%i) = (%c0) to (%c8) step (%c1) init (%z) -> f32 {
    %v = memref.load %m[%i] : memref<8xf32>
    scf.reduce(%v : f32) {
    ^bb0(%a: f32, %b: f32):
      %r = arith.addf %a, %b : f32
      scf.reduce.return %r : f32
    }
  }
  return %s : f32
}
