// The data-parallel options change no numbers they should not.
//
// One rank (--data-parallel=on without mpirun: MPI_Init as a singleton):
// the rewrite divides by 1, sums over one rank and multiplies by 1.0, so
// every loss is bit-identical to a run without data parallelism, with and
// without loss scaling.
// RUN: env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --data-parallel=on --run=f32,f16+dynamic --max-steps=10 --progress=false --csv=%t.one | FileCheck %s --check-prefix=ONE
// ONE: amp-run: data-parallel over 1 rank (MPI), global batch 128 = 1 x 128
// RUN: amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --run=f32,f16+dynamic --max-steps=10 --progress=false --csv=%t.plain > /dev/null
// RUN: python3 %S/../Inputs/compare-losses.py %t.plain.f32.csv %t.one.f32.csv --steps=10 --rtol=0 | FileCheck %s --check-prefix=SAME
// RUN: python3 %S/../Inputs/compare-losses.py %t.plain.f16+dynamic.csv %t.one.f16+dynamic.csv --steps=10 --rtol=0 | FileCheck %s --check-prefix=SAME
// SAME: largest relative loss difference over 10 steps: 0 (step 0), within 0
//
// Two ranks: one all-reduce per gradient sums the same two values per
// element as the flat bucket: bit-identical losses and state.
// RUN: timeout 600 %mpirun -np 2 amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --run=f32 --max-steps=10 --progress=false --csv=%t.flat.csv --dump-state=%t.flat > /dev/null
// RUN: timeout 600 %mpirun -np 2 amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --run=f32 --max-steps=10 --progress=false --dp-bucket=per-gradient --csv=%t.per.csv --dump-state=%t.per > /dev/null
// RUN: python3 %S/../Inputs/compare-losses.py %t.flat.csv %t.per.csv --steps=10 --rtol=0 | FileCheck %s --check-prefix=SAME
// RUN: tail -n +2 %t.flat.rank1 > %t.flat.r1
// RUN: tail -n +2 %t.per.rank1 > %t.per.r1
// RUN: diff %t.flat.r1 %t.per.r1
//
// Reducing in f16 (each rank's share and the sum rounded to f16, the check
// after the reduction): trains, the ranks stay bit-identical; the losses
// follow the f32 reduction's closely (f16 rounds the gradients by up to
// 2^-11) over the first steps, before the example's learning rate makes the
// difference grow (docs/distributed.md).
// RUN: timeout 600 %mpirun -np 2 amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --run=f16+dynamic --max-steps=5 --progress=false --dp-reduce-precision=low --csv=%t.low.csv --dump-state=%t.low > /dev/null
// RUN: timeout 600 %mpirun -np 2 amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --run=f16+dynamic --max-steps=5 --progress=false --csv=%t.f32red.csv > /dev/null
// RUN: tail -n +2 %t.low.rank0 > %t.low.r0
// RUN: tail -n +2 %t.low.rank1 > %t.low.r1
// RUN: diff %t.low.r0 %t.low.r1
// RUN: python3 %S/../Inputs/compare-losses.py %t.f32red.csv %t.low.csv --steps=5 --rtol=1e-4 | FileCheck %s --check-prefix=LOW
// LOW: largest relative loss difference over 5 steps: {{.*}}, within 0.0001
// RUN: not python3 %S/../Inputs/compare-losses.py %t.f32red.csv %t.low.csv --steps=5 --rtol=0
