// One rank's non-finite value makes every rank skip the step (the test hook
// of amp-data-parallel, amp-run --test-inject): the scale halves on both,
// parameters and optimizer state stay bit-identical to before the step on
// both. The reference is the state after step 1 (a run of one step).
// f32 + dynamic loss scaling: the same rewrite and check as f16's, cheaper
// to compile (two-ranks.mlir trains f16 + dynamic).
// RUN: timeout 600 %mpirun -np 2 amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --run=f32+dynamic --max-steps=1 --progress=false --dump-state=%t.before > /dev/null
// RUN: grep -E " (param|opt_state) " %t.before.rank0 > %t.before.weights
// RUN: FileCheck %s --check-prefix=BEFORE < %t.before.rank0
// BEFORE: loss_scale f32 fnv1a64={{[0-9a-f]+}} value=32768
//
// +inf in rank 1's first gradient, before the reduction, at step 2.
// RUN: timeout 600 %mpirun -np 2 amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --run=f32+dynamic --max-steps=2 --progress=false --test-inject=grad-inf@1:2 --dump-state=%t.inf --csv=%t.inf.csv > %t.inf.out
// RUN: FileCheck %s --check-prefix=CSV < %t.inf.csv
// CSV: f32 + dynamic,1,1,{{[0-9.]+}},32768,0,
// CSV-NEXT: f32 + dynamic,2,1,{{[0-9.]+}},32768,1,
// RUN: tail -n +2 %t.inf.rank0 > %t.inf.r0
// RUN: tail -n +2 %t.inf.rank1 > %t.inf.r1
// RUN: diff %t.inf.r0 %t.inf.r1
// RUN: grep -E " (param|opt_state) " %t.inf.rank1 > %t.inf.weights
// RUN: diff %t.before.weights %t.inf.weights
// RUN: FileCheck %s --check-prefix=SKIPPED < %t.inf.rank1
// SKIPPED: run f32 + dynamic after 2 steps, rank 1 of 2
// SKIPPED: loss_scale f32 fnv1a64={{[0-9a-f]+}} value=16384
// SKIPPED: consecutive_skips i32 fnv1a64={{[0-9a-f]+}} value=1
//
// Training goes on in lockstep: step 3 runs at 16384 on both ranks.
// RUN: timeout 600 %mpirun -np 2 amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --run=f32+dynamic --max-steps=3 --progress=false --test-inject=grad-inf@1:2 --dump-state=%t.on --csv=%t.on.csv > /dev/null
// RUN: FileCheck %s --check-prefix=ON < %t.on.csv
// ON: f32 + dynamic,3,1,{{[0-9.]+}},16384,0,
// RUN: tail -n +2 %t.on.rank0 > %t.on.r0
// RUN: tail -n +2 %t.on.rank1 > %t.on.r1
// RUN: diff %t.on.r0 %t.on.r1
//
// NaN in rank 1's loss only (its gradients stay finite), at step 2: the
// mean loss is NaN on both ranks, so both skip (the poison reaches the
// check) and both stop on the non-finite loss, with the same state.
// RUN: not timeout 600 %mpirun -np 2 amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --run=f32+dynamic --max-steps=2 --progress=false --test-inject=loss-nan@1:2 --dump-state=%t.nan --csv=%t.nan.csv > %t.nan.out 2> %t.nan.err
// RUN: FileCheck %s --check-prefix=NANERR < %t.nan.err
// Both ranks stop together: one message, from rank 0 (a stop rule, not a
// rank's own failure: no MPI_Abort).
// NANERR-NOT: (rank
// NANERR: amp-run: run f32+dynamic: step 2 (epoch 1): the loss itself is non-finite (NaN){{.*}}[on all 2 ranks:
// NANERR-NOT: (rank
// NANERR-NOT: the loss itself
// RUN: FileCheck %s --check-prefix=NANCSV < %t.nan.csv
// NANCSV: f32 + dynamic,2,1,nan,32768,1,
// RUN: tail -n +2 %t.nan.rank0 > %t.nan.r0
// RUN: tail -n +2 %t.nan.rank1 > %t.nan.r1
// RUN: diff %t.nan.r0 %t.nan.r1
// RUN: grep -E " (param|opt_state) " %t.nan.rank0 > %t.nan.weights
// RUN: diff %t.before.weights %t.nan.weights
// RUN: FileCheck %s --check-prefix=SKIPPED2 < %t.nan.rank0
// SKIPPED2: loss_scale f32 fnv1a64={{[0-9a-f]+}} value=16384
