// amp-run's memory lines: what each run's training step holds, from its IR
// after the rewrite (amp-memory-report, tensor level). The MLP (batch 128)
// keeps its two hidden layers' outputs (128x256, 128x128) and its logits
// (128x10) for the backward, and the loss's per-row statistics (a
// reduction's few bytes are kept rather than recomputed): 202,240 B in f32,
// half in bf16 but for the f32 statistics (the logits are the last
// linear's output, stored in bf16 as autocast returns it). "CPU buffers":
// the lowered step's allocations at their most (amp-cpu-plan-buffers'
// amp.cpu_buffer_peak; the bf16 figure depends on the host's kernels).
// RUN: amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --data=synthetic --synthetic-examples=256 --run=f32,bf16 --max-steps=1 --threads=1 | FileCheck %s
// CHECK: memory of one training step, from its IR
// CHECK-NEXT: [f32] state 1.9 MB (1881168 B), batch 401.9 KB (401920 B), kept for the backward 202.2 KB (202240 B), peak live 4.2 MB (4164268 B); CPU buffers {{[0-9.]+ [KM]B \([0-9]+ B\)$}}
// CHECK-NEXT: [bf16] state 1.9 MB (1881168 B), batch 401.9 KB (401920 B), kept for the backward 101.9 KB (101888 B) (0.50x f32's), peak live {{.*}}; CPU buffers {{[0-9.]+ [KM]B \([0-9]+ B\) \([0-9.]+x f32's\)$}}
//
// --memory-budget with a dynamic batch: the largest batch whose peak live
// bytes fit. The step (Inputs/dynamic-batch.mlir) holds the 784-float
// parameter, its new value and gradient and a batch x 784 f32 input and
// batch i32 labels; the peak grows by 3,140 B per example, so 315 examples
// fit in 10^6 bytes and 316 do not (the bisection's answer is checked on
// both sides: its peak is printed, and 998524 + 3140 > 10^6).
// RUN: amp-run %S/Inputs/dynamic-batch.mlir --data=synthetic --synthetic-examples=64 --batch-size=8 --run=f32 --max-steps=1 --threads=1 --memory-budget=1M | FileCheck %s --check-prefix=DYN
// DYN: [f32] state 3.1 KB (3136 B), batch 25.1 KB (25120 B)
// DYN-NEXT: [f32] --memory-budget=1000000: the largest batch that fits is 315 (peak live 998.5 KB (998524 B))
// RUN: amp-run %S/Inputs/dynamic-batch.mlir --data=synthetic --synthetic-examples=64 --batch-size=8 --run=f32 --max-steps=1 --threads=1 --memory-budget=1Ki | FileCheck %s --check-prefix=NONE
// NONE: --memory-budget=1024: not even a batch of 1 fits
// A budget no batch up to 2^40 exceeds: the search says where it stopped.
// RUN: amp-run %S/Inputs/dynamic-batch.mlir --data=synthetic --synthetic-examples=64 --batch-size=8 --run=f32 --max-steps=1 --threads=1 --memory-budget=8388607Ti | FileCheck %s --check-prefix=CAP
// CAP: [f32] --memory-budget=9223370937343148032: every batch up to 1099511627776 fits (the search stops there
// A static batch: whether the step fits; also with the seed in a
// micro-batch loop (an approximate report, but no dynamic shape).
// RUN: amp-run %S/Inputs/micro-batch-step.mlir --data=synthetic --synthetic-examples=64 --run=f32 --max-steps=1 --threads=1 --memory-budget=1M | FileCheck %s --check-prefix=MICRO
// MICRO: [f32] --memory-budget=1000000: the step's batch is static; its peak live 240 B fits
// RUN: amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --data=synthetic --synthetic-examples=256 --run=f32 --max-steps=1 --threads=1 --memory-budget=4M | FileCheck %s --check-prefix=STATIC
// STATIC: --memory-budget=4000000: the step's batch is static; its peak live 4.2 MB (4164268 B) does not fit
// RUN: amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --data=synthetic --synthetic-examples=256 --run=f32 --max-steps=1 --threads=1 --memory-budget=6Mi | FileCheck %s --check-prefix=FITS
// FITS: --memory-budget=6291456: the step's batch is static; its peak live 4.2 MB (4164268 B) fits
// Refusals.
// RUN: not amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --data=synthetic --memory-budget=1.5G 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: amp-run: --memory-budget=1.5G: not a byte count from 1 to 2^63 - 1 (e.g. 4000000, 512M, 2Gi)
// RUN: not amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --data=synthetic --memory-budget=0 2>&1 | FileCheck %s --check-prefix=ZERO
// ZERO: amp-run: --memory-budget=0: not a byte count from 1 to 2^63 - 1
// RUN: not amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --data=synthetic --memory-budget= 2>&1 | FileCheck %s --check-prefix=EMPTY
// EMPTY: amp-run: --memory-budget=: not a byte count
// RUN: not amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --data=synthetic --memory-budget=8388608Ti 2>&1 | FileCheck %s --check-prefix=HUGE
// HUGE: amp-run: --memory-budget=8388608Ti: not a byte count from 1 to 2^63 - 1
// RUN: not amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --check-gradients --memory-budget=1G 2>&1 | FileCheck %s --check-prefix=MODE
// MODE: --memory-budget shapes a training run and does not apply; drop it
