// amp-lower-to-llvm's fuse= option: off by default, where
// amp-cpu-fuse-elementwise runs with unscale-only (it fuses only the
// unscale split off the fused check, and this layer has none: the bias add
// and the ReLU stay two generics); with fuse=true they become one generic.
// RUN: amp-opt %s --amp-lower-to-llvm="threads=1" --mlir-print-ir-after=amp-cpu-fuse-elementwise -o /dev/null 2>&1 | FileCheck %s --check-prefix=OFF
// RUN: amp-opt %s --amp-lower-to-llvm="threads=1 fuse=true" --mlir-print-ir-after=amp-cpu-fuse-elementwise -o /dev/null 2>&1 | FileCheck %s --check-prefix=ON

// OFF:      IR Dump After CPUFuseElementwise
// OFF:      linalg.generic
// OFF:        arith.addf
// OFF-NEXT:   linalg.yield
// OFF:      linalg.generic
// OFF:        arith.maximumf
// OFF:      return
// ON:      IR Dump After CPUFuseElementwise
// ON:      linalg.generic
// ON:        arith.addf
// ON-NEXT:   arith.maximumf
// ON-NOT:  linalg.generic
// ON:      return
#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (j)>
func.func @layer(%x: tensor<4x8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %s = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %b : tensor<4x8xf32>, tensor<8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%v: f32, %w: f32, %o: f32):
    %a = arith.addf %v, %w : f32
    linalg.yield %a : f32
  } -> tensor<4x8xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %m = arith.maximumf %v, %z : f32
    linalg.yield %m : f32
  } -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}
