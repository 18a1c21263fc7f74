// amp-gpu-launch-host-compute: leftover host accesses to device memory run
// in one-thread kernels; host allocations and copies use the device.
// RUN: amp-opt %s --amp-gpu-launch-host-compute --split-input-file -verify-diagnostics | FileCheck %s

// A full reduction (no parallel loop left) and its store: one launch of one
// thread; the alloc/copy/dealloc around it become gpu ops.
// CHECK-LABEL: func.func @loss(
// CHECK-SAME: %[[X:[^:]+]]: memref<128xf32>, %[[OUT:[^:]+]]: memref<f32>
// CHECK: %[[BUF:.*]] = gpu.alloc () : memref<f32>
// CHECK: %[[ONE:.*]] = arith.constant 1 : index
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %[[ONE]], {{.*}} = %[[ONE]], {{.*}} = %[[ONE]]) threads({{.*}}) in ({{.*}} = %[[ONE]], {{.*}} = %[[ONE]], {{.*}} = %[[ONE]])
// CHECK: scf.for
// CHECK: memref.load %[[X]]
// CHECK: memref.store {{.*}}, %[[BUF]][]
// CHECK: gpu.terminator
// CHECK: gpu.memcpy %[[OUT]], %[[BUF]] : memref<f32>, memref<f32>
// CHECK: gpu.dealloc %[[BUF]] : memref<f32>
// CHECK-NOT: memref.alloc
// CHECK-NOT: memref.dealloc
// CHECK-NOT: memref.copy
func.func @loss(%x: memref<128xf32>, %out: memref<f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %z = arith.constant 0.0 : f32
  %buf = memref.alloc() : memref<f32>
  %sum = scf.for %i = %c0 to %c128 step %c1 iter_args(%acc = %z) -> f32 {
    %v = memref.load %x[%i] : memref<128xf32>
    %s = arith.addf %acc, %v : f32
    scf.yield %s : f32
  }
  memref.store %sum, %buf[] : memref<f32>
  memref.copy %buf, %out : memref<f32> to memref<f32>
  memref.dealloc %buf : memref<f32>
  return
}

// -----

// A non-splat constant: copied from its host global into device memory,
// freed at the return.
memref.global "private" constant @table : memref<4xf32> = dense<[1.0, 2.0, 3.0, 4.0]>
// CHECK-LABEL: func.func @global(
// CHECK: %[[H:.*]] = memref.get_global @table : memref<4xf32>
// CHECK: %[[D:.*]] = gpu.alloc () : memref<4xf32>
// CHECK: gpu.memcpy %[[D]], %[[H]] : memref<4xf32>, memref<4xf32>
// CHECK: gpu.launch
// CHECK: memref.load %[[D]]
// CHECK: gpu.dealloc %[[D]]
// CHECK-NEXT: return
func.func @global(%out: memref<f32>) {
  %c2 = arith.constant 2 : index
  %t = memref.get_global @table : memref<4xf32>
  %v = memref.load %t[%c2] : memref<4xf32>
  memref.store %v, %out[] : memref<f32>
  return
}

// -----

// A device value that host control flow needs cannot stay on the device.
func.func @host_branch(%flag: memref<i1>, %m: memref<4xf32>) {
  // expected-error @+1 {{this value is computed from device memory but used by host code ('scf.if')}}
  %f = memref.load %flag[] : memref<i1>
  scf.if %f {
    memref.dealloc %m : memref<4xf32>
  }
  return
}
