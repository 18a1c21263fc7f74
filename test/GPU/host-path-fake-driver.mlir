// REQUIRES: cuda-runtime
// The GPU host path without a GPU: amp-run --device=cuda with a stand-in
// driver (Inputs/fake_cuda.c: calloc/memcpy, kernels do not run, launch
// geometry checked). Lowering for the reported sm_90, JIT of the host code,
// libamp_cuda_runtime.so, loading every kernel module (one gpu.binary per kernel of the
// MLP, as in lower-to-nvvm-mlp.mlir), launches with valid grids, device
// buffers and the training/eval loop all run; the numbers it prints are
// meaningless (no kernel computes anything) and are not checked.
// RUN: env LD_LIBRARY_PATH=%fake_cuda_dir amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --device=cuda --run=f16+dynamic --max-steps=3 2>&1 | FileCheck %s
// CHECK: [f16 + dynamic] on Fake GPU (sm_90), compiled in
// CHECK-NOT: bad launch
// CHECK: f16 + dynamic{{.*}} 0{{ +}}3{{ +}}{{[0-9.]+}}
// CHECK-NOT: bad launch
// CHECK: fake-cuda: {{[1-9][0-9]*}} module loads, {{[1-9][0-9]*}} kernel launches
// AMP_CUDA_PROFILE=1: one line per kernel by device time at exit (the fake
// driver's events read 1 ms per launch and its functions are one handle, so
// only the format is checked here; docs/performance.md has a real one).
// RUN: env AMP_CUDA_PROFILE=1 LD_LIBRARY_PATH=%fake_cuda_dir amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --device=cuda --run=f32 --max-steps=2 2>&1 | FileCheck %s --check-prefix=PROFILE
// PROFILE: amp cuda profile: {{[1-9][0-9]*}} kernels, {{[1-9][0-9]*}} launches, {{[0-9.]+}} ms on the device in all
// PROFILE-NEXT: kernel#module first grid block calls total ms mean us share
// PROFILE-NEXT: {{[a-z_]+}}_kernel#{{[0-9]+}} {{[0-9]+}} {{[0-9]+}}x1x1 {{[0-9]+}}x1x1
