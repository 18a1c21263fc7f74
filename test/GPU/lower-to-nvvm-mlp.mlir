// REQUIRES: ptxas
// The Fashion-MNIST MLP step (f16 + dynamic loss scaling, bf16, fp32) lowers
// to host LLVM code plus CUDA kernels that ptxas accepts (format=bin runs
// ptxas) for Ampere (sm_80) and Hopper (sm_90). No op of another dialect
// survives on the host (amp-check-nvvm-lowering also checks the kernels
// before serialization), and the host never loads device memory: the skip
// decision and the loss-scale update stay on the device.
// RUN: amp-opt %amp_src_root/examples/fashion-mnist/mlp.mlir --amp-mixed-precision --amp-lower-to-nvvm="chip=sm_80 format=bin" \
// RUN:   | FileCheck %s --check-prefixes=CHECK,SM80 --implicit-check-not="llvm.load" \
// RUN:     --implicit-check-not="= arith." --implicit-check-not="= math." \
// RUN:     --implicit-check-not="= linalg." --implicit-check-not="= tensor." \
// RUN:     --implicit-check-not="= memref." --implicit-check-not="scf." --implicit-check-not=" cf." \
// RUN:     --implicit-check-not="unrealized_conversion_cast" --implicit-check-not="func.func" \
// RUN:     --implicit-check-not="gpu.module"
// RUN: amp-opt %amp_src_root/examples/fashion-mnist/mlp.mlir --amp-mixed-precision --amp-lower-to-nvvm \
// RUN:   | FileCheck %s --check-prefixes=CHECK,SM90 --implicit-check-not="llvm.load" \
// RUN:     --implicit-check-not="= arith." --implicit-check-not="= math." \
// RUN:     --implicit-check-not="= linalg." --implicit-check-not="= tensor." \
// RUN:     --implicit-check-not="= memref." --implicit-check-not="scf." --implicit-check-not=" cf." \
// RUN:     --implicit-check-not="unrealized_conversion_cast" --implicit-check-not="func.func" \
// RUN:     --implicit-check-not="gpu.module"
// RUN: amp-opt %amp_src_root/examples/fashion-mnist/mlp.mlir --amp-mixed-precision="precision=bf16 loss-scale=none" --amp-lower-to-nvvm="chip=sm_80 format=bin" \
// RUN:   | FileCheck %s --check-prefix=BF16
// RUN: amp-opt %amp_src_root/examples/fashion-mnist/mlp.mlir --amp-mixed-precision="precision=bf16 loss-scale=none" --amp-lower-to-nvvm="chip=sm_90 format=fatbin" \
// RUN:   | FileCheck %s --check-prefix=BF16
// RUN: amp-opt %amp_src_root/examples/fashion-mnist/mlp.mlir --amp-mixed-precision="precision=f32 loss-scale=none" --amp-lower-to-nvvm="chip=sm_80 format=bin" \
// RUN:   | FileCheck %s --check-prefix=BF16
// The whole step lowered to PTX text; the f16 and bf16 conversions are real
// PTX instructions, the fused check is one kernel over the six gradients
// (784*256, 256, 256*128, 128, 128*10 and 10 elements).
// RUN: amp-opt %amp_src_root/examples/fashion-mnist/mlp.mlir --amp-mixed-precision --amp-lower-to-nvvm="chip=sm_90 format=isa" \
// RUN:   | FileCheck %s --check-prefix=PTX

// One stream per call of the step, synchronized once at its end.
// CHECK: llvm.func @train_step(
// CHECK: llvm.call @mgpuStreamCreate()
// CHECK: gpu.launch_func
// CHECK: llvm.call @mgpuStreamSynchronize(
// CHECK-NEXT: llvm.call @mgpuStreamDestroy(
// CHECK-NEXT: llvm.return
// CHECK: llvm.func @eval_step(
// CHECK: llvm.return
// SM80: gpu.binary @{{[a-z_0-9]+}} {{ *}}[#gpu.object<#nvvm.target<O = 3, chip = "sm_80", features = "+ptx80">, properties = {{[^}]*}}}, bin = "
// SM90: gpu.binary @{{[a-z_0-9]+}} {{ *}}[#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">, properties = {{[^}]*}}}, "

// BF16: llvm.func @train_step(
// BF16: gpu.binary @{{[a-z_0-9]+}}

// The gradients are cut into chunks of 4096 elements, 256 threads each
// (49 + 1 + 8 + 1 + 1 + 1 = 61 chunks, 15616 threads); a thread's chunk is
// its index / 256 and a binary search over the gradients' first chunks
// (58 first, then 49 or 59, ...; compared as thread indices 58 * 256 ...)
// picks its gradient: one kernel for all six.
// PTX: gpu.binary @train_step_kernel_{{[0-9]+}} {{.*}}shr.u64 {{[^;]*}}, 8;
// PTX-SAME: setp.gt.u64 {{[^;]*}}, 14847;
// PTX-SAME: setp.gt.u64 {{[^;]*}}, 12543;
// PTX-SAME: setp.gt.u64 {{[^;]*}}, 15103;
// PTX-SAME: setp.gt.u64 {{[^;]*}}, 12799;
// PTX-SAME: setp.gt.u64 {{[^;]*}}, 15359;
