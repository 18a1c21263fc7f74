// REQUIRES: cuda-device, cuda-runtime
// amp-run --device=cuda trains the example for 60 steps per run on the GPU
// (fp32, f16 + dynamic loss scaling, bf16) and evaluates all 10,000 test
// images: the loss falls from ln(10) = 2.30 and accuracy is well above
// chance (0.1), as on the CPU (test/tools/amp-run-train.mlir).
// RUN: amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --device=cuda --run=f32,f16+dynamic,bf16 --max-steps=60 --csv=%t | FileCheck %s
// CHECK: on {{.*}}(sm_{{[0-9]+}}), compiled in
// CHECK: run{{ +}}train loss{{ +}}test acc{{ +}}loss scale{{ +}}skipped{{ +}}steps{{ +}}ms/step
// CHECK-NEXT: f32{{ +}}{{(1|0)\.[0-9]+}}{{ +}}0.{{[6-9]}}{{[0-9]+}}{{ +}}-{{ +}}0{{ +}}60
// CHECK-NEXT: f16 + dynamic{{ +}}{{(1|0)\.[0-9]+}}{{ +}}0.{{[6-9]}}{{[0-9]+}}{{ +}}32768{{ +}}0{{ +}}60
// CHECK-NEXT: bf16{{ +}}{{(1|0)\.[0-9]+}}{{ +}}0.{{[6-9]}}{{[0-9]+}}{{ +}}-{{ +}}0{{ +}}60
// RUN: FileCheck %s --check-prefix=CSV < %t.f16+dynamic.csv
// CSV: run,step,epoch,loss,loss_scale,found_inf,step_ms
// CSV-NEXT: f16 + dynamic,1,1,2.{{[0-9]+}},32768,0,
