// REQUIRES: gpu-bench
// amp-bench-gpu-fused-check checks its arguments before it loads CUDA:
// out of range, not a number, trailing characters, unknown: usage and rc 2
// (1 MiB holds more fp32 elements than the 10000 tensors allowed).
// RUN: not amp-bench-gpu-fused-check --tensors=0 2>&1 | FileCheck %s --check-prefix=USAGE
// RUN: not amp-bench-gpu-fused-check --tensors=99999999999 2>&1 | FileCheck %s --check-prefix=USAGE
// RUN: not amp-bench-gpu-fused-check --mib=1e3 2>&1 | FileCheck %s --check-prefix=USAGE
// RUN: not amp-bench-gpu-fused-check --reps=0 2>&1 | FileCheck %s --check-prefix=USAGE
// RUN: not amp-bench-gpu-fused-check --bogus 2>&1 | FileCheck %s --check-prefix=USAGE
// RUN: amp-bench-gpu-fused-check --tensors=10000 --mib=1 --dump-mlir | FileCheck %s --check-prefix=MANY
// MANY: %g9999: tensor<{{[0-9]+}}xf32>, %inv: tensor<f32>
// RUN: amp-bench-gpu-fused-check --tensors=3 --mib=1 --dump-mlir | FileCheck %s --check-prefix=DUMP
// USAGE: usage: {{.*}}amp-bench-gpu-fused-check [--tensors=N (1..10000)] [--mib=M (1..32768)]
// DUMP: func.func @check(%g0: tensor<43690xf32>, %g1: tensor<87381xf32>, %g2: tensor<131073xf32>, %inv: tensor<f32>)
// DUMP: amp.unscale_and_check %g0, %g1, %g2 inv_scale %inv
