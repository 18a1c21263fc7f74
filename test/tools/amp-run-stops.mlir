// The stop rules that amp-run's driver applies on every device
// (lib/amp/Runtime/RunLog.cpp), beyond the scale collapse of
// amp-run-collapse.mlir; each stops with a message and exit 1.
//
// A static scale at which every step overflows: 25 consecutive skipped
// steps stop the run (it used to skip all 50 and exit 0).
// RUN: not amp-run %S/Inputs/always-overflow.mlir --run=f16+static --max-steps=50 2>&1 | FileCheck %s --check-prefix=STATIC
// STATIC: amp-run: run f16+static: step 25 (epoch 1): 25 consecutive steps overflowed at the static loss scale 32768, so none of them updated the parameters; stopping
// Fewer steps than that, all skipped: the run fails at its end.
// RUN: not amp-run %S/Inputs/always-overflow.mlir --run=f16+static --max-steps=10 2>&1 | FileCheck %s --check-prefix=ALL
// ALL: amp-run: run f16+static: every step of the run (10 of 10) overflowed and was skipped: the parameters never changed
//
// An f32 run checks no gradient: the inf gradients of step 1 reach the
// update, and step 2's loss is non-finite because of that, not because the
// forward overflowed.
// RUN: not amp-run %S/Inputs/always-overflow.mlir --run=f32 --max-steps=10 2>&1 | FileCheck %s --check-prefix=POISON
// POISON: amp-run: run f32: step 2 (epoch 1): the loss is non-finite ({{NaN|inf}}) because the parameters became non-finite in step 1's update (argument #0 first): this run checks no gradient for overflow, so non-finite gradients reach the update (a run with loss scaling, e.g. --run=f32+dynamic, skips such steps); stopping
//
// When one run of several fails, the table of those that finished comes
// first, then the error.
// RUN: not amp-run %S/Inputs/always-overflow.mlir --run=f32,f32+dynamic --max-steps=1 --init-scale=4 --min-scale=4 > %t.out 2> %t.err
// RUN: FileCheck %s --check-prefix=TABLE < %t.out
// TABLE: run{{ +}}train loss
// TABLE-NEXT: f32{{ +}}0.0000{{ +}}-{{ +}}-{{ +}}0{{ +}}1
// TABLE-NOT: dynamic
// RUN: FileCheck %s --check-prefix=TABLE-ERR < %t.err
// TABLE-ERR: amp-run: run f32+dynamic: step 1 (epoch 1): the loss scale is at its floor (4, --min-scale)
//
// Progress within an epoch: periodic lines when the output is not a
// terminal (here one per step), none with --progress=false.
// RUN: amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --run=f16+dynamic --max-steps=3 --progress-seconds=1e-9 | FileCheck %s --check-prefix=PROGRESS
// PROGRESS: [f16 + dynamic] epoch 1/1, step 1/3: loss {{[0-9.]+}}, loss scale 32768, skipped 0, {{[0-9.]+}} ms/step, ETA {{[0-9]+}} s
// PROGRESS: [f16 + dynamic] epoch 1/1, step 3/3: loss
// PROGRESS: [f16 + dynamic] epoch 1/1: train loss
// RUN: amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --run=f32 --max-steps=3 --progress=false | FileCheck %s --check-prefix=QUIET
// QUIET-NOT: epoch 1/1
// QUIET: f32{{ +}}{{[0-9.]+}}
