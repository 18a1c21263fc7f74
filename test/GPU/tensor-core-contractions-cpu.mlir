// The warp tiling of amp-gpu-tensor-core-contractions runs on the CPU
// (launch=false: the same 16 x 16 A, 16 x 8 B fragment reads and m16n8k16
// vector.contracts, in an scf.parallel over the warp tiles instead of a
// gpu.launch) and matches a plain triple loop exactly on the three forms of
// the step's contractions: forward (32 x 32 tiles), weight gradient A^T * B
// (16 x 8 tiles), input gradient A * B^T (32 x 32 tiles), with f16 and with
// bf16 operands. Operands are small integers, so every sum is exact and the
// largest difference must be 0.
// Per case: sum of the tiled result, sum of the reference, max |difference|.
// RUN: amp-opt %s --amp-gpu-tensor-core-contractions=launch=false \
// RUN:   --convert-linalg-to-loops --convert-vector-to-scf --lower-affine \
// RUN:   --convert-scf-to-cf --convert-vector-to-llvm=vector-contract-lowering=outerproduct \
// RUN:   --convert-math-to-llvm --expand-strided-metadata --lower-affine \
// RUN:   --finalize-memref-to-llvm --convert-func-to-llvm --convert-arith-to-llvm \
// RUN:   --convert-index-to-llvm --convert-cf-to-llvm --convert-ub-to-llvm \
// RUN:   --reconcile-unrealized-casts \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so | FileCheck %s
// The same with bf16 operands (the f16 of this file spelled bf16).
// RUN: sed 's/f16/bf16/g' %s | amp-opt --amp-gpu-tensor-core-contractions=launch=false \
// RUN:   --convert-linalg-to-loops --convert-vector-to-scf --lower-affine \
// RUN:   --convert-scf-to-cf --convert-vector-to-llvm=vector-contract-lowering=outerproduct \
// RUN:   --convert-math-to-llvm --expand-strided-metadata --lower-affine \
// RUN:   --finalize-memref-to-llvm --convert-func-to-llvm --convert-arith-to-llvm \
// RUN:   --convert-index-to-llvm --convert-cf-to-llvm --convert-ub-to-llvm \
// RUN:   --reconcile-unrealized-casts \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so | FileCheck %s
// RUN: sed 's/f16/bf16/g' %s | amp-opt --amp-gpu-tensor-core-contractions=launch=false | FileCheck %s --check-prefix=TILED
// The pass matched all three (and not the f32 reference loops).
// RUN: amp-opt %s --amp-gpu-tensor-core-contractions=launch=false | FileCheck %s --check-prefix=TILED
// TILED-COUNT-3: scf.parallel
// TILED-NOT: scf.parallel

// CHECK:      {{^}}[[NN:-?[0-9]+]]{{$}}
// CHECK-NEXT: {{^}}[[NN]]{{$}}
// CHECK-NEXT: {{^}}0{{$}}
// CHECK-NEXT: {{^}}[[TN:-?[0-9]+]]{{$}}
// CHECK-NEXT: {{^}}[[TN]]{{$}}
// CHECK-NEXT: {{^}}0{{$}}
// CHECK-NEXT: {{^}}[[NT:-?[0-9]+]]{{$}}
// CHECK-NEXT: {{^}}[[NT]]{{$}}
// CHECK-NEXT: {{^}}0{{$}}

#id = affine_map<(i, j) -> (i, j)>
#nn_a = affine_map<(i, j, k) -> (i, k)>
#nn_b = affine_map<(i, j, k) -> (k, j)>
#tn_a = affine_map<(i, j, k) -> (k, i)>
#nt_b = affine_map<(i, j, k) -> (j, k)>
#c = affine_map<(i, j, k) -> (i, j)>

// Small integers ((3i + 7j + seed) mod 11) - 5: every product and sum is
// exact in f32, so any summation order gives the same bits.
func.func @fill16(%m: memref<?x?xf16>, %seed: index) {
  %c11 = arith.constant 11 : index
  %c5 = arith.constant 5 : index
  linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]} outs(%m : memref<?x?xf16>) {
  ^bb0(%o: f16):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c3 = arith.constant 3 : index
    %c7 = arith.constant 7 : index
    %a = arith.muli %i, %c3 : index
    %b = arith.muli %j, %c7 : index
    %s = arith.addi %a, %b : index
    %t = arith.addi %s, %seed : index
    %r = arith.remui %t, %c11 : index
    %v = arith.subi %r, %c5 : index
    %vi = arith.index_cast %v : index to i32
    %vf = arith.sitofp %vi : i32 to f16
    linalg.yield %vf : f16
  }
  return
}

func.func @to32(%src: memref<?x?xf16>, %dst: memref<?x?xf32>) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%src : memref<?x?xf16>) outs(%dst : memref<?x?xf32>) {
  ^bb0(%x: f16, %o: f32):
    %e = arith.extf %x : f16 to f32
    linalg.yield %e : f32
  }
  return
}

// Prints the sum of the tiled result, the sum of the reference and the
// largest |tiled - reference|.
func.func @report(%got: memref<?x?xf32>, %want: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %m = memref.dim %got, %c0 : memref<?x?xf32>
  %n = memref.dim %got, %c1 : memref<?x?xf32>
  %r:3 = scf.for %i = %c0 to %m step %c1 iter_args(%s0 = %zero, %s1 = %zero, %d0 = %zero) -> (f32, f32, f32) {
    %q:3 = scf.for %j = %c0 to %n step %c1 iter_args(%t0 = %s0, %t1 = %s1, %e0 = %d0) -> (f32, f32, f32) {
      %g = memref.load %got[%i, %j] : memref<?x?xf32>
      %w = memref.load %want[%i, %j] : memref<?x?xf32>
      %u0 = arith.addf %t0, %g : f32
      %u1 = arith.addf %t1, %w : f32
      %df = arith.subf %g, %w : f32
      %ad = math.absf %df : f32
      %e1 = arith.maximumf %e0, %ad : f32
      scf.yield %u0, %u1, %e1 : f32, f32, f32
    }
    scf.yield %q#0, %q#1, %q#2 : f32, f32, f32
  }
  vector.print %r#0 : f32
  vector.print %r#1 : f32
  vector.print %r#2 : f32
  return
}

// C += A * B (A: MxK, B: KxN), the form of a forward matmul.
func.func @nn(%a: memref<32x48xf16>, %b: memref<48x16xf16>, %c: memref<32x16xf32>) {
  linalg.generic {indexing_maps = [#nn_a, #nn_b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%a, %b : memref<32x48xf16>, memref<48x16xf16>) outs(%c : memref<32x16xf32>) {
  ^bb0(%x: f16, %y: f16, %o: f32):
    %0 = arith.extf %y : f16 to f32
    %1 = arith.extf %x : f16 to f32
    %2 = arith.mulf %1, %0 : f32
    %3 = arith.addf %o, %2 : f32
    linalg.yield %3 : f32
  }
  return
}

// C += A^T * B (A: KxM), a weight gradient; 16 x 8 warp tiles.
func.func @tn(%a: memref<32x48xf16>, %b: memref<32x24xf16>, %c: memref<48x24xf32>) {
  linalg.generic {indexing_maps = [#tn_a, #nn_b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%a, %b : memref<32x48xf16>, memref<32x24xf16>) outs(%c : memref<48x24xf32>) {
  ^bb0(%x: f16, %y: f16, %o: f32):
    %0 = arith.extf %x : f16 to f32
    %1 = arith.extf %y : f16 to f32
    %2 = arith.mulf %0, %1 : f32
    %3 = arith.addf %2, %o : f32
    linalg.yield %3 : f32
  }
  return
}

// C += A * B^T (B: NxK), an input gradient; 32 x 32 warp tiles.
func.func @nt(%a: memref<64x16xf16>, %b: memref<64x16xf16>, %c: memref<64x64xf32>) {
  linalg.generic {indexing_maps = [#nn_a, #nt_b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%a, %b : memref<64x16xf16>, memref<64x16xf16>) outs(%c : memref<64x64xf32>) {
  ^bb0(%x: f16, %y: f16, %o: f32):
    %0 = arith.extf %x : f16 to f32
    %1 = arith.extf %y : f16 to f32
    %2 = arith.mulf %0, %1 : f32
    %3 = arith.addf %o, %2 : f32
    linalg.yield %3 : f32
  }
  return
}

// The same three contractions on f32 copies of the operands: not f16, so the
// pass leaves them alone; they are the reference.
func.func @ref(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>, %ta: i1, %tb: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %c, %c0 : memref<?x?xf32>
  %n = memref.dim %c, %c1 : memref<?x?xf32>
  %ka = arith.select %ta, %c0, %c1 : index
  %k = memref.dim %a, %ka : memref<?x?xf32>
  scf.for %i = %c0 to %m step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      scf.for %l = %c0 to %k step %c1 {
        %x = scf.if %ta -> f32 {
          %v = memref.load %a[%l, %i] : memref<?x?xf32>
          scf.yield %v : f32
        } else {
          %v = memref.load %a[%i, %l] : memref<?x?xf32>
          scf.yield %v : f32
        }
        %y = scf.if %tb -> f32 {
          %v = memref.load %b[%j, %l] : memref<?x?xf32>
          scf.yield %v : f32
        } else {
          %v = memref.load %b[%l, %j] : memref<?x?xf32>
          scf.yield %v : f32
        }
        %o = memref.load %c[%i, %j] : memref<?x?xf32>
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %o, %p : f32
        memref.store %s, %c[%i, %j] : memref<?x?xf32>
      }
    }
  }
  return
}

// Operands, a non-zero initial C (the contraction accumulates onto it), the
// tiled contraction, the reference, the report.
func.func @check(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>, %ta: i1, %tb: i1, %which: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c5 = arith.constant 5 : index
  %c9 = arith.constant 9 : index
  func.call @fill16(%a, %c2) : (memref<?x?xf16>, index) -> ()
  func.call @fill16(%b, %c5) : (memref<?x?xf16>, index) -> ()
  func.call @fill16(%c, %c9) : (memref<?x?xf16>, index) -> ()
  %am = memref.dim %a, %c0 : memref<?x?xf16>
  %ak = memref.dim %a, %c1 : memref<?x?xf16>
  %bk = memref.dim %b, %c0 : memref<?x?xf16>
  %bn = memref.dim %b, %c1 : memref<?x?xf16>
  %cm = memref.dim %c, %c0 : memref<?x?xf16>
  %cn = memref.dim %c, %c1 : memref<?x?xf16>
  %a32 = memref.alloc(%am, %ak) : memref<?x?xf32>
  %b32 = memref.alloc(%bk, %bn) : memref<?x?xf32>
  %got = memref.alloc(%cm, %cn) : memref<?x?xf32>
  %want = memref.alloc(%cm, %cn) : memref<?x?xf32>
  func.call @to32(%a, %a32) : (memref<?x?xf16>, memref<?x?xf32>) -> ()
  func.call @to32(%b, %b32) : (memref<?x?xf16>, memref<?x?xf32>) -> ()
  func.call @to32(%c, %got) : (memref<?x?xf16>, memref<?x?xf32>) -> ()
  func.call @to32(%c, %want) : (memref<?x?xf16>, memref<?x?xf32>) -> ()
  scf.index_switch %which
  case 0 {
    %sa = memref.cast %a : memref<?x?xf16> to memref<32x48xf16>
    %sb = memref.cast %b : memref<?x?xf16> to memref<48x16xf16>
    %sc = memref.cast %got : memref<?x?xf32> to memref<32x16xf32>
    func.call @nn(%sa, %sb, %sc) : (memref<32x48xf16>, memref<48x16xf16>, memref<32x16xf32>) -> ()
    scf.yield
  }
  case 1 {
    %sa = memref.cast %a : memref<?x?xf16> to memref<32x48xf16>
    %sb = memref.cast %b : memref<?x?xf16> to memref<32x24xf16>
    %sc = memref.cast %got : memref<?x?xf32> to memref<48x24xf32>
    func.call @tn(%sa, %sb, %sc) : (memref<32x48xf16>, memref<32x24xf16>, memref<48x24xf32>) -> ()
    scf.yield
  }
  default {
    %sa = memref.cast %a : memref<?x?xf16> to memref<64x16xf16>
    %sb = memref.cast %b : memref<?x?xf16> to memref<64x16xf16>
    %sc = memref.cast %got : memref<?x?xf32> to memref<64x64xf32>
    func.call @nt(%sa, %sb, %sc) : (memref<64x16xf16>, memref<64x16xf16>, memref<64x64xf32>) -> ()
    scf.yield
  }
  func.call @ref(%a32, %b32, %want, %ta, %tb) : (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, i1, i1) -> ()
  func.call @report(%got, %want) : (memref<?x?xf32>, memref<?x?xf32>) -> ()
  return
}

func.func @main() {
  %f = arith.constant false
  %t = arith.constant true
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %a0 = memref.alloc() : memref<32x48xf16>
  %b0 = memref.alloc() : memref<48x16xf16>
  %k0 = memref.alloc() : memref<32x16xf16>
  %a0d = memref.cast %a0 : memref<32x48xf16> to memref<?x?xf16>
  %b0d = memref.cast %b0 : memref<48x16xf16> to memref<?x?xf16>
  %k0d = memref.cast %k0 : memref<32x16xf16> to memref<?x?xf16>
  func.call @check(%a0d, %b0d, %k0d, %f, %f, %c0) : (memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf16>, i1, i1, index) -> ()
  %a1 = memref.alloc() : memref<32x48xf16>
  %b1 = memref.alloc() : memref<32x24xf16>
  %k1 = memref.alloc() : memref<48x24xf16>
  %a1d = memref.cast %a1 : memref<32x48xf16> to memref<?x?xf16>
  %b1d = memref.cast %b1 : memref<32x24xf16> to memref<?x?xf16>
  %k1d = memref.cast %k1 : memref<48x24xf16> to memref<?x?xf16>
  func.call @check(%a1d, %b1d, %k1d, %t, %f, %c1) : (memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf16>, i1, i1, index) -> ()
  %a2 = memref.alloc() : memref<64x16xf16>
  %b2 = memref.alloc() : memref<64x16xf16>
  %k2 = memref.alloc() : memref<64x64xf16>
  %a2d = memref.cast %a2 : memref<64x16xf16> to memref<?x?xf16>
  %b2d = memref.cast %b2 : memref<64x16xf16> to memref<?x?xf16>
  %k2d = memref.cast %k2 : memref<64x64xf16> to memref<?x?xf16>
  func.call @check(%a2d, %b2d, %k2d, %f, %t, %c2) : (memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf16>, i1, i1, index) -> ()
  return
}
