// keep-io-types: by default no signature changes; with keep-io-types=false a
// private function whose uses are all calls takes the weight and the
// activation in f16 (cast once by the caller), public signatures stay.
// RUN: amp-opt %s -amp-autocast | FileCheck %s --check-prefix=KEEP
// RUN: amp-opt %s -amp-autocast=keep-io-types=false | FileCheck %s
// RUN: amp-opt %s -amp-autocast=keep-io-types=false > %t.once.mlir
// RUN: amp-opt %t.once.mlir -amp-autocast=keep-io-types=false | diff %t.once.mlir -

// KEEP: func.func private @layer(%{{.*}}: tensor<4x4xf32>, %{{.*}}: tensor<4x4xf32>, %{{.*}}: tensor<4x4xf32>) -> tensor<4x4xf32>
// KEEP: func.func @model(%{{.*}}: tensor<4x4xf32>, %{{.*}}: tensor<4x4xf32>, %{{.*}}: tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK-LABEL: func.func private @layer
// CHECK-SAME: (%[[X:[a-z0-9]+]]: tensor<4x4xf16>, %[[W:[a-z0-9]+]]: tensor<4x4xf16>, %[[C:[a-z0-9]+]]: tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK-NOT: arith.truncf %[[W]]
// CHECK: linalg.matmul ins(%[[X]], %[[W]] : tensor<4x4xf16>, tensor<4x4xf16>) outs(%[[C]] : tensor<4x4xf32>)
// CHECK-LABEL: func.func @model
// CHECK-SAME: (%{{[a-z0-9]+}}: tensor<4x4xf32>, %[[MW:[a-z0-9]+]]: tensor<4x4xf32>, %[[MC:[a-z0-9]+]]: tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK: %[[W16:.*]] = arith.truncf %[[MW]] : tensor<4x4xf32> to tensor<4x4xf16>
// CHECK: %[[A16:.*]] = arith.truncf %{{[0-9]+}} : tensor<4x4xf32> to tensor<4x4xf16>
// CHECK: call @layer(%[[A16]], %[[W16]], %[[MC]]) : (tensor<4x4xf16>, tensor<4x4xf16>, tensor<4x4xf32>) -> tensor<4x4xf32>
func.func private @layer(%x: tensor<4x4xf32>, %w: tensor<4x4xf32>, %c: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %m = linalg.matmul ins(%x, %w : tensor<4x4xf32>, tensor<4x4xf32>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
  %r = arith.maximumf %m, %m : tensor<4x4xf32>
  %m2 = linalg.matmul ins(%r, %w : tensor<4x4xf32>, tensor<4x4xf32>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
  %r2 = arith.addf %m2, %m2 : tensor<4x4xf32>
  return %r2 : tensor<4x4xf32>
}
func.func @model(%x: tensor<4x4xf32>, %w: tensor<4x4xf32>, %c: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %h = linalg.matmul ins(%x, %w : tensor<4x4xf32>, tensor<4x4xf32>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
  %a = arith.addf %h, %h : tensor<4x4xf32>
  %y = func.call @layer(%a, %w, %c) : (tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %z = linalg.matmul ins(%y, %w : tensor<4x4xf32>, tensor<4x4xf32>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %z : tensor<4x4xf32>
}
