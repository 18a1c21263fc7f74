// The Fashion-MNIST MLP example through amp-mixed-precision (f16 autocast +
// dynamic loss scaling). The input is the example file itself.
// RUN: amp-opt %amp_src_root/examples/fashion-mnist/mlp.mlir --amp-mixed-precision > %t.mlir
// RUN: FileCheck %s < %t.mlir
// Every linalg.matmul (3 forward in @train_step, 3 in @eval_step) reads f16
// and accumulates into an f32 result.
// RUN: grep "linalg.matmul" %t.mlir | FileCheck %s --check-prefix=MATMUL
// MATMUL-COUNT-6: linalg.matmul ins(%{{[^ ]+}}, %{{[^ ]+}} : tensor<{{[0-9x]+}}xf16>, tensor<{{[0-9x]+}}xf16>) outs(%{{[^ ]+}} : tensor<{{[0-9x]+}}xf32>) -> tensor<{{[0-9x]+}}xf32>
// MATMUL-NOT: linalg.matmul
// The 5 backward contractions (dW = H^T dZ, dH = dZ W^T) too.
// RUN: grep '"parallel", "parallel", "reduction"' %t.mlir | FileCheck %s --check-prefix=BWD
// BWD-COUNT-5: ins(%{{[^ ]+}}, %{{[^ ]+}} : tensor<{{[0-9x]+}}xf16>, tensor<{{[0-9x]+}}xf16>) outs(%{{[^ ]+}} : tensor<{{[0-9x]+}}xf32>)
// BWD-NOT: linalg.generic
// Exactly one fused check and one skip region.
// RUN: grep -c "amp.unscale_and_check" %t.mlir | FileCheck %s --check-prefix=ONE
// RUN: grep -c "scf.if" %t.mlir | FileCheck %s --check-prefix=ONE
// ONE: {{^}}1{{$}}
// The log-sum-exp of the loss runs in f32 (deny ops never see f16).
// RUN: FileCheck %s --check-prefix=LOSS < %t.mlir
// LOSS-NOT: math.{{exp|log}} %{{.*}} : f16
// LOSS: math.exp %{{.*}} : f32
// LOSS: math.log %{{.*}} : f32

// Each weight is truncated once per step; the loss result stays f32.
// CHECK-LABEL: func.func @train_step
// CHECK-SAME: -> (tensor<f32> {amp.role = "loss"}
// CHECK-SAME: tensor<f32> {amp.role = "loss_scale", amp.updates = 14 : i64}, tensor<i32> {amp.role = "growth_tracker", amp.updates = 15 : i64}, tensor<i32> {amp.role = "hysteresis_tracker", amp.updates = 16 : i64}, tensor<i32> {amp.role = "consecutive_skips", amp.updates = 17 : i64}, tensor<i1> {amp.role = "found_inf"})
// CHECK-DAG: arith.truncf %arg0 : tensor<784x256xf32> to tensor<784x256xf16>
// CHECK-DAG: arith.truncf %arg2 : tensor<256x128xf32> to tensor<256x128xf16>
// CHECK-DAG: arith.truncf %arg4 : tensor<128x10xf32> to tensor<128x10xf16>
// CHECK-NOT: arith.truncf %arg{{[0-5]}} :
// CHECK: %[[U:.*]]:6, %[[FOUND:.*]] = amp.unscale_and_check %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} inv_scale %{{.*}} : tensor<784x256xf32>, tensor<256xf32>, tensor<256x128xf32>, tensor<128xf32>, tensor<128x10xf32>, tensor<10xf32>
// CHECK: %[[F:.*]] = tensor.extract %[[FOUND]][] : tensor<i1>
// CHECK: %[[NEW:.*]]:12 = scf.if %[[F]]
// CHECK-NEXT: scf.yield %arg0, %arg1, %arg2, %arg3, %arg4, %arg5, %arg6, %arg7, %arg8, %arg9, %arg10, %arg11 :
// CHECK: amp.update_scale %arg14, %arg15, %arg16, %[[FOUND]]
// CHECK-LABEL: func.func @eval_step
