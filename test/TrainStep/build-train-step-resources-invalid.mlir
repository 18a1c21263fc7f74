// RUN: amp-opt %s --split-input-file --amp-build-train-step -verify-diagnostics
// The builder checks the dense_resource blobs it reads: a blob must hold
// one element of the type's size per element (before, amp-run found a
// wrong size only when it loaded the parameter), and the constants of one
// key (a tied weight, one parameter) must have one type.

module {
func.func @forward(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  // expected-error @+1 {{amp-build-train-step: dense_resource<lin.weight> holds 8 bytes of data, but 'tensor<4x4xf32>' needs 64 (4 per 'f32' element); the blob does not belong to this type (export the model again)}}
  %w = arith.constant dense_resource<lin.weight> : tensor<4x4xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4xf32>) -> tensor<2x4xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<2x4xf32>, tensor<4x4xf32>) outs(%f : tensor<2x4xf32>) -> tensor<2x4xf32>
  return %mm : tensor<2x4xf32>
}
}
{-#
  dialect_resources: {
    builtin: {
      lin.weight: "0x04000000CDCCCC3DCDCC4CBE"
    }
  }
#-}

// -----

// A frozen buffer's blob is checked too (an i64 buffer: 8 bytes each).
module {
func.func @forward(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  // expected-error @+1 {{amp-build-train-step: dense_resource<idx.buffer> holds 4 bytes of data, but 'tensor<2xi64>' needs 16 (8 per 'i64' element)}}
  %idx = arith.constant dense_resource<idx.buffer> : tensor<2xi64>
  %w = arith.constant dense<0.5> : tensor<4x4xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4xf32>) -> tensor<2x4xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<2x4xf32>, tensor<4x4xf32>) outs(%f : tensor<2x4xf32>) -> tensor<2x4xf32>
  return %mm : tensor<2x4xf32>
}
}
{-#
  dialect_resources: {
    builtin: {
      idx.buffer: "0x0800000001000000"
    }
  }
#-}

// -----

module {
func.func @forward(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %w1 = arith.constant dense_resource<__elided__> : tensor<4x4xf32>
  %t1 = arith.constant dense_resource<tied.weight> : tensor<4x4xf32>
  // expected-error @+1 {{amp-build-train-step: constant 'tied.weight' has type 'tensor<16xf32>' here and 'tensor<4x4xf32>' at its first use; the constants of one dense_resource key are one tensor (a tied weight, one parameter) and need one type}}
  %t2 = arith.constant dense_resource<tied.weight> : tensor<16xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4xf32>) -> tensor<2x4xf32>
  %mm = linalg.matmul ins(%x, %t1 : tensor<2x4xf32>, tensor<4x4xf32>) outs(%f : tensor<2x4xf32>) -> tensor<2x4xf32>
  %r = tensor.expand_shape %t2 [[0, 1]] output_shape [4, 4] : tensor<16xf32> into tensor<4x4xf32>
  %y = linalg.matmul ins(%mm, %r : tensor<2x4xf32>, tensor<4x4xf32>) outs(%f : tensor<2x4xf32>) -> tensor<2x4xf32>
  return %y : tensor<2x4xf32>
}
}
