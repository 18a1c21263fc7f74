// amp-run trains the Adam example (examples/fashion-mnist/adam.mlir: 12
// moment tensors and a tensor<i32> step counter as opt_state) for 60 steps
// in fp32 and f16 + dynamic loss scaling: the loss falls from ln(10) = 2.30
// and accuracy is well above chance (0.1).
// RUN: amp-run %amp_src_root/examples/fashion-mnist/adam.mlir --run=f32,f16+dynamic --max-steps=60 | FileCheck %s
// CHECK: run{{ +}}train loss{{ +}}test acc{{ +}}loss scale{{ +}}skipped{{ +}}steps{{ +}}ms/step
// CHECK-NEXT: f32{{ +}}{{(1|0)\.[0-9]+}}{{ +}}0.{{[6-9]}}{{[0-9]+}}{{ +}}-{{ +}}0{{ +}}60
// CHECK-NEXT: f16 + dynamic{{ +}}{{(1|0)\.[0-9]+}}{{ +}}0.{{[6-9]}}{{[0-9]+}}{{ +}}32768{{ +}}0{{ +}}60
//
// --underflow-stats adds one line per run with the flushed fraction of the
// backward values (and two CSV columns).
// RUN: amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --run=f16+dynamic,f16 --max-steps=5 --underflow-stats --csv=%t | FileCheck %s --check-prefix=STATS
// STATS: backward values flushed to zero/subnormal when rounded to f16 (bf16 for bf16 runs), whole run:
// STATS-NEXT: f16 + dynamic{{ +}}{{[0-9]+}} of{{ +}}{{[0-9]+}} non-zero values = {{[0-9.]+}}%
// STATS-NEXT: f16{{ +}}{{[0-9]+}} of{{ +}}{{[0-9]+}} non-zero values = {{[0-9.]+}}%
// RUN: FileCheck %s --check-prefix=CSV < %t.f16.csv
// CSV: run,step,epoch,loss,loss_scale,found_inf,step_ms,underflow_flushed,underflow_total
// CSV-NEXT: f16,1,1,2.{{[0-9]+}},1,0,{{[0-9.]+}},{{[0-9]+}},{{[1-9][0-9]+}}
