// amp-run --bf16-dot: the AVX512_BF16 kernel of amp-cpu-tile-contractions
// (vdpbf16ps on bf16 pair packs) and the f32 -> bf16 roundings on
// vcvtneps2bf16, against the FMA kernel on widened operands and the
// roundings as integer ops, on the MLP (X * W, X^T * dY, dY * W^T: every
// operand layout) and the transformer block (attention's transposed B,
// batched contractions left to loops): 30 bf16 steps give the same losses
// bit for bit (the pair order makes each accumulator add its products in
// increasing k, as the FMA kernel does; the data has no denormals, which
// both instructions flush), and the same checkpoint state. The step_ms
// column differs and is cut off.
// REQUIRES: avx512bf16
// RUN: rm -rf %t && mkdir -p %t
// RUN: amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --run=bf16 --max-steps=30 --threads=1 --bf16-dot=on --csv=%t/mlp-on.csv --save-checkpoint=%t/mlp-on.ckpt | FileCheck %s
// RUN: amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --run=bf16 --max-steps=30 --threads=1 --bf16-dot=off --csv=%t/mlp-off.csv --save-checkpoint=%t/mlp-off.ckpt | FileCheck %s
// RUN: cut -d, -f1-6 %t/mlp-on.csv > %t/mlp-on.cut
// RUN: cut -d, -f1-6 %t/mlp-off.csv > %t/mlp-off.cut
// RUN: diff %t/mlp-on.cut %t/mlp-off.cut
// RUN: cmp %t/mlp-on.ckpt/checkpoint.safetensors %t/mlp-off.ckpt/checkpoint.safetensors
// auto picks the dot kernel on this CPU: the same losses again, on two
// threads.
// RUN: amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --run=bf16 --max-steps=30 --threads=2 --csv=%t/mlp-auto.csv | FileCheck %s
// RUN: cut -d, -f1-6 %t/mlp-auto.csv | diff - %t/mlp-on.cut
// RUN: amp-run %amp_src_root/examples/fashion-mnist/transformer.mlir --run=bf16 --max-steps=30 --threads=1 --bf16-dot=on --csv=%t/tr-on.csv | FileCheck %s
// RUN: amp-run %amp_src_root/examples/fashion-mnist/transformer.mlir --run=bf16 --max-steps=30 --threads=1 --bf16-dot=off --csv=%t/tr-off.csv | FileCheck %s
// RUN: cut -d, -f1-6 %t/tr-on.csv > %t/tr-on.cut
// RUN: cut -d, -f1-6 %t/tr-off.csv | diff - %t/tr-on.cut
// The losses are real: the first step's is ln(10) = 2.30 and the 30th's lower.
// RUN: FileCheck %s --check-prefix=CSV < %t/mlp-on.csv
// CHECK: bf16{{ +}}{{[0-9.]+}}{{ +}}0.{{[0-9]+}}{{ +}}-{{ +}}0{{ +}}30
// CSV: bf16,1,1,2.3{{[0-9]+}},1,0,
// CSV: bf16,30,1,{{(1|0)\.[0-9]+}},1,0,
