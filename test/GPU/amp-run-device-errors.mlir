// UNSUPPORTED: cuda-device
// amp-run --device=cuda where it cannot run: a clear error and exit code 1,
// before any data is loaded (no CUDA support in this build, no driver, or no
// device).
// RUN: not amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --device=cuda 2>&1 | FileCheck %s
// CHECK: amp-run: --device=cuda: {{(this build has no CUDA support|cannot load the CUDA runtime|no usable CUDA device)}}
// CHECK-NOT: loading
// RUN: not amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --device=tpu 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: amp-run: --device=tpu: must be cpu or cuda
