// The issue's command: two ranks on this machine train the Fashion-MNIST
// MLP in f32 and f16 + dynamic loss scaling, each on its half of every
// global batch of 2 x 128 examples; rank 0 prints one table and writes the
// CSVs; after training both ranks hold bit-identical state (parameters,
// momentum, loss-scale state: the digests of --dump-state are equal).
// RUN: timeout 900 %mpirun -np 2 amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --run=f32,f16+dynamic --max-steps=100 --progress=false --csv=%t.dp --dump-state=%t.state > %t.out
// RUN: FileCheck %s < %t.out
// CHECK: amp-run: data-parallel over 2 ranks (MPI), global batch 256 = 2 x 128
// CHECK: run{{ +}}train loss{{ +}}test acc{{ +}}loss scale{{ +}}skipped{{ +}}steps{{ +}}ms/step
// CHECK-NEXT: f32{{ +}}{{0\.[0-9]+}}{{ +}}0.{{[7-9]}}{{[0-9]+}}{{ +}}-{{ +}}0{{ +}}100
// CHECK-NEXT: f16 + dynamic{{ +}}{{0\.[0-9]+}}{{ +}}0.{{[7-9]}}{{[0-9]+}}{{ +}}32768{{ +}}0{{ +}}100
// Rank 1 prints nothing: one table.
// RUN: grep -c "train loss" %t.out | FileCheck %s --check-prefix=ONE
// ONE: {{^}}1{{$}}
// RUN: wc -l < %t.dp.f32.csv | FileCheck %s --check-prefix=ROWS
// ROWS: 101
// RUN: tail -n +2 %t.state.f32.rank0 > %t.f32.r0
// RUN: tail -n +2 %t.state.f32.rank1 > %t.f32.r1
// RUN: diff %t.f32.r0 %t.f32.r1
// RUN: tail -n +2 %t.state.f16+dynamic.rank0 > %t.f16.r0
// RUN: tail -n +2 %t.state.f16+dynamic.rank1 > %t.f16.r1
// RUN: diff %t.f16.r0 %t.f16.r1
// RUN: FileCheck %s --check-prefix=STATE < %t.state.f16+dynamic.rank1
// STATE: run f16 + dynamic after 100 steps, rank 1 of 2
// STATE: arg 0 param 784x256xf32 fnv1a64=
// STATE: arg 14 loss_scale f32 fnv1a64={{[0-9a-f]+}} value=32768
//
// Against one process with the same step at twice the batch
// (gen_mlp.py --batch=256, bit-identical to mlp.mlir at --batch=128): the
// same examples per step, the same initial parameters. The losses agree to
// rounding (~1e-6) for the first 30 steps; later the example's learning
// rate (0.05, momentum 0.9) amplifies rounding differences chaotically, as
// it does between two one-process runs that differ in one rounding
// (docs/distributed.md; agreement.mlir checks 100 steps at lr 0.01). The
// test accuracy after 100 steps agrees within 0.2 points.
// RUN: python3 %amp_src_root/examples/fashion-mnist/gen_mlp.py --batch=256 -o %t.b256.mlir
// RUN: amp-run %t.b256.mlir --run=f32 --max-steps=100 --progress=false --csv=%t.ref.csv > %t.ref.out
// RUN: python3 %S/../Inputs/compare-losses.py %t.ref.csv %t.dp.f32.csv --steps=30 --rtol=1e-4 --tables %t.ref.out %t.out | FileCheck %s --check-prefix=AGREE
// AGREE: test accuracy 0.{{[0-9]+}} vs 0.{{[0-9]+}}: {{[0-9.]+}} points, within 0.2
// AGREE: largest relative loss difference over 30 steps: {{.*}}, within 0.0001
