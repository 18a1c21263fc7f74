// RUN: amp-opt %s --split-input-file --amp-build-train-step="params=arguments loss=none" | FileCheck %s
// RUN: amp-opt %s --split-input-file --amp-build-train-step="params=arguments loss=none" --amp-verify-training-step -o /dev/null
// RUN: amp-opt %s --split-input-file --amp-build-train-step="params=arguments loss=none inputs=0" | FileCheck %s
// params=arguments with loss=none: the label or target is never trained.
// It is the last integer argument, else, with two or more arguments left
// besides the input, the last one (x, weights..., target); with one left,
// that one is a weight (x, w) and the step gets an unused label. Before,
// the float target of (x, w, t) was trained as a parameter.

// (x, w, t) -> mean (x w - t)^2: t is the target.
func.func @target(%x: tensor<2x4xf32>, %w: tensor<4x4xf32>, %t: tensor<2x4xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4xf32>) -> tensor<2x4xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<2x4xf32>, tensor<4x4xf32>) outs(%f : tensor<2x4xf32>) -> tensor<2x4xf32>
  %es = tensor.empty() : tensor<f32>
  %z = linalg.fill ins(%zero : f32) outs(%es : tensor<f32>) -> tensor<f32>
  %l = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%mm, %t : tensor<2x4xf32>, tensor<2x4xf32>) outs(%z : tensor<f32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %d = arith.subf %a, %b : f32
    %s = arith.mulf %d, %d : f32
    %r = arith.addf %o, %s : f32
    linalg.yield %r : f32
  } -> tensor<f32>
  return %l : tensor<f32>
}
// CHECK-LABEL: func.func @train_step(
// CHECK-SAME: %{{.*}}: tensor<4x4xf32> {amp.role = "param"}, %{{.*}}: tensor<4x4xf32> {amp.role = "opt_state"}, %{{.*}}: tensor<2x4xf32> {amp.role = "input"}, %{{.*}}: tensor<2x4xf32> {amp.role = "target"})
// CHECK-SAME: -> (tensor<f32> {amp.role = "loss"}, tensor<4x4xf32> {amp.updates = 0 : i64}, tensor<4x4xf32> {amp.updates = 1 : i64})

// -----

// (x, w, v) -> sum (x w v): no integer argument, two left: v is taken as
// the target (name the weights by index to train both).
func.func @two_weights(%x: tensor<2x4xf32>, %w: tensor<4x4xf32>, %v: tensor<2x4xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4xf32>) -> tensor<2x4xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<2x4xf32>, tensor<4x4xf32>) outs(%f : tensor<2x4xf32>) -> tensor<2x4xf32>
  %es = tensor.empty() : tensor<f32>
  %z = linalg.fill ins(%zero : f32) outs(%es : tensor<f32>) -> tensor<f32>
  %l = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%mm, %v : tensor<2x4xf32>, tensor<2x4xf32>) outs(%z : tensor<f32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.mulf %a, %b : f32
    %r = arith.addf %o, %s : f32
    linalg.yield %r : f32
  } -> tensor<f32>
  return %l : tensor<f32>
}
// CHECK-LABEL: func.func @train_step(
// CHECK-SAME: %{{.*}}: tensor<4x4xf32> {amp.role = "param"}, %{{.*}}: tensor<4x4xf32> {amp.role = "opt_state"}, %{{.*}}: tensor<2x4xf32> {amp.role = "input"}, %{{.*}}: tensor<2x4xf32> {amp.role = "target"})

// -----

// (x, w, v, y) with an integer label y: y is the label, w and v are trained.
func.func @label(%x: tensor<2x4xf32>, %w: tensor<4x4xf32>, %v: tensor<4xf32>, %y: tensor<2xi32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4xf32>) -> tensor<2x4xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<2x4xf32>, tensor<4x4xf32>) outs(%f : tensor<2x4xf32>) -> tensor<2x4xf32>
  %es = tensor.empty() : tensor<f32>
  %z = linalg.fill ins(%zero : f32) outs(%es : tensor<f32>) -> tensor<f32>
  %l = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%mm, %v, %y : tensor<2x4xf32>, tensor<4xf32>, tensor<2xi32>) outs(%z : tensor<f32>) {
  ^bb0(%a: f32, %b: f32, %lbl: i32, %o: f32):
    %lf = arith.sitofp %lbl : i32 to f32
    %s = arith.mulf %a, %b : f32
    %t = arith.mulf %s, %lf : f32
    %r = arith.addf %o, %t : f32
    linalg.yield %r : f32
  } -> tensor<f32>
  return %l : tensor<f32>
}
// CHECK-LABEL: func.func @train_step(
// CHECK-SAME: %{{.*}}: tensor<4x4xf32> {amp.role = "param"}, %{{.*}}: tensor<4xf32> {amp.role = "param"}, %{{.*}}: tensor<4x4xf32> {amp.role = "opt_state"}, %{{.*}}: tensor<4xf32> {amp.role = "opt_state"}, %{{.*}}: tensor<2x4xf32> {amp.role = "input"}, %{{.*}}: tensor<2xi32> {amp.role = "label"})

// -----

// (x, w): w is the weight; the step gets an unused label.
func.func @weight_only(%x: tensor<2x4xf32>, %w: tensor<4x4xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4xf32>) -> tensor<2x4xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<2x4xf32>, tensor<4x4xf32>) outs(%f : tensor<2x4xf32>) -> tensor<2x4xf32>
  %es = tensor.empty() : tensor<f32>
  %z = linalg.fill ins(%zero : f32) outs(%es : tensor<f32>) -> tensor<f32>
  %l = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%mm : tensor<2x4xf32>) outs(%z : tensor<f32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.mulf %a, %a : f32
    %r = arith.addf %o, %s : f32
    linalg.yield %r : f32
  } -> tensor<f32>
  return %l : tensor<f32>
}
// CHECK-LABEL: func.func @train_step(
// CHECK-SAME: %{{.*}}: tensor<4x4xf32> {amp.role = "param"}, %{{.*}}: tensor<4x4xf32> {amp.role = "opt_state"}, %{{.*}}: tensor<2x4xf32> {amp.role = "input"}, %{{.*}}: tensor<2xi32> {amp.role = "label"})
