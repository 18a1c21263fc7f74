// RUN: amp-opt %s --amp-build-train-step | FileCheck %s
// RUN: amp-opt %s --amp-build-train-step="frozen=lin.bias" | FileCheck %s --check-prefix=FROZEN
// RUN: amp-opt %s --amp-build-train-step="freeze-running-stats=false min-elements=3" | FileCheck %s --check-prefix=STATS
// RUN: amp-opt %s --amp-build-train-step="params=lin.* freeze-running-stats=false" | FileCheck %s --check-prefix=NAMED

// Weights as torch-mlir exports them: dense_resource constants whose blobs
// are in the file (and one elided, as a model printed without its weights).
// A parameter keeps its resource as its amp.initial_value (the blob stays in
// the module, referenced from the argument); the BatchNorm statistics stay
// constants (freeze-running-stats), so do 1-element constants (min-elements
// = 2) and what the output does not depend on. The elided BatchNorm gamma
// starts at 1, as nn.BatchNorm's weight does.
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#cols = affine_map<(d0, d1) -> (d1)>
module {
func.func @forward(%x: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %w = arith.constant dense_resource<lin.weight> : tensor<2x2xf32>
  %b = arith.constant dense_resource<lin.bias> : tensor<2xf32>
  %mean = arith.constant dense_resource<bn.running_mean> : tensor<2xf32>
  %var = arith.constant dense_resource<bn.running_var> : tensor<2xf32>
  %g = arith.constant dense_resource<__elided__> : tensor<2xf32>
  %s = arith.constant dense<3.0> : tensor<1xf32>
  %unused = arith.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x2xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x2xf32>) -> tensor<2x2xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<2x2xf32>, tensor<2x2xf32>) outs(%f : tensor<2x2xf32>) -> tensor<2x2xf32>
  %y = linalg.generic {indexing_maps = [#id2, #cols, #cols, #cols, #cols, affine_map<(d0, d1) -> (0)>, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %b, %mean, %var, %g, %s : tensor<2x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<1xf32>) outs(%e : tensor<2x2xf32>) {
  ^bb0(%a: f32, %bb: f32, %m: f32, %v: f32, %gg: f32, %ss: f32, %o: f32):
    %eps = arith.constant 1.0e-5 : f32
    %c = arith.subf %a, %m : f32
    %ve = arith.addf %v, %eps : f32
    %rs = math.rsqrt %ve : f32
    %n = arith.mulf %c, %rs : f32
    %sc = arith.mulf %n, %gg : f32
    %sh = arith.addf %sc, %bb : f32
    %r = arith.mulf %sh, %ss : f32
    linalg.yield %r : f32
  } -> tensor<2x2xf32>
  return %y : tensor<2x2xf32>
}
}
{-#
  dialect_resources: {
    builtin: {
      lin.weight: "0x040000000000803F000000400000404000008040",
      lin.bias: "0x040000000000003F000080BF",
      bn.running_mean: "0x040000000000000000000000",
      bn.running_var: "0x040000000000803F0000803F"
    }
  }
#-}
// CHECK-LABEL: func.func @train_step(
// CHECK-SAME: %[[W:[a-z0-9]+]]: tensor<2x2xf32> {amp.initial_value = dense_resource<lin.weight> : tensor<2x2xf32>, amp.role = "param"},
// CHECK-SAME: %[[B:[a-z0-9]+]]: tensor<2xf32> {amp.initial_value = dense_resource<lin.bias> : tensor<2xf32>, amp.role = "param"},
// CHECK-SAME: %[[G:[a-z0-9]+]]: tensor<2xf32> {amp.elided_at = {{loc\("[^"]*":[0-9]+:[0-9]+\)}}, amp.initial_value = dense<1.000000e+00> : tensor<2xf32>, amp.role = "param"},
// CHECK-SAME: %{{.*}}: tensor<2x2xf32> {amp.role = "opt_state"}, %{{.*}}: tensor<2xf32> {amp.role = "opt_state"}, %{{.*}}: tensor<2xf32> {amp.role = "opt_state"},
// CHECK-SAME: %[[X:[a-z0-9]+]]: tensor<2x2xf32> {amp.role = "input"}, %{{.*}}: tensor<2xi32> {amp.classes = {{[0-9]+}} : i64, amp.role = "label"})
// CHECK-DAG: arith.constant dense_resource<bn.running_mean> : tensor<2xf32>
// CHECK-DAG: arith.constant dense_resource<bn.running_var> : tensor<2xf32>
// CHECK-DAG: arith.constant dense<3.000000e+00> : tensor<1xf32>
// A constant nothing reads is not a parameter, and goes with the model's
// other dead code.
// CHECK-NOT: dense<[1.000000e+00, 2.000000e+00, 3.000000e+00]>
// CHECK: amp.grad %{{.*}}, %[[W]]
// CHECK: amp.grad %{{.*}}, %[[B]]
// CHECK: amp.grad %{{.*}}, %[[G]]
// CHECK-LABEL: func.func @eval_step(
// CHECK: {-#
// CHECK: lin.weight: "0x040000000000803F000000400000404000008040"
// CHECK: lin.bias: "0x040000000000003F000080BF"

// FROZEN-LABEL: func.func @train_step(
// FROZEN-SAME: dense_resource<lin.weight> : tensor<2x2xf32>, amp.role = "param"},
// FROZEN-SAME: dense<1.000000e+00> : tensor<2xf32>, amp.role = "param"},
// FROZEN-NOT: amp.role = "param"
// FROZEN: arith.constant dense_resource<lin.bias> : tensor<2xf32>

// The statistics are trained when asked for; min-elements=3 leaves the
// 2-element constants.
// STATS-LABEL: func.func @train_step(
// STATS-SAME: %{{.*}}: tensor<2x2xf32> {amp.initial_value = dense_resource<lin.weight> : tensor<2x2xf32>, amp.role = "param"}, %{{.*}}: tensor<2x2xf32> {amp.role = "opt_state"}, %{{.*}}: tensor<2x2xf32> {amp.role = "input"}

// A key pattern names the parameters: lin.weight and lin.bias only.
// NAMED-LABEL: func.func @train_step(
// NAMED-SAME: dense_resource<lin.weight> : tensor<2x2xf32>, amp.role = "param"},
// NAMED-SAME: dense_resource<lin.bias> : tensor<2xf32>, amp.role = "param"},
// NAMED-SAME: %{{.*}}: tensor<2x2xf32> {amp.role = "opt_state"}, %{{.*}}: tensor<2xf32> {amp.role = "opt_state"}, %{{.*}}: tensor<2x2xf32> {amp.role = "input"}

// A frozen= pattern that matches no constant is an error (a typo used to
// train what was meant to be frozen).
// RUN: not amp-opt %s --amp-build-train-step="frozen=lin.nosuch" 2>&1 | FileCheck %s --check-prefix=NOMATCH
// NOMATCH: error: amp-build-train-step: frozen entry 'lin.nosuch' matches no dense_resource constant of @{{[a-z_]+}}
