// A one-element weight of the export (nn.PReLU()'s single slope, a learned
// temperature) is below the default min-elements=2: it stays a constant,
// and a remark says so and how to train it; with min-elements=1 it is a
// parameter.
// RUN: amp-opt %s --amp-build-train-step="loss=mse" -o /dev/null 2>&1 | FileCheck %s
// CHECK: remark: amp-build-train-step: constant 'prelu.weight' stays a constant: fewer than min-elements=2 elements; name it in params= (or lower min-elements) to train it
// RUN: amp-opt %s --amp-build-train-step="loss=mse min-elements=1" 2>&1 | FileCheck %s --check-prefix=ONE
// ONE-NOT: remark
// ONE: func.func @train_step({{.*}}: tensor<1xf32> {{{.*}}amp.role = "param"}
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (0)>
#map2 = affine_map<(d0, d1) -> (d1)>
module {
  func.func @forward(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
    %w = arith.constant dense_resource<prelu.weight> : tensor<1xf32>
    %b = arith.constant dense_resource<fc.bias> : tensor<3xf32>
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<2x3xf32>
    %xb = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel"]} ins(%x, %b : tensor<2x3xf32>, tensor<3xf32>) outs(%e : tensor<2x3xf32>) {
    ^bb0(%a: f32, %c: f32, %o: f32):
      %r = arith.addf %a, %c : f32
      linalg.yield %r : f32
    } -> tensor<2x3xf32>
    %y = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%xb, %w : tensor<2x3xf32>, tensor<1xf32>) outs(%e : tensor<2x3xf32>) {
    ^bb0(%a: f32, %s: f32, %o: f32):
      %c = arith.cmpf ugt, %a, %zero : f32
      %n = arith.mulf %a, %s : f32
      %r = arith.select %c, %a, %n : f32
      linalg.yield %r : f32
    } -> tensor<2x3xf32>
    return %y : tensor<2x3xf32>
  }
}

{-#
  dialect_resources: {
    builtin: {
      prelu.weight: "0x040000000000803E",
      fc.bias: "0x040000000000803E0000803E0000803E"
    }
  }
#-}
