// --bf16-dot takes auto, on or off, and only for the CPU.
// RUN: not amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --run=bf16 --max-steps=1 --bf16-dot=maybe 2>&1 | FileCheck %s --check-prefix=VALUE
// VALUE: amp-run: --bf16-dot=maybe: must be auto, on or off
// RUN: not amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --run=bf16 --max-steps=1 --device=cuda --bf16-dot=off 2>&1 | FileCheck %s --check-prefix=CUDA
// CUDA: amp-run: --bf16-dot is for --device=cpu
