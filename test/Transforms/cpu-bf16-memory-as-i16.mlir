// amp-cpu-bf16-memory-as-i16: loads, stores and selects of bf16 (scalars
// and vectors) in the LLVM dialect become i16 ones (alignment and
// volatility kept), bitcast pairs fold away.
// RUN: amp-opt %s --amp-cpu-bf16-memory-as-i16 | FileCheck %s

// CHECK-LABEL: llvm.func @select_rows(
// CHECK-SAME:    %[[P:.*]]: !llvm.ptr, %[[Q:.*]]: !llvm.ptr, %[[C:.*]]: vector<9xi1>)
// CHECK:         %[[V:.*]] = llvm.load volatile %[[P]] {alignment = 2 : i64} : !llvm.ptr -> vector<9xi16>
// CHECK:         %[[S:.*]] = llvm.select %[[C]], %[[V]], %{{.*}} : vector<9xi1>, vector<9xi16>
// CHECK:         llvm.store %[[S]], %[[Q]] {alignment = 2 : i64} : vector<9xi16>, !llvm.ptr
// CHECK-NOT:     llvm.bitcast
// CHECK:         %[[X:.*]] = llvm.load %[[P]] : !llvm.ptr -> i16
// CHECK:         llvm.store %[[X]], %[[Q]] : i16, !llvm.ptr
llvm.func @select_rows(%p: !llvm.ptr, %q: !llvm.ptr, %c: vector<9xi1>) {
  %v = llvm.load volatile %p {alignment = 2 : i64} : !llvm.ptr -> vector<9xbf16>
  %b = llvm.bitcast %v : vector<9xbf16> to vector<9xi16>
  %z = llvm.mlir.zero : vector<9xi16>
  %s = llvm.select %c, %b, %z : vector<9xi1>, vector<9xi16>
  %o = llvm.bitcast %s : vector<9xi16> to vector<9xbf16>
  llvm.store %o, %q {alignment = 2 : i64} : vector<9xbf16>, !llvm.ptr
  %x = llvm.load %p : !llvm.ptr -> bf16
  llvm.store %x, %q : bf16, !llvm.ptr
  llvm.return
}

// A bf16 vector used as bf16 (a dot-product intrinsic's operand) keeps a
// bitcast from the i16 load.
// CHECK-LABEL: llvm.func @used_as_bf16(
// CHECK:         %[[V:.*]] = llvm.load %{{.*}} : !llvm.ptr -> vector<32xi16>
// CHECK:         %[[B:.*]] = llvm.bitcast %[[V]] : vector<32xi16> to vector<32xbf16>
// CHECK:         llvm.return %[[B]] : vector<32xbf16>
llvm.func @used_as_bf16(%p: !llvm.ptr) -> vector<32xbf16> {
  %v = llvm.load %p : !llvm.ptr -> vector<32xbf16>
  llvm.return %v : vector<32xbf16>
}

// Masked loads and stores (a row's tail), gathers and scatters: the same
// ops on i16 (alignment and mask kept); a masked load's bf16 pass-through
// is bitcast to i16. (On AVX2, LLVM scalarizes a masked load of bf16
// through f32 and `__truncsfbf2`, which the JIT cannot resolve.)
// CHECK-LABEL: llvm.func @masked(
// CHECK-SAME:    %[[P:.*]]: !llvm.ptr, %[[Q:.*]]: !llvm.ptr, %[[M:.*]]: vector<16xi1>, %[[T:.*]]: vector<16xbf16>, %[[PS:.*]]: vector<16x!llvm.ptr>)
// CHECK:         %[[TB:.*]] = llvm.bitcast %[[T]] : vector<16xbf16> to vector<16xi16>
// CHECK:         %[[L:.*]] = llvm.intr.masked.load %[[P]], %[[M]], %[[TB]] {alignment = 2 : i32} : (!llvm.ptr, vector<16xi1>, vector<16xi16>) -> vector<16xi16>
// CHECK:         llvm.intr.masked.store %[[L]], %[[Q]], %[[M]] {alignment = 2 : i32} : vector<16xi16>, vector<16xi1> into !llvm.ptr
// CHECK:         %[[TB2:.*]] = llvm.bitcast %[[T]] : vector<16xbf16> to vector<16xi16>
// CHECK:         %[[G:.*]] = llvm.intr.masked.gather %[[PS]], %[[M]], %[[TB2]] {alignment = 2 : i32} : (vector<16x!llvm.ptr>, vector<16xi1>, vector<16xi16>) -> vector<16xi16>
// CHECK:         llvm.intr.masked.scatter %[[G]], %[[PS]], %[[M]] {alignment = 2 : i32} : vector<16xi16>, vector<16xi1> into vector<16x!llvm.ptr>
// CHECK-NOT:     bf16
// CHECK:         llvm.return
llvm.func @masked(%p: !llvm.ptr, %q: !llvm.ptr, %m: vector<16xi1>, %t: vector<16xbf16>, %ps: vector<16x!llvm.ptr>) {
  %v = llvm.intr.masked.load %p, %m, %t {alignment = 2 : i32} : (!llvm.ptr, vector<16xi1>, vector<16xbf16>) -> vector<16xbf16>
  llvm.intr.masked.store %v, %q, %m {alignment = 2 : i32} : vector<16xbf16>, vector<16xi1> into !llvm.ptr
  %g = llvm.intr.masked.gather %ps, %m, %t {alignment = 2 : i32} : (vector<16x!llvm.ptr>, vector<16xi1>, vector<16xbf16>) -> vector<16xbf16>
  llvm.intr.masked.scatter %g, %ps, %m {alignment = 2 : i32} : vector<16xbf16>, vector<16xi1> into vector<16x!llvm.ptr>
  llvm.return
}

// arith-expand's f32 -> bf16 rounding: the canonical NaN or the rounded
// bits, a select of bf16 (scalar here, vectors once LLVM vectorizes the
// loop), stored. As i16: no bf16 value is left.
// CHECK-LABEL: llvm.func @round_nan(
// CHECK-SAME:    %[[C:.*]]: i1, %[[R:.*]]: i16, %[[Q:.*]]: !llvm.ptr, %[[VC:.*]]: vector<8xi1>, %[[VR:.*]]: vector<8xi16>)
// CHECK:         %[[NAN:.*]] = llvm.mlir.constant(3.200000e+01 : bf16) : bf16
// CHECK:         %[[NANBITS:.*]] = llvm.bitcast %[[NAN]] : bf16 to i16
// CHECK:         %[[S:.*]] = llvm.select %[[C]], %[[NANBITS]], %[[R]] : i1, i16
// CHECK:         llvm.store %[[S]], %[[Q]] : i16, !llvm.ptr
// CHECK:         %[[VS:.*]] = llvm.select %[[VC]], %{{.*}}, %[[VR]] : vector<8xi1>, vector<8xi16>
// CHECK:         llvm.store %[[VS]], %[[Q]] : vector<8xi16>, !llvm.ptr
llvm.func @round_nan(%c: i1, %r: i16, %q: !llvm.ptr, %vc: vector<8xi1>, %vr: vector<8xi16>) {
  %nan = llvm.mlir.constant(32.0 : bf16) : bf16
  %b = llvm.bitcast %r : i16 to bf16
  %s = llvm.select %c, %nan, %b : i1, bf16
  llvm.store %s, %q : bf16, !llvm.ptr
  %vnan = llvm.mlir.constant(dense<32.0> : vector<8xbf16>) : vector<8xbf16>
  %vb = llvm.bitcast %vr : vector<8xi16> to vector<8xbf16>
  %vs = llvm.select %vc, %vnan, %vb : vector<8xi1>, vector<8xbf16>
  llvm.store %vs, %q : vector<8xbf16>, !llvm.ptr
  llvm.return
}
