// Data parallelism changes no numbers it should not (the bucket and
// reduce-precision options: two-ranks.mlir).
//
// One rank (--data-parallel=on without mpirun: MPI_Init as a singleton):
// the rewrite divides by 1, sums over one rank and multiplies by 1.0, so
// every loss is bit-identical to a run without data parallelism (f16 +
// dynamic loss scaling: the division, the sum and the poison all reach the
// check and the update).
// RUN: env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --data-parallel=on --run=f16+dynamic --max-steps=10 --progress=false --csv=%t.one.csv | FileCheck %s --check-prefix=ONE
// ONE: amp-run: data-parallel over 1 rank (MPI), global batch 128 = 1 x 128
// RUN: amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --run=f16+dynamic --max-steps=10 --progress=false --csv=%t.plain.csv > /dev/null
// RUN: python3 %S/../Inputs/compare-losses.py %t.plain.csv %t.one.csv --steps=10 --rtol=0 | FileCheck %s --check-prefix=SAME
// SAME: largest relative loss difference over 10 steps: 0 (step 0), within 0
