// RUN: amp-opt %s --amp-build-train-step="loss=mse" -o /dev/null 2>&1 | FileCheck %s
// One constant printed without its data (__elided__) read by two layers:
// a tied weight (fc(fc(x))) and two equal weights merged by a CSE look the
// same. Each use becomes a parameter of its own, and a remark says so (it
// was silent).
// CHECK: build-train-step-elided-shared.mlir:[[@LINE+6]]:8: remark: amp-build-train-step: this constant printed without its data (__elided__) has 2 uses; each becomes a parameter of its own (an elided blob has no key that would tie them); if it is one tied weight, export the model with its blobs (its key then ties them)
module {
func.func @forward(%x: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %w = arith.constant dense_resource<__elided__> : tensor<16x16xf32>
  %h = linalg.matmul ins(%x, %w : tensor<4x16xf32>, tensor<16x16xf32>) outs(%f : tensor<4x16xf32>) -> tensor<4x16xf32>
  %y = linalg.matmul ins(%h, %w : tensor<4x16xf32>, tensor<16x16xf32>) outs(%f : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %y : tensor<4x16xf32>
}
}
// Its two parameters cannot both be written back into the one constant:
// amp-run --save-model refuses before training.
// RUN: amp-opt %s --amp-build-train-step="loss=mse" -o %t.step 2>/dev/null
// RUN: not amp-run %t.step --data=synthetic --run=f32 --save-model=%t.saved 2>&1 | FileCheck %s --check-prefix=SAVE
// SAVE: amp-run: --save-model: the parameter argument #1 of @train_step and argument #0 come from the same elided constant (line {{[0-9]+}} of the model): one constant cannot hold two trained parameters
// RUN: not ls %t.saved
