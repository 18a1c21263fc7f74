// Checkpoints (docs/data-and-checkpoints.md): a run stopped after N steps
// and resumed from its checkpoint ends with the same state bits (--dump-state)
// as the run of N + M steps without interruption. The MLP on 1024 synthetic
// examples: 8 steps per epoch.
// RUN: rm -rf %t && mkdir -p %t
//
// f32: one epoch, checkpoint at its end, resumed for the second.
// RUN: amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --data=synthetic --synthetic-examples=1024 --progress=false --run=f32 --epochs=2 --dump-state=%t/f32.full > /dev/null
// RUN: amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --data=synthetic --synthetic-examples=1024 --progress=false --run=f32 --epochs=1 --save-checkpoint=%t/f32 > /dev/null
// RUN: amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --data=synthetic --synthetic-examples=1024 --progress=false --run=f32 --epochs=2 --resume=%t/f32 --dump-state=%t/f32.resumed | FileCheck %s --check-prefix=RESUMED
// RESUMED: amp-run: run f32 (2 epochs, resumed from {{.*}}f32)
// RESUMED: f32{{ +}}{{[0-9.]+}}{{ +}}{{[0-9.]+}}{{ +}}-{{ +}}0{{ +}}16
// RUN: cmp %t/f32.full %t/f32.resumed
//
// f32 mid-epoch: SIGINT after step 11 (epoch 2, step 3): the step finishes,
// the checkpoint is written, the table shows the interrupted run, exit 130.
// RUN: amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --data=synthetic --synthetic-examples=1024 --progress=false --run=f32 --epochs=2 --save-checkpoint=%t/f32-sig --test-signal-at-step=11 --dump-state=%t/f32-sig.digest > %t/sig.out 2> %t/sig.err || echo "exit status $?" >> %t/sig.out
// RUN: FileCheck %s --check-prefix=SIGNAL < %t/sig.out
// SIGNAL: f32 *{{ +}}{{[0-9.]+}}{{ +}}{{[0-9.]+}}{{ +}}-{{ +}}0{{ +}}11
// SIGNAL: (*: interrupted by a signal
// SIGNAL: exit status 130
// RUN: FileCheck %s --check-prefix=SIGNAL-ERR < %t/sig.err
// SIGNAL-ERR: amp-run: stopped by SIGINT
// RUN: amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --data=synthetic --synthetic-examples=1024 --progress=false --run=f32 --epochs=2 --resume=%t/f32-sig --dump-state=%t/f32-sig.resumed > /dev/null
// RUN: cmp %t/f32.full %t/f32-sig.resumed
//
