// amp-gpu-keep-on-device: no host read of device data in the step.
// RUN: amp-opt %s --amp-gpu-keep-on-device --split-input-file | FileCheck %s

// The skip-update scf.if becomes select(found_inf, old, new) on the device;
// results that both branches yield unchanged stay as they are.
// CHECK-LABEL: func.func @skip_update(
// CHECK-SAME: %[[W:[^:]+]]: tensor<4xf32>, %[[G:[^:]+]]: tensor<4xf32>, %[[F:[^:]+]]: tensor<i1>
// CHECK-NOT: scf.if
// CHECK-NOT: tensor.extract
// CHECK: %[[NEW:.*]] = linalg.generic {{.*}} ins(%[[W]], %[[G]]
// CHECK: arith.subf
// CHECK: %[[SEL:.*]] = linalg.generic {{.*}} ins(%[[F]], %[[W]], %[[NEW]] : tensor<i1>, tensor<4xf32>, tensor<4xf32>)
// CHECK: ^bb0(%[[C:.*]]: i1, %[[A:.*]]: f32, %[[B:.*]]: f32, %{{.*}}: f32):
// CHECK: arith.select %[[C]], %[[A]], %[[B]] : f32
// CHECK: return %[[SEL]], %[[G]]
#id = affine_map<(d0) -> (d0)>
func.func @skip_update(%w: tensor<4xf32>, %g: tensor<4xf32>, %found: tensor<i1>)
    -> (tensor<4xf32>, tensor<4xf32>) {
  %f = tensor.extract %found[] : tensor<i1>
  %r:2 = scf.if %f -> (tensor<4xf32>, tensor<4xf32>) {
    scf.yield %w, %g : tensor<4xf32>, tensor<4xf32>
  } else {
    %e = tensor.empty() : tensor<4xf32>
    %n = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
        ins(%w, %g : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %s = arith.subf %a, %b : f32
      linalg.yield %s : f32
    } -> tensor<4xf32>
    scf.yield %n, %g : tensor<4xf32>, tensor<4xf32>
  }
  return %r#0, %r#1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// 1/S computed in f64 as PyTorch does: a 0-d generic (one-thread kernel)
// reads S on the device.
// CHECK-LABEL: func.func @inverse_scale(
// CHECK-SAME: %[[S:[^:]+]]: tensor<f32>
// CHECK-NOT: tensor.extract
// CHECK-NOT: tensor.from_elements
// CHECK: %[[INV:.*]] = linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}], iterator_types = []} ins(%[[S]] : tensor<f32>)
// CHECK: ^bb0(%[[X:.*]]: f32, %{{.*}}: f32):
// CHECK: %[[E:.*]] = arith.extf %[[X]] : f32 to f64
// CHECK: %[[D:.*]] = arith.divf %{{.*}}, %[[E]] : f64
// CHECK: %[[T:.*]] = arith.truncf %[[D]] : f64 to f32
// CHECK: linalg.yield %[[T]] : f32
// CHECK: return %[[INV]]
func.func @inverse_scale(%s: tensor<f32>) -> tensor<f32> {
  %x = tensor.extract %s[] : tensor<f32>
  %one = arith.constant 1.0 : f64
  %e = arith.extf %x : f32 to f64
  %d = arith.divf %one, %e : f64
  %t = arith.truncf %d : f64 to f32
  %r = tensor.from_elements %t : tensor<f32>
  return %r : tensor<f32>
}

// -----

// Splat constants are filled on the device instead of living in host globals.
// CHECK-LABEL: func.func @seed(
// CHECK: %[[C:.*]] = arith.constant 1.000000e+00 : f32
// CHECK: %[[E:.*]] = tensor.empty() : tensor<f32>
// CHECK: %[[FILL:.*]] = linalg.fill ins(%[[C]] : f32) outs(%[[E]] : tensor<f32>)
// CHECK: return %[[FILL]]
func.func @seed() -> tensor<f32> {
  %c = arith.constant dense<1.0> : tensor<f32>
  return %c : tensor<f32>
}

// -----

// Negative: a branch with side effects is not predicated.
// CHECK-LABEL: func.func @negative_side_effect(
// CHECK: scf.if
func.func @negative_side_effect(%found: tensor<i1>, %m: memref<f32>,
                                %a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %f = tensor.extract %found[] : tensor<i1>
  %r = scf.if %f -> tensor<4xf32> {
    scf.yield %a : tensor<4xf32>
  } else {
    %z = arith.constant 0.0 : f32
    memref.store %z, %m[] : memref<f32>
    scf.yield %b : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

// A linalg.generic body that uses a scalar computed from device memory
// (Adam's bias correction 1 - beta1^t from the step counter t) reads it as
// one more 0-d input instead: the scalar chain becomes a one-thread 0-d
// generic and nothing on the host reads t. Host-only scalars stay captured.
// CHECK-LABEL: func.func @bias_correction(
// CHECK-SAME: %[[M:[^:]+]]: tensor<4xf32>, %[[T:[^:]+]]: tensor<i32>, %[[LR:[^:]+]]: f32
// CHECK-NOT: tensor.extract
// CHECK: %[[BC:.*]] = linalg.generic {{.*}} ins(%[[T]] : tensor<i32>)
// CHECK: arith.sitofp
// CHECK: math.powf
// CHECK: arith.subf
// CHECK: linalg.yield
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #{{[^,]+}}, #{{.*}}], {{.*}} ins(%[[M]], %[[BC]] : tensor<4xf32>, tensor<f32>)
// CHECK-NEXT: ^bb0(%[[IN:[^:]+]]: f32, %[[BCA:[^:]+]]: f32, %{{.*}}: f32):
// CHECK: %[[D:.*]] = arith.divf %[[IN]], %[[BCA]]
// CHECK: arith.mulf %[[D]], %[[LR]]
func.func @bias_correction(%m: tensor<4xf32>, %t: tensor<i32>, %lr: f32) -> tensor<4xf32> {
  %ti = tensor.extract %t[] : tensor<i32>
  %tf = arith.sitofp %ti : i32 to f32
  %one = arith.constant 1.0 : f32
  %beta = arith.constant 0.9 : f32
  %bt = math.powf %beta, %tf : f32
  %bc = arith.subf %one, %bt : f32
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%m : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%in: f32, %o: f32):
    %d = arith.divf %in, %bc : f32
    %s = arith.mulf %d, %lr : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
