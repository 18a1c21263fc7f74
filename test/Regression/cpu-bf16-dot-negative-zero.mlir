// Regression (found by a break-it pass over amp-cpu-tile-contractions
// bf16-dot): with an odd k the AVX512_BF16 kernel pads the last pair of k,
// and a +0.0 * +0.0 pad product turned a -0.0 sum into +0.0, where the FMA
// kernel (and IEEE) keep -0.0. A's pad is now -0.0: its product is -0.0,
// which leaves every sum as it is. C = -0.0 plus 0.0 * -1.0 (k = 1) must
// stay -0.0 (bits 0x80000000) on both kernels.
// REQUIRES: avx512bf16
// DEFINE: %{lower} = --convert-linalg-to-loops --convert-scf-to-cf \
// DEFINE:   --convert-vector-to-llvm=enable-x86vector --convert-math-to-llvm \
// DEFINE:   --expand-strided-metadata --lower-affine --finalize-memref-to-llvm \
// DEFINE:   --convert-func-to-llvm --convert-arith-to-llvm --convert-index-to-llvm \
// DEFINE:   --convert-cf-to-llvm --convert-ub-to-llvm --reconcile-unrealized-casts
// DEFINE: %{run} = mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so
// RUN: amp-opt %s --amp-cpu-tile-contractions=bf16-dot=true %{lower} | %{run} | FileCheck %s
// RUN: amp-opt %s --amp-cpu-tile-contractions=bf16-dot=false %{lower} | %{run} | FileCheck %s
// CHECK: -0
// CHECK-NEXT: -2147483648
func.func @kern(%a: memref<1x1xbf16>, %b: memref<1x1xbf16>, %c: memref<1x1xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%a, %b : memref<1x1xbf16>, memref<1x1xbf16>) outs(%c : memref<1x1xf32>) {
  ^bb0(%x: bf16, %y: bf16, %o: f32):
    %0 = arith.extf %x : bf16 to f32
    %1 = arith.extf %y : bf16 to f32
    %2 = arith.mulf %0, %1 : f32
    %3 = arith.addf %o, %2 : f32
    linalg.yield %3 : f32
  }
  return
}
func.func @main() {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<1x1xbf16>
  %b = memref.alloc() : memref<1x1xbf16>
  %c = memref.alloc() : memref<1x1xf32>
  %z = arith.constant 0.0 : bf16
  %m1 = arith.constant -1.0 : bf16
  %nz = arith.constant -0.0 : f32
  memref.store %z, %a[%c0, %c0] : memref<1x1xbf16>
  memref.store %m1, %b[%c0, %c0] : memref<1x1xbf16>
  memref.store %nz, %c[%c0, %c0] : memref<1x1xf32>
  func.call @kern(%a, %b, %c) : (memref<1x1xbf16>, memref<1x1xbf16>, memref<1x1xf32>) -> ()
  %r = memref.load %c[%c0, %c0] : memref<1x1xf32>
  %bits = arith.bitcast %r : f32 to i32
  vector.print %r : f32
  vector.print %bits : i32
  return
}
