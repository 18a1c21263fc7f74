// REQUIRES: cuda-device, cuda-runtime
// Adam on the GPU (bias corrections from the step counter on the device)
// trains like Adam on the CPU: the first step's loss is the same to 3
// decimals, and after 60 steps both reach a test accuracy above 0.6 with no
// skipped step.
// RUN: amp-run %amp_src_root/examples/fashion-mnist/adam.mlir --run=f16+dynamic --max-steps=60 --csv=%t.cpu.csv > %t.cpu
// RUN: amp-run %amp_src_root/examples/fashion-mnist/adam.mlir --device=cuda --run=f16+dynamic --max-steps=60 --csv=%t.gpu.csv > %t.gpu
// RUN: cat %t.cpu.csv %t.gpu.csv | FileCheck %s --check-prefix=STEP1
// STEP1: f16 + dynamic,1,1,[[LOSS:[0-9]\.[0-9][0-9][0-9]]]
// STEP1: f16 + dynamic,1,1,[[LOSS]]
// RUN: cat %t.cpu %t.gpu | FileCheck %s
// CHECK: f16 + dynamic{{ +}}{{[0-9.]+}}{{ +}}0.{{[6-9]}}{{[0-9]+}}{{ +}}32768{{ +}}0{{ +}}60
// CHECK: f16 + dynamic{{ +}}{{[0-9.]+}}{{ +}}0.{{[6-9]}}{{[0-9]+}}{{ +}}32768{{ +}}0{{ +}}60
