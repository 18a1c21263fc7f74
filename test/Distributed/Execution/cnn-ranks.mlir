// A CNN (examples/pytorch/cnn.mlir: padded convolutions, eval-form batch
// norm, max pooling) trained by two ranks at batch 8 and by one process at
// batch 16 with --emulate-ranks=2: after 5 steps the parameters and
// momentum are bit-identical, in f32 and bf16, with the convolutions as
// im2col GEMMs (the default) and as loop nests (--conv-gemm=false).
// amp-chunk-batch-reductions follows the batch through tensor.pad (the
// convolutions' padded inputs) and tensor.insert_slice (the padded
// cotangents of their inputs); before, the first layer's gradient sums
// were not chunked and its parameters differed in their last bits.
// RUN: amp-opt %amp_src_root/examples/pytorch/cnn.mlir --amp-build-train-step="loss=softmax-cross-entropy batch=8" -o %t.b8.mlir
// RUN: amp-opt %amp_src_root/examples/pytorch/cnn.mlir --amp-build-train-step="loss=softmax-cross-entropy batch=16" -o %t.b16.mlir
// RUN: timeout 900 %mpirun -np 2 amp-run %t.b8.mlir --run=f32,bf16 --max-steps=5 --threads=1 --progress=false --dump-state=%t.dp > /dev/null
// RUN: amp-run %t.b16.mlir --run=f32,bf16 --max-steps=5 --threads=1 --progress=false --emulate-ranks=2 --dump-state=%t.emu > /dev/null
// RUN: tail -n +2 %t.dp.f32.rank0 > %t.dp.f32
// RUN: tail -n +2 %t.emu.f32 > %t.emu.f32.state
// RUN: diff %t.dp.f32 %t.emu.f32.state
// RUN: tail -n +2 %t.dp.bf16.rank0 > %t.dp.bf16
// RUN: tail -n +2 %t.emu.bf16 > %t.emu.bf16.state
// RUN: diff %t.dp.bf16 %t.emu.bf16.state
// RUN: timeout 900 %mpirun -np 2 amp-run %t.b8.mlir --run=f32 --max-steps=5 --threads=1 --progress=false --conv-gemm=false --dump-state=%t.dpl > /dev/null
// RUN: amp-run %t.b16.mlir --run=f32 --max-steps=5 --threads=1 --progress=false --conv-gemm=false --emulate-ranks=2 --dump-state=%t.emul > /dev/null
// RUN: tail -n +2 %t.dpl.rank0 > %t.dpl.state
// RUN: tail -n +2 %t.emul > %t.emul.state
// RUN: diff %t.dpl.state %t.emul.state
// RUN: grep -c " param " %t.emu.f32.state | FileCheck %s
// CHECK: 12
