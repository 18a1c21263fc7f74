// A model with two data inputs traced at batch 1 (a PyTorch forward(a, b)):
// batch= re-batches both; each input's dimension 0 is the batch. Before
// 2026-12-04 only the first input was re-batched: batch=8 failed with a
// hint (inputs=) that did not help, and batch=dynamic built a step whose
// second input stayed 1 x 2, shared by every example.
// RUN: amp-opt %s --amp-build-train-step="loss=mse batch=8" -o %t.8.mlir
// RUN: FileCheck %s --check-prefix=B8 < %t.8.mlir
// B8: func.func @train_step({{.*}}tensor<8x3xf32> {amp.role = "input"}, %{{.*}}: tensor<8x2xf32> {amp.role = "input"}, %{{.*}}: tensor<8x2x3xf32> {amp.role = "target"}
// RUN: amp-run %t.8.mlir --data=synthetic --check-gradients | FileCheck %s --check-prefix=GRAD
// GRAD: (tolerance 1e-05): passed
// RUN: amp-opt %s --amp-build-train-step="loss=mse batch=dynamic" -o %t.dyn.mlir
// RUN: FileCheck %s --check-prefix=DYN < %t.dyn.mlir
// DYN: func.func @train_step({{.*}}tensor<?x3xf32> {amp.role = "input"}, %{{.*}}: tensor<?x2xf32> {amp.role = "input"}, %{{.*}}: tensor<?x2x3xf32> {amp.role = "target"}
// RUN: amp-run %t.dyn.mlir --data=synthetic --batch-size=4 --check-gradients | FileCheck %s --check-prefix=GRAD
//
// amp-rebatch (one input, argument #0) at a dynamic batch broadcasts the
// other argument after the batch size it reads (the tensor.empty of the
// broadcast came before the tensor.dim it used: invalid IR, and the
// builder crashed on it).
// RUN: amp-opt %s --amp-rebatch="batch=dynamic" --verify-each | FileCheck %s --check-prefix=PASS
// PASS: %[[N:.*]] = tensor.dim %arg0, %c0
// PASS: tensor.empty(%[[N]]) : tensor<?x2xf32>
//
// Inputs traced at different batches cannot both be dimension-0 batches.
// RUN: not amp-opt %S/Inputs/two-inputs-disagree.mlir --amp-build-train-step="loss=mse batch=8" 2>&1 | FileCheck %s --check-prefix=DISAGREE
// DISAGREE: error: amp-build-train-step: batch=8: the inputs disagree on the batch they were traced at: argument #0 has 1 in dimension 0, argument #1 has 2 in dimension 0; every input takes the batch in dimension 0
module {
  func.func @forward(%a: tensor<1x3xf32>, %b: tensor<1x2xf32>) -> tensor<1x2x3xf32> {
    %wa = arith.constant dense<[[0.1, -0.2, 0.3, 0.0, 0.5, -0.1], [0.4, 0.5, -0.3, 0.2, 0.1, 0.0], [0.3, -0.6, 0.2, 0.1, -0.4, 0.7]]> : tensor<3x6xf32>
    %wb = arith.constant dense<[[0.2, 0.1, -0.5, 0.3, 0.3, 0.2], [-0.1, 0.4, 0.6, -0.2, 0.1, 0.5]]> : tensor<2x6xf32>
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<1x6xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x6xf32>) -> tensor<1x6xf32>
    %m1 = linalg.matmul ins(%a, %wa : tensor<1x3xf32>, tensor<3x6xf32>) outs(%f : tensor<1x6xf32>) -> tensor<1x6xf32>
    %m2 = linalg.matmul ins(%b, %wb : tensor<1x2xf32>, tensor<2x6xf32>) outs(%m1 : tensor<1x6xf32>) -> tensor<1x6xf32>
    %t = math.tanh %m2 : tensor<1x6xf32>
    %y = tensor.expand_shape %t [[0], [1, 2]] output_shape [1, 2, 3] : tensor<1x6xf32> into tensor<1x2x3xf32>
    return %y : tensor<1x2x3xf32>
  }
}
