// bf16 steps compile for a CPU without AVX512 (x86-64-v3: AVX2, FMA, F16C)
// to code that calls no soft-float conversion: no `__truncsfbf2`, which
// the JIT does not resolve (amp-cpu-bf16-memory-as-i16 types masked loads
// of bf16, a row's tail, as i16; before, LLVM scalarized them through f32
// and that call, and no bf16 step loaded on such a CPU). Checked on the
// code itself, so it holds on any host.
// RUN: amp-opt %amp_src_root/examples/fashion-mnist/mlp.mlir --amp-mixed-precision="precision=bf16" --amp-lower-to-llvm="threads=1" | mlir-translate --mlir-to-llvmir | llc -O2 -mcpu=x86-64-v3 | FileCheck %s --implicit-check-not=__truncsfbf2 --implicit-check-not=__truncsfhf2
// RUN: amp-opt %amp_src_root/examples/pytorch/transformer.mlir --amp-build-train-step="loss=softmax-cross-entropy" --amp-mixed-precision="precision=bf16" --amp-lower-to-llvm="threads=1" | mlir-translate --mlir-to-llvmir | llc -O2 -mcpu=x86-64-v3 | FileCheck %s --implicit-check-not=__truncsfbf2 --implicit-check-not=__truncsfhf2
// CHECK: train_step:
// CHECK: vfmadd
