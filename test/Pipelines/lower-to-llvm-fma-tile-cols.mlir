// amp-lower-to-llvm fma-tile-cols: the FMA micro-kernel's columns of C per
// tile (amp-cpu-tile-contractions tile-cols). 16 by default (twelve 8-wide
// accumulators on AVX2); 32 gives each of the 6 rows two 16-lane vectors,
// what AVX-512's 32 registers hold. amp-run and the JIT pick 32 on a host
// with AVX-512F (JitModule::compile). Either way each element of C adds
// its products in the same order (cpu-tile-contractions-exec.mlir runs
// both widths against a plain loop).
// RUN: amp-opt %s --amp-lower-to-llvm="threads=1" | FileCheck %s --check-prefix=NR16
// RUN: amp-opt %s --amp-lower-to-llvm="threads=1 fma-tile-cols=32" | FileCheck %s --check-prefix=NR32
// RUN: not amp-opt %s --amp-lower-to-llvm="threads=1 fma-tile-cols=0" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD
// NR16-LABEL: llvm.func @matmul
// NR16:       llvm.intr.fmuladd({{.*}}) : (vector<16xf32>, vector<16xf32>, vector<16xf32>) -> vector<16xf32>
// NR16-NOT:   vector<32xf32>
// NR32-LABEL: llvm.func @matmul
// NR32:       llvm.intr.fmuladd({{.*}}) : (vector<32xf32>, vector<32xf32>, vector<32xf32>) -> vector<32xf32>
// BAD: error: amp-cpu-tile-contractions: tile-cols (amp-lower-to-llvm's fma-tile-cols) = 0 must be in [1, 256]

#a = affine_map<(i, j, k) -> (i, k)>
#b = affine_map<(i, j, k) -> (k, j)>
#c = affine_map<(i, j, k) -> (i, j)>
func.func @matmul(%x: tensor<64x96xf32>, %w: tensor<96x80xf32>) -> tensor<64x80xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x80xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<64x80xf32>) -> tensor<64x80xf32>
  %y = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<64x96xf32>, tensor<96x80xf32>) outs(%init : tensor<64x80xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<64x80xf32>
  return %y : tensor<64x80xf32>
}
