// REQUIRES: ptxas
// The fused non-finite check through the whole amp-lower-to-nvvm pipeline:
// one kernel covers all three gradients (one 4096-element chunk each, 256
// threads per chunk), next to a one-thread kernel that clears found_inf.
// RUN: amp-opt %s --amp-lower-to-nvvm="chip=sm_80 format=isa" | FileCheck %s
// RUN: amp-opt %s --amp-lower-to-nvvm="chip=sm_80 format=isa" | grep -o '[.]entry' | count 2
// ptxas accepts it for Ampere and Hopper.
// RUN: amp-opt %s --amp-lower-to-nvvm="chip=sm_80 format=bin" | FileCheck %s --check-prefix=BIN
// RUN: amp-opt %s --amp-lower-to-nvvm="chip=sm_90 format=bin" | FileCheck %s --check-prefix=BIN

// CHECK: llvm.func @check(
// CHECK: gpu.launch_func <{{.*}}> @check_kernel::@check_kernel blocks in
// CHECK: gpu.launch_func <{{.*}}> @check_kernel_0::@check_kernel blocks in
// CHECK: gpu.binary @check_kernel
// CHECK-SAME: st.global.b8
// CHECK: gpu.binary @check_kernel_0
// CHECK-SAME: .target sm_80
// CHECK-SAME: .entry check_kernel(
// The thread's chunk is its index / 256; each small gradient is one chunk
// (0: f16, 1: f32, 2: bf16), the branches test the chunk index; the f32
// gradient's loop comes first in the PTX, then f16's, then bf16's.
// CHECK-SAME: shr.u64 {{[^;]*}}, 8;
// CHECK-SAME: setp.eq.b64 {{[^;]*}}, 0;
// CHECK-SAME: ld.global.b32
// CHECK-SAME: mul.rn.f32
// CHECK-SAME: st.global.b8 {{[^;]*}}, 1;
// CHECK-SAME: ld.global.b16
// CHECK-SAME: cvt.f32.f16
// CHECK-SAME: mul.rn.f32
// CHECK-SAME: cvt.rn.f16.f32
// CHECK-SAME: ld.global.b16
// CHECK-SAME: cvt.f32.bf16
// CHECK-SAME: cvt.rn.bf16.f32

// BIN: gpu.binary @check_kernel_0 {{ *}}[#gpu.object<#nvvm.target<O = 3, chip = "sm_{{[89]}}0", features = "+ptx80">, properties = {{.*}}, bin = "
func.func @check(%g0: tensor<4x8xf16>, %g1: tensor<16xf32>,
                 %g2: tensor<2x3x5xbf16>, %inv: tensor<f32>)
    -> (tensor<4x8xf16>, tensor<16xf32>, tensor<2x3x5xbf16>, tensor<i1>) {
  %u:3, %found = amp.unscale_and_check %g0, %g1, %g2 inv_scale %inv
      : tensor<4x8xf16>, tensor<16xf32>, tensor<2x3x5xbf16>
  return %u#0, %u#1, %u#2, %found
      : tensor<4x8xf16>, tensor<16xf32>, tensor<2x3x5xbf16>, tensor<i1>
}
