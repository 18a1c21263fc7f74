// The data-movement rules of the tensor dialect: each cotangent is the
// inverse movement of the result's cotangent.
// RUN: amp-opt %s -split-input-file -amp-differentiate | FileCheck %s

// pad: the source gets the interior.
// CHECK-LABEL: func.func @pad_grad(
// CHECK:         %[[DX:.*]] = tensor.extract_slice %{{.*}}[1, 0] [2, 3] [1, 1] : tensor<5x4xf32> to tensor<2x3xf32>
// CHECK:         return %{{.*}}, %[[DX]]
func.func @pad(%x: tensor<2x3xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[1, 0] high[2, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f32
  } : tensor<2x3xf32> to tensor<5x4xf32>
  %sq = arith.mulf %p, %p : tensor<5x4xf32>
  %e = tensor.empty() : tensor<f32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %l = linalg.reduce { arith.addf } ins(%sq : tensor<5x4xf32>) outs(%i : tensor<f32>) dimensions = [0, 1]
  return %l : tensor<f32>
}

// -----

// insert_slice: the source gets the slice, the destination the rest (the
// slice zeroed); a (strided, rank-reducing) extract_slice puts its
// cotangent back into zeros.
// CHECK-LABEL: func.func @slices_grad(
// CHECK:         %[[DS:.*]] = tensor.extract_slice %[[DY:.*]][2, 0] [1, 3] [1, 1] : tensor<3x3xf32> to tensor<3xf32>
// CHECK:         %[[Z3:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<3xf32>)
// CHECK:         %[[DD:.*]] = tensor.insert_slice %[[Z3]] into %[[DY]][2, 0] [1, 3] [1, 1] : tensor<3xf32> into tensor<3x3xf32>
// CHECK:         %[[Z:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<4x6xf32>)
// CHECK:         %[[DX:.*]] = tensor.insert_slice %[[DS]] into %[[Z]][1, 0] [1, 3] [1, 2] : tensor<3xf32> into tensor<4x6xf32>
// CHECK:         return %{{.*}}, %[[DX]], %[[DD]]
func.func @slices(%x: tensor<4x6xf32>, %d: tensor<3x3xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %s = tensor.extract_slice %x[1, 0] [1, 3] [1, 2] : tensor<4x6xf32> to tensor<3xf32>
  %y = tensor.insert_slice %s into %d[2, 0] [1, 3] [1, 1] : tensor<3xf32> into tensor<3x3xf32>
  %sq = arith.mulf %y, %y : tensor<3x3xf32>
  %e = tensor.empty() : tensor<f32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %l = linalg.reduce { arith.addf } ins(%sq : tensor<3x3xf32>) outs(%i : tensor<f32>) dimensions = [0, 1]
  return %l : tensor<f32>
}

// -----

// concat: slices of the cotangent (the second at the first's dynamic
// size); cast, expand_shape and collapse_shape undone in reverse order.
// CHECK-LABEL: func.func @reshapes_grad(
// CHECK-SAME:      %{{[^:]+}}: tensor<2x3xf32>, %[[Z:[^:]+]]: tensor<?x6xf32>)
// CHECK:         %[[D0:.*]] = tensor.extract_slice %[[DY:.*]][0, 0] [%{{.*}}, 6] [1, 1] : tensor<?x6xf32> to tensor<?x6xf32>
// CHECK:         %[[N:.*]] = tensor.dim %[[Z]], %{{.*}} : tensor<?x6xf32>
// CHECK:         %[[DZ:.*]] = tensor.extract_slice %[[DY]][1, 0] [%[[N]], 6] [1, 1] : tensor<?x6xf32> to tensor<?x6xf32>
// CHECK:         %[[DE:.*]] = tensor.cast %[[D0]] : tensor<?x6xf32> to tensor<1x6xf32>
// CHECK:         %[[DC:.*]] = tensor.collapse_shape %[[DE]] {{\[\[}}0, 1]] : tensor<1x6xf32> into tensor<6xf32>
// CHECK:         %[[DX:.*]] = tensor.expand_shape %[[DC]] {{\[\[}}0, 1]] output_shape [2, 3] : tensor<6xf32> into tensor<2x3xf32>
// CHECK:         return %{{.*}}, %[[DX]], %[[DZ]]
func.func @reshapes(%x: tensor<2x3xf32>, %z: tensor<?x6xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %c = tensor.collapse_shape %x [[0, 1]] : tensor<2x3xf32> into tensor<6xf32>
  %e1 = tensor.expand_shape %c [[0, 1]] output_shape [1, 6] : tensor<6xf32> into tensor<1x6xf32>
  %d = tensor.cast %e1 : tensor<1x6xf32> to tensor<?x6xf32>
  %y = tensor.concat dim(0) %d, %z : (tensor<?x6xf32>, tensor<?x6xf32>) -> tensor<?x6xf32>
  %sq = arith.mulf %y, %y : tensor<?x6xf32>
  %e = tensor.empty() : tensor<f32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %l = linalg.reduce { arith.addf } ins(%sq : tensor<?x6xf32>) outs(%i : tensor<f32>) dimensions = [0, 1]
  return %l : tensor<f32>
}

// -----

// splat: the scalar gets the sum; from_elements: its element; extract:
// the scalar's cotangent inserted into zeros.
// CHECK-LABEL: func.func @scalars_grad(
// CHECK:         %[[SEED:.*]] = arith.constant dense<1.000000e+00> : tensor<f32>
// CHECK:         %[[FE:.*]] = tensor.extract %[[SEED]][] : tensor<f32>
// CHECK:         %[[SUM:.*]] = linalg.generic {{.*}}iterator_types = ["reduction"]
// CHECK:         %[[SP:.*]] = tensor.extract %[[SUM]][] : tensor<f32>
// CHECK:         %[[DP:.*]] = arith.addf %[[FE]], %[[SP]] : f32
// CHECK:         %[[DA:.*]] = arith.mulf %[[DP]], %{{.*}} : f32
// CHECK:         %[[DX:.*]] = tensor.insert %[[DA]] into %{{.*}}[%{{.*}}] : tensor<2xf32>
// CHECK:         return %{{.*}}, %[[DX]]
func.func @scalars(%x: tensor<2xf32>, %s: f32) -> tensor<f32> {
  %c1 = arith.constant 1 : index
  %a = tensor.extract %x[%c1] : tensor<2xf32>
  %p = arith.mulf %a, %s : f32
  %sp = tensor.splat %p : tensor<3xf32>
  %fe = tensor.from_elements %p : tensor<f32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %l = linalg.reduce { arith.addf } ins(%sp : tensor<3xf32>) outs(%fe : tensor<f32>) dimensions = [0]
  return %l : tensor<f32>
}
