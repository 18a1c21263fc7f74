// RUN: amp-opt %s --split-input-file --amp-cpu-tile-contractions="tile-depth=4" | FileCheck %s

// amp-cpu-tile-contractions rounds C to f16/bf16 in the kernel's last
// store when C, a fresh allocation, is rounded whole by a cast after the
// contraction and nothing else uses it (the cast and C go; with k beyond
// one depth slice the earlier slices still store f32 into C). Whatever
// could see C or the cast's output in between, or reads C after, keeps
// the cast. Values: cpu-tile-contractions-narrow-exec.mlir.

#a = affine_map<(i, j, k) -> (i, k)>
#b = affine_map<(i, j, k) -> (k, j)>
#c = affine_map<(i, j, k) -> (i, j)>
#id = affine_map<(i, j) -> (i, j)>

// k = 8 in slices of 4: the first slice stores f32 into C, the last
// rounds into the cast's output; the cast goes.
// CHECK-LABEL: func.func @sliced
// CHECK:       memref.alloc() {alignment = 64 : i64} : memref<16x16xf16>
// CHECK:       %[[LAST:.*]] = arith.cmpi eq, %{{.*}}, %c8 : index
// CHECK:       scf.if %[[LAST]] {
// CHECK:         arith.truncf %{{.*}} : vector<16xf32> to vector<16xf16>
// CHECK:         vector.store %{{.*}} : memref<16x16xf16>, vector<16xf16>
// CHECK:       } else {
// CHECK:         vector.store %{{.*}} : memref<16x16xf32>, vector<16xf32>
// CHECK-NOT:   linalg.generic
// CHECK:       return
func.func @sliced(%x: memref<16x8xf32>, %w: memref<8x16xf32>, %y: memref<16x16xf16>) {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() {alignment = 64 : i64} : memref<16x16xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<16x16xf32>)
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%x, %w : memref<16x8xf32>, memref<8x16xf32>) outs(%c : memref<16x16xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  }
  %o = memref.alloc() {alignment = 64 : i64} : memref<16x16xf16>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
    ins(%c : memref<16x16xf32>) outs(%o : memref<16x16xf16>) {
  ^bb0(%v: f32, %u: f16):
    %t = arith.truncf %v : f32 to f16
    linalg.yield %t : f16
  }
  memref.dealloc %c : memref<16x16xf32>
  memref.copy %o, %y : memref<16x16xf16> to memref<16x16xf16>
  memref.dealloc %o : memref<16x16xf16>
  return
}

// -----

#a = affine_map<(i, j, k) -> (i, k)>
#b = affine_map<(i, j, k) -> (k, j)>
#c = affine_map<(i, j, k) -> (i, j)>
#id = affine_map<(i, j) -> (i, j)>

// k = 4, one slice: no f32 store at all, and C itself goes.
// CHECK-LABEL: func.func @one_slice
// CHECK-NOT:   memref<16x16xf32>
// CHECK-NOT:   scf.if
// CHECK:       arith.truncf %{{.*}} : vector<16xf32> to vector<16xf16>
// CHECK-NOT:   memref<16x16xf32>
// CHECK-NOT:   linalg.generic
// CHECK:       return
func.func @one_slice(%x: memref<16x4xf32>, %w: memref<4x16xf32>, %y: memref<16x16xf16>) {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() {alignment = 64 : i64} : memref<16x16xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<16x16xf32>)
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%x, %w : memref<16x4xf32>, memref<4x16xf32>) outs(%c : memref<16x16xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  }
  %o = memref.alloc() {alignment = 64 : i64} : memref<16x16xf16>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
    ins(%c : memref<16x16xf32>) outs(%o : memref<16x16xf16>) {
  ^bb0(%v: f32, %u: f16):
    %t = arith.truncf %v : f32 to f16
    linalg.yield %t : f16
  }
  memref.dealloc %c : memref<16x16xf32>
  memref.copy %o, %y : memref<16x16xf16> to memref<16x16xf16>
  memref.dealloc %o : memref<16x16xf16>
  return
}

// -----

#a = affine_map<(i, j, k) -> (i, k)>
#b = affine_map<(i, j, k) -> (k, j)>
#c = affine_map<(i, j, k) -> (i, j)>
#id = affine_map<(i, j) -> (i, j)>

// C is read after the cast: it stays, and so does the cast.
// CHECK-LABEL: func.func @c_read_after
// CHECK:       arith.truncf %{{.*}} : f32 to f16
// CHECK:       return
func.func @c_read_after(%x: memref<16x8xf32>, %w: memref<8x16xf32>, %y: memref<16x16xf16>) -> f32 {
  %i = arith.constant 3 : index
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() {alignment = 64 : i64} : memref<16x16xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<16x16xf32>)
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%x, %w : memref<16x8xf32>, memref<8x16xf32>) outs(%c : memref<16x16xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  }
  %o = memref.alloc() {alignment = 64 : i64} : memref<16x16xf16>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
    ins(%c : memref<16x16xf32>) outs(%o : memref<16x16xf16>) {
  ^bb0(%v: f32, %u: f16):
    %t = arith.truncf %v : f32 to f16
    linalg.yield %t : f16
  }
  %r = memref.load %c[%i, %i] : memref<16x16xf32>
  memref.dealloc %c : memref<16x16xf32>
  memref.copy %o, %y : memref<16x16xf16> to memref<16x16xf16>
  memref.dealloc %o : memref<16x16xf16>
  return %r : f32
}

// -----

#a = affine_map<(i, j, k) -> (i, k)>
#b = affine_map<(i, j, k) -> (k, j)>
#c = affine_map<(i, j, k) -> (i, j)>
#id = affine_map<(i, j) -> (i, j)>

// C is read between the contraction and the cast.
// CHECK-LABEL: func.func @c_read_between
// CHECK:       arith.truncf %{{.*}} : f32 to f16
// CHECK:       return
func.func @c_read_between(%x: memref<16x8xf32>, %w: memref<8x16xf32>, %y: memref<16x16xf16>) -> f32 {
  %i = arith.constant 3 : index
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() {alignment = 64 : i64} : memref<16x16xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<16x16xf32>)
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%x, %w : memref<16x8xf32>, memref<8x16xf32>) outs(%c : memref<16x16xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  }
  %r = memref.load %c[%i, %i] : memref<16x16xf32>
  %o = memref.alloc() {alignment = 64 : i64} : memref<16x16xf16>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
    ins(%c : memref<16x16xf32>) outs(%o : memref<16x16xf16>) {
  ^bb0(%v: f32, %u: f16):
    %t = arith.truncf %v : f32 to f16
    linalg.yield %t : f16
  }
  memref.dealloc %c : memref<16x16xf32>
  memref.copy %o, %y : memref<16x16xf16> to memref<16x16xf16>
  memref.dealloc %o : memref<16x16xf16>
  return %r : f32
}

// -----

#a = affine_map<(i, j, k) -> (i, k)>
#b = affine_map<(i, j, k) -> (k, j)>
#c = affine_map<(i, j, k) -> (i, j)>
#id = affine_map<(i, j) -> (i, j)>

// The cast's output is written between the contraction and the cast (the
// kernel would store into it before that write).
// CHECK-LABEL: func.func @out_written_before
// CHECK:       arith.truncf %{{.*}} : f32 to f16
// CHECK:       return
func.func @out_written_before(%x: memref<16x8xf32>, %w: memref<8x16xf32>, %y: memref<16x16xf16>) {
  %h = arith.constant 1.0 : f16
  %i = arith.constant 3 : index
  %o = memref.alloc() {alignment = 64 : i64} : memref<16x16xf16>
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() {alignment = 64 : i64} : memref<16x16xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<16x16xf32>)
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%x, %w : memref<16x8xf32>, memref<8x16xf32>) outs(%c : memref<16x16xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  }
  memref.store %h, %o[%i, %i] : memref<16x16xf16>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
    ins(%c : memref<16x16xf32>) outs(%o : memref<16x16xf16>) {
  ^bb0(%v: f32, %u: f16):
    %t = arith.truncf %v : f32 to f16
    linalg.yield %t : f16
  }
  memref.dealloc %c : memref<16x16xf32>
  memref.copy %o, %y : memref<16x16xf16> to memref<16x16xf16>
  memref.dealloc %o : memref<16x16xf16>
  return
}

// -----

#a = affine_map<(i, j, k) -> (i, k)>
#b = affine_map<(i, j, k) -> (k, j)>
#c = affine_map<(i, j, k) -> (i, j)>
#id = affine_map<(i, j) -> (i, j)>

// C is an argument (the caller reads it): the cast stays.
// CHECK-LABEL: func.func @c_argument
// CHECK:       arith.truncf %{{.*}} : f32 to f16
// CHECK:       return
func.func @c_argument(%x: memref<16x8xf32>, %w: memref<8x16xf32>, %c: memref<16x16xf32>, %y: memref<16x16xf16>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<16x16xf32>)
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%x, %w : memref<16x8xf32>, memref<8x16xf32>) outs(%c : memref<16x16xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  }
  %o = memref.alloc() {alignment = 64 : i64} : memref<16x16xf16>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
    ins(%c : memref<16x16xf32>) outs(%o : memref<16x16xf16>) {
  ^bb0(%v: f32, %u: f16):
    %t = arith.truncf %v : f32 to f16
    linalg.yield %t : f16
  }
  memref.copy %o, %y : memref<16x16xf16> to memref<16x16xf16>
  memref.dealloc %o : memref<16x16xf16>
  return
}

// -----

#a = affine_map<(i, j, k) -> (i, k)>
#b = affine_map<(i, j, k) -> (k, j)>
#c = affine_map<(i, j, k) -> (i, j)>
#id = affine_map<(i, j) -> (i, j)>

// k is dynamic (it may be 0: no slice would store): the cast stays.
// CHECK-LABEL: func.func @dynamic_k
// CHECK:       arith.truncf %{{.*}} : f32 to f16
// CHECK:       return
func.func @dynamic_k(%x: memref<16x?xf32>, %w: memref<?x16xf32>, %y: memref<16x16xf16>) {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() {alignment = 64 : i64} : memref<16x16xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<16x16xf32>)
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%x, %w : memref<16x?xf32>, memref<?x16xf32>) outs(%c : memref<16x16xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  }
  %o = memref.alloc() {alignment = 64 : i64} : memref<16x16xf16>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
    ins(%c : memref<16x16xf32>) outs(%o : memref<16x16xf16>) {
  ^bb0(%v: f32, %u: f16):
    %t = arith.truncf %v : f32 to f16
    linalg.yield %t : f16
  }
  memref.dealloc %c : memref<16x16xf32>
  memref.copy %o, %y : memref<16x16xf16> to memref<16x16xf16>
  memref.dealloc %o : memref<16x16xf16>
  return
}

// -----

#a = affine_map<(i, j, k) -> (i, k)>
#b = affine_map<(i, j, k) -> (k, j)>
#c = affine_map<(i, j, k) -> (i, j)>
#id = affine_map<(i, j) -> (i, j)>

// A cast with its own rounding mode is not the kernel's: it stays.
// CHECK-LABEL: func.func @rounding_mode
// CHECK:       arith.truncf %{{.*}} toward_zero : f32 to f16
// CHECK:       return
func.func @rounding_mode(%x: memref<16x8xf32>, %w: memref<8x16xf32>, %y: memref<16x16xf16>) {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() {alignment = 64 : i64} : memref<16x16xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<16x16xf32>)
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%x, %w : memref<16x8xf32>, memref<8x16xf32>) outs(%c : memref<16x16xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  }
  %o = memref.alloc() {alignment = 64 : i64} : memref<16x16xf16>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
    ins(%c : memref<16x16xf32>) outs(%o : memref<16x16xf16>) {
  ^bb0(%v: f32, %u: f16):
    %t = arith.truncf %v toward_zero : f32 to f16
    linalg.yield %t : f16
  }
  memref.dealloc %c : memref<16x16xf32>
  memref.copy %o, %y : memref<16x16xf16> to memref<16x16xf16>
  memref.dealloc %o : memref<16x16xf16>
  return
}
