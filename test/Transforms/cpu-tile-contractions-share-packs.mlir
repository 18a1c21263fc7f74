// RUN: amp-opt %s --split-input-file --amp-cpu-tile-contractions | FileCheck %s

// amp-cpu-tile-contractions widens a 16-bit operand once per buffer, not
// once per contraction: a pack made for one contraction is read by a later
// one in the same block that would pack the same buffer the same way, when
// nothing can have written the buffer in between, and it is freed after
// its last reader. An operand some op already widens into an f32 buffer
// (the bias gradient's extf of an output gradient) is read from there.

#a = affine_map<(i, j, k) -> (i, k)>
#at = affine_map<(i, j, k) -> (k, i)>
#b = affine_map<(i, j, k) -> (k, j)>
#c = affine_map<(i, j, k) -> (i, j)>
#id = affine_map<(i, j) -> (i, j)>

// The activation %h (16 x 8, an argument nothing writes) is A of the forward h * W and, read as h^T,
// A of the weight gradient h^T * dy: both pack it in its own layout, so
// the second reads the first's pack, which is freed after it.
// CHECK-LABEL: func.func @shared_activation
// CHECK-SAME: (%[[H:.*]]: memref<16x8xf16>, %[[W:.*]]: memref<8x16xf16>, %[[DY:.*]]: memref<16x16xf16>,
// CHECK:     %[[HP:.*]] = memref.alloc() {alignment = 64 : i64} : memref<16x8xf32>
// CHECK:     linalg.generic {{.*}} ins(%[[H]] : memref<16x8xf16>) outs(%[[HP]] : memref<16x8xf32>)
// CHECK-NOT: ins(%[[H]] :
// CHECK:     memref.load %[[HP]]{{[[ []}}
// CHECK-NOT: memref.dealloc %[[HP]]{{[[ []}}
// CHECK-NOT: ins(%[[H]] :
// CHECK:     memref.load %[[HP]]{{[[ []}}
// CHECK:     memref.dealloc %[[HP]]{{[[ []}}
// CHECK-NOT: memref.dealloc %[[HP]]{{[[ []}}
// CHECK:     return
func.func @shared_activation(%h: memref<16x8xf16>, %w: memref<8x16xf16>, %dy: memref<16x16xf16>,
                             %y: memref<16x16xf32>, %dw: memref<8x16xf32>) {
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%h, %w : memref<16x8xf16>, memref<8x16xf16>) outs(%y : memref<16x16xf32>) {
  ^bb0(%p: f16, %q: f16, %o: f32):
    %pe = arith.extf %p : f16 to f32
    %qe = arith.extf %q : f16 to f32
    %m = arith.mulf %pe, %qe : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#at, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%h, %dy : memref<16x8xf16>, memref<16x16xf16>) outs(%dw : memref<8x16xf32>) {
  ^bb0(%p: f16, %q: f16, %o: f32):
    %pe = arith.extf %p : f16 to f32
    %qe = arith.extf %q : f16 to f32
    %m = arith.mulf %pe, %qe : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  }
  return
}

// -----

#a = affine_map<(i, j, k) -> (i, k)>
#at = affine_map<(i, j, k) -> (k, i)>
#b = affine_map<(i, j, k) -> (k, j)>
#c = affine_map<(i, j, k) -> (i, j)>

// %h is written between the two contractions (bufferization reuses
// buffers): the second packs it again, and each pack is freed after its
// own kernel.
// CHECK-LABEL: func.func @rewritten_between
// CHECK-SAME: (%[[H:.*]]: memref<16x8xf16>,
// CHECK:     %[[P1:.*]] = memref.alloc() {alignment = 64 : i64} : memref<16x8xf32>
// CHECK:     linalg.generic {{.*}} ins(%[[H]] : memref<16x8xf16>) outs(%[[P1]] : memref<16x8xf32>)
// CHECK:     memref.dealloc %[[P1]]{{[[ []}}
// CHECK:     linalg.fill {{.*}} outs(%[[H]]
// CHECK:     %[[P2:.*]] = memref.alloc() {alignment = 64 : i64} : memref<16x8xf32>
// CHECK:     linalg.generic {{.*}} ins(%[[H]] : memref<16x8xf16>) outs(%[[P2]] : memref<16x8xf32>)
// CHECK:     memref.load %[[P2]]{{[[ []}}
// CHECK:     memref.dealloc %[[P2]]{{[[ []}}
func.func @rewritten_between(%h: memref<16x8xf16>, %w: memref<8x16xf16>, %dy: memref<16x16xf16>,
                             %y: memref<16x16xf32>, %dw: memref<8x16xf32>) {
  %one = arith.constant 1.0 : f16
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%h, %w : memref<16x8xf16>, memref<8x16xf16>) outs(%y : memref<16x16xf32>) {
  ^bb0(%p: f16, %q: f16, %o: f32):
    %pe = arith.extf %p : f16 to f32
    %qe = arith.extf %q : f16 to f32
    %m = arith.mulf %pe, %qe : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  }
  linalg.fill ins(%one : f16) outs(%h : memref<16x8xf16>)
  linalg.generic {indexing_maps = [#at, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%h, %dy : memref<16x8xf16>, memref<16x16xf16>) outs(%dw : memref<8x16xf32>) {
  ^bb0(%p: f16, %q: f16, %o: f32):
    %pe = arith.extf %p : f16 to f32
    %qe = arith.extf %q : f16 to f32
    %m = arith.mulf %pe, %qe : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  }
  return
}

// -----

#at = affine_map<(i, j, k) -> (k, i)>
#b = affine_map<(i, j, k) -> (k, j)>
#c = affine_map<(i, j, k) -> (i, j)>
#id = affine_map<(i, j) -> (i, j)>

// The output gradient %dy is widened for the bias gradient (%dyf) before
// the weight gradient h^T * dy: the kernel reads %dyf as B, and no pack of
// %dy is made.
// CHECK-LABEL: func.func @widened_already
// CHECK-SAME: (%[[H:.*]]: memref<16x8xf16>, %[[DY:.*]]: memref<16x16xf16>,
// CHECK:     %[[DYF:.*]] = memref.alloc() : memref<16x16xf32>
// CHECK:     linalg.generic {{.*}} ins(%[[DY]] : memref<16x16xf16>) outs(%[[DYF]] : memref<16x16xf32>)
// CHECK-NOT: ins(%[[DY]] :
// CHECK:     vector.load %[[DYF]][
// CHECK:     memref.dealloc %[[DYF]]{{[[ []}}
func.func @widened_already(%h: memref<16x8xf16>, %dy: memref<16x16xf16>, %dw: memref<8x16xf32>,
                           %db: memref<16xf32>) {
  %dyf = memref.alloc() : memref<16x16xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
    ins(%dy : memref<16x16xf16>) outs(%dyf : memref<16x16xf32>) {
  ^bb0(%v: f16, %o: f32):
    %e = arith.extf %v : f16 to f32
    linalg.yield %e : f32
  }
  linalg.generic {indexing_maps = [#at, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%h, %dy : memref<16x8xf16>, memref<16x16xf16>) outs(%dw : memref<8x16xf32>) {
  ^bb0(%p: f16, %q: f16, %o: f32):
    %pe = arith.extf %p : f16 to f32
    %qe = arith.extf %q : f16 to f32
    %m = arith.mulf %pe, %qe : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  }
  linalg.reduce ins(%dyf : memref<16x16xf32>) outs(%db : memref<16xf32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  memref.dealloc %dyf : memref<16x16xf32>
  return
}

// -----

#at = affine_map<(i, j, k) -> (k, i)>
#b = affine_map<(i, j, k) -> (k, j)>
#c = affine_map<(i, j, k) -> (i, j)>
#id = affine_map<(i, j) -> (i, j)>

// The widened buffer is freed (or written) before the contraction: not
// read; %dy is packed.
// CHECK-LABEL: func.func @widened_then_freed
// CHECK-SAME: (%[[H:.*]]: memref<16x8xf16>, %[[DY:.*]]: memref<16x16xf16>,
// CHECK:     memref.dealloc %[[DYF:.*]] : memref<16x16xf32>
// CHECK:     %[[P:.*]] = memref.alloc() {alignment = 64 : i64} : memref<16x16xf32>
// CHECK:     linalg.generic {{.*}} ins(%[[DY]] : memref<16x16xf16>) outs(%[[P]] : memref<16x16xf32>)
// CHECK:     vector.load %[[P]][
// CHECK-LABEL: func.func @widened_then_written
// CHECK-SAME: (%[[H:.*]]: memref<16x8xf16>, %[[DY:.*]]: memref<16x16xf16>,
// CHECK:     linalg.fill
// CHECK:     %[[P:.*]] = memref.alloc() {alignment = 64 : i64} : memref<16x16xf32>
// CHECK:     linalg.generic {{.*}} ins(%[[DY]] : memref<16x16xf16>) outs(%[[P]] : memref<16x16xf32>)
// CHECK:     vector.load %[[P]][
func.func @widened_then_freed(%h: memref<16x8xf16>, %dy: memref<16x16xf16>, %dw: memref<8x16xf32>) {
  %dyf = memref.alloc() : memref<16x16xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
    ins(%dy : memref<16x16xf16>) outs(%dyf : memref<16x16xf32>) {
  ^bb0(%v: f16, %o: f32):
    %e = arith.extf %v : f16 to f32
    linalg.yield %e : f32
  }
  memref.dealloc %dyf : memref<16x16xf32>
  linalg.generic {indexing_maps = [#at, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%h, %dy : memref<16x8xf16>, memref<16x16xf16>) outs(%dw : memref<8x16xf32>) {
  ^bb0(%p: f16, %q: f16, %o: f32):
    %pe = arith.extf %p : f16 to f32
    %qe = arith.extf %q : f16 to f32
    %m = arith.mulf %pe, %qe : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  }
  return
}
func.func @widened_then_written(%h: memref<16x8xf16>, %dy: memref<16x16xf16>, %dw: memref<8x16xf32>,
                                %dyf: memref<16x16xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
    ins(%dy : memref<16x16xf16>) outs(%dyf : memref<16x16xf32>) {
  ^bb0(%v: f16, %o: f32):
    %e = arith.extf %v : f16 to f32
    linalg.yield %e : f32
  }
  linalg.fill ins(%zero : f32) outs(%dyf : memref<16x16xf32>)
  linalg.generic {indexing_maps = [#at, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%h, %dy : memref<16x8xf16>, memref<16x16xf16>) outs(%dw : memref<8x16xf32>) {
  ^bb0(%p: f16, %q: f16, %o: f32):
    %pe = arith.extf %p : f16 to f32
    %qe = arith.extf %q : f16 to f32
    %m = arith.mulf %pe, %qe : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  }
  return
}

// -----

#a = affine_map<(i, j, k) -> (i, k)>
#at = affine_map<(i, j, k) -> (k, i)>
#b = affine_map<(i, j, k) -> (k, j)>
#c = affine_map<(i, j, k) -> (i, j)>

// The operand is a view (one chunk of the batch, as amp-chunk-batch-
// reductions makes), and its buffer is written through another name
// between the two contractions: the view's own uses do not show it, so a
// view is never shared; each contraction packs it.
// CHECK-LABEL: func.func @view_written_through_base
// CHECK:     %[[V:.*]] = memref.subview
// CHECK:     linalg.generic {{.*}} ins(%[[V]] : memref<16x8xf16, strided<[8, 1]>>)
// CHECK:     linalg.fill
// CHECK:     linalg.generic {{.*}} ins(%[[V]] : memref<16x8xf16, strided<[8, 1]>>)
func.func @view_written_through_base(%buf: memref<32x8xf16>, %w: memref<8x16xf16>, %dy: memref<16x16xf16>,
                                     %y: memref<16x16xf32>, %dw: memref<8x16xf32>) {
  %one = arith.constant 1.0 : f16
  %v = memref.subview %buf[0, 0] [16, 8] [1, 1] : memref<32x8xf16> to memref<16x8xf16, strided<[8, 1]>>
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%v, %w : memref<16x8xf16, strided<[8, 1]>>, memref<8x16xf16>) outs(%y : memref<16x16xf32>) {
  ^bb0(%p: f16, %q: f16, %o: f32):
    %pe = arith.extf %p : f16 to f32
    %qe = arith.extf %q : f16 to f32
    %m = arith.mulf %pe, %qe : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  }
  linalg.fill ins(%one : f16) outs(%buf : memref<32x8xf16>)
  linalg.generic {indexing_maps = [#at, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%v, %dy : memref<16x8xf16, strided<[8, 1]>>, memref<16x16xf16>) outs(%dw : memref<8x16xf32>) {
  ^bb0(%p: f16, %q: f16, %o: f32):
    %pe = arith.extf %p : f16 to f32
    %qe = arith.extf %q : f16 to f32
    %m = arith.mulf %pe, %qe : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A second name for the buffer that is not a view (here arith.select; as
// well a call result, an scf.if result, a later block's argument): a fill
// through it between the two contractions is not among the buffer's own
// uses, so a buffer with such a use is never shared; each contraction
// packs it.
// CHECK-LABEL: func.func @select_alias
// CHECK:     %[[BUF:.*]] = memref.alloc() : memref<16x8xf16>
// CHECK:     linalg.generic {{.*}} ins(%[[BUF]] : memref<16x8xf16>) outs(%{{.*}} : memref<16x8xf32>)
// CHECK:     linalg.fill
// CHECK:     linalg.generic {{.*}} ins(%[[BUF]] : memref<16x8xf16>) outs(%{{.*}} : memref<16x8xf32>)
#a = affine_map<(i, j, k) -> (i, k)>
#at = affine_map<(i, j, k) -> (k, i)>
#b = affine_map<(i, j, k) -> (k, j)>
#c = affine_map<(i, j, k) -> (i, j)>
func.func @select_alias(%h: memref<16x8xf16>, %w: memref<8x16xf16>, %dy: memref<16x16xf16>,
               %y: memref<16x16xf32>, %dw: memref<8x16xf32>, %cond: i1) {
  %one = arith.constant 1.0 : f16
  %buf = memref.alloc() : memref<16x8xf16>
  memref.copy %h, %buf : memref<16x8xf16> to memref<16x8xf16>
  %alias = arith.select %cond, %buf, %buf : memref<16x8xf16>
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%buf, %w : memref<16x8xf16>, memref<8x16xf16>) outs(%y : memref<16x16xf32>) {
  ^bb0(%p: f16, %q: f16, %o: f32):
    %pe = arith.extf %p : f16 to f32
    %qe = arith.extf %q : f16 to f32
    %m = arith.mulf %pe, %qe : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  }
  linalg.fill ins(%one : f16) outs(%alias : memref<16x8xf16>)
  linalg.generic {indexing_maps = [#at, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%buf, %dy : memref<16x8xf16>, memref<16x16xf16>) outs(%dw : memref<8x16xf32>) {
  ^bb0(%p: f16, %q: f16, %o: f32):
    %pe = arith.extf %p : f16 to f32
    %qe = arith.extf %q : f16 to f32
    %m = arith.mulf %pe, %qe : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  }
  memref.dealloc %buf : memref<16x8xf16>
  return
}

// -----

// A block argument of a later block is not an argument of the function: it
// is whatever the branch passes (%buf, written between the contractions).
// CHECK-LABEL: func.func @later_block_argument
// CHECK:     ^bb1(%[[X:.*]]: memref<16x8xf16>):
// CHECK:     linalg.generic {{.*}} ins(%[[X]] : memref<16x8xf16>) outs(%{{.*}} : memref<16x8xf32>)
// CHECK:     linalg.fill
// CHECK:     linalg.generic {{.*}} ins(%[[X]] : memref<16x8xf16>) outs(%{{.*}} : memref<16x8xf32>)
#a = affine_map<(i, j, k) -> (i, k)>
#at = affine_map<(i, j, k) -> (k, i)>
#b = affine_map<(i, j, k) -> (k, j)>
#c = affine_map<(i, j, k) -> (i, j)>
func.func @later_block_argument(%h: memref<16x8xf16>, %w: memref<8x16xf16>, %dy: memref<16x16xf16>,
               %y: memref<16x16xf32>, %dw: memref<8x16xf32>, %cond: i1) {
  %one = arith.constant 1.0 : f16
  %buf = memref.alloc() : memref<16x8xf16>
  memref.copy %h, %buf : memref<16x8xf16> to memref<16x8xf16>
  cf.br ^bb1(%buf : memref<16x8xf16>)
^bb1(%x: memref<16x8xf16>):
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%x, %w : memref<16x8xf16>, memref<8x16xf16>) outs(%y : memref<16x16xf32>) {
  ^bb0(%p: f16, %q: f16, %o: f32):
    %pe = arith.extf %p : f16 to f32
    %qe = arith.extf %q : f16 to f32
    %m = arith.mulf %pe, %qe : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  }
  linalg.fill ins(%one : f16) outs(%buf : memref<16x8xf16>)
  linalg.generic {indexing_maps = [#at, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%x, %dy : memref<16x8xf16>, memref<16x16xf16>) outs(%dw : memref<8x16xf32>) {
  ^bb0(%p: f16, %q: f16, %o: f32):
    %pe = arith.extf %p : f16 to f32
    %qe = arith.extf %q : f16 to f32
    %m = arith.mulf %pe, %qe : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  }
  memref.dealloc %buf : memref<16x8xf16>
  return
}
