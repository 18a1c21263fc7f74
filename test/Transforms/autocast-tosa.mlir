// amp-autocast on TOSA: tosa.matmul runs Mixed (f16 inputs and zero points,
// f32 result), add/clamp between two matmuls store f16 (clamp bounds
// converted), exp and reduce_sum (deny) stay f32, tosa.const is converted
// at compile time.
// RUN: amp-opt %s -amp-autocast | FileCheck %s
// RUN: amp-opt %s -amp-autocast > %t.once.mlir
// RUN: amp-opt %t.once.mlir -amp-autocast | diff %t.once.mlir -
// RUN: amp-opt %s -amp-autocast=remarks=true 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK

// CHECK-LABEL: func @tosa_block
// CHECK-DAG: %[[W2:.*]] = arith.truncf %arg3 : tensor<1x4x4xf32> to tensor<1x4x4xf16>
// CHECK-DAG: %[[BIAS:.*]] = arith.truncf %arg2 : tensor<1x4x4xf32> to tensor<1x4x4xf16>
// CHECK-DAG: %[[B:.*]] = arith.truncf %arg1 : tensor<1x8x4xf32> to tensor<1x8x4xf16>
// CHECK-DAG: %[[A:.*]] = arith.truncf %arg0 : tensor<1x4x8xf32> to tensor<1x4x8xf16>
// CHECK-DAG: %[[ZP:.*]] = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf16>}> : () -> tensor<1xf16>
// CHECK: %[[M:.*]] = tosa.matmul %[[A]], %[[B]], %[[ZP]], %[[ZP]] : (tensor<1x4x8xf16>, tensor<1x8x4xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x4x4xf32>
// CHECK: %[[M16:.*]] = arith.truncf %[[M]] : tensor<1x4x4xf32> to tensor<1x4x4xf16>
// CHECK: %[[S:.*]] = tosa.add %[[M16]], %[[BIAS]] : (tensor<1x4x4xf16>, tensor<1x4x4xf16>) -> tensor<1x4x4xf16>
// CHECK: %[[R:.*]] = tosa.clamp %[[S]] {max_val = 0x7C00 : f16, min_val = 0.000000e+00 : f16}
// CHECK: %[[M2:.*]] = tosa.matmul %[[R]], %[[W2]], %[[ZP]], %[[ZP]] : {{.*}} -> tensor<1x4x4xf32>
// CHECK: %[[E:.*]] = tosa.exp %[[M2]] : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
// CHECK: tosa.reduce_sum %[[E]] {axis = 2 : i32} : (tensor<1x4x4xf32>) -> tensor<1x4x1xf32>
// REMARK: remark: autocast: allow (contraction: low-precision inputs, fp32 accumulation); mixed: rule 1
// REMARK: remark: autocast: infer {{.*}}; low: rule 3: between allow ops 'tosa.matmul'
// REMARK: remark: autocast: clear {{.*}}; low: rule 3: between allow ops 'tosa.matmul'
// REMARK: remark: autocast: deny (exp/log/pow/rsqrt/sqrt/erf/reciprocal: range-sensitive, fp32); f32: deny class
// REMARK: remark: autocast: deny (reduction: accumulates in fp32); f32: deny class
func.func @tosa_block(%a: tensor<1x4x8xf32>, %b: tensor<1x8x4xf32>, %bias: tensor<1x4x4xf32>, %w2: tensor<1x4x4xf32>) -> tensor<1x4x1xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %m = tosa.matmul %a, %b, %zp, %zp : (tensor<1x4x8xf32>, tensor<1x8x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4xf32>
  %s = tosa.add %m, %bias : (tensor<1x4x4xf32>, tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  %r = tosa.clamp %s {min_val = 0.0 : f32, max_val = 3.4028235e38 : f32} : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  %m2 = tosa.matmul %r, %w2, %zp, %zp : (tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4xf32>
  %e = tosa.exp %m2 : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<1x4x4xf32>) -> tensor<1x4x1xf32>
  return %sum : tensor<1x4x1xf32>
}
