// A model that returns several values (a traced PyTorch forward returning a
// tuple): output=N names the one the step trains on; the others are dropped.
// RUN: not amp-opt %s --amp-build-train-step="loss=mse" 2>&1 | FileCheck %s --check-prefix=NONE
// NONE: error: amp-build-train-step: @forward returns 2 values; the model returns one (its logits, its regression output or its loss): name the one to train with output=<index>
// RUN: not amp-opt %s --amp-build-train-step="loss=mse output=2" 2>&1 | FileCheck %s --check-prefix=RANGE
// RANGE: error: amp-build-train-step: output=2 is out of range: @forward returns 2 values
// RUN: not amp-opt %s --amp-build-train-step="loss=mse output=-2" 2>&1 | FileCheck %s --check-prefix=NEG
// NEG: output=-2: must be the index of one of the model's results (>= 0)
//
// output=1 trains -(x W): the step's forward negates the product, and its
// gradient agrees with finite differences; output=0 trains x W, re-batched.
// RUN: amp-opt %s --amp-build-train-step="loss=mse output=1" -o %t.1.mlir
// RUN: FileCheck %s --check-prefix=ONE < %t.1.mlir
// ONE-LABEL: func.func @train_step(
// ONE: linalg.matmul
// ONE: arith.negf
// RUN: amp-run %t.1.mlir --data=synthetic --check-gradients | FileCheck %s --check-prefix=GRAD
// GRAD: (tolerance 1e-05): passed
// RUN: amp-opt %s --amp-build-train-step="loss=mse output=0 batch=8" -o %t.0.mlir
// RUN: FileCheck %s --check-prefix=ZERO < %t.0.mlir
// ZERO-LABEL: func.func @train_step(
// ZERO-SAME: tensor<8x3xf32> {amp.role = "input"}
// ZERO-NOT: arith.negf
// ZERO: return
module {
  func.func @forward(%x: tensor<4x3xf32>) -> (tensor<4x2xf32>, tensor<4x2xf32>) {
    %w = arith.constant dense<[[0.1, -0.2], [0.4, 0.5], [0.3, -0.6]]> : tensor<3x2xf32>
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<4x2xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x2xf32>) -> tensor<4x2xf32>
    %mm = linalg.matmul ins(%x, %w : tensor<4x3xf32>, tensor<3x2xf32>) outs(%f : tensor<4x2xf32>) -> tensor<4x2xf32>
    %n = arith.negf %mm : tensor<4x2xf32>
    return %mm, %n : tensor<4x2xf32>, tensor<4x2xf32>
  }
}
