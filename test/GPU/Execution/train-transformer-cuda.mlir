// REQUIRES: cuda-device, cuda-runtime
// The transformer-block step on the GPU (Tensor Cores for its f16/bf16
// projections and feed-forward, one-thread-per-output kernels for the
// per-image attention contractions): 40 steps per run learn as on the CPU
// (test/tools/amp-run-transformer.mlir), and the first step's loss equals
// the CPU's to 3 decimals.
// RUN: amp-run %amp_src_root/examples/fashion-mnist/transformer.mlir --device=cuda --run=f32,f16+dynamic,bf16 --max-steps=40 --csv=%t.gpu | FileCheck %s
// CHECK: run{{ +}}train loss{{ +}}test acc{{ +}}loss scale{{ +}}skipped{{ +}}steps{{ +}}ms/step
// CHECK-NEXT: f32{{ +}}{{(1\.[5-9]|2\.[01])[0-9]*}}{{ +}}0.{{[3-9]}}{{[0-9]+}}{{ +}}-{{ +}}0{{ +}}40
// CHECK-NEXT: f16 + dynamic{{ +}}{{(1\.[5-9]|2\.[01])[0-9]*}}{{ +}}0.{{[3-9]}}{{[0-9]+}}{{ +}}32768{{ +}}0{{ +}}40
// CHECK-NEXT: bf16{{ +}}{{(1\.[5-9]|2\.[01])[0-9]*}}{{ +}}0.{{[3-9]}}{{[0-9]+}}{{ +}}-{{ +}}0{{ +}}40
// RUN: amp-run %amp_src_root/examples/fashion-mnist/transformer.mlir --run=f16+dynamic --max-steps=1 --csv=%t.cpu.csv > /dev/null
// RUN: cat %t.cpu.csv %t.gpu.f16+dynamic.csv | FileCheck %s --check-prefix=STEP1
// STEP1: f16 + dynamic,1,1,[[LOSS:[0-9]\.[0-9][0-9][0-9]]]
// STEP1: f16 + dynamic,1,1,[[LOSS]]
