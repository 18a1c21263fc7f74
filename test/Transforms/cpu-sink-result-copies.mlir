// amp-cpu-sink-result-copies: the copy of an scf.if result into its
// out-parameter (what buffer-results-to-out-params leaves for a result it
// cannot hoist) moves into the branches. The branch that computed into its
// own buffer computes into the out-parameter; the branch that yields the
// old value copies it.
// RUN: amp-opt %s -split-input-file -amp-cpu-sink-result-copies | FileCheck %s

#id = affine_map<(d0) -> (d0)>

// Loss scaling's skip-update region: skip yields the old parameter, else
// the update into a fresh buffer.
// CHECK-LABEL: func.func @skip_update
// CHECK-SAME: (%[[W:.*]]: memref<4xf32>, %[[G:.*]]: memref<4xf32>, %[[SKIP:.*]]: i1, %[[OUT:.*]]: memref<4xf32>)
// CHECK: scf.if %[[SKIP]]
// CHECK-NEXT: memref.copy %[[W]], %[[OUT]]
// CHECK-NEXT: scf.yield %[[W]]
// CHECK: } else {
// CHECK-NOT: memref.alloc
// CHECK: linalg.generic {{.*}} ins(%[[W]], %[[G]] : memref<4xf32>, memref<4xf32>) outs(%[[OUT]] : memref<4xf32>)
// CHECK: scf.yield %[[OUT]]
// CHECK-NOT: memref.copy
// CHECK: return
func.func @skip_update(%w: memref<4xf32>, %g: memref<4xf32>, %skip: i1,
                       %out: memref<4xf32>) {
  %r = scf.if %skip -> memref<4xf32> {
    scf.yield %w : memref<4xf32>
  } else {
    %new = memref.alloc() : memref<4xf32>
    linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
        ins(%w, %g : memref<4xf32>, memref<4xf32>) outs(%new : memref<4xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %d = arith.subf %a, %b : f32
      linalg.yield %d : f32
    }
    scf.yield %new : memref<4xf32>
  }
  memref.copy %r, %out : memref<4xf32> to memref<4xf32>
  return
}

// -----

// Left alone: the out-parameter is also read elsewhere, the result is also
// used elsewhere. A buffer yielded twice is replaced once and copied once.
// CHECK-LABEL: func.func @not_sunk
// CHECK: scf.if
// CHECK: memref.copy %{{.*}}, %arg2
// CHECK: memref.copy %{{.*}}, %arg3
// CHECK-LABEL: func.func @yielded_twice
// CHECK-SAME: (%{{.*}}: memref<4xf32>, %{{.*}}: i1, %[[O1:.*]]: memref<4xf32>, %[[O2:.*]]: memref<4xf32>)
// CHECK: } else {
// CHECK-NEXT: %[[NEW:.*]] = memref.alloc
// CHECK: memref.copy %[[NEW]], %[[O1]]
// CHECK-NEXT: memref.copy %[[NEW]], %[[O2]]
// CHECK-NEXT: scf.yield %[[NEW]], %[[NEW]]
func.func @not_sunk(%w: memref<4xf32>, %skip: i1, %out: memref<4xf32>,
                    %out2: memref<4xf32>) {
  %r:2 = scf.if %skip -> (memref<4xf32>, memref<4xf32>) {
    scf.yield %w, %w : memref<4xf32>, memref<4xf32>
  } else {
    %new = memref.alloc() : memref<4xf32>
    %new2 = memref.alloc() : memref<4xf32>
    scf.yield %new, %new2 : memref<4xf32>, memref<4xf32>
  }
  memref.copy %out, %w : memref<4xf32> to memref<4xf32>
  memref.copy %r#0, %out : memref<4xf32> to memref<4xf32>
  memref.copy %r#1, %out2 : memref<4xf32> to memref<4xf32>
  memref.copy %r#1, %w : memref<4xf32> to memref<4xf32>
  return
}

func.func @yielded_twice(%w: memref<4xf32>, %skip: i1, %out: memref<4xf32>,
                         %out2: memref<4xf32>) {
  %r:2 = scf.if %skip -> (memref<4xf32>, memref<4xf32>) {
    scf.yield %w, %w : memref<4xf32>, memref<4xf32>
  } else {
    %new = memref.alloc() : memref<4xf32>
    scf.yield %new, %new : memref<4xf32>, memref<4xf32>
  }
  memref.copy %r#0, %out : memref<4xf32> to memref<4xf32>
  memref.copy %r#1, %out2 : memref<4xf32> to memref<4xf32>
  return
}

// -----

// Not sunk: a write between the scf.if and the copy to a buffer a branch
// yields (the copy would move before it). A write to another
// out-parameter does not stop it.
// CHECK-LABEL: func.func @write_between
// CHECK: scf.if
// CHECK-NOT: memref.copy
// CHECK: memref.store
// CHECK-NEXT: memref.copy %{{.*}}, %arg2
// CHECK-LABEL: func.func @other_out_between
// CHECK: scf.if
// CHECK-NEXT: memref.copy %arg0, %arg2
// CHECK: memref.store %{{.*}}, %arg3
// CHECK-NEXT: return
func.func @write_between(%w: memref<4xf32>, %skip: i1, %out: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %five = arith.constant 5.0 : f32
  %r = scf.if %skip -> memref<4xf32> {
    scf.yield %w : memref<4xf32>
  } else {
    %new = memref.alloc() : memref<4xf32>
    linalg.fill ins(%five : f32) outs(%new : memref<4xf32>)
    scf.yield %new : memref<4xf32>
  }
  memref.store %five, %w[%c0] : memref<4xf32>
  memref.copy %r, %out : memref<4xf32> to memref<4xf32>
  return
}

func.func @other_out_between(%w: memref<4xf32>, %skip: i1, %out: memref<4xf32>,
                             %scale: memref<f32>) {
  %five = arith.constant 5.0 : f32
  %r = scf.if %skip -> memref<4xf32> {
    scf.yield %w : memref<4xf32>
  } else {
    %new = memref.alloc() : memref<4xf32>
    linalg.fill ins(%five : f32) outs(%new : memref<4xf32>)
    scf.yield %new : memref<4xf32>
  }
  memref.store %five, %scale[] : memref<f32>
  memref.copy %r, %out : memref<4xf32> to memref<4xf32>
  return
}

// -----

// A buffer that is also reachable under another name (a cast yielded
// beside it) is not replaced by the out-parameter: the branch copies it.
// CHECK-LABEL: func.func @aliased
// CHECK: } else {
// CHECK: %[[NEW:.*]] = memref.alloc
// CHECK: memref.copy %[[NEW]], %arg2
// CHECK-NEXT: scf.yield %[[NEW]]
func.func @aliased(%w: memref<4xf32>, %skip: i1, %out: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  %five = arith.constant 5.0 : f32
  %r:2 = scf.if %skip -> (memref<4xf32>, memref<?xf32>) {
    %c = memref.cast %w : memref<4xf32> to memref<?xf32>
    scf.yield %w, %c : memref<4xf32>, memref<?xf32>
  } else {
    %new = memref.alloc() : memref<4xf32>
    linalg.fill ins(%one : f32) outs(%new : memref<4xf32>)
    %c = memref.cast %new : memref<4xf32> to memref<?xf32>
    scf.yield %new, %c : memref<4xf32>, memref<?xf32>
  }
  memref.copy %r#0, %out : memref<4xf32> to memref<4xf32>
  memref.store %five, %r#1[%c0] : memref<?xf32>
  return
}
