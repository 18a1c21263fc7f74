// loss=none with several data arguments: the label (or target) is the last
// argument that is not a parameter, the others are inputs; inputs= names
// the inputs and leaves the one other argument to be the label.
// RUN: not amp-opt %s --split-input-file --amp-build-train-step="loss=none" 2>/dev/null | FileCheck %s
// RUN: not amp-opt %s --split-input-file --amp-build-train-step="loss=none inputs=0,1" 2>/dev/null | FileCheck %s
// RUN: not amp-opt %s --split-input-file --amp-build-train-step="loss=none" 2>&1 >/dev/null | FileCheck %s --check-prefix=BATCH
// RUN: not amp-opt %s --split-input-file --amp-build-train-step="loss=none inputs=0" 2>&1 | FileCheck %s --check-prefix=LEFT

module {
func.func @loss(%q: tensor<4x2xf32>, %kv: tensor<4x3xf32>, %y: tensor<4xi32>) -> tensor<f32> {
  %w = arith.constant dense<[1.0, -2.0]> : tensor<2xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]}
      ins(%q, %w : tensor<4x2xf32>, tensor<2xf32>) outs(%f : tensor<f32>) {
  ^bb0(%a0: f32, %b0: f32, %o: f32):
    %r = arith.mulf %a0, %b0 : f32
    %s = arith.addf %r, %o : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  %b = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]}
      ins(%kv, %y : tensor<4x3xf32>, tensor<4xi32>) outs(%a : tensor<f32>) {
  ^bb0(%k: f32, %l: i32, %o: f32):
    %lf = arith.sitofp %l : i32 to f32
    %r = arith.mulf %k, %lf : f32
    %s = arith.addf %r, %o : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  return %b : tensor<f32>
}
}
// CHECK-LABEL: func.func @train_step(
// CHECK-SAME: tensor<4x2xf32> {amp.role = "input"}, %{{.*}}: tensor<4x3xf32> {amp.role = "input"}, %{{.*}}: tensor<4xi32> {amp.role = "label"})
// With inputs=0, argument #1 is left over: only one label.
// LEFT: error: amp-build-train-step: argument #2 of @loss ('tensor<4xi32>') is neither the input (argument #0) nor a parameter nor the label; name it in inputs= or params=

// -----

// Inputs must agree on the batch (loss=none has no output to compare with).
module {
func.func @batches(%a: tensor<4x2xf32>,
                   %b: tensor<3x2xf32>, %y: tensor<4xi32>) -> tensor<f32> {
  %w = arith.constant dense<[1.0, -2.0]> : tensor<2xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]}
      ins(%a, %w : tensor<4x2xf32>, tensor<2xf32>) outs(%f : tensor<f32>) {
  ^bb0(%a0: f32, %b0: f32, %o: f32):
    %r = arith.mulf %a0, %b0 : f32
    %t = arith.addf %r, %o : f32
    linalg.yield %t : f32
  } -> tensor<f32>
  return %s : tensor<f32>
}
}
// BATCH: error: amp-build-train-step: the input (argument #1, 'tensor<3x2xf32>') has 3 in dimension 0, the input argument #0 4; dimension 0 of every input is the batch
