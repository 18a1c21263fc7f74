// A built step without an eval step still records how many classes its
// labels index (amp.classes on the label), and amp-run refuses a dataset
// with more: Fashion-MNIST's labels 3..9 against 3 logits used to select no
// logit, giving a negative cross-entropy and exit 0.
// RUN: amp-opt %s --amp-build-train-step="eval-step=false" -o %t.step.mlir
// RUN: FileCheck %s --check-prefix=ATTR < %t.step.mlir
// ATTR: tensor<8xi32> {amp.classes = 3 : i64, amp.role = "label"}
// RUN: not amp-run %t.step.mlir --run=f32 --max-steps=2 2>&1 | FileCheck %s --check-prefix=REFUSED
// REFUSED: amp-run: run f32: the training set has labels up to 9 but the step's label indexes 3 classes (its amp.classes); the loss would read past the logits
// With 3 synthetic classes it trains.
// RUN: amp-run %t.step.mlir --run=f32 --max-steps=2 --data=synthetic --classes=3 | FileCheck %s --check-prefix=OK
// OK: f32{{ +}}{{[0-9.]+}}
func.func @linear(%x: tensor<8x784xf32>) -> tensor<8x3xf32> {
  %w = arith.constant dense<0.01> : tensor<784x3xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x3xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x3xf32>) -> tensor<8x3xf32>
  %y = linalg.matmul ins(%x, %w : tensor<8x784xf32>, tensor<784x3xf32>) outs(%f : tensor<8x3xf32>) -> tensor<8x3xf32>
  return %y : tensor<8x3xf32>
}
