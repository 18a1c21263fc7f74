// The run column of amp-run's tables fits the longest run name, so that
// long names (master weights) do not push their row out of line.
// RUN: rm -rf %t && mkdir -p %t
// RUN: amp-opt --amp-build-train-step="min-elements=1" %s -o %t/step.mlir
// RUN: amp-run %t/step.mlir --data=synthetic --max-steps=2 --progress=false --run=f16+dynamic,bf16 --master-weights=bf16-stochastic --update-stats | FileCheck %s --strict-whitespace
// "f16 + dynamic params=bf16-stochastic": 36 characters, the column 38.
// CHECK: {{^run {38}train loss   test acc}}
// CHECK-NEXT: {{^f16 \+ dynamic params=bf16-stochastic {3}[ 0-9]{7}\.[0-9]{4} }}
// CHECK-NEXT: {{^bf16 params=bf16-stochastic {12}[ 0-9]{7}\.[0-9]{4} }}
// CHECK: parameter updates (--update-stats)
// CHECK-NEXT: {{^f16 \+ dynamic params=bf16-stochastic {3}ratio}}
// CHECK-NEXT: {{^bf16 params=bf16-stochastic {12}ratio}}
// RUN: amp-run %t/step.mlir --data=synthetic --run=f16+dynamic,bf16 --master-weights=bf16-stochastic --eval-only | FileCheck %s --strict-whitespace --check-prefix=EVAL
// EVAL: {{^run {34}  test acc}}
// EVAL-NEXT: {{^f16 \+ dynamic params=bf16-stochastic {5}[0-9]\.[0-9]{4} }}

#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d1)>
module {
  func.func @forward(%x: tensor<4x8xf32>) -> tensor<4x3xf32> {
    %w = arith.constant dense<0.1> : tensor<8x3xf32>
    %b = arith.constant dense<0.0> : tensor<3xf32>
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<4x3xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x3xf32>) -> tensor<4x3xf32>
    %m = linalg.matmul ins(%x, %w : tensor<4x8xf32>, tensor<8x3xf32>) outs(%f : tensor<4x3xf32>) -> tensor<4x3xf32>
    %r = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%m, %b : tensor<4x3xf32>, tensor<3xf32>) outs(%e : tensor<4x3xf32>) {
    ^bb0(%a: f32, %bb: f32, %o: f32):
      %s = arith.addf %a, %bb : f32
      linalg.yield %s : f32
    } -> tensor<4x3xf32>
    return %r : tensor<4x3xf32>
  }
}
