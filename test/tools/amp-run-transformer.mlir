// amp-run trains the transformer-block example (examples/fashion-mnist/
// transformer.mlir: 28 image rows as tokens, one attention head, ReLU
// feed-forward, residuals) for 40 steps of batch 64 in fp32, f16 + dynamic
// loss scaling and bf16: the loss falls from ln(10) = 2.30 to about 1.5 and
// test accuracy is well above chance (0.1) in every run, with no skipped
// step. Its backward is checked by unittests/Runtime/GradientCheckTest.cpp.
// RUN: amp-run %amp_src_root/examples/fashion-mnist/transformer.mlir --run=f32,f16+dynamic,bf16 --max-steps=40 --csv=%t | FileCheck %s
// CHECK: run{{ +}}train loss{{ +}}test acc{{ +}}loss scale{{ +}}skipped{{ +}}steps{{ +}}ms/step
// CHECK-NEXT: f32{{ +}}{{(1\.[5-9]|2\.[01])[0-9]*}}{{ +}}0.{{[3-9]}}{{[0-9]+}}{{ +}}-{{ +}}0{{ +}}40
// CHECK-NEXT: f16 + dynamic{{ +}}{{(1\.[5-9]|2\.[01])[0-9]*}}{{ +}}0.{{[3-9]}}{{[0-9]+}}{{ +}}32768{{ +}}0{{ +}}40
// CHECK-NEXT: bf16{{ +}}{{(1\.[5-9]|2\.[01])[0-9]*}}{{ +}}0.{{[3-9]}}{{[0-9]+}}{{ +}}-{{ +}}0{{ +}}40
// First and last step of the f16 run: 2.3 at the start, below 2 at step 40.
// RUN: FileCheck %s --check-prefix=CSV < %t.f16+dynamic.csv
// CSV: f16 + dynamic,1,1,2.3{{[0-9]+}},32768,0,
// CSV: f16 + dynamic,40,1,1.{{[0-9]+}},32768,0,
// The example is generated: it matches its generator.
// RUN: python3 %amp_src_root/examples/fashion-mnist/gen_transformer.py -o %t.gen.mlir
// RUN: diff %t.gen.mlir %amp_src_root/examples/fashion-mnist/transformer.mlir
