// REQUIRES: cuda-device, cuda-runtime
// Tensor Cores (mma.sync, amp-gpu-tensor-core-contractions) against the
// one-thread-per-output kernels on the same GPU, same seed: the first
// step's loss depends only on the forward pass (f16 operands, f32
// accumulation either way; only the summation order differs), so it agrees
// to 3 decimals; after 60 steps both runs have learnt (test accuracy > 0.6)
// and neither skipped a step. On a GPU before sm_80 both runs use the SIMT
// kernels and agree trivially.
// RUN: amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --device=cuda --run=f16+dynamic --max-steps=60 --csv=%t.mma.csv > %t.mma
// RUN: amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --device=cuda --run=f16+dynamic --max-steps=60 --tensor-cores=false --csv=%t.simt.csv > %t.simt
// RUN: cat %t.mma.csv %t.simt.csv | FileCheck %s --check-prefix=STEP1
// STEP1: f16 + dynamic,1,1,[[LOSS:[0-9]\.[0-9][0-9][0-9]]]
// STEP1: f16 + dynamic,1,1,[[LOSS]]
// RUN: cat %t.mma %t.simt | FileCheck %s
// bf16 (its own mma.sync lowering: the f16 fragments retyped), the same way.
// RUN: amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --device=cuda --run=bf16 --max-steps=60 --csv=%t.bf16-mma.csv > %t.bf16-mma
// RUN: amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --device=cuda --run=bf16 --max-steps=60 --tensor-cores=false --csv=%t.bf16-simt.csv > %t.bf16-simt
// RUN: cat %t.bf16-mma.csv %t.bf16-simt.csv | FileCheck %s --check-prefix=BF16STEP1
// BF16STEP1: bf16,1,1,[[LOSS:[0-9]\.[0-9][0-9][0-9]]]
// BF16STEP1: bf16,1,1,[[LOSS]]
// RUN: cat %t.bf16-mma %t.bf16-simt | FileCheck %s --check-prefix=BF16
// BF16: bf16{{ +}}{{[0-9.]+}}{{ +}}0.{{[6-9]}}{{[0-9]+}}{{ +}}-{{ +}}0{{ +}}60
// BF16: bf16{{ +}}{{[0-9.]+}}{{ +}}0.{{[6-9]}}{{[0-9]+}}{{ +}}-{{ +}}0{{ +}}60
// CHECK: f16 + dynamic{{ +}}{{[0-9.]+}}{{ +}}0.{{[6-9]}}{{[0-9]+}}{{ +}}32768{{ +}}0{{ +}}60
// CHECK: f16 + dynamic{{ +}}{{[0-9.]+}}{{ +}}0.{{[6-9]}}{{[0-9]+}}{{ +}}32768{{ +}}0{{ +}}60
