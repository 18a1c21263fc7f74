// amp-lower-to-llvm bf16-dot=true: a bf16 x bf16 -> f32 contraction ends
// as AVX512_BF16's vdpbf16ps (LLVM's llvm.x86.avx512bf16.dpbf16ps.512
// intrinsic), lowered from x86vector.avx512.dot; by default (bf16-dot=false,
// code for any x86-64 CPU) it is the FMA kernel on widened operands.
// amp-run and the JIT decide from the host (JitModule::compile).
// RUN: amp-opt %s --amp-lower-to-llvm="bf16-dot=true threads=1" | FileCheck %s --check-prefix=DOT
// RUN: amp-opt %s --amp-lower-to-llvm="threads=1" | FileCheck %s --check-prefix=FMA
// DOT-LABEL: llvm.func @matmul
// DOT:       llvm.call_intrinsic "llvm.x86.avx512bf16.dpbf16ps.512"({{.*}}) : (vector<16xf32>, vector<32xbf16>, vector<32xbf16>) -> vector<16xf32>
// FMA-LABEL: llvm.func @matmul
// FMA-NOT:   dpbf16ps
// FMA:       llvm.intr.fmuladd
// FMA-NOT:   dpbf16ps

#a = affine_map<(i, j, k) -> (i, k)>
#b = affine_map<(i, j, k) -> (k, j)>
#c = affine_map<(i, j, k) -> (i, j)>
func.func @matmul(%x: tensor<64x96xbf16>, %w: tensor<96x80xbf16>) -> tensor<64x80xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x80xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<64x80xf32>) -> tensor<64x80xf32>
  %y = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<64x96xbf16>, tensor<96x80xbf16>) outs(%init : tensor<64x80xf32>) {
  ^bb0(%p: bf16, %q: bf16, %acc: f32):
    %pe = arith.extf %p : bf16 to f32
    %qe = arith.extf %q : bf16 to f32
    %m = arith.mulf %pe, %qe : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<64x80xf32>
  return %y : tensor<64x80xf32>
}
