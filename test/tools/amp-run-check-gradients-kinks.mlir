// --check-gradients counts an element whose one-sided differences disagree
// (a kink of the loss: a ReLU input or a max tie at the checked point) as
// agreeing. When every checked element of a parameter sits on one, that
// parameter was not checked at all: its row says "all on kinks" and the
// verdict names it. Before, the row showed 0.000e+00 and the verdict a
// plain "passed". Here a 1x4 parameter with data, all zero, is read only
// through a ReLU: its checked point is the kink (a rank-0/1 all-zero bias
// would be moved off it, below).
// RUN: amp-opt %s --amp-build-train-step="loss=mse" -o %t.kinks.mlir
// RUN: amp-run %t.kinks.mlir --check-gradients --data=synthetic | FileCheck %s
// CHECK: #1 {{.*}} all on kinks
// CHECK: passed; not checked: parameter #1 (every checked element sits on a kink
//
// A bias without data (dense_resource<__elided__>) starts at 0 in training,
// which put every ReLU input it alone decides exactly on the kink (the CNN
// of examples/pytorch with its weights elided: every checked element of
// the biases before the ReLUs, found by a new user's break-it pass; and
// torchvision's SqueezeNet, whose conv biases are exported as dense<0.0>).
// The check draws a rank-0/1 parameter that is all zero from
// U(-1/sqrt(fan-in), 1/sqrt(fan-in)) instead, off the kinks: every
// parameter is checked.
// RUN: sed -e 's/dense_resource<[a-z0-9_.]*>/dense_resource<__elided__>/g' -e '/^{-#/,$d' %amp_src_root/examples/pytorch/cnn.mlir > %t.model.mlir
// RUN: amp-opt %t.model.mlir --amp-build-train-step -o %t.step.mlir
// RUN: amp-run %t.step.mlir --check-gradients | FileCheck %s --check-prefix=CNN
// CNN-NOT: all on kinks
// CNN: worst relative error {{.*}}: passed
// CNN-NOT: not checked
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (0, d1)>
module {
  func.func @forward(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
    %w = arith.constant dense<[[0.5, -0.25, 0.75, 1.0], [0.1, 0.2, -0.3, 0.4], [-0.6, 0.7, 0.8, -0.9], [0.3, 0.3, -0.1, 0.2]]> : tensor<4x4xf32>
    %b = arith.constant dense<0.0> : tensor<1x4xf32>
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<2x4xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4xf32>) -> tensor<2x4xf32>
    %h = linalg.matmul ins(%x, %w : tensor<2x4xf32>, tensor<4x4xf32>) outs(%f : tensor<2x4xf32>) -> tensor<2x4xf32>
    %y = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%h, %b : tensor<2x4xf32>, tensor<1x4xf32>) outs(%e : tensor<2x4xf32>) {
    ^bb0(%a: f32, %c: f32, %o: f32):
      %p = arith.cmpf ugt, %c, %zero : f32
      %r = arith.select %p, %c, %zero : f32
      %m = arith.mulf %a, %r : f32
      linalg.yield %m : f32
    } -> tensor<2x4xf32>
    return %y : tensor<2x4xf32>
  }
}
