// REQUIRES: cuda-device, cuda-runtime
// The skip decision and the scale update run on the device: with an
// absurd initial scale (2^100) the fp16 gradients overflow, found_inf is
// set by the fused check, the step is skipped and the scale halves until
// the gradients fit. The GPU run skips exactly as many steps and ends at
// exactly the same scale as the CPU run of the same seed (PyTorch's rule).
// RUN: amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --run=f16+dynamic --max-steps=120 --init-scale=1.2676506002282294e30 --max-scale=1.2676506002282294e30 > %t.cpu
// RUN: amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --device=cuda --run=f16+dynamic --max-steps=120 --init-scale=1.2676506002282294e30 --max-scale=1.2676506002282294e30 > %t.gpu
// RUN: cat %t.cpu %t.gpu | FileCheck %s
// CHECK: f16 + dynamic{{ +}}{{[0-9.]+}}{{ +}}{{[0-9.]+}}{{ +}}[[SCALE:[0-9.e+]+]]{{ +}}[[SKIPPED:[1-9][0-9]*]]{{ +}}120
// CHECK: f16 + dynamic{{ +}}{{[0-9.]+}}{{ +}}{{[0-9.]+}}{{ +}}[[SCALE]]{{ +}}[[SKIPPED]]{{ +}}120
