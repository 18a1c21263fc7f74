// amp-cpu-tile-contractions widens a 16-bit A operand in the op that
// writes it: when the last write of the operand's buffer is an
// all-parallel generic that writes all of it (a ReLU, a residual add, a
// cast), that generic gets one more output, the f32 pack, instead of a
// pass of its own that reads the 16-bit values back. A micro-kernel that
// rounds its result into the operand's buffer stores each rounded vector
// widened into the pack too. The 16-bit output goes when nothing else
// reads it. Contractions that read one view of a buffer (the Q, K and V
// projections of one activation) share one pack.
//
// RUN: amp-opt %s --split-input-file --amp-cpu-tile-contractions | FileCheck %s
// RUN: amp-opt %s --split-input-file --amp-cpu-tile-contractions=writer-distance=5 \
// RUN: | FileCheck %s --check-prefix=FAR
// RUN: amp-opt %s --split-input-file --amp-cpu-tile-contractions=writer-distance=-1 \
// RUN: | FileCheck %s --check-prefix=NEVER
//
// Executed, f16 and bf16: the tiled step prints the values of the plain
// lowering (the generics' loops).
// RUN: sed -n '/^\/\/ EXEC-BEGIN/,$p' %s > %t.mlir
// RUN: amp-opt %t.mlir --amp-cpu-tile-contractions --convert-linalg-to-loops \
// RUN:   --convert-scf-to-cf --arith-expand="include-bf16=true" \
// RUN:   --convert-vector-to-llvm --expand-strided-metadata --lower-affine \
// RUN:   --finalize-memref-to-llvm --convert-func-to-llvm --convert-arith-to-llvm \
// RUN:   --convert-index-to-llvm --convert-cf-to-llvm --convert-ub-to-llvm \
// RUN:   --reconcile-unrealized-casts \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so > %t.tiled
// RUN: amp-opt %t.mlir --convert-linalg-to-loops \
// RUN:   --convert-scf-to-cf --arith-expand="include-bf16=true" \
// RUN:   --convert-vector-to-llvm --expand-strided-metadata --lower-affine \
// RUN:   --finalize-memref-to-llvm --convert-func-to-llvm --convert-arith-to-llvm \
// RUN:   --convert-index-to-llvm --convert-cf-to-llvm --convert-ub-to-llvm \
// RUN:   --reconcile-unrealized-casts \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so > %t.loops
// RUN: FileCheck %s --check-prefix=EXEC < %t.loops
// RUN: diff %t.loops %t.tiled
// RUN: sed 's/f16/bf16/g' %t.mlir | amp-opt --amp-cpu-tile-contractions --convert-linalg-to-loops \
// RUN:   --convert-scf-to-cf --arith-expand="include-bf16=true" \
// RUN:   --convert-vector-to-llvm --expand-strided-metadata --lower-affine \
// RUN:   --finalize-memref-to-llvm --convert-func-to-llvm --convert-arith-to-llvm \
// RUN:   --convert-index-to-llvm --convert-cf-to-llvm --convert-ub-to-llvm \
// RUN:   --reconcile-unrealized-casts \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so > %t.bf16-tiled
// RUN: sed 's/f16/bf16/g' %t.mlir | amp-opt --convert-linalg-to-loops \
// RUN:   --convert-scf-to-cf --arith-expand="include-bf16=true" \
// RUN:   --convert-vector-to-llvm --expand-strided-metadata --lower-affine \
// RUN:   --finalize-memref-to-llvm --convert-func-to-llvm --convert-arith-to-llvm \
// RUN:   --convert-index-to-llvm --convert-cf-to-llvm --convert-ub-to-llvm \
// RUN:   --reconcile-unrealized-casts \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so > %t.bf16-loops
// RUN: FileCheck %s --check-prefix=EXEC < %t.bf16-loops
// RUN: diff %t.bf16-loops %t.bf16-tiled

#a = affine_map<(i, j, k) -> (i, k)>
#b = affine_map<(i, j, k) -> (k, j)>
#c = affine_map<(i, j, k) -> (i, j)>
#id1 = affine_map<(i) -> (i)>

// A ReLU (computed in f32, rounded to f16, as autocast writes it) into
// %h, read through one expand_shape by two contractions: the ReLU also
// writes the f32 pack, both kernels read it, and %h, read by nothing
// else, goes.
// With writer-distance=-1 the ReLU writes %h only, and one pack (shared
// by both contractions) widens it.
// NEVER-LABEL: func.func @relu_then_two_contractions
// NEVER:      %[[H:.*]] = memref.alloc() {alignment = 64 : i64} : memref<104xf16>
// NEVER-NEXT: linalg.generic {{.*}} outs(%[[H]] : memref<104xf16>)
// NEVER:      linalg.generic {{.*}} ins(%{{.*}} : memref<13x8xf16>) outs(%{{.*}} : memref<13x8xf32>)
// NEVER-NOT:  ins(%{{.*}} : memref<13x8xf16>) outs(%{{.*}} : memref<13x8xf32>)
// NEVER:      return
// CHECK-LABEL: func.func @relu_then_two_contractions
// CHECK-SAME: (%[[X:.*]]: memref<104xf16>,
// CHECK-NOT:  memref<104xf16>
// CHECK:      %[[P:.*]] = memref.alloc() {alignment = 64 : i64} : memref<104xf32>
// CHECK-NEXT: linalg.generic {{.*}} ins(%[[X]] : memref<104xf16>) outs(%[[P]] : memref<104xf32>)
// CHECK:        arith.maximumf
// CHECK:        %[[R:.*]] = arith.truncf %{{.*}} : f32 to f16
// CHECK:        %[[E:.*]] = arith.extf %[[R]] : f16 to f32
// CHECK:        linalg.yield %[[E]] : f32
// CHECK:      %[[PV:.*]] = memref.expand_shape %[[P]] {{\[\[}}0, 1]] output_shape [13, 8] : memref<104xf32> into memref<13x8xf32>
// CHECK-NOT:  memref<13x8xf16>
// CHECK-NOT:  memref<104xf16>
// CHECK:      memref.load %[[PV]]
// CHECK-NOT:  memref<13x8xf16>
// CHECK:      memref.load %[[PV]]
// CHECK:      memref.dealloc %[[P]] : memref<104xf32>
// CHECK-NOT:  memref<104xf16>
// CHECK:      return
func.func @relu_then_two_contractions(%x: memref<104xf16>, %w1: memref<8x16xf16>,
                                      %w2: memref<8x16xf16>, %y1: memref<13x16xf32>,
                                      %y2: memref<13x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %h = memref.alloc() {alignment = 64 : i64} : memref<104xf16>
  linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
    ins(%x : memref<104xf16>) outs(%h : memref<104xf16>) {
  ^bb0(%v: f16, %o: f16):
    %e = arith.extf %v : f16 to f32
    %r = arith.maximumf %e, %zero : f32
    %t = arith.truncf %r : f32 to f16
    linalg.yield %t : f16
  }
  %hv = memref.expand_shape %h [[0, 1]] output_shape [13, 8] : memref<104xf16> into memref<13x8xf16>
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%hv, %w1 : memref<13x8xf16>, memref<8x16xf16>) outs(%y1 : memref<13x16xf32>) {
  ^bb0(%p: f16, %q: f16, %o: f32):
    %pe = arith.extf %p : f16 to f32
    %qe = arith.extf %q : f16 to f32
    %m = arith.mulf %pe, %qe : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%hv, %w2 : memref<13x8xf16>, memref<8x16xf16>) outs(%y2 : memref<13x16xf32>) {
  ^bb0(%p: f16, %q: f16, %o: f32):
    %pe = arith.extf %p : f16 to f32
    %qe = arith.extf %q : f16 to f32
    %m = arith.mulf %pe, %qe : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  }
  memref.dealloc %h : memref<104xf16>
  return
}

// -----

#a = affine_map<(i, j, k) -> (i, k)>
#b = affine_map<(i, j, k) -> (k, j)>
#c = affine_map<(i, j, k) -> (i, j)>
#id2 = affine_map<(i, j) -> (i, j)>

// A residual add whose 16-bit output is also read after the contraction
// (copied out): the add writes both, the f16 buffer and the f32 pack.
// CHECK-LABEL: func.func @add_kept
// CHECK:      %[[H:.*]] = memref.alloc() {alignment = 64 : i64} : memref<13x8xf16>
// CHECK:      %[[P:.*]] = memref.alloc() {alignment = 64 : i64} : memref<13x8xf32>
// CHECK-NEXT: linalg.generic {{.*}} outs(%[[H]], %[[P]] : memref<13x8xf16>, memref<13x8xf32>)
// CHECK:        %[[T:.*]] = arith.truncf %{{.*}} : f32 to f16
// CHECK:        %[[E:.*]] = arith.extf %[[T]] : f16 to f32
// CHECK:        linalg.yield %[[T]], %[[E]] : f16, f32
// CHECK-NOT:  ins(%[[H]]
// CHECK:      memref.load %[[P]]
// CHECK:      memref.dealloc %[[P]]
// CHECK:      memref.copy %[[H]]
func.func @add_kept(%x: memref<13x8xf16>, %r: memref<13x8xf16>, %w: memref<8x16xf16>,
                    %y: memref<13x16xf32>, %out: memref<13x8xf16>) {
  %h = memref.alloc() {alignment = 64 : i64} : memref<13x8xf16>
  linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
    ins(%x, %r : memref<13x8xf16>, memref<13x8xf16>) outs(%h : memref<13x8xf16>) {
  ^bb0(%u: f16, %v: f16, %o: f16):
    %ue = arith.extf %u : f16 to f32
    %ve = arith.extf %v : f16 to f32
    %s = arith.addf %ue, %ve : f32
    %t = arith.truncf %s : f32 to f16
    linalg.yield %t : f16
  }
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%h, %w : memref<13x8xf16>, memref<8x16xf16>) outs(%y : memref<13x16xf32>) {
  ^bb0(%p: f16, %q: f16, %o: f32):
    %pe = arith.extf %p : f16 to f32
    %qe = arith.extf %q : f16 to f32
    %m = arith.mulf %pe, %qe : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  }
  memref.copy %h, %out : memref<13x8xf16> to memref<13x8xf16>
  memref.dealloc %h : memref<13x8xf16>
  return
}

// -----

#a = affine_map<(i, j, k) -> (i, k)>
#b = affine_map<(i, j, k) -> (k, j)>
#c = affine_map<(i, j, k) -> (i, j)>
#id2 = affine_map<(i, j) -> (i, j)>

// Not fused: ops with memory effects lie between the writer and the
// contraction (five fills; the f32 copy would live across them; with
// writer-distance=5 it is fused), or %h is written again in between (here
// a fill of it, at any distance): the contraction packs %h itself.
// FAR-LABEL: func.func @far_writer
// FAR:      %[[P:.*]] = memref.alloc() {alignment = 64 : i64} : memref<13x8xf32>
// FAR-NEXT: linalg.generic {{.*}} outs(%[[P]] : memref<13x8xf32>)
// FAR-NOT:  ins(%{{.*}} : memref<13x8xf16>)
// FAR-LABEL: func.func @written_between
// FAR:      linalg.fill {{.*}} outs(%[[H:.*]] : memref<13x8xf16>)
// FAR:      linalg.generic {{.*}} ins(%[[H]] : memref<13x8xf16>) outs(%{{.*}} : memref<13x8xf32>)
// CHECK-LABEL: func.func @far_writer
// CHECK:      %[[H:.*]] = memref.alloc() {alignment = 64 : i64} : memref<13x8xf16>
// CHECK-NEXT: linalg.generic {{.*}} outs(%[[H]] : memref<13x8xf16>)
// CHECK:      %[[P:.*]] = memref.alloc() {alignment = 64 : i64} : memref<13x8xf32>
// CHECK-NEXT: linalg.generic {{.*}} ins(%[[H]] : memref<13x8xf16>) outs(%[[P]] : memref<13x8xf32>)
// CHECK-LABEL: func.func @written_between
// CHECK:      %[[H:.*]] = memref.alloc() {alignment = 64 : i64} : memref<13x8xf16>
// CHECK-NEXT: linalg.generic {{.*}} outs(%[[H]] : memref<13x8xf16>)
// CHECK:      linalg.fill {{.*}} outs(%[[H]] : memref<13x8xf16>)
// CHECK:      %[[P:.*]] = memref.alloc() {alignment = 64 : i64} : memref<13x8xf32>
// CHECK-NEXT: linalg.generic {{.*}} ins(%[[H]] : memref<13x8xf16>) outs(%[[P]] : memref<13x8xf32>)
func.func @far_writer(%x: memref<13x8xf16>, %w: memref<8x16xf16>, %y: memref<13x16xf32>,
                      %o1: memref<4xf32>, %o2: memref<4xf32>, %o3: memref<4xf32>,
                      %o4: memref<4xf32>, %o5: memref<4xf32>) {
  %zero = arith.constant 0.0 : f32
  %h = memref.alloc() {alignment = 64 : i64} : memref<13x8xf16>
  linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
    ins(%x : memref<13x8xf16>) outs(%h : memref<13x8xf16>) {
  ^bb0(%v: f16, %o: f16):
    linalg.yield %v : f16
  }
  linalg.fill ins(%zero : f32) outs(%o1 : memref<4xf32>)
  linalg.fill ins(%zero : f32) outs(%o2 : memref<4xf32>)
  linalg.fill ins(%zero : f32) outs(%o3 : memref<4xf32>)
  linalg.fill ins(%zero : f32) outs(%o4 : memref<4xf32>)
  linalg.fill ins(%zero : f32) outs(%o5 : memref<4xf32>)
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%h, %w : memref<13x8xf16>, memref<8x16xf16>) outs(%y : memref<13x16xf32>) {
  ^bb0(%p: f16, %q: f16, %o: f32):
    %pe = arith.extf %p : f16 to f32
    %qe = arith.extf %q : f16 to f32
    %m = arith.mulf %pe, %qe : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  }
  memref.dealloc %h : memref<13x8xf16>
  return
}
func.func @written_between(%x: memref<13x8xf16>, %w: memref<8x16xf16>, %y: memref<13x16xf32>) {
  %one = arith.constant 1.0 : f16
  %h = memref.alloc() {alignment = 64 : i64} : memref<13x8xf16>
  linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
    ins(%x : memref<13x8xf16>) outs(%h : memref<13x8xf16>) {
  ^bb0(%v: f16, %o: f16):
    linalg.yield %v : f16
  }
  linalg.fill ins(%one : f16) outs(%h : memref<13x8xf16>)
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%h, %w : memref<13x8xf16>, memref<8x16xf16>) outs(%y : memref<13x16xf32>) {
  ^bb0(%p: f16, %q: f16, %o: f32):
    %pe = arith.extf %p : f16 to f32
    %qe = arith.extf %q : f16 to f32
    %m = arith.mulf %pe, %qe : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  }
  memref.dealloc %h : memref<13x8xf16>
  return
}

// -----

#a = affine_map<(i, j, k) -> (i, k)>
#b = affine_map<(i, j, k) -> (k, j)>
#c = affine_map<(i, j, k) -> (i, j)>
#id2 = affine_map<(i, j) -> (i, j)>

// A contraction whose f32 result is rounded to f16 (%h), which the next
// contraction reads: the first kernel rounds in its stores (the cast goes)
// and stores each rounded vector widened into the second's pack; %h, read
// by nothing else, goes, and no pass widens it.
// CHECK-LABEL: func.func @kernel_then_contraction
// CHECK-NOT:  memref<13x16xf16>
// CHECK:      %[[P:.*]] = memref.alloc() {alignment = 64 : i64} : memref<13x16xf32>
// CHECK-NOT:  memref<13x16xf16>
// CHECK:      %[[T:.*]] = arith.truncf %{{.*}} : vector<16xf32> to vector<16xf16>
// CHECK-NEXT: %[[E:.*]] = arith.extf %[[T]] : vector<16xf16> to vector<16xf32>
// CHECK-NEXT: vector.store %[[E]], %[[P]][
// CHECK-NOT:  memref<13x16xf16>
// CHECK:      memref.load %[[P]]
// CHECK:      memref.dealloc %[[P]]
// CHECK-NOT:  memref<13x16xf16>
// CHECK:      return
func.func @kernel_then_contraction(%x: memref<13x8xf16>, %w1: memref<8x16xf16>,
                                   %w2: memref<16x16xf16>, %y: memref<13x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() {alignment = 64 : i64} : memref<13x16xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<13x16xf32>)
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%x, %w1 : memref<13x8xf16>, memref<8x16xf16>) outs(%c : memref<13x16xf32>) {
  ^bb0(%p: f16, %q: f16, %o: f32):
    %pe = arith.extf %p : f16 to f32
    %qe = arith.extf %q : f16 to f32
    %m = arith.mulf %pe, %qe : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  }
  %h = memref.alloc() {alignment = 64 : i64} : memref<13x16xf16>
  linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
    ins(%c : memref<13x16xf32>) outs(%h : memref<13x16xf16>) {
  ^bb0(%v: f32, %o: f16):
    %t = arith.truncf %v : f32 to f16
    linalg.yield %t : f16
  }
  memref.dealloc %c : memref<13x16xf32>
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%h, %w2 : memref<13x16xf16>, memref<16x16xf16>) outs(%y : memref<13x16xf32>) {
  ^bb0(%p: f16, %q: f16, %o: f32):
    %pe = arith.extf %p : f16 to f32
    %qe = arith.extf %q : f16 to f32
    %m = arith.mulf %pe, %qe : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  }
  memref.dealloc %h : memref<13x16xf16>
  return
}

// -----

// EXEC-BEGIN: the executed part (the RUN lines above cut the file here).
// A ReLU, rounded to f16, read by two contractions through an
// expand_shape, and by nothing else; a residual add read by a contraction
// and copied out; a contraction rounded to f16 and read by the next one.
// x[i] = ((7i mod 23) - 11) / 64, w[k, j] = ((5k + 3j) mod 19 - 9) / 128:
// every product is exact in f32 (16-bit values times multiples of 2^-7 of
// at most 4 bits), so the kernel's fused multiply-adds and the loops'
// multiply, then add, agree to the bit; the first contraction's results
// need more bits than f16 has, so its rounding shows.
// EXEC-COUNT-728: {{^-?[0-9][0-9.e+-]*$}}
// EXEC-NOT: {{.}}
#a = affine_map<(i, j, k) -> (i, k)>
#b = affine_map<(i, j, k) -> (k, j)>
#c = affine_map<(i, j, k) -> (i, j)>
#id1 = affine_map<(i) -> (i)>
#id2 = affine_map<(i, j) -> (i, j)>
func.func @step(%x: memref<104xf16>, %w1: memref<8x16xf16>, %w2: memref<8x16xf16>,
                %y1: memref<13x16xf32>, %y2: memref<13x16xf32>, %out: memref<104xf16>,
                %w3: memref<16x16xf16>, %y3: memref<13x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %h = memref.alloc() {alignment = 64 : i64} : memref<104xf16>
  linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
    ins(%x : memref<104xf16>) outs(%h : memref<104xf16>) {
  ^bb0(%v: f16, %o: f16):
    %e = arith.extf %v : f16 to f32
    %r = arith.maximumf %e, %zero : f32
    %t = arith.truncf %r : f32 to f16
    linalg.yield %t : f16
  }
  %hv = memref.expand_shape %h [[0, 1]] output_shape [13, 8] : memref<104xf16> into memref<13x8xf16>
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%hv, %w1 : memref<13x8xf16>, memref<8x16xf16>) outs(%y1 : memref<13x16xf32>) {
  ^bb0(%p: f16, %q: f16, %o: f32):
    %pe = arith.extf %p : f16 to f32
    %qe = arith.extf %q : f16 to f32
    %m = arith.mulf %pe, %qe : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%hv, %w2 : memref<13x8xf16>, memref<8x16xf16>) outs(%y2 : memref<13x16xf32>) {
  ^bb0(%p: f16, %q: f16, %o: f32):
    %pe = arith.extf %p : f16 to f32
    %qe = arith.extf %q : f16 to f32
    %m = arith.mulf %pe, %qe : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  }
  memref.dealloc %h : memref<104xf16>
  // The add x + relu(x) (from %x and a copy), kept and copied out.
  %g = memref.alloc() {alignment = 64 : i64} : memref<104xf16>
  linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
    ins(%x : memref<104xf16>) outs(%g : memref<104xf16>) {
  ^bb0(%v: f16, %o: f16):
    %e = arith.extf %v : f16 to f32
    %r = arith.maximumf %e, %zero : f32
    %s = arith.addf %e, %r : f32
    %t = arith.truncf %s : f32 to f16
    linalg.yield %t : f16
  }
  %gv = memref.expand_shape %g [[0, 1]] output_shape [13, 8] : memref<104xf16> into memref<13x8xf16>
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%gv, %w1 : memref<13x8xf16>, memref<8x16xf16>) outs(%y1 : memref<13x16xf32>) {
  ^bb0(%p: f16, %q: f16, %o: f32):
    %pe = arith.extf %p : f16 to f32
    %qe = arith.extf %q : f16 to f32
    %m = arith.mulf %pe, %qe : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  }
  memref.copy %g, %out : memref<104xf16> to memref<104xf16>
  memref.dealloc %g : memref<104xf16>
  // (x as 13 x 8) * w1, rounded to f16, then * w3.
  %xv = memref.expand_shape %x [[0, 1]] output_shape [13, 8] : memref<104xf16> into memref<13x8xf16>
  %k = memref.alloc() {alignment = 64 : i64} : memref<13x16xf32>
  linalg.fill ins(%zero : f32) outs(%k : memref<13x16xf32>)
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%xv, %w1 : memref<13x8xf16>, memref<8x16xf16>) outs(%k : memref<13x16xf32>) {
  ^bb0(%p: f16, %q: f16, %o: f32):
    %pe = arith.extf %p : f16 to f32
    %qe = arith.extf %q : f16 to f32
    %m = arith.mulf %pe, %qe : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  }
  %kh = memref.alloc() {alignment = 64 : i64} : memref<13x16xf16>
  linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
    ins(%k : memref<13x16xf32>) outs(%kh : memref<13x16xf16>) {
  ^bb0(%v: f32, %o: f16):
    %t = arith.truncf %v : f32 to f16
    linalg.yield %t : f16
  }
  memref.dealloc %k : memref<13x16xf32>
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%kh, %w3 : memref<13x16xf16>, memref<16x16xf16>) outs(%y3 : memref<13x16xf32>) {
  ^bb0(%p: f16, %q: f16, %o: f32):
    %pe = arith.extf %p : f16 to f32
    %qe = arith.extf %q : f16 to f32
    %m = arith.mulf %pe, %qe : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  }
  memref.dealloc %kh : memref<13x16xf16>
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %c8 = arith.constant 8 : index
  %c9 = arith.constant 9 : index
  %c11 = arith.constant 11 : index
  %c13 = arith.constant 13 : index
  %c16 = arith.constant 16 : index
  %c19 = arith.constant 19 : index
  %c23 = arith.constant 23 : index
  %c104 = arith.constant 104 : index
  %sx = arith.constant 0.015625 : f32
  %sw = arith.constant 0.0078125 : f32
  %x = memref.alloc() : memref<104xf16>
  %w1 = memref.alloc() : memref<8x16xf16>
  %w2 = memref.alloc() : memref<8x16xf16>
  %y1 = memref.alloc() : memref<13x16xf32>
  %y2 = memref.alloc() : memref<13x16xf32>
  %out = memref.alloc() : memref<104xf16>
  %w3 = memref.alloc() : memref<16x16xf16>
  %y3 = memref.alloc() : memref<13x16xf32>
  scf.for %i = %c0 to %c16 step %c1 {
    scf.for %j = %c0 to %c16 step %c1 {
      %a = arith.muli %i, %c3 : index
      %b = arith.muli %j, %c7 : index
      %s = arith.addi %a, %b : index
      %m = arith.remui %s, %c13 : index
      %d = arith.subi %m, %c5 : index
      %di = arith.index_cast %d : index to i32
      %f = arith.sitofp %di : i32 to f32
      %v = arith.mulf %f, %sw : f32
      %t = arith.truncf %v : f32 to f16
      memref.store %t, %w3[%i, %j] : memref<16x16xf16>
    }
  }
  scf.for %i = %c0 to %c104 step %c1 {
    %a = arith.muli %i, %c7 : index
    %m = arith.remui %a, %c23 : index
    %d = arith.subi %m, %c11 : index
    %di = arith.index_cast %d : index to i32
    %f = arith.sitofp %di : i32 to f32
    %v = arith.mulf %f, %sx : f32
    %t = arith.truncf %v : f32 to f16
    memref.store %t, %x[%i] : memref<104xf16>
  }
  scf.for %k = %c0 to %c8 step %c1 {
    scf.for %j = %c0 to %c16 step %c1 {
      %a = arith.muli %k, %c5 : index
      %b = arith.muli %j, %c3 : index
      %s = arith.addi %a, %b : index
      %m = arith.remui %s, %c19 : index
      %d = arith.subi %m, %c9 : index
      %di = arith.index_cast %d : index to i32
      %f = arith.sitofp %di : i32 to f32
      %v = arith.mulf %f, %sw : f32
      %t = arith.truncf %v : f32 to f16
      memref.store %t, %w1[%k, %j] : memref<8x16xf16>
      %n = arith.negf %v : f32
      %tn = arith.truncf %n : f32 to f16
      memref.store %tn, %w2[%k, %j] : memref<8x16xf16>
    }
  }
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%y1 : memref<13x16xf32>)
  linalg.fill ins(%zero : f32) outs(%y2 : memref<13x16xf32>)
  linalg.fill ins(%zero : f32) outs(%y3 : memref<13x16xf32>)
  call @step(%x, %w1, %w2, %y1, %y2, %out, %w3, %y3)
    : (memref<104xf16>, memref<8x16xf16>, memref<8x16xf16>, memref<13x16xf32>,
       memref<13x16xf32>, memref<104xf16>, memref<16x16xf16>, memref<13x16xf32>) -> ()
  scf.for %i = %c0 to %c13 step %c1 {
    scf.for %j = %c0 to %c16 step %c1 {
      %v1 = memref.load %y1[%i, %j] : memref<13x16xf32>
      vector.print %v1 : f32
      %v2 = memref.load %y2[%i, %j] : memref<13x16xf32>
      vector.print %v2 : f32
      %v3 = memref.load %y3[%i, %j] : memref<13x16xf32>
      vector.print %v3 : f32
    }
  }
  scf.for %i = %c0 to %c104 step %c1 {
    %v = memref.load %out[%i] : memref<104xf16>
    %e = arith.extf %v : f16 to f32
    vector.print %e : f32
  }
  return
}
