// amp-run trains the example for 60 steps in fp32 and f16 + dynamic loss
// scaling on Debian's Fashion-MNIST and evaluates all 10,000 test images:
// the loss falls from ln(10) = 2.30 and accuracy is well above chance (0.1).
// RUN: amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --run=f32,f16+dynamic --max-steps=60 --csv=%t | FileCheck %s
// CHECK: run{{ +}}train loss{{ +}}test acc{{ +}}loss scale{{ +}}skipped{{ +}}steps{{ +}}ms/step
// CHECK-NEXT: f32{{ +}}{{(1|0)\.[0-9]+}}{{ +}}0.{{[6-9]}}{{[0-9]+}}{{ +}}-{{ +}}0{{ +}}60
// CHECK-NEXT: f16 + dynamic{{ +}}{{(1|0)\.[0-9]+}}{{ +}}0.{{[6-9]}}{{[0-9]+}}{{ +}}32768{{ +}}0{{ +}}60
// The per-step CSV of each run: a header and 60 rows.
// RUN: FileCheck %s --check-prefix=CSV < %t.f16+dynamic.csv
// CSV: run,step,epoch,loss,loss_scale,found_inf,step_ms
// CSV-NEXT: f16 + dynamic,1,1,2.{{[0-9]+}},32768,0,
// RUN: wc -l < %t.f32.csv | FileCheck %s --check-prefix=ROWS
// ROWS: 61
