// func and scf: a call is inlined into @f_grad (the callee stays), scf.for
// with a constant trip count is unrolled there, scf.if gets a backward
// scf.if on the same condition whose branch recomputes its forward branch,
// and cf.assert stays in the forward.
// RUN: amp-opt %s -split-input-file -amp-differentiate | FileCheck %s

// CHECK-LABEL: func.func private @square(
// CHECK-LABEL: func.func @call(
// CHECK:         call @square
// CHECK-LABEL: func.func @call_grad(
// CHECK-SAME:      %[[X:[^:]+]]: tensor<2xf32>)
// CHECK-NOT:     call @
// CHECK:         %[[Y:.*]] = arith.mulf %[[X]], %[[X]] : tensor<2xf32>
// CHECK:         linalg.reduce {{.*}} ins(%[[Y]]
// CHECK:         arith.mulf %{{.*}}, %[[X]] : tensor<2xf32>
// CHECK:         arith.mulf %[[X]], %{{.*}} : tensor<2xf32>
func.func private @square(%x: tensor<2xf32>) -> tensor<2xf32> {
  %y = arith.mulf %x, %x : tensor<2xf32>
  return %y : tensor<2xf32>
}
func.func @call(%x: tensor<2xf32>) -> tensor<f32> {
  %y = func.call @square(%x) : (tensor<2xf32>) -> tensor<2xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %l = linalg.reduce { arith.addf } ins(%y : tensor<2xf32>) outs(%i : tensor<f32>) dimensions = [0]
  return %l : tensor<f32>
}

// -----

// Two iterations of h = h * w: both products are kept, the cotangents of w
// from both iterations are summed once.
// CHECK-LABEL: func.func @loop_grad(
// CHECK-SAME:      %[[X:[^:]+]]: tensor<2xf32>, %[[W:[^:]+]]: tensor<2xf32>)
// CHECK-NOT:     scf.for
// CHECK:         %[[H1:.*]] = arith.mulf %[[X]], %[[W]] : tensor<2xf32>
// CHECK:         %[[H2:.*]] = arith.mulf %[[H1]], %[[W]] : tensor<2xf32>
// CHECK:         linalg.reduce {{.*}} ins(%[[H2]]
// CHECK:         %[[DH1:.*]] = arith.mulf %[[DH2:.*]], %[[W]] : tensor<2xf32>
// CHECK:         %[[DW2:.*]] = arith.mulf %[[H1]], %[[DH2]] : tensor<2xf32>
// CHECK:         %[[DX:.*]] = arith.mulf %[[DH1]], %[[W]] : tensor<2xf32>
// CHECK:         %[[DW1:.*]] = arith.mulf %[[X]], %[[DH1]] : tensor<2xf32>
// CHECK:         %[[DW:.*]] = linalg.generic {{.*}} ins(%[[DW2]], %[[DW1]] :
// CHECK:         return %{{.*}}, %[[DX]], %[[DW]]
func.func @loop(%x: tensor<2xf32>, %w: tensor<2xf32>) -> tensor<f32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %y = scf.for %k = %c0 to %c2 step %c1 iter_args(%h = %x) -> (tensor<2xf32>) {
    %m = arith.mulf %h, %w : tensor<2xf32>
    scf.yield %m : tensor<2xf32>
  }
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %l = linalg.reduce { arith.addf } ins(%y : tensor<2xf32>) outs(%i : tensor<f32>) dimensions = [0]
  return %l : tensor<f32>
}

// -----

// CHECK-LABEL: func.func @branch_grad(
// CHECK-SAME:      %[[X:[^:]+]]: tensor<2xf32>, %[[C:[^:]+]]: i1)
// CHECK:         %[[DY:.*]] = linalg.generic
// CHECK:         %[[DX:.*]] = scf.if %[[C]] -> (tensor<2xf32>) {
// CHECK:           %[[E:.*]] = math.exp %[[X]] : tensor<2xf32>
// CHECK:           %[[D:.*]] = arith.mulf %[[DY]], %[[E]] : tensor<2xf32>
// CHECK:           scf.yield %[[D]] : tensor<2xf32>
// CHECK:         } else {
// CHECK:           scf.yield %[[DY]] : tensor<2xf32>
// CHECK:         }
// CHECK:         return %{{.*}}, %[[DX]]
func.func @branch(%x: tensor<2xf32>, %c: i1) -> tensor<f32> {
  %y = scf.if %c -> (tensor<2xf32>) {
    %e = math.exp %x : tensor<2xf32>
    scf.yield %e : tensor<2xf32>
  } else {
    scf.yield %x : tensor<2xf32>
  }
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %l = linalg.reduce { arith.addf } ins(%y : tensor<2xf32>) outs(%i : tensor<f32>) dimensions = [0]
  return %l : tensor<f32>
}

// -----

// CHECK-LABEL: func.func @assert_grad(
// CHECK:         cf.assert %{{.*}}, "inputs checked"
// CHECK:         arith.mulf
func.func @assert(%x: tensor<2xf32>, %ok: i1) -> tensor<f32> {
  cf.assert %ok, "inputs checked"
  %y = arith.mulf %x, %x : tensor<2xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %l = linalg.reduce { arith.addf } ins(%y : tensor<2xf32>) outs(%i : tensor<f32>) dimensions = [0]
  return %l : tensor<f32>
}
