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
