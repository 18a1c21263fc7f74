// arith and math rules: the same rule differentiates a tensor-level op and
// a scalar op in a linalg body; constants take the value's shape (a splat
// when static, a fill when dynamic); maximumf splits ties in half.
// RUN: amp-opt %s -split-input-file -amp-differentiate | FileCheck %s

// y = tanh(max(a / b, b)).
// CHECK-LABEL: func.func @elementwise_grad(
// CHECK-SAME:      %[[A:[^:]+]]: tensor<3xf32>, %[[B:[^:]+]]: tensor<3xf32>)
// CHECK:         %[[Q:.*]] = arith.divf %[[A]], %[[B]] : tensor<3xf32>
// CHECK:         %[[M:.*]] = arith.maximumf %[[Q]], %[[B]] : tensor<3xf32>
// CHECK:         %[[T:.*]] = math.tanh %[[M]] : tensor<3xf32>
// CHECK:         %[[ONE:.*]] = arith.constant dense<1.000000e+00> : tensor<3xf32>
// CHECK:         %[[T2:.*]] = arith.mulf %[[T]], %[[T]] : tensor<3xf32>
// CHECK:         %[[DT:.*]] = arith.subf %[[ONE]], %[[T2]] : tensor<3xf32>
// CHECK:         %[[DM:.*]] = arith.mulf %{{.*}}, %[[DT]] : tensor<3xf32>
// CHECK:         %[[GT:.*]] = arith.cmpf ogt, %[[Q]], %[[B]] : tensor<3xf32>
// CHECK:         %[[EQ:.*]] = arith.cmpf oeq, %[[Q]], %[[B]] : tensor<3xf32>
// CHECK:         %[[HALF:.*]] = arith.mulf %[[DM]], %{{.*}} : tensor<3xf32>
// CHECK:         %[[TIE:.*]] = arith.select %[[EQ]], %[[HALF]], %{{.*}} : tensor<3xi1>, tensor<3xf32>
// CHECK:         %[[DQ:.*]] = arith.select %[[GT]], %[[DM]], %[[TIE]] : tensor<3xi1>, tensor<3xf32>
// CHECK:         %[[DB1:.*]] = arith.subf %[[DM]], %[[DQ]] : tensor<3xf32>
// CHECK:         %[[DA:.*]] = arith.divf %[[DQ]], %[[B]] : tensor<3xf32>
// CHECK:         %[[P:.*]] = arith.mulf %[[DQ]], %[[Q]] : tensor<3xf32>
// CHECK:         %[[R:.*]] = arith.divf %[[P]], %[[B]] : tensor<3xf32>
// CHECK:         %[[DB2:.*]] = arith.negf %[[R]] : tensor<3xf32>
// CHECK:         %[[DB:.*]] = linalg.generic {{.*}} ins(%[[DB1]], %[[DB2]] :
// CHECK:         return %{{.*}}, %[[DA]], %[[DB]]
func.func @elementwise(%a: tensor<3xf32>, %b: tensor<3xf32>) -> tensor<f32> {
  %q = arith.divf %a, %b : tensor<3xf32>
  %m = arith.maximumf %q, %b : tensor<3xf32>
  %t = math.tanh %m : tensor<3xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %l = linalg.reduce { arith.addf } ins(%t : tensor<3xf32>) outs(%i : tensor<f32>) dimensions = [0]
  return %l : tensor<f32>
}

// -----

// d sqrt(a) = 0.5 / sqrt(a), inside the backward generic's body.
// CHECK-LABEL: func.func @in_body_grad(
// CHECK:         linalg.generic {{.*}}iterator_types = ["parallel"]
// CHECK:         ^bb0(%[[IN:.*]]: f32, %[[DR:.*]]: f32, %{{.*}}: f32):
// CHECK:           %[[S:.*]] = math.sqrt %[[IN]] : f32
// CHECK:           %[[H:.*]] = arith.constant 5.000000e-01 : f32
// CHECK:           %[[D:.*]] = arith.divf %[[H]], %[[S]] : f32
// CHECK:           %[[C:.*]] = arith.mulf %[[DR]], %[[D]] : f32
// CHECK:           linalg.yield %[[C]] : f32
func.func @in_body(%x: tensor<3xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %l = linalg.generic {indexing_maps = [affine_map<(d) -> (d)>, affine_map<(d) -> ()>], iterator_types = ["reduction"]}
      ins(%x : tensor<3xf32>) outs(%i : tensor<f32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = math.sqrt %a : f32
    %r = arith.addf %acc, %s : f32
    linalg.yield %r : f32
  } -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// d rsqrt(x) = -0.5 y^3 with the -0.5 filled to the dynamic size.
// CHECK-LABEL: func.func @dynamic_grad(
// CHECK-SAME:      %[[X:[^:]+]]: tensor<?xf32>)
// CHECK:         %[[Y:.*]] = math.rsqrt %[[X]] : tensor<?xf32>
// CHECK:         %[[Y2:.*]] = arith.mulf %[[Y]], %[[Y]] : tensor<?xf32>
// CHECK:         %[[Y3:.*]] = arith.mulf %[[Y2]], %[[Y]] : tensor<?xf32>
// CHECK:         %[[C:.*]] = arith.constant -5.000000e-01 : f32
// CHECK:         %[[N:.*]] = tensor.dim %[[Y]], %{{.*}} : tensor<?xf32>
// CHECK:         %[[E:.*]] = tensor.empty(%[[N]]) : tensor<?xf32>
// CHECK:         %[[F:.*]] = linalg.fill ins(%[[C]] : f32) outs(%[[E]] : tensor<?xf32>)
// CHECK:         arith.mulf %[[F]], %[[Y3]] : tensor<?xf32>
func.func @dynamic(%x: tensor<?xf32>) -> tensor<f32> {
  %y = math.rsqrt %x : tensor<?xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %l = linalg.reduce { arith.addf } ins(%y : tensor<?xf32>) outs(%i : tensor<f32>) dimensions = [0]
  return %l : tensor<f32>
}
