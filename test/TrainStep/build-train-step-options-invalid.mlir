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

// Values valid in double but not in the step's f32: beta2 = 0.99999999
// rounds to 1 (1 - beta2^t = 0: NaN parameters after step 1), lr = 1e-50 to
// a literal 0 (a run that silently never trains), lr = 1e40 to inf.
// RUN: not amp-opt %s --amp-build-train-step="optimizer=adam beta2=0.99999999" 2>&1 | FileCheck %s --check-prefix=B2F32
// RUN: not amp-opt %s --amp-build-train-step="momentum=0.99999999" 2>&1 | FileCheck %s --check-prefix=MUF32
// RUN: not amp-opt %s --amp-build-train-step="optimizer=sgd lr=1e-50" 2>&1 | FileCheck %s --check-prefix=TINY
// RUN: not amp-opt %s --amp-build-train-step="optimizer=sgd lr=1e40" 2>&1 | FileCheck %s --check-prefix=TINY
// RUN: not amp-opt %s --amp-build-train-step="weight-decay=1e40" 2>&1 | FileCheck %s --check-prefix=WDF32
// B2F32: error: amp-build-train-step: beta2=1: rounds to 1 in f32, the step's type (the largest f32 below 1 is 0.99999994)
// MUF32: error: amp-build-train-step: momentum=1: rounds to 1 in f32
// TINY: error: amp-build-train-step: lr={{[0-9.e+-]+}}: is 0 or inf once rounded to f32, the step's type
// WDF32: error: amp-build-train-step: weight-decay=1e+40: is inf once rounded to f32

// inputs=: each index in range and named once; not together with input=.
// RUN: not amp-opt %s --amp-build-train-step="inputs=0,3" 2>&1 | FileCheck %s --check-prefix=INPUTS
// RUN: not amp-opt %s --amp-build-train-step="inputs=0,0" 2>&1 | FileCheck %s --check-prefix=TWICE
// RUN: not amp-opt %s --amp-build-train-step="input=0 inputs=0" 2>&1 | FileCheck %s --check-prefix=BOTH
// RUN: not amp-opt %s --amp-build-train-step="inputs=-2" 2>&1 | FileCheck %s --check-prefix=NEG
// INPUTS: options-invalid.mlir:31:3: error: amp-build-train-step: inputs=3 is out of range: @linear has 1 arguments
// TWICE: options-invalid.mlir:31:3: error: amp-build-train-step: inputs= names argument 0 twice
// BOTH: options-invalid.mlir:30:1: error: amp-build-train-step: input= and inputs= both given: name the inputs with inputs= alone (input=<index> is inputs=<index>)
// NEG: options-invalid.mlir:30:1: error: amp-build-train-step: inputs=-2: must be an argument index

// The error is the message, the source line and the caret, without the
// module printed after it (a pass's error used to attach the whole module
// in generic form, 17 KB for a small model); so is a function-level one.
// RUN: not amp-opt %s --amp-build-train-step="lr=-1" 2>&1 | count 3
// RUN: not amp-opt %s --amp-build-train-step="lr=-1" 2>&1 | FileCheck %s --check-prefix=SHORT
// RUN: not amp-opt %s --amp-build-train-step="params=arguments" 2>&1 | FileCheck %s --check-prefix=SHORT
// SHORT: error: amp-build-train-step:
// SHORT-NOT: see current operation
// SHORT-NOT: "builtin.module"
// SHORT-NOT: "func.func"
