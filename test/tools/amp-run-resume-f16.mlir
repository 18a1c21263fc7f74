// Checkpoints (docs/data-and-checkpoints.md): a run stopped after N steps
// and resumed from its checkpoint ends with the same state bits (--dump-state)
// as the run of N + M steps without interruption. The MLP on 1024 synthetic
// examples: 8 steps per epoch.
// RUN: rm -rf %t && mkdir -p %t
//
// f16 + dynamic from the scale cap with a growth interval of 2: steps are
// skipped and the scale backs off and grows on both sides of the signal.
// RUN: amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --data=synthetic --synthetic-examples=1024 --progress=false --run=f16+dynamic --init-scale=16777216 --growth-interval=2 --epochs=2 --dump-state=%t/f16.full --csv=%t/f16.csv | FileCheck %s --check-prefix=F16
// F16: f16 + dynamic{{ +}}{{[0-9.]+}}{{ +}}{{[0-9.]+}}{{ +}}{{[0-9.e+]+}}{{ +}}{{[1-9][0-9]*}}{{ +}}16
// RUN: amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --data=synthetic --synthetic-examples=1024 --progress=false --run=f16+dynamic --init-scale=16777216 --growth-interval=2 --epochs=2 --save-checkpoint=%t/f16 --test-signal-at-step=5 > /dev/null || true
// RUN: amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --data=synthetic --synthetic-examples=1024 --progress=false --run=f16+dynamic --init-scale=16777216 --growth-interval=2 --epochs=2 --resume=%t/f16 --dump-state=%t/f16.resumed > /dev/null
// RUN: cmp %t/f16.full %t/f16.resumed
//
