// --conv-gemm=false (amp-lower-to-llvm conv-gemm=false) runs the CNN's
// convolutions and their gradients as loop nests instead of im2col GEMMs:
// the same training up to the summation order. Both runs start from the
// model's weights on the same batches; their losses agree to the printed
// fifth decimal after 3 steps, and the option is refused for the GPU.
// RUN: amp-opt %amp_src_root/examples/pytorch/cnn.mlir --amp-build-train-step="loss=softmax-cross-entropy batch=4" -o %t.mlir
// RUN: amp-run %t.mlir --run=f32 --max-steps=3 --threads=1 --data=synthetic --synthetic-examples=64 --csv=%t.gemm.csv
// RUN: amp-run %t.mlir --run=f32 --max-steps=3 --threads=1 --data=synthetic --synthetic-examples=64 --csv=%t.loops.csv --conv-gemm=false
// RUN: awk -F, 'NR > 1 { printf "%%s %%.5f\n", $2, $4 }' %t.gemm.csv > %t.a
// RUN: awk -F, 'NR > 1 { printf "%%s %%.5f\n", $2, $4 }' %t.loops.csv > %t.b
// RUN: diff %t.a %t.b
// RUN: FileCheck %s --check-prefix=STEPS --input-file=%t.a
// STEPS: 1 2.7
// STEPS: 2 2.7
// STEPS: 3 2.8
// RUN: not amp-run %t.mlir --run=f32 --max-steps=1 --device=cuda --conv-gemm=false 2>&1 | FileCheck %s --check-prefix=CUDA
// CUDA: amp-run: --conv-gemm is for --device=cpu
