// Regression (found by amp-robustness, random function seed 4):
// amp-gpu-launch-host-compute, a stage of amp-lower-to-nvvm that runs after
// one-shot bufferization, segfaulted in wrapBlock on tensor input with an
// unregistered op (op->getDialect() is null for it). It now checks its input
// up front: bufferized IR of registered ops, with a located error otherwise.
// RUN: amp-opt %s --allow-unregistered-dialect -amp-gpu-launch-host-compute -split-input-file -verify-diagnostics

// expected-error @+1 {{amp-gpu-launch-host-compute expects bufferized input (memrefs, no tensors) but this function takes or returns tensors; run as part of amp-lower-to-nvvm (after one-shot-bufferize)}}
func.func @tensor_signature(%a: tensor<f32>) -> tensor<f32> {
  %u = "unknown.op"(%a) : (tensor<f32>) -> tensor<f32>
  return %u : tensor<f32>
}

// -----

func.func @tensor_op(%m: memref<4xf32>) {
  // expected-error @+1 {{amp-gpu-launch-host-compute expects bufferized input (memrefs, no tensors) but 'bufferization.to_tensor' works on tensors}}
  %t = bufferization.to_tensor %m : memref<4xf32> to tensor<4xf32>
  return
}

// -----

func.func @unregistered(%m: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %x = memref.load %m[%c0] : memref<4xf32>
  // expected-error @+1 {{amp-gpu-launch-host-compute: unregistered op 'unknown.op' is not supported; run as part of amp-lower-to-nvvm on IR of registered dialects}}
  %y = "unknown.op"(%x) : (f32) -> f32
  memref.store %y, %m[%c0] : memref<4xf32>
  return
}
