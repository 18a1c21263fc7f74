// Upstream mlir-opt runs amp-differentiate from the plugin: the pass plugin
// registers the pass, the dialect plugin the adjoint rules.
// RUN: mlir-opt --load-dialect-plugin=%amp_plugin --load-pass-plugin=%amp_plugin \
// RUN:   --pass-pipeline="builtin.module(amp-differentiate{function=loss})" %s | FileCheck %s

// CHECK-LABEL: func.func @loss_grad(
// CHECK-SAME:      %[[X:[^:]+]]: tensor<3xf32>) -> (tensor<f32>, tensor<3xf32>)
// CHECK:         %[[E:.*]] = math.exp %[[X]] : tensor<3xf32>
// CHECK:         %[[DX:.*]] = arith.mulf %{{.*}}, %[[E]] : tensor<3xf32>
// CHECK:         return %{{.*}}, %[[DX]]
func.func @loss(%x: tensor<3xf32>) -> tensor<f32> {
  %e = math.exp %x : tensor<3xf32>
  %zero = arith.constant 0.0 : f32
  %t = tensor.empty() : tensor<f32>
  %i = linalg.fill ins(%zero : f32) outs(%t : tensor<f32>) -> tensor<f32>
  %l = linalg.reduce { arith.addf } ins(%e : tensor<3xf32>) outs(%i : tensor<f32>) dimensions = [0]
  return %l : tensor<f32>
}
