// RUN: amp-opt %s --amp-build-train-step="loss=mse" -verify-diagnostics | FileCheck %s
// RUN: amp-opt %s --amp-build-train-step="loss=mse" --amp-verify-training-step -o /dev/null 2>/dev/null
// RUN: amp-opt %s --amp-build-train-step="loss=mse frozen=quant.scale" 2>&1 | FileCheck %s --check-prefix=FROZEN
// RUN: not amp-opt %s --amp-build-train-step="loss=mse params=lin.weight,quant.scale" 2>&1 | FileCheck %s --check-prefix=NAMED
// RUN: not amp-opt %s --amp-build-train-step="loss=mse params=1" 2>&1 | FileCheck %s --check-prefix=ARG
// A weight that reaches the output only through an integer conversion
// (fptosi then sitofp: a rounding, as a fake-quantised scale) has no
// gradient: PyTorch leaves its .grad None and trains the others. The
// builder leaves it a constant with a warning naming it (frozen= keeps it
// constant silently); named in params= it is a located error. Before, the
// step broke the training-step contract ("a bug of the builder").
#id = affine_map<(d0, d1) -> (d0, d1)>
module {
func.func @forward(%x: tensor<2x4xf32>, %s: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %w = arith.constant dense_resource<lin.weight> : tensor<4x4xf32>
  // expected-warning @+1 {{amp-build-train-step: constant 'quant.scale' stays a constant: the loss has no gradient for it: the output depends on it only through ops without a derivative (an integer conversion such as arith.fptosi / arith.sitofp, a comparison), so training would never change it (PyTorch leaves such a parameter's .grad None); frozen=<key> keeps it constant without this warning}}
  %q = arith.constant dense_resource<quant.scale> : tensor<2x4xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4xf32>) -> tensor<2x4xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<2x4xf32>, tensor<4x4xf32>) outs(%f : tensor<2x4xf32>) -> tensor<2x4xf32>
  %y = linalg.generic {indexing_maps = [#id, #id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%mm, %q, %s : tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>) outs(%e : tensor<2x4xf32>) {
  ^bb0(%a: f32, %sc: f32, %sa: f32, %o: f32):
    %i = arith.fptosi %sc : f32 to i32
    %r = arith.sitofp %i : i32 to f32
    %j = arith.fptosi %sa : f32 to i32
    %ra = arith.sitofp %j : i32 to f32
    %m = arith.mulf %a, %r : f32
    %n = arith.mulf %m, %ra : f32
    linalg.yield %n : f32
  } -> tensor<2x4xf32>
  return %y : tensor<2x4xf32>
}
}
{-#
  dialect_resources: {
    builtin: {
      lin.weight: "0x04000000CDCCCC3DCDCC4CBE9A99993ECDCCCCBE0000003F9A9919BF3333333FCDCC4CBF6666663F000080BFCDCC8C3F9A9999BFCDCCCC3DCDCC4CBE9A99993ECDCCCCBE",
      quant.scale: "0x040000000000803F0000004000004040000080400000803F000000400000404000008040"
    }
  }
#-}
// CHECK-LABEL: func.func @train_step(
// CHECK-SAME: %[[W:[a-z0-9]+]]: tensor<4x4xf32> {amp.initial_value = dense_resource<lin.weight> : tensor<4x4xf32>, amp.role = "param"}, %{{.*}}: tensor<4x4xf32> {amp.role = "opt_state"}, %{{.*}}: tensor<2x4xf32> {amp.role = "input"}, %{{.*}}: tensor<2x4xf32> {amp.role = "input"}, %{{.*}}: tensor<2x4xf32> {amp.role = "target"})
// CHECK: arith.constant dense_resource<quant.scale> : tensor<2x4xf32>
// CHECK: amp.grad %{{.*}}, %[[W]]
// CHECK-NOT: amp.grad

// FROZEN-NOT: warning
// FROZEN: func.func @train_step(%{{.*}}: tensor<4x4xf32> {amp.initial_value = dense_resource<lin.weight> : tensor<4x4xf32>, amp.role = "param"}, %{{.*}}: tensor<4x4xf32> {amp.role = "opt_state"}, %{{.*}}: tensor<2x4xf32> {amp.role = "input"}

// NAMED: no-gradient.mlir:17:8: error: amp-build-train-step: constant 'quant.scale' is named in params=, but the loss has no gradient for it: the output depends on it only through ops without a derivative (an integer conversion such as arith.fptosi / arith.sitofp, a comparison), so training would never change it; drop it from params=
// NAMED-NOT: contract

// ARG: no-gradient.mlir:14:41: error: amp-build-train-step: argument #1 of @forward is named in params=, but the loss has no gradient for it: {{.*}}; name the trained arguments by index in params= without it
// ARG-NOT: contract
