// RUN: amp-opt %s | FileCheck %s
// Round trip: print, parse again, print again.
// RUN: amp-opt %s | amp-opt | FileCheck %s

// CHECK-LABEL: func @loss_grad
func.func @loss_grad(%loss: tensor<f32>) -> tensor<f32> {
  // CHECK: %[[S:.*]] = amp.loss_grad %{{.*}} : tensor<f32>
  %seed = amp.loss_grad %loss : tensor<f32>
  // CHECK: return %[[S]]
  return %seed : tensor<f32>
}

// CHECK-LABEL: func @grad
func.func @grad(%dw: tensor<4x3xf32>, %w: tensor<4x3xf32>) -> tensor<4x3xf32> {
  // CHECK: amp.grad %{{.*}}, %{{.*}} : tensor<4x3xf32>{{$}}
  %g = amp.grad %dw, %w : tensor<4x3xf32>
  return %g : tensor<4x3xf32>
}

// CHECK-LABEL: func @unscale_and_check
func.func @unscale_and_check(%g0: tensor<4x3xf32>, %g1: tensor<3xf32>,
                             %inv: tensor<f32>)
    -> (tensor<4x3xf32>, tensor<3xf32>, tensor<i1>) {
  // CHECK: %[[U:.*]]:2, %[[F:.*]] = amp.unscale_and_check %{{.*}}, %{{.*}} inv_scale %{{.*}} : tensor<4x3xf32>, tensor<3xf32>
  %u:2, %found_inf = amp.unscale_and_check %g0, %g1 inv_scale %inv
      : tensor<4x3xf32>, tensor<3xf32>
  // CHECK: return %[[U]]#0, %[[U]]#1, %[[F]]
  return %u#0, %u#1, %found_inf : tensor<4x3xf32>, tensor<3xf32>, tensor<i1>
}

// CHECK-LABEL: func @unscale_and_check_single
func.func @unscale_and_check_single(%g: tensor<f32>, %inv: tensor<f32>)
    -> (tensor<f32>, tensor<i1>) {
  // CHECK: amp.unscale_and_check %{{.*}} inv_scale %{{.*}} : tensor<f32>
  %u, %found_inf = amp.unscale_and_check %g inv_scale %inv : tensor<f32>
  return %u, %found_inf : tensor<f32>, tensor<i1>
}

// CHECK-LABEL: func @update_scale
func.func @update_scale(%s: tensor<f32>, %t: tensor<i32>, %h: tensor<i32>, %f: tensor<i1>)
    -> (tensor<f32>, tensor<i32>, tensor<i32>) {
  // CHECK: amp.update_scale %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {backoff_factor = 2.500000e-01 : f32, growth_factor = 4.000000e+00 : f32, growth_interval = 100 : i32, hysteresis = 3 : i32, max_scale = 6.553600e+04 : f32, min_scale = 1.000000e+00 : f32} : tensor<f32>, tensor<i32>, tensor<i32>, tensor<i1>
  %s1, %t1, %h1 = amp.update_scale %s, %t, %h, %f
      {growth_factor = 4.0 : f32, backoff_factor = 0.25 : f32,
       growth_interval = 100 : i32, hysteresis = 3 : i32,
       min_scale = 1.0 : f32, max_scale = 65536.0 : f32}
      : tensor<f32>, tensor<i32>, tensor<i32>, tensor<i1>
  return %s1, %t1, %h1 : tensor<f32>, tensor<i32>, tensor<i32>
}

// Defaults (growth 2, backoff 0.5, interval 2000, hysteresis 1, clamps
// 2^-24 and 2^24) are not printed.
// CHECK-LABEL: func @update_scale_defaults
func.func @update_scale_defaults(%s: tensor<f32>, %t: tensor<i32>, %h: tensor<i32>, %f: tensor<i1>)
    -> (tensor<f32>, tensor<i32>, tensor<i32>) {
  // CHECK: amp.update_scale %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : tensor<f32>, tensor<i32>, tensor<i32>, tensor<i1>
  %s1, %t1, %h1 = amp.update_scale %s, %t, %h, %f : tensor<f32>, tensor<i32>, tensor<i32>, tensor<i1>
  return %s1, %t1, %h1 : tensor<f32>, tensor<i32>, tensor<i32>
}

// CHECK-LABEL: func @count_underflow
func.func @count_underflow(%v: tensor<2x3xf32>) -> (tensor<i64>, tensor<i64>) {
  // CHECK: amp.count_underflow %{{.*}} {precision = bf16} : tensor<2x3xf32>
  %n, %t = amp.count_underflow %v {precision = bf16} : tensor<2x3xf32>
  return %n, %t : tensor<i64>, tensor<i64>
}
