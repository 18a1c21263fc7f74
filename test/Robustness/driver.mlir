// The robustness driver enumerates every amp pass and pipeline from the
// registry and runs them all, here on a few generated functions and steps
// and on this file; the full corpus runs under CTest (robustness-corpus).
// RUN: amp-robustness --list-passes | FileCheck %s --check-prefix=LIST
// RUN: amp-robustness --functions=20 --steps=5 %s | FileCheck %s
// RUN: amp-robustness --print --functions=1 --steps=1 --first-seed=7 | FileCheck %s --check-prefix=GEN

// LIST-DAG: pass amp-autocast
// LIST-DAG: pass amp-check-llvm-lowering
// LIST-DAG: pass amp-decompose-aggregate-ops
// LIST-DAG: pass amp-interchange-contraction-loops
// LIST-DAG: pass amp-loss-scaling
// LIST-DAG: pass amp-lower-to-standard
// LIST-DAG: pass amp-verify-training-step
// LIST-DAG: pipeline amp-lower-to-llvm
// LIST-DAG: pipeline amp-mixed-precision

// CHECK: amp-robustness: 20 generated functions, 5 generated training steps, 1 test-file cases (0 skipped: invalid on purpose)
// CHECK-SAME: defects: 0

// GEN: // seed 7
// GEN: func.func @f
// GEN: // step seed 7
// GEN: func.func @train_step
// GEN-SAME: amp.role = "param"
// GEN: amp.loss_grad
// GEN: amp.grad

func.func @identity(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
