// RUN: amp-opt %s -split-input-file -amp-lower-to-standard | FileCheck %s --implicit-check-not="amp."

// One linalg.generic per gradient: reads g once, writes g * inv_scale and
// ors "|g| >= inf (unordered: NaN too)" into found_inf, chained through all
// gradients starting from false.
// CHECK-LABEL: func @unscale_and_check
// CHECK-SAME: (%[[G0:.*]]: tensor<4x3xf32>, %[[G1:.*]]: tensor<3xf32>, %[[INV:.*]]: tensor<f32>)
// CHECK: %[[FALSE:.*]] = arith.constant dense<false> : tensor<i1>
// CHECK: %[[R0:.*]]:2 = linalg.generic
// CHECK-SAME: iterator_types = ["reduction", "reduction"]
// CHECK-SAME: ins(%[[G0]], %[[INV]] : tensor<4x3xf32>, tensor<f32>) outs(%{{.*}}, %[[FALSE]] : tensor<4x3xf32>, tensor<i1>)
// CHECK: ^bb0(%[[X:.*]]: f32, %[[S:.*]]: f32, %{{.*}}: f32, %[[ACC:.*]]: i1):
// CHECK: %[[Y:.*]] = arith.mulf %[[X]], %[[S]] : f32
// CHECK: %[[A:.*]] = math.absf %[[X]] : f32
// CHECK: %[[NF:.*]] = arith.cmpf uge, %[[A]], %{{.*}} : f32
// CHECK: %[[OR:.*]] = arith.ori %[[ACC]], %[[NF]] : i1
// CHECK: linalg.yield %[[Y]], %[[OR]] : f32, i1
// CHECK: %[[R1:.*]]:2 = linalg.generic
// CHECK-SAME: ins(%[[G1]], %[[INV]] : tensor<3xf32>, tensor<f32>) outs(%{{.*}}, %[[R0]]#1 : tensor<3xf32>, tensor<i1>)
// CHECK: return %[[R0]]#0, %[[R1]]#0, %[[R1]]#1
func.func @unscale_and_check(%g0: tensor<4x3xf32>, %g1: tensor<3xf32>, %inv: tensor<f32>)
    -> (tensor<4x3xf32>, tensor<3xf32>, tensor<i1>) {
  %u:2, %f = amp.unscale_and_check %g0, %g1 inv_scale %inv : tensor<4x3xf32>, tensor<3xf32>
  return %u#0, %u#1, %f : tensor<4x3xf32>, tensor<3xf32>, tensor<i1>
}

// -----

// PyTorch's _amp_update_scale_ on scalars, with clamps and hysteresis.
// CHECK-LABEL: func @update_scale
// CHECK-DAG: %[[S:.*]] = tensor.extract %arg0[]
// CHECK-DAG: %[[T:.*]] = tensor.extract %arg1[]
// CHECK-DAG: %[[H:.*]] = tensor.extract %arg2[]
// CHECK-DAG: %[[F:.*]] = tensor.extract %arg3[]
// CHECK-DAG: %[[H1:.*]] = arith.minsi %{{.*}}, %{{.*}} : i32
// CHECK-DAG: %[[BACKOFF:.*]] = arith.cmpi sge, %[[H1]], %{{.*}} : i32
// CHECK-DAG: %[[HALF:.*]] = arith.mulf %[[S]], %{{.*}} : f32
// CHECK-DAG: %[[FLOORED:.*]] = arith.maximumf %[[HALF]], %{{.*}} : f32
// CHECK-DAG: %[[OVS:.*]] = arith.select %[[BACKOFF]], %[[FLOORED]], %[[S]] : f32
// CHECK-DAG: %[[T1:.*]] = arith.addi %[[T]], %{{.*}} : i32
// CHECK-DAG: %[[GROW:.*]] = arith.cmpi eq, %[[T1]], %{{.*}} : i32
// CHECK-DAG: %[[CAND:.*]] = arith.mulf %[[S]], %{{.*}} : f32
// CHECK-DAG: %[[FIN:.*]] = arith.cmpf olt, %{{.*}}, %{{.*}} : f32
// CHECK-DAG: %[[CAP:.*]] = arith.minimumf %[[CAND]], %{{.*}} : f32
// CHECK-DAG: %[[GROWN:.*]] = arith.select %[[FIN]], %[[CAP]], %[[S]] : f32
// CHECK-DAG: %[[CLEAN:.*]] = arith.select %[[GROW]], %[[GROWN]], %[[S]] : f32
// CHECK-DAG: %[[CT:.*]] = arith.select %[[GROW]], %{{.*}}, %[[T1]] : i32
// CHECK-DAG: %[[CH:.*]] = arith.select %[[GROW]], %{{.*}}, %[[H]] : i32
// CHECK-DAG: %[[NS:.*]] = arith.select %[[F]], %[[OVS]], %[[CLEAN]] : f32
// CHECK-DAG: %[[NT:.*]] = arith.select %[[F]], %{{.*}}, %[[CT]] : i32
// CHECK-DAG: %[[NH:.*]] = arith.select %[[F]], %[[H1]], %[[CH]] : i32
func.func @update_scale(%s: tensor<f32>, %t: tensor<i32>, %h: tensor<i32>, %f: tensor<i1>) -> (tensor<f32>, tensor<i32>, tensor<i32>) {
  %s1, %t1, %h1 = amp.update_scale %s, %t, %h, %f {growth_interval = 3 : i32, hysteresis = 2 : i32} : tensor<f32>, tensor<i32>, tensor<i32>, tensor<i1>
  return %s1, %t1, %h1 : tensor<f32>, tensor<i32>, tensor<i32>
}

// -----

// Underflow counting: one reduction generic with two i64 counters.
// CHECK-LABEL: func @count_underflow
// CHECK: linalg.generic
// CHECK-SAME: iterator_types = ["reduction", "reduction"]
// CHECK: math.absf
// CHECK: arith.truncf %{{.*}} : f32 to f16
// CHECK: arith.extf
// CHECK: arith.cmpf olt, %{{.*}}, %{{.*}} : f32
// CHECK: arith.extui
// CHECK: linalg.yield %{{.*}}, %{{.*}} : i64, i64
// CHECK-NOT: amp.count_underflow
func.func @count_underflow(%v: tensor<2x3xf32>) -> (tensor<i64>, tensor<i64>) {
  %n, %t = amp.count_underflow %v {precision = f16} : tensor<2x3xf32>
  return %n, %t : tensor<i64>, tensor<i64>
}

// -----

// Unscaled markers: the seed is 1.0 and amp.grad is the identity.
// CHECK-LABEL: func @markers
// CHECK: %[[ONE:.*]] = arith.constant dense<1.000000e+00> : tensor<f32>
// CHECK: return %[[ONE]], %arg1
func.func @markers(%loss: tensor<f32>, %dw: tensor<4xf32>, %w: tensor<4xf32>) -> (tensor<f32>, tensor<4xf32>) {
  %seed = amp.loss_grad %loss : tensor<f32>
  %g = amp.grad %dw, %w : tensor<4xf32>
  return %seed, %g : tensor<f32>, tensor<4xf32>
}
