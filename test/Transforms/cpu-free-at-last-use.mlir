// RUN: amp-opt %s --split-input-file --amp-cpu-free-at-last-use | FileCheck %s

// amp-cpu-free-at-last-use moves the free of an entry-block buffer from the
// end of the block (where ownership-based deallocation puts it) to right
// after its last use, also through views and inside nested ops.

// %a is last read by the copy into %b (through a subview); %b by the loop
// that reads it. Both frees move up; %c is read until the end.
// CHECK-LABEL: func.func @moved
// CHECK:       %[[A:.*]] = memref.alloc() : memref<8x8xf32>
// CHECK:       %[[B:.*]] = memref.alloc() : memref<8xf32>
// CHECK:       %[[C:.*]] = memref.alloc() : memref<8xf32>
// CHECK:       linalg.fill {{.*}} outs(%[[A]] :
// CHECK:       %[[ROW:.*]] = memref.subview %[[A]]
// CHECK:       memref.copy %[[ROW]], %[[B]]
// CHECK-NEXT:  memref.dealloc %[[A]]
// CHECK-NEXT:  scf.for
// CHECK:         memref.load %[[B]]
// CHECK:       }
// CHECK-NEXT:  memref.dealloc %[[B]]
// CHECK-NEXT:  linalg.fill {{.*}} outs(%[[C]] :
// CHECK-NEXT:  memref.copy %[[C]], %arg1
// CHECK-NEXT:  memref.dealloc %[[C]]
// CHECK-NEXT:  return
func.func @moved(%x: f32, %out: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %a = memref.alloc() : memref<8x8xf32>
  %b = memref.alloc() : memref<8xf32>
  %c = memref.alloc() : memref<8xf32>
  linalg.fill ins(%x : f32) outs(%a : memref<8x8xf32>)
  %row = memref.subview %a[0, 0] [1, 8] [1, 1] : memref<8x8xf32> to memref<8xf32, strided<[1]>>
  memref.copy %row, %b : memref<8xf32, strided<[1]>> to memref<8xf32>
  scf.for %i = %c0 to %c8 step %c1 {
    %v = memref.load %b[%i] : memref<8xf32>
    memref.store %v, %out[%i] : memref<8xf32>
  }
  linalg.fill ins(%x : f32) outs(%c : memref<8xf32>)
  memref.copy %c, %out : memref<8xf32> to memref<8xf32>
  memref.dealloc %a : memref<8x8xf32>
  memref.dealloc %b : memref<8xf32>
  memref.dealloc %c : memref<8xf32>
  return
}

// -----

// Left alone: %a, which an arith.select may pass on (the select's result
// may alias it, and is used after the select), and %b, freed inside an
// scf.if rather than by one free of the entry block.
// CHECK-LABEL: func.func @kept
// CHECK:       arith.select
// CHECK:       linalg.fill
// CHECK:       linalg.fill
// CHECK-NEXT:  memref.dealloc %{{.*}} : memref<4xf32>
// CHECK-NEXT:  scf.if
// CHECK-NEXT:    memref.dealloc
// CHECK:       return
func.func @kept(%x: f32, %p: i1, %other: memref<4xf32>) {
  %a = memref.alloc() : memref<4xf32>
  %b = memref.alloc() : memref<4xf32>
  linalg.fill ins(%x : f32) outs(%a : memref<4xf32>)
  %s = arith.select %p, %a, %other : memref<4xf32>
  linalg.fill ins(%x : f32) outs(%b : memref<4xf32>)
  linalg.fill ins(%x : f32) outs(%s : memref<4xf32>)
  memref.dealloc %a : memref<4xf32>
  scf.if %p {
    memref.dealloc %b : memref<4xf32>
  }
  return
}

// -----

// Left alone: a buffer whose address is taken as an integer (runtime alias
// checks compare addresses; a freed buffer's may be reused).
// CHECK-LABEL: func.func @address_taken
// CHECK:       memref.extract_aligned_pointer_as_index
// CHECK-NEXT:  linalg.fill
// CHECK-NEXT:  memref.dealloc
// CHECK-NEXT:  return
func.func @address_taken(%x: f32, %other: memref<4xf32>) -> index {
  %a = memref.alloc() : memref<4xf32>
  linalg.fill ins(%x : f32) outs(%a : memref<4xf32>)
  %p = memref.extract_aligned_pointer_as_index %a : memref<4xf32> -> index
  linalg.fill ins(%x : f32) outs(%other : memref<4xf32>)
  memref.dealloc %a : memref<4xf32>
  return %p : index
}

// -----

// Left alone (break-it, 2026-12-05: these were freed before the later
// access): the buffer stored as a value into a memref of memrefs and read
// back, and a tensor made of it that is read after its last direct use.
// CHECK-LABEL: func.func @stored
// CHECK:       memref.copy
// CHECK-NEXT:  memref.dealloc
// CHECK-NEXT:  return
func.func @stored(%x: f32, %out: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %box = memref.alloca() : memref<1xmemref<4xf32>>
  %a = memref.alloc() : memref<4xf32>
  linalg.fill ins(%x : f32) outs(%a : memref<4xf32>)
  memref.store %a, %box[%c0] : memref<1xmemref<4xf32>>
  %b = memref.load %box[%c0] : memref<1xmemref<4xf32>>
  memref.copy %b, %out : memref<4xf32> to memref<4xf32>
  memref.dealloc %a : memref<4xf32>
  return
}
// CHECK-LABEL: func.func @to_tensor
// CHECK:       linalg.copy
// CHECK-NEXT:  memref.dealloc
// CHECK-NEXT:  return
func.func @to_tensor(%x: f32) -> tensor<4xf32> {
  %a = memref.alloc() : memref<4xf32>
  linalg.fill ins(%x : f32) outs(%a : memref<4xf32>)
  %t = bufferization.to_tensor %a restrict : memref<4xf32> to tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.copy ins(%t : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  memref.dealloc %a : memref<4xf32>
  return %r : tensor<4xf32>
}
