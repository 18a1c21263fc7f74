// Found by amp-fuzz: a tensor.expand_shape whose static output_shape (0)
// disagrees with its result type (1) passes the tensor op's verifier, but
// the memref.expand_shape bufferization makes of it does not: the pipelines
// failed in the middle ("invalid output shape provided at pos 0", on the
// memref op). The input check now names the tensor op and the dimension.
// RUN: not amp-opt %s --amp-lower-to-llvm 2>&1 | FileCheck %s
// RUN: not amp-opt %s --amp-lower-to-nvvm="format=isa" 2>&1 | FileCheck %s
// CHECK: error: 'tensor.expand_shape' op has output_shape size 0 in dimension 0 where its result type 'tensor<1x2x3xf32>' has 1;
// CHECK-NOT: memref.expand_shape
func.func @f(%t: tensor<1x6xf32>) -> tensor<1x2x3xf32> {
  %y = tensor.expand_shape %t [[0], [1, 2]] output_shape [0, 2, 3] : tensor<1x6xf32> into tensor<1x2x3xf32>
  return %y : tensor<1x2x3xf32>
}
