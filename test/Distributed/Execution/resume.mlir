// Resume under mpirun (docs/data-and-checkpoints.md): two ranks stopped by
// a signal mid-epoch write one checkpoint (rank 0 writes, both ranks agreed
// on the step); two ranks resumed from it end with the same state bits on
// each rank (--dump-state) as two ranks that ran all the steps without
// interruption. Each rank resumes its own shard of every global batch, so
// a wrong shard or data order would change the bits. f16 + dynamic from
// the scale cap with a growth interval of 2: steps are skipped and the
// scale backs off and grows on both sides of the signal. 1024 synthetic
// examples, global batch 2 x 128: 4 steps per epoch, 8 in all; the signal
// arrives at step 3, inside the first epoch.
// RUN: rm -rf %t && mkdir -p %t
// RUN: timeout 600 %mpirun -np 2 amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --data=synthetic --synthetic-examples=1024 --progress=false --run=f16+dynamic --init-scale=16777216 --growth-interval=2 --epochs=2 --dump-state=%t/full > %t/full.out
// RUN: FileCheck %s < %t/full.out
// CHECK: f16 + dynamic{{ +}}[[LOSS:[0-9.]+]]{{ +}}[[ACC:[0-9.]+]]{{ +}}{{[0-9.e+]+}}{{ +}}{{[1-9][0-9]*}}{{ +}}8
// RUN: not timeout 600 %mpirun -np 2 amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --data=synthetic --synthetic-examples=1024 --progress=false --run=f16+dynamic --init-scale=16777216 --growth-interval=2 --epochs=2 --save-checkpoint=%t/ck --test-signal-at-step=3 > /dev/null 2>&1
// RUN: test -f %t/ck/checkpoint.safetensors
// RUN: timeout 600 %mpirun -np 2 amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --data=synthetic --synthetic-examples=1024 --progress=false --run=f16+dynamic --init-scale=16777216 --growth-interval=2 --epochs=2 --resume=%t/ck --dump-state=%t/resumed > %t/resumed.out
// RUN: cmp %t/full.rank0 %t/resumed.rank0
// RUN: cmp %t/full.rank1 %t/resumed.rank1
// The two ranks agree with each other too.
// RUN: tail -n +2 %t/resumed.rank0 > %t/r0
// RUN: tail -n +2 %t/resumed.rank1 > %t/r1
// RUN: diff %t/r0 %t/r1
