// Option values are checked before the module is looked at; each error
// names the option and its value, located on the module (line 30).
// RUN: not amp-opt %s --amp-build-train-step="lr=-1" 2>&1 | FileCheck %s --check-prefix=LR
// RUN: not amp-opt %s --amp-build-train-step="momentum=1.5" 2>&1 | FileCheck %s --check-prefix=MU
// RUN: not amp-opt %s --amp-build-train-step="optimizer=adam beta2=1" 2>&1 | FileCheck %s --check-prefix=BETA
// RUN: not amp-opt %s --amp-build-train-step="optimizer=adam eps=0" 2>&1 | FileCheck %s --check-prefix=EPS
// RUN: not amp-opt %s --amp-build-train-step="weight-decay=-0.1" 2>&1 | FileCheck %s --check-prefix=WD
// RUN: not amp-opt %s --amp-build-train-step="optimizer=adamw lr=10 weight-decay=0.5" 2>&1 | FileCheck %s --check-prefix=ADAMW
// RUN: not amp-opt %s --amp-build-train-step="min-elements=-3" 2>&1 | FileCheck %s --check-prefix=MIN
// RUN: not amp-opt %s --amp-build-train-step="input=7" 2>&1 | FileCheck %s --check-prefix=INPUT
// RUN: not amp-opt %s --amp-build-train-step="function=nothere" 2>&1 | FileCheck %s --check-prefix=FN
// LR: options-invalid.mlir:30:1: error: amp-build-train-step: lr=-1: must be > 0 (0 or no lr: the optimizer's default, 0.01 for sgd and momentum, 0.001 for adam and adamw)
// MU: options-invalid.mlir:30:1: error: amp-build-train-step: momentum=1.5: must be in [0, 1)
// BETA: options-invalid.mlir:30:1: error: amp-build-train-step: beta2=1: must be in [0, 1)
// EPS: options-invalid.mlir:30:1: error: amp-build-train-step: eps=0: must be > 0 (it keeps sqrt(v) + eps from 0)
// WD: options-invalid.mlir:30:1: error: amp-build-train-step: weight-decay=-0.1: must be >= 0
// ADAMW: options-invalid.mlir:30:1: error: amp-build-train-step: weight-decay=0.5: lr * weight-decay must be below 1 for adamw (each step multiplies w by 1 - lr * weight-decay)
// MIN: options-invalid.mlir:30:1: error: amp-build-train-step: min-elements=-3: must be >= 0
// INPUT: options-invalid.mlir:31:3: error: amp-build-train-step: input=7 is out of range: @linear has 1 arguments
// FN: options-invalid.mlir:30:1: error: amp-build-train-step: no func.func @nothere in the module (function=)
// Nothing is written on an error.
// RUN: not amp-opt %s --amp-build-train-step="lr=-1" 2>/dev/null | count 0

// An unknown loss or optimizer is a command-line error naming the value.
// RUN: not amp-opt %s --amp-build-train-step="loss=hinge" 2>&1 | FileCheck %s --check-prefix=LOSS
// RUN: not amp-opt %s --amp-build-train-step="optimizer=lbfgs" 2>&1 | FileCheck %s --check-prefix=OPT
// LOSS: Cannot find option named 'hinge'
// OPT: Cannot find option named 'lbfgs'

module {
  func.func @linear(%x: tensor<4x2xf32>) -> tensor<4x2xf32> {
    return %x : tensor<4x2xf32>
  }
}
