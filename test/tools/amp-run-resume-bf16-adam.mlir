// Checkpoints (docs/data-and-checkpoints.md): a run stopped after N steps
// and resumed from its checkpoint ends with the same state bits (--dump-state)
// as the run of N + M steps without interruption. The MLP on 1024 synthetic
// examples: 8 steps per epoch.
// RUN: rm -rf %t && mkdir -p %t
//
// bf16, stopped in the first epoch.
// RUN: amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --data=synthetic --synthetic-examples=1024 --progress=false --run=bf16 --epochs=2 --dump-state=%t/bf16.full > /dev/null
// RUN: amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --data=synthetic --synthetic-examples=1024 --progress=false --run=bf16 --epochs=2 --save-checkpoint=%t/bf16 --test-signal-at-step=3 > /dev/null || true
// RUN: amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --data=synthetic --synthetic-examples=1024 --progress=false --run=bf16 --epochs=2 --resume=%t/bf16 --dump-state=%t/bf16.resumed > /dev/null
// RUN: cmp %t/bf16.full %t/bf16.resumed
//
// Adam (moments and its step counter) in f16 + dynamic, mid-epoch.
// RUN: amp-run %amp_src_root/examples/fashion-mnist/adam.mlir --data=synthetic --synthetic-examples=1024 --progress=false --run=f16+dynamic --dump-state=%t/adam.full > /dev/null
// RUN: amp-run %amp_src_root/examples/fashion-mnist/adam.mlir --data=synthetic --synthetic-examples=1024 --progress=false --run=f16+dynamic --save-checkpoint=%t/adam --test-signal-at-step=5 > /dev/null || true
// RUN: amp-run %amp_src_root/examples/fashion-mnist/adam.mlir --data=synthetic --synthetic-examples=1024 --progress=false --run=f16+dynamic --resume=%t/adam --dump-state=%t/adam.resumed > /dev/null
// RUN: cmp %t/adam.full %t/adam.resumed
//
