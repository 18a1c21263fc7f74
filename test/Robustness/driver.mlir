// The robustness driver enumerates every amp pass and pipeline from the
// registry and runs them all, here on a few generated functions and steps
// and on this file; the full corpus runs under CTest (robustness-corpus).
// RUN: amp-robustness --list-passes | FileCheck %s --check-prefix=LIST
// RUN: amp-robustness --functions=20 --steps=5 --edge-cases=10 --forward-models=5 %s | FileCheck %s
// RUN: amp-robustness --print --functions=1 --steps=1 --edge-cases=5 --forward-models=1 --first-seed=7 | FileCheck %s --check-prefix=GEN

// LIST-DAG: pass amp-autocast
// LIST-DAG: pass amp-build-train-step
// LIST-DAG: pass amp-differentiate
// LIST-DAG: pass amp-check-llvm-lowering
// LIST-DAG: pass amp-decompose-aggregate-ops
// LIST-DAG: pass amp-interchange-contraction-loops
// LIST-DAG: pass amp-loss-scaling
// LIST-DAG: pass amp-lower-to-standard
// LIST-DAG: pass amp-verify-training-step
// LIST-DAG: pipeline amp-lower-to-llvm
// LIST-DAG: pipeline amp-mixed-precision

// CHECK: amp-robustness: 20 generated functions, 5 generated training steps, 10 generated edge cases, 5 generated forward models, 1 test-file cases (0 skipped: invalid on purpose)
// CHECK-SAME: defects: 0

// GEN: // seed 7
// GEN: func.func @f
// GEN: // step seed 7
// GEN: func.func @train_step
// GEN-SAME: amp.role = "param"
// GEN: amp.loss_grad
// GEN: amp.grad
// The edge cases, one class per seed (seed % 5): 7 huge shapes, 8 mixed
// gradient, 9 expand_shape groups, 10 dynamic parameters, 11 resources.
// GEN: // edge case seed 7
// GEN: tensor<{{(4294967296|9223372036854775807|65536)}}
// GEN: // edge case seed 8
// GEN: amp.grad
// GEN: // edge case seed 9
// GEN: expand_shape
// GEN: // edge case seed 10
// GEN: %w: tensor<?x?xf32> {amp.role = "param"}
// GEN: // edge case seed 11
// GEN: dense_resource<
// GEN: // forward model seed 7
// GEN: func.func @forward(%x: tensor<

func.func @identity(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
