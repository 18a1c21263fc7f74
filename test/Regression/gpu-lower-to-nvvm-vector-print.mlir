// Regression (found by amp-robustness on a CPU test file): amp-lower-to-nvvm
// runs a step's scalar host code in one-thread kernels, so a vector.print
// reached the device, where convert-gpu-to-nvvm made a call to the CPU
// runtime's printF32 that no module defines (the NVVM translation failed,
// leaving IR that does not verify). The input check refuses it, located,
// once per op name.
// RUN: amp-opt %s --amp-lower-to-nvvm -verify-diagnostics -o /dev/null

func.func @show(%m: memref<2xf32>) {
  %c0 = arith.constant 0 : index
  %x = memref.load %m[%c0] : memref<2xf32>
  // expected-error @+1 {{amp-lower-to-nvvm cannot lower 'vector.print': the step's code runs on the GPU, which has no printF32; print on the host after the step returns}}
  vector.print %x : f32
  vector.print %x : f32
  return
}
