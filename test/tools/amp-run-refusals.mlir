// What amp-run refuses before it loads data or allocates a buffer, found by a
// new user's break-it pass (each used to train wrong, abort or crash).
//
// An already-autocast step: a run named f32 would compute in f16.
// RUN: amp-opt %amp_src_root/examples/fashion-mnist/mlp.mlir --amp-autocast=precision=f16 -o %t.f16.mlir
// RUN: not amp-run %t.f16.mlir --run=f32 2>&1 | FileCheck %s --check-prefix=NARROWED
// NARROWED-NOT: loading
// NARROWED: amp-run: run f32: {{.*}}.mlir:{{[0-9]+}}:{{[0-9]+}}: error: @train_step is already autocast to f16 (this cast feeds '{{[a-z._]+}}'); amp-run takes the fp32 training step and narrows it per --run itself
//
// A recursive call chain (it used to overflow the JIT's stack).
// RUN: not amp-run %S/Inputs/recursive.mlir --run=f32 2>&1 | FileCheck %s --check-prefix=RECURSIVE
// RECURSIVE-NOT: loading
// RECURSIVE: recursive.mlir:3:1: error: recursive call chain @sum_down -> @sum_down: amp-run does not train recursive steps
//
// What the rewrite refuses is refused before the data is loaded (a bad
// autocast-deny name used to fail only after loading, at the run's start).
// RUN: not amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --run=f32,f16+dynamic --autocast-deny=linalg.nosuchop 2>&1 | FileCheck %s --check-prefix=REWRITE
// REWRITE-NOT: loading
// REWRITE: amp-run: run f16+dynamic: amp-mixed-precision failed:
// REWRITE-NEXT: error: amp-autocast: {{.*}}linalg.nosuchop
//
// The same run twice under two spellings.
// RUN: not amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --run=f16,f16+none 2>&1 | FileCheck %s --check-prefix=SAME
// SAME: amp-run: --run 'f16' and 'f16+none' are the same run (f16)
//
// Synthetic data larger than memory (it used to abort in the allocator).
// RUN: not amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --run=f32 --data=synthetic --synthetic-examples=100000000000 2>&1 | FileCheck %s --check-prefix=SYNTH
// SYNTH: amp-run: --synthetic-examples=100000000000: the synthetic data (100000000000 examples of 784 f32 values, plus a test set of a quarter) does not fit in this machine's memory
//
// Options of the synthetic data with other data: they would change nothing
// (they were silently ignored).
// RUN: not amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --run=f32 --classes=5 2>&1 | FileCheck %s --check-prefix=SYNTHONLY
// SYNTHONLY-NOT: loading
// SYNTHONLY: amp-run: --classes shapes --data=synthetic only, and --data=fashion-mnist was given: the data's own examples, labels and values are used; drop it
// RUN: not amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --run=f32 --data=idx:%t.nowhere --synthetic-examples=64 2>&1 | FileCheck %s --check-prefix=SYNTHONLY2
// SYNTHONLY2: amp-run: --synthetic-examples shapes --data=synthetic only
//
// Training labels past the eval step's logits would be read out of bounds
// by the loss: 13 training classes, 10 test classes, 10 logits.
// RUN: rm -rf %t.idx && python3 %S/Inputs/make-idx.py %t.idx 128 13 20 10
// RUN: not amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --run=f32 --data-dir=%t.idx 2>&1 | FileCheck %s --check-prefix=LABELS
// LABELS: amp-run: run f32: the training set has labels up to 12 but the eval step returns 10 logits per example
//
// Non-finite progress intervals.
// RUN: not amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --progress-seconds=inf 2>&1 | FileCheck %s --check-prefix=PROG
// PROG: amp-run: --progress-seconds=inf: must be a finite number >= 0
//
// Per-run outputs: a directory gets <run>.csv files (it used to get hidden
// ".f32.csv" files), and several runs get one autocast report each (each
// used to overwrite the last).
// RUN: rm -rf %t.out && mkdir %t.out
// RUN: amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --run=f32,f16+dynamic --max-steps=2 --csv=%t.out --autocast-report=%t.out/report > /dev/null
// RUN: ls -A %t.out | FileCheck %s --check-prefix=FILES
// FILES: f16+dynamic.csv
// FILES-NEXT: f32.csv
// FILES-NEXT: report.f16+dynamic.json
// FILES-NOT: {{.}}
// RUN: FileCheck %s --check-prefix=CSV < %t.out/f16+dynamic.csv
// CSV: f16 + dynamic,1,1,
//
// More threads than OpenMP can create used to abort the process in libomp.
// RUN: not amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --threads=100000 2>&1 | FileCheck %s --check-prefix=THREADS
// THREADS-NOT: loading
// THREADS: amp-run: --threads=100000: must be 0 (every core) or 1..256
// A path ending in '/' that does not exist yet is made.
// RUN: rm -rf %t.newdir
// RUN: amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --run=f32 --max-steps=1 --csv=%t.newdir/ > /dev/null
// RUN: FileCheck %s --check-prefix=NEWDIR < %t.newdir/f32.csv
// NEWDIR: run,step,epoch,loss
//
// A forward model, not a training step: the error names the builder.
// RUN: not amp-run %amp_src_root/examples/pytorch/cnn.mlir 2>&1 | FileCheck %s --check-prefix=FORWARD
// FORWARD: no func.func with the amp.train_step attribute; mark the training step (docs/training-step.md), or build one from a forward model with amp-opt --amp-build-train-step
