// A data-parallel run whose ranks cannot go on together ends, with the
// reason, instead of hanging in a collective (docs/distributed.md).
//
// A rank fails alone before a step (its peer already waits in the step's
// all-reduce): it says why and aborts the job (MPI_Abort ends every rank).
// (run-bounded.py prints how the command ended: a hang is not a failure.)
// RUN: python3 %S/../Inputs/run-bounded.py 300 %mpirun -np 2 amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --run=f32 --max-steps=3 --progress=false --test-inject=fail@1:2 > %t.fail 2>&1
// RUN: FileCheck %s --check-prefix=FAIL < %t.fail
// FAIL: amp-run (rank 1): run f32: test injection: rank 1 fails before step 2
// FAIL: exit status {{[1-9]}}
//
// A stop rule (here a NaN loss injected on rank 1 at step 2: the loss is
// all-reduced, so it is NaN on every rank) ends every rank at the same step:
// one message, from rank 0, and no MPI_Abort; with mpirun -q not even Open
// MPI's exit banner.
// RUN: python3 %S/../Inputs/run-bounded.py 300 %mpirun -q -np 2 amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --run=f32 --max-steps=3 --progress=false --test-inject=loss-nan@1:2 > %t.nan 2>&1
// RUN: FileCheck %s --check-prefix=NAN < %t.nan
// NAN-NOT: MPI_ABORT
// NAN-NOT: (rank
// NAN: amp-run: run f32: step 2 (epoch 1): the loss itself is non-finite (NaN): {{.*}} [on all 2 ranks: {{.*}}]
// NAN-NOT: non-finite
// NAN-NOT: MPI_ABORT
// NAN-NOT: ----
// NAN: exit status 1
//
// A rank stops before a step and never comes back: the watchdog of every
// rank ends the job once no step has finished for --dp-timeout seconds.
// RUN: python3 %S/../Inputs/run-bounded.py 300 %mpirun -np 2 amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --run=f32 --max-steps=3 --progress=false --test-inject=hang@1:2 --dp-timeout=3 > %t.hang 2>&1
// RUN: FileCheck %s --check-prefix=HANG < %t.hang
// HANG: amp-run (rank {{0|1}}): no training step finished in 3 s (--dp-timeout): another rank probably failed or hangs before a collective; ending the job
// HANG: exit status {{[1-9]}}
//
// Ranks started with different runs (here: different step counts, which
// would leave one rank waiting in an all-reduce the other never calls)
// are refused before the first step.
// RUN: python3 %S/../Inputs/run-bounded.py 300 %mpirun -np 1 amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --run=f32 --max-steps=3 --progress=false : -np 1 amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --run=f32 --max-steps=4 --progress=false > %t.agree 2>&1
// RUN: FileCheck %s --check-prefix=AGREE < %t.agree
// AGREE: amp-run (rank {{0|1}}): run f32: the 2 ranks disagree on the run f32 (every rank must run the same step with the same options and data; rank {{0|1}}'s fingerprint differs from the {{largest|smallest}})
// AGREE: exit status {{[1-9]}}
//
// Options that cannot work together, before anything is loaded.
// RUN: not timeout 300 %mpirun -np 2 amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --data-parallel=off 2> %t.off
// RUN: FileCheck %s --check-prefix=OFF < %t.off
// OFF: amp-run: started by an MPI launcher with 2 ranks but --data-parallel=off: every rank would train alone; drop the flag, or start one process
// RUN: not amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --test-inject=grad-inf@1:2 2>&1 | FileCheck %s --check-prefix=NODP
// NODP: amp-run: --test-inject is a data-parallel test hook: start amp-run with mpirun or pass --data-parallel=on
// RUN: not timeout 300 %mpirun -np 2 amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --test-inject=grad-inf@2:1 2> %t.rank
// RUN: FileCheck %s --check-prefix=NORANK < %t.rank
// NORANK: --test-inject=grad-inf@2:1: there is no rank 2 of 2
// RUN: not amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --test-inject=nan@1:2 2>&1 | FileCheck %s --check-prefix=KIND
// KIND: amp-run: --test-inject=nan@1:2: 'nan' is not an injection (grad-inf, loss-nan, fail, hang)
// RUN: not amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --test-inject=fail@1:0 2>&1 | FileCheck %s --check-prefix=STEP
// STEP: amp-run: --test-inject=fail@1:0: 'fail@1:0': write KIND@RANK:STEP with RANK >= 0 and STEP >= 1 (counted over the run), e.g. grad-inf@1:3
// RUN: not timeout 300 %mpirun -np 2 amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --device=cuda 2> %t.cuda
// RUN: FileCheck %s --check-prefix=CUDA < %t.cuda
// CUDA: --device=cuda: data-parallel training runs on the CPU; the GPU path (NCCL or CUDA-aware MPI) is planned in docs/distributed.md
// --emulate-ranks reproduces ranks in one process: not under mpirun, and
// only with a number of ranks that divides the batch.
// RUN: not timeout 300 %mpirun -np 2 amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --emulate-ranks=2 2> %t.emu
// RUN: FileCheck %s --check-prefix=EMU < %t.emu
// EMU: --emulate-ranks reproduces data-parallel ranks in one process; this run is data-parallel already (run it without mpirun, or drop --emulate-ranks)
// RUN: not amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --emulate-ranks=3 2>&1 | FileCheck %s --check-prefix=EMU3
// EMU3: amp-run: run f16+dynamic: --emulate-ranks=3 does not divide the batch size 128 (each rank's batch is batch / ranks)
// RUN: not amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --emulate-ranks=0 2>&1 | FileCheck %s --check-prefix=EMU0
// EMU0: amp-run: run f16+dynamic: --emulate-ranks=0: must be >= 1 (1: off)
