// torch.stack of a sequence-first layer's steps as torch-mlir writes it
// (each step [1, 1, D] -> [1, D], unsqueeze(0) -> [1, 1, D], tensor.concat
// along 0), traced at batch 1 (2026-12-07): every unsqueeze could put the
// batch in either unit dimension; the analysis reruns, quietly, moving one
// at a time to the next (it moved only the first operand's and refused).
// RUN: %python %amp_src_root/scripts/check-rebatch-forward.py %s %amp_obj_root --batch-dim=1 | FileCheck %s --check-prefix=EXEC
// EXEC: max |fwd1 - fwd8| = 0, max |fwd1 - fwd(dynamic at 8)| = 0, max |fwd1| = {{[0-9]}}
// RUN: amp-opt %s --amp-rebatch="batch=8 batch-dim=1" | FileCheck %s
// CHECK: tensor.concat dim(0) %{{.*}}, %{{.*}}, %{{.*}} : (tensor<1x8x3xf32>, tensor<1x8x3xf32>, tensor<1x8x3xf32>) -> tensor<3x8x3xf32>

module {
  func.func @forward(%arg0: tensor<3x1x3xf32>) -> tensor<3x1x3xf32> {
    %s0 = tensor.extract_slice %arg0[0, 0, 0] [1, 1, 3] [1, 1, 1] : tensor<3x1x3xf32> to tensor<1x1x3xf32>
    %s1 = tensor.extract_slice %arg0[1, 0, 0] [1, 1, 3] [1, 1, 1] : tensor<3x1x3xf32> to tensor<1x1x3xf32>
    %s2 = tensor.extract_slice %arg0[2, 0, 0] [1, 1, 3] [1, 1, 1] : tensor<3x1x3xf32> to tensor<1x1x3xf32>
    %h0 = tensor.collapse_shape %s0 [[0, 1], [2]] : tensor<1x1x3xf32> into tensor<1x3xf32>
    %h1 = tensor.collapse_shape %s1 [[0, 1], [2]] : tensor<1x1x3xf32> into tensor<1x3xf32>
    %h2 = tensor.collapse_shape %s2 [[0, 1], [2]] : tensor<1x1x3xf32> into tensor<1x3xf32>
    %e0 = tensor.expand_shape %h0 [[0, 1], [2]] output_shape [1, 1, 3] : tensor<1x3xf32> into tensor<1x1x3xf32>
    %e1 = tensor.expand_shape %h1 [[0, 1], [2]] output_shape [1, 1, 3] : tensor<1x3xf32> into tensor<1x1x3xf32>
    %e2 = tensor.expand_shape %h2 [[0, 1], [2]] output_shape [1, 1, 3] : tensor<1x3xf32> into tensor<1x1x3xf32>
    %st = tensor.concat dim(0) %e0, %e1, %e2 : (tensor<1x1x3xf32>, tensor<1x1x3xf32>, tensor<1x1x3xf32>) -> tensor<3x1x3xf32>
    return %st : tensor<3x1x3xf32>
  }
}
