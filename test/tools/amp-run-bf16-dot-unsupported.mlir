// On a CPU without AVX512_BF16, --bf16-dot=on is refused before anything
// runs (the JIT would otherwise stop in instruction selection), and auto
// trains with the FMA kernel.
// UNSUPPORTED: avx512bf16
// RUN: not amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --run=bf16 --max-steps=1 --bf16-dot=on 2>&1 | FileCheck %s --check-prefix=ON
// ON-NOT: run bf16
// ON: amp-run: --bf16-dot=on: the bf16 dot-product kernel needs a CPU with AVX512_BF16, which this one lacks (auto picks the FMA kernel here)
// RUN: amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --run=bf16 --max-steps=2 --progress=false | FileCheck %s --check-prefix=AUTO
// AUTO: bf16{{ +}}{{[0-9.]+}}{{ +}}0.{{[0-9]+}}{{ +}}-{{ +}}0{{ +}}2
