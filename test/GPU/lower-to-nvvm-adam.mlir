// REQUIRES: ptxas
// The Adam step (examples/fashion-mnist/adam.mlir) lowers for the GPU: its
// bias corrections 1 - beta^t are computed from the step counter t, which
// lives in device memory; amp-gpu-keep-on-device computes them in a
// one-thread kernel and the update kernels read them as 0-d inputs, so the
// host never loads device memory (no llvm.load on the host). ptxas accepts
// the kernels (format=bin), in f16 with dynamic loss scaling, bf16 and fp32.
// RUN: amp-opt %amp_src_root/examples/fashion-mnist/adam.mlir --amp-mixed-precision --amp-lower-to-nvvm="chip=sm_80 format=bin" \
// RUN:   | FileCheck %s --implicit-check-not="llvm.load" --implicit-check-not="= math." \
// RUN:     --implicit-check-not="= arith." --implicit-check-not="tensor."
// RUN: amp-opt %amp_src_root/examples/fashion-mnist/adam.mlir --amp-mixed-precision="precision=bf16 loss-scale=none" --amp-lower-to-nvvm="chip=sm_90 format=bin" \
// RUN:   | FileCheck %s --implicit-check-not="llvm.load"
// RUN: amp-opt %amp_src_root/examples/fashion-mnist/adam.mlir --amp-mixed-precision="precision=f32 loss-scale=none" --amp-lower-to-nvvm="chip=sm_90 format=bin" \
// RUN:   | FileCheck %s --implicit-check-not="llvm.load"
// CHECK: llvm.func @train_step(
// CHECK: llvm.call @mgpuStreamCreate()
// CHECK: gpu.launch_func
// CHECK: llvm.call @mgpuStreamSynchronize(
// CHECK: gpu.binary @{{[a-z_0-9]+}}
