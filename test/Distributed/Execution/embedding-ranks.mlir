// An embedding's gradient (the gather adjoint's scatter-add, an scf.for
// nest) is split by the batch as two ranks compute it: --emulate-ranks=2
// at batch 8 trains bit for bit as two MPI ranks at batch 4 each, in f32
// and bf16 (before 2026-12-04 the scatter ran over all 8 examples in one
// order: the token table's gradient differed by rounding from the first
// step, and in f32 every parameter had drifted after 32 steps).
// The model: the embedding lookup of test/TrainStep/build-train-step-embedding.mlir.
// RUN: amp-opt %amp_src_root/test/TrainStep/build-train-step-embedding.mlir --amp-build-train-step="loss=softmax-cross-entropy" -o %t.b8.mlir
// RUN: amp-opt %amp_src_root/test/TrainStep/build-train-step-embedding.mlir --amp-build-train-step="loss=softmax-cross-entropy batch=4" -o %t.b4.mlir
//
// The split: two scatters over examples [0, 4) and [4, 8), added in order.
// RUN: amp-opt %t.b8.mlir --amp-mixed-precision="precision=f32" --amp-chunk-batch-reductions=chunks=2 | FileCheck %s --check-prefix=SPLIT
// SPLIT: %[[A:.*]] = scf.for %{{.*}} = %c0{{.*}} to %c4{{.*}} step
// SPLIT: amp.scatter_add
// SPLIT: %[[B:.*]] = scf.for %{{.*}} = %c4{{.*}} to %c8{{.*}} step
// SPLIT: amp.scatter_add
// SPLIT: linalg.generic {{.*}} ins(%[[A]], %[[B]] :
//
// RUN: amp-run %t.b8.mlir --data=synthetic --synthetic-examples=256 --run=f32,bf16 --emulate-ranks=2 --max-steps=32 --progress=false --dump-state=%t.emu > /dev/null
// RUN: timeout 900 %mpirun -np 2 amp-run %t.b4.mlir --data=synthetic --synthetic-examples=256 --run=f32,bf16 --max-steps=32 --progress=false --dump-state=%t.dp > /dev/null
// RUN: tail -n +2 %t.emu.f32 > %t.emu.f32.body
// RUN: tail -n +2 %t.dp.f32.rank0 > %t.dp.f32.body
// RUN: diff %t.emu.f32.body %t.dp.f32.body
// RUN: tail -n +2 %t.emu.bf16 > %t.emu.bf16.body
// RUN: tail -n +2 %t.dp.bf16.rank0 > %t.dp.bf16.body
// RUN: diff %t.emu.bf16.body %t.dp.bf16.body
