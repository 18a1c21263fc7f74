// bf16 parameters under data parallelism (docs/master-weights.md): two
// ranks train the Fashion-MNIST MLP with bf16-stochastic and bf16-kahan
// parameters; the stochastic rounding draws the same bits on every rank
// (a counter-based stream of seed and step), so after training both ranks
// hold bit-identical state: bf16 parameters, Kahan buffers, the counter.
// RUN: timeout 600 %mpirun -np 2 amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --run=bf16 --master-weights=bf16-stochastic --max-steps=10 --progress=false --dump-state=%t.sr > %t.out
// RUN: tail -n +2 %t.sr.rank0 > %t.sr.r0
// RUN: tail -n +2 %t.sr.rank1 > %t.sr.r1
// RUN: diff %t.sr.r0 %t.sr.r1
// RUN: FileCheck %s --check-prefix=SR < %t.sr.rank0
// SR: arg 0 param 784x256xbf16
// SR: opt_state i32 fnv1a64={{[0-9a-f]+}} value=10
// RUN: timeout 600 %mpirun -np 2 amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --run=bf16 --master-weights=bf16-kahan --max-steps=10 --progress=false --dump-state=%t.kahan > %t.out2
// RUN: tail -n +2 %t.kahan.rank0 > %t.k.r0
// RUN: tail -n +2 %t.kahan.rank1 > %t.k.r1
// RUN: diff %t.k.r0 %t.k.r1
// RUN: FileCheck %s --check-prefix=KAHAN < %t.kahan.rank1
// KAHAN: opt_state 784x256xbf16
