// RUN: amp-opt %s --split-input-file --amp-cpu-plan-buffers | FileCheck %s
// RUN: amp-opt %s --split-input-file --amp-cpu-plan-buffers="min-alignment=1" | FileCheck %s --check-prefix=MIN1
// RUN: not amp-opt %s --split-input-file --amp-cpu-plan-buffers="min-alignment=48" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ALIGN

// ALIGN: error: amp-cpu-plan-buffers: min-alignment must be a power of 2

// amp-cpu-plan-buffers places the temporaries of a function's entry block
// (static, freed once in that block) in one arena: buffers alive at the
// same time get disjoint byte ranges, a buffer allocated after another is
// freed may reuse its bytes. The largest is placed first (and four other
// orders are tried; the smallest arena is kept: @orders, @equal_sizes,
// @breadth).

// %a (4 KB) and %b (1 KB) are alive together; %c (2 KB) is allocated after
// both are freed. Placed by size: %a at 0, %c at 0 (neither alive with it),
// %b after %a at 4096. Arena: 5120 bytes, the most the function's buffers
// take at once (amp.cpu_buffer_peak, which amp-run prints).
// CHECK-LABEL: func.func @lifetimes
// CHECK-SAME:  attributes {amp.cpu_buffer_peak = 5120 : i64}
// CHECK-NEXT:  %[[ARENA:.*]] = memref.alloc() {alignment = 64 : i64} : memref<5120xi8>
// CHECK-NEXT:  %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:  %[[A:.*]] = memref.view %[[ARENA]][%[[C0]]][] : memref<5120xi8> to memref<32x32xf32>
// CHECK-NEXT:  %[[O1:.*]] = arith.constant 4096 : index
// CHECK-NEXT:  %[[B:.*]] = memref.view %[[ARENA]][%[[O1]]][] : memref<5120xi8> to memref<512xf16>
// CHECK:       linalg.fill {{.*}} outs(%[[A]] :
// CHECK:       linalg.fill {{.*}} outs(%[[B]] :
// CHECK:       %[[C:.*]] = memref.view %[[ARENA]][%{{.*}}][] : memref<5120xi8> to memref<512xf32>
// CHECK:       linalg.fill {{.*}} outs(%[[C]] :
// CHECK-NOT:   memref.dealloc %[[A]]
// CHECK-NOT:   memref.dealloc %[[B]]
// CHECK:       memref.dealloc %[[ARENA]]
// CHECK-NEXT:  return
func.func @lifetimes(%x: f32, %y: f16) {
  %a = memref.alloc() : memref<32x32xf32>
  %b = memref.alloc() : memref<512xf16>
  linalg.fill ins(%x : f32) outs(%a : memref<32x32xf32>)
  linalg.fill ins(%y : f16) outs(%b : memref<512xf16>)
  memref.dealloc %a : memref<32x32xf32>
  memref.dealloc %b : memref<512xf16>
  %c = memref.alloc() : memref<512xf32>
  linalg.fill ins(%x : f32) outs(%c : memref<512xf32>)
  memref.dealloc %c : memref<512xf32>
  return
}

// -----

// A chain of lifetimes %a-%b-%c-%d (each alive with its neighbours only),
// 192, 192, 128 and 256 bytes. Largest first: %d at 0, %a at 0, %b at 192,
// %c, alive with %d (0-256) and %b (192-384), at 384: 512 bytes. By size
// x lifetime (%d, %b, %a, %c): %d and %b at 0, %a at 192, %c at 256: 384
// bytes, the arena kept.
// CHECK-LABEL: func.func @orders
// CHECK-SAME:  attributes {amp.cpu_buffer_peak = 384 : i64}
// CHECK-NEXT:  memref.alloc() {alignment = 64 : i64} : memref<384xi8>
func.func @orders(%x: i8) {
  %a = memref.alloc() : memref<192xi8>
  linalg.fill ins(%x : i8) outs(%a : memref<192xi8>)
  %b = memref.alloc() : memref<192xi8>
  linalg.fill ins(%x : i8) outs(%b : memref<192xi8>)
  memref.dealloc %a : memref<192xi8>
  %c = memref.alloc() : memref<128xi8>
  linalg.fill ins(%x : i8) outs(%c : memref<128xi8>)
  memref.dealloc %b : memref<192xi8>
  %d = memref.alloc() : memref<256xi8>
  linalg.fill ins(%x : i8) outs(%d : memref<256xi8>)
  memref.dealloc %c : memref<128xi8>
  memref.dealloc %d : memref<256xi8>
  return
}

// -----

// Equal sizes, the longest-lived first. Lifetimes (entry-block positions):
// %b1 0-6, %b2 2-9, %b3 4-12, %b4 7-14, %b5 (256 bytes) 10-13; 640 bytes
// are alive at position 10. By size with equal sizes in program order
// (%b5, %b1, %b2, %b3, %b4): %b3 lands at 384 and %b4 at 576, 768 bytes.
// By size, then lifetime (%b5, %b3, %b2, %b4, %b1): %b5 at 0, %b3 at 256,
// %b2 at 0, %b4 and %b1 at 448: 640 bytes. The other orders give 832.
// CHECK-LABEL: func.func @equal_sizes
// CHECK-SAME:  attributes {amp.cpu_buffer_peak = 640 : i64}
// CHECK-NEXT:  memref.alloc() {alignment = 64 : i64} : memref<640xi8>
func.func @equal_sizes(%x: i8) {
  %b1 = memref.alloc() : memref<192xi8>
  linalg.fill ins(%x : i8) outs(%b1 : memref<192xi8>)
  %b2 = memref.alloc() : memref<192xi8>
  linalg.fill ins(%x : i8) outs(%b2 : memref<192xi8>)
  %b3 = memref.alloc() : memref<192xi8>
  linalg.fill ins(%x : i8) outs(%b3 : memref<192xi8>)
  memref.dealloc %b1 : memref<192xi8>
  %b4 = memref.alloc() : memref<192xi8>
  linalg.fill ins(%x : i8) outs(%b4 : memref<192xi8>)
  memref.dealloc %b2 : memref<192xi8>
  %b5 = memref.alloc() : memref<256xi8>
  linalg.fill ins(%x : i8) outs(%b5 : memref<256xi8>)
  memref.dealloc %b3 : memref<192xi8>
  memref.dealloc %b5 : memref<256xi8>
  memref.dealloc %b4 : memref<192xi8>
  return
}

// -----

// Greedy by breadth. Lifetimes: %b1 (256 bytes) 0-15, %b2 2-8, %b3 4-12,
// %b4 6-11, %b5 9-17, %b6 (256 bytes) 13-16; 640 bytes are alive at
// positions 6, 9 and 13. The widest point first (6): %b1 at 0, %b2 at 256,
// %b3 at 384, %b4 at 512; then point 9: %b5 in %b2's bytes, at 256; then
// point 13: %b6 at 384. 640 bytes; the other orders give 768 (by size,
// %b5 lands above %b6's 256-512 and %b4's 512-640).
// CHECK-LABEL: func.func @breadth
// CHECK-SAME:  attributes {amp.cpu_buffer_peak = 640 : i64}
// CHECK-NEXT:  %[[ARENA:.*]] = memref.alloc() {alignment = 64 : i64} : memref<640xi8>
// CHECK-NEXT:  arith.constant 0 : index
// CHECK-NEXT:  memref.view %[[ARENA]]{{.*}} to memref<256xi8>
// CHECK:       arith.constant 256 : index
// CHECK-NEXT:  memref.view %[[ARENA]]{{.*}} to memref<128xi8>
// CHECK:       arith.constant 384 : index
// CHECK-NEXT:  memref.view %[[ARENA]]{{.*}} to memref<128xi8>
// CHECK:       arith.constant 512 : index
// CHECK-NEXT:  memref.view %[[ARENA]]{{.*}} to memref<128xi8>
// CHECK:       arith.constant 256 : index
// CHECK-NEXT:  memref.view %[[ARENA]]{{.*}} to memref<128xi8>
// CHECK:       arith.constant 384 : index
// CHECK-NEXT:  memref.view %[[ARENA]]{{.*}} to memref<256xi8>
func.func @breadth(%x: i8) {
  %b1 = memref.alloc() : memref<256xi8>
  linalg.fill ins(%x : i8) outs(%b1 : memref<256xi8>)
  %b2 = memref.alloc() : memref<128xi8>
  linalg.fill ins(%x : i8) outs(%b2 : memref<128xi8>)
  %b3 = memref.alloc() : memref<128xi8>
  linalg.fill ins(%x : i8) outs(%b3 : memref<128xi8>)
  %b4 = memref.alloc() : memref<128xi8>
  linalg.fill ins(%x : i8) outs(%b4 : memref<128xi8>)
  memref.dealloc %b2 : memref<128xi8>
  %b5 = memref.alloc() : memref<128xi8>
  linalg.fill ins(%x : i8) outs(%b5 : memref<128xi8>)
  memref.dealloc %b4 : memref<128xi8>
  memref.dealloc %b3 : memref<128xi8>
  %b6 = memref.alloc() : memref<256xi8>
  linalg.fill ins(%x : i8) outs(%b6 : memref<256xi8>)
  memref.dealloc %b1 : memref<256xi8>
  memref.dealloc %b6 : memref<256xi8>
  memref.dealloc %b5 : memref<128xi8>
  return
}

// -----

// A buffer's own alignment above min-alignment is kept: %b (alignment 256)
// lands at 256, after %a's 100 bytes, and the arena is aligned to 256.
// CHECK-LABEL: func.func @alignment
// CHECK:       %[[ARENA:.*]] = memref.alloc() {alignment = 256 : i64} : memref<356xi8>
// CHECK:       arith.constant 0 : index
// CHECK:       memref.view %[[ARENA]]{{.*}} to memref<25xf32>
// CHECK:       arith.constant 256 : index
// CHECK:       memref.view %[[ARENA]]{{.*}} to memref<25xf32>
func.func @alignment(%x: f32) {
  %a = memref.alloc() : memref<25xf32>
  %b = memref.alloc() {alignment = 256 : i64} : memref<25xf32>
  linalg.fill ins(%x : f32) outs(%a : memref<25xf32>)
  linalg.fill ins(%x : f32) outs(%b : memref<25xf32>)
  memref.dealloc %a : memref<25xf32>
  memref.dealloc %b : memref<25xf32>
  return
}

// -----

// Left as they are: a buffer freed in a nested region, one never freed
// (returned), a dynamic one, an i1 one, one allocated in a nested region,
// two i24 ones (stored in 4 bytes each; break-it, 2026-12-02).
// With fewer than two temporaries left there is no arena; with a dynamic
// allocation the peak is not known (no amp.cpu_buffer_peak).
// CHECK-LABEL: func.func @not_temporaries
// CHECK-NOT:   amp.cpu_buffer_peak
// CHECK-NOT:   memref.view
// CHECK:       memref.alloc() : memref<16xf32>
// CHECK:       memref.alloc() : memref<8xf32>
// CHECK:       memref.alloc(%{{.*}}) : memref<?xf32>
// CHECK:       memref.alloc() : memref<16xi1>
// CHECK:       memref.alloc() : memref<4xf32>
// CHECK:       memref.alloc() : memref<64xi24>
// CHECK:       memref.alloc() : memref<64xi24>
// CHECK-NOT:   memref.view
// CHECK:       return
func.func @not_temporaries(%x: f32, %n: index, %p: i1) -> memref<8xf32> {
  %freed_in_if = memref.alloc() : memref<16xf32>
  %returned = memref.alloc() : memref<8xf32>
  %dynamic = memref.alloc(%n) : memref<?xf32>
  %bits = memref.alloc() : memref<16xi1>
  linalg.fill ins(%x : f32) outs(%freed_in_if : memref<16xf32>)
  linalg.fill ins(%x : f32) outs(%returned : memref<8xf32>)
  linalg.fill ins(%x : f32) outs(%dynamic : memref<?xf32>)
  scf.if %p {
    %nested = memref.alloc() : memref<4xf32>
    linalg.fill ins(%x : f32) outs(%nested : memref<4xf32>)
    memref.dealloc %nested : memref<4xf32>
    memref.dealloc %freed_in_if : memref<16xf32>
  }
  %i24a = memref.alloc() : memref<64xi24>
  %i24b = memref.alloc() : memref<64xi24>
  memref.dealloc %i24a : memref<64xi24>
  memref.dealloc %i24b : memref<64xi24>
  memref.dealloc %dynamic : memref<?xf32>
  memref.dealloc %bits : memref<16xi1>
  return %returned : memref<8xf32>
}

// -----

// %acc is the init of a reduction (through a view, as amp-cpu-parallelize
// leaves it): it keeps its own allocation, so that LLVM can keep the
// accumulated element in a register; %a and %b share the arena. The peak
// counts both: the arena (512 B) and %acc (32 B).
// CHECK-LABEL: func.func @reduction_init
// CHECK-SAME:  attributes {amp.cpu_buffer_peak = 544 : i64}
// CHECK:       %[[ARENA:.*]] = memref.alloc() {alignment = 64 : i64} : memref<{{[0-9]+}}xi8>
// CHECK:       memref.view %[[ARENA]]{{.*}} to memref<8x8xf32>
// CHECK:       memref.view %[[ARENA]]{{.*}} to memref<8x8xf32>
// CHECK:       %[[ACC:.*]] = memref.alloc() : memref<8xf32>
// CHECK:       memref.subview %[[ACC]]
// CHECK:       memref.dealloc %[[ACC]]
func.func @reduction_init(%x: f32, %out: memref<8xf32>) {
  %a = memref.alloc() : memref<8x8xf32>
  %b = memref.alloc() : memref<8x8xf32>
  linalg.fill ins(%x : f32) outs(%a : memref<8x8xf32>)
  linalg.fill ins(%x : f32) outs(%b : memref<8x8xf32>)
  %acc = memref.alloc() : memref<8xf32>
  linalg.fill ins(%x : f32) outs(%acc : memref<8xf32>)
  %view = memref.subview %acc[0] [8] [1] : memref<8xf32> to memref<8xf32, strided<[1]>>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                  iterator_types = ["parallel", "reduction"]}
    ins(%a, %b : memref<8x8xf32>, memref<8x8xf32>) outs(%view : memref<8xf32, strided<[1]>>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  }
  memref.copy %acc, %out : memref<8xf32> to memref<8xf32>
  memref.dealloc %a : memref<8x8xf32>
  memref.dealloc %b : memref<8x8xf32>
  memref.dealloc %acc : memref<8xf32>
  return
}

// -----

// A temporary of an scf.for body (a pack per image) moves out of the loop
// (out of both loops here) and into the arena with the entry block's
// temporaries (in the bytes of %big, freed before it); one inside an
// scf.parallel stays (each thread needs its own), and so does one the loop
// yields a view of (never freed in the loop).
// CHECK-LABEL: func.func @loop_temporaries
// CHECK-SAME:  attributes {amp.cpu_buffer_peak = 4096 : i64}
// CHECK:       %[[ARENA:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4096xi8>
// CHECK:       %[[P:.*]] = memref.view %[[ARENA]][%{{.*}}][] : memref<4096xi8> to memref<16x32xf32>
// CHECK:       scf.for
// CHECK:         scf.for
// CHECK:           linalg.fill {{.*}} outs(%[[P]] :
// CHECK:           scf.parallel
// CHECK:             %[[T:.*]] = memref.alloc() : memref<64xf32>
// CHECK:             memref.dealloc %[[T]]
// CHECK-NOT:   memref.dealloc %[[P]]
// CHECK:       memref.dealloc %[[ARENA]]
// CHECK:       scf.for {{.*}} iter_args
// CHECK:         %[[Y:.*]] = memref.alloc() : memref<8x8xf32>
// CHECK:         memref.subview %[[Y]]
// CHECK:         scf.yield
func.func @loop_temporaries(%out: memref<16x32xf32>, %init: memref<8xf32, strided<[1]>>) -> memref<8xf32, strided<[1]>> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %one = arith.constant 1.0 : f32
  %big = memref.alloc() : memref<1024xf32>
  linalg.fill ins(%one : f32) outs(%big : memref<1024xf32>)
  memref.dealloc %big : memref<1024xf32>
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %j = %c0 to %c4 step %c1 {
      %pack = memref.alloc() : memref<16x32xf32>
      linalg.fill ins(%one : f32) outs(%pack : memref<16x32xf32>)
      scf.parallel (%t) = (%c0) to (%c4) step (%c1) {
        %own = memref.alloc() : memref<64xf32>
        linalg.fill ins(%one : f32) outs(%own : memref<64xf32>)
        memref.dealloc %own : memref<64xf32>
        scf.reduce
      }
      memref.copy %pack, %out : memref<16x32xf32> to memref<16x32xf32>
      memref.dealloc %pack : memref<16x32xf32>
    }
  }
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %init) -> (memref<8xf32, strided<[1]>>) {
    %y = memref.alloc() : memref<8x8xf32>
    linalg.fill ins(%one : f32) outs(%y : memref<8x8xf32>)
    %row = memref.subview %y[0, 0] [1, 8] [1, 1] : memref<8x8xf32> to memref<8xf32, strided<[1]>>
    scf.yield %row : memref<8xf32, strided<[1]>>
  }
  return %r : memref<8xf32, strided<[1]>>
}

// -----

// A loop temporary freed right after it is allocated (nothing between):
// hoisted like the others (the pass used to hang here, moving the free
// while walking the loop body).
// CHECK-LABEL: func.func @adjacent_free
// CHECK:         %[[A:.*]] = memref.alloc() : memref<16xf32>
// CHECK-NEXT:    scf.for
// CHECK-NEXT:    }
// CHECK-NEXT:    memref.dealloc %[[A]]
func.func @adjacent_free(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %a = memref.alloc() : memref<16xf32>
    memref.dealloc %a : memref<16xf32>
  }
  return
}

// -----

// An element's size bounds the alignment from below whatever min-alignment
// says: with min-alignment=1, the f64 buffer after 35 bytes of i8 lands at
// byte 40, not 35 (break-it, 2026-12-06).
// MIN1-LABEL: func.func @element_alignment
// MIN1:       memref.alloc() {alignment = 8 : i64} : memref<72xi8>
// MIN1:       arith.constant 0 : index
// MIN1-NEXT:  memref.view {{.*}} to memref<35xi8>
// MIN1:       arith.constant 40 : index
// MIN1-NEXT:  memref.view {{.*}} to memref<4xf64>
func.func @element_alignment(%x: i8, %y: f64) {
  %a = memref.alloc() : memref<35xi8>
  %b = memref.alloc() : memref<4xf64>
  linalg.fill ins(%x : i8) outs(%a : memref<35xi8>)
  linalg.fill ins(%y : f64) outs(%b : memref<4xf64>)
  memref.dealloc %a : memref<35xi8>
  memref.dealloc %b : memref<4xf64>
  return
}
