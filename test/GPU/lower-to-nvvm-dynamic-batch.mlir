// A step with a dynamic batch and amp-lower-to-nvvm's default
// kernel-bare-pointers=true: refused at the function, saying what to do
// (upstream's conversion failed with "failed to legalize operation
// 'gpu.func'" before); with kernel-bare-pointers=false it lowers.
// RUN: amp-opt %s --amp-build-train-step="loss=mse" -o %t.mlir
// RUN: not amp-opt %t.mlir --amp-mixed-precision --amp-lower-to-nvvm="chip=sm_90 format=isa" -o /dev/null 2>&1 | FileCheck %s
// CHECK: error: amp-lower-to-nvvm: argument #2 of @train_step has the dynamic shape 'tensor<?x4xf32>', and kernel-bare-pointers=true (the default) passes memrefs to kernels as bare pointers, which needs static shapes; pass kernel-bare-pointers=false (amp-run --device=cuda does so by itself)
// CHECK-NOT: failed to legalize
// RUN: amp-opt %t.mlir --amp-mixed-precision --amp-lower-to-nvvm="chip=sm_90 format=isa kernel-bare-pointers=false" -o /dev/null

func.func @forward(%arg0: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %c0 = arith.constant 0 : index
  %cst = arith.constant dense<[0.5, -0.25, 0.75, 1.0]> : tensor<4xf32>
  %dim = tensor.dim %arg0, %c0 : tensor<?x4xf32>
  %0 = tensor.empty(%dim) : tensor<?x4xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%arg0, %cst : tensor<?x4xf32>, tensor<4xf32>) outs(%0 : tensor<?x4xf32>) {
  ^bb0(%in: f32, %w: f32, %out: f32):
    %m = arith.mulf %in, %w : f32
    linalg.yield %m : f32
  } -> tensor<?x4xf32>
  return %1 : tensor<?x4xf32>
}
