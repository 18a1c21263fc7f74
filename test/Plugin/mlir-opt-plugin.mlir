// Debian's upstream mlir-opt (not amp-opt) loads the amp dialect and passes
// from the plugin and runs the pipelines on the example.
// RUN: mlir-opt --load-dialect-plugin=%amp_plugin --load-pass-plugin=%amp_plugin \
// RUN:   --pass-pipeline="builtin.module(amp-mixed-precision{precision=f16 loss-scale=dynamic})" \
// RUN:   %amp_src_root/examples/fashion-mnist/mlp.mlir | FileCheck %s
// CHECK-LABEL: func.func @train_step
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<128x784xf16>, tensor<784x256xf16>) outs(%{{.*}} : tensor<128x256xf32>)
// CHECK: amp.unscale_and_check
// CHECK: scf.if
// CHECK: amp.update_scale

// Single passes by name (plugin passes are reachable through --pass-pipeline:
// the plugin loads after the command line is parsed), and the CPU lowering.
// RUN: mlir-opt --load-dialect-plugin=%amp_plugin --load-pass-plugin=%amp_plugin \
// RUN:   --pass-pipeline="builtin.module(amp-verify-training-step,amp-autocast{precision=bf16},amp-loss-scaling{mode=static})" \
// RUN:   %amp_src_root/examples/fashion-mnist/mlp.mlir | FileCheck %s --check-prefix=PASSES
// PASSES: tensor<128x784xbf16>
// PASSES: amp.unscale_and_check
// RUN: mlir-opt --load-dialect-plugin=%amp_plugin --load-pass-plugin=%amp_plugin \
// RUN:   --pass-pipeline="builtin.module(amp-mixed-precision,amp-lower-to-llvm)" \
// RUN:   %amp_src_root/examples/fashion-mnist/mlp.mlir | FileCheck %s --check-prefix=LLVM
// LLVM: llvm.func @train_step
// LLVM-NOT: amp.unscale_and_check
