// amp-gpu-fuse-unscale-and-check: one loop over the concatenated index space
// of all gradients (4x8 f16: [0, 32), 16 f32: [32, 48), 2x3x5 bf16: [48, 78)),
// each element read once and written once, one found_inf flag.
// RUN: amp-opt %s --amp-gpu-fuse-unscale-and-check --split-input-file -verify-diagnostics | FileCheck %s
// More gradients than max-gradients-per-kernel: one loop per group, one flag.
// RUN: amp-opt %s --amp-gpu-fuse-unscale-and-check=max-gradients-per-kernel=2 --split-input-file -verify-diagnostics | FileCheck %s --check-prefix=GROUP
// RUN: not amp-opt %s --amp-gpu-fuse-unscale-and-check=max-gradients-per-kernel=0 --split-input-file 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: max-gradients-per-kernel must be >= 1

// GROUP-LABEL: func.func @three_gradients(
// GROUP: %[[FLAG:.*]] = memref.alloc() : memref<i1>
// GROUP: scf.parallel
// GROUP: memref.store %false{{.*}}, %[[FLAG]][]
// GROUP: scf.parallel
// GROUP: memref.store %true{{.*}}, %[[FLAG]][]
// GROUP: memref.store %true{{.*}}, %[[FLAG]][]
// GROUP: scf.parallel
// GROUP: arith.extf {{.*}} : bf16 to f32
// GROUP: memref.store %true{{.*}}, %[[FLAG]][]
// GROUP-NOT: scf.parallel
// GROUP: return

// CHECK-LABEL: func.func @three_gradients(
// CHECK-SAME: %[[G0:[^:]+]]: tensor<4x8xf16>, %[[G1:[^:]+]]: tensor<16xf32>, %[[G2:[^:]+]]: tensor<2x3x5xbf16>, %[[INV:[^:]+]]: tensor<f32>
// CHECK-DAG: %[[B0:.*]] = bufferization.to_buffer %[[G0]] read_only : tensor<4x8xf16> to memref<4x8xf16>
// CHECK-DAG: %[[B1:.*]] = bufferization.to_buffer %[[G1]] read_only
// CHECK-DAG: %[[B2:.*]] = bufferization.to_buffer %[[G2]] read_only
// CHECK-DAG: %[[O0:.*]] = memref.alloc() : memref<4x8xf16>
// CHECK-DAG: %[[O1:.*]] = memref.alloc() : memref<16xf32>
// CHECK-DAG: %[[O2:.*]] = memref.alloc() : memref<2x3x5xbf16>
// CHECK-DAG: %[[S:.*]] = bufferization.to_buffer %[[INV]] read_only
// CHECK: %[[FLAG:.*]] = memref.alloc() : memref<i1>
// The flag is cleared on the device first ...
// CHECK: scf.parallel
// CHECK: memref.store %{{.*}}, %[[FLAG]][] : memref<i1>
// ... then one loop covers every gradient: each gradient is cut into chunks
// of 4096 elements, 256 threads per chunk; a binary search over the
// gradients' first chunks picks the gradient, then each thread strides over
// its chunk.
// CHECK: %[[LANES:.*]] = arith.constant 256 : index
// CHECK: %[[THREADS:.*]] = arith.muli %{{.*}}, %[[LANES]] : index
// CHECK: scf.parallel (%[[T:.*]]) = (%{{.*}}) to (%[[THREADS]]) step
// CHECK: %[[CHUNK:.*]] = arith.divui %[[T]], %[[LANES]]
// CHECK: %[[LANE:.*]] = arith.remui %[[T]], %[[LANES]]
// CHECK: %[[SCALE:.*]] = memref.load %[[S]][]
// CHECK: arith.cmpi ult, %[[CHUNK]]
// CHECK: scf.if
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK: memref.load %[[B0]]
// CHECK: arith.extf {{.*}} : f16 to f32
// CHECK: arith.mulf {{.*}}, %[[SCALE]] : f32
// CHECK: arith.truncf {{.*}} : f32 to f16
// CHECK: memref.store {{.*}}, %[[O0]]
// CHECK: math.absf
// CHECK: arith.cmpf uge
// CHECK: memref.store %true{{.*}}, %[[FLAG]][]
// CHECK: } else {
// CHECK: memref.load %[[B1]]
// CHECK: memref.store {{.*}}, %[[O1]]
// CHECK: } else {
// CHECK: memref.load %[[B2]]
// CHECK: arith.extf {{.*}} : bf16 to f32
// CHECK: memref.store {{.*}}, %[[O2]]
// CHECK-NOT: scf.parallel
// CHECK: %[[U0:.*]] = bufferization.to_tensor %[[O0]] restrict writable
// CHECK: %[[U1:.*]] = bufferization.to_tensor %[[O1]] restrict writable
// CHECK: %[[U2:.*]] = bufferization.to_tensor %[[O2]] restrict writable
// CHECK: %[[F:.*]] = bufferization.to_tensor %[[FLAG]] restrict writable
// CHECK: return %[[U0]], %[[U1]], %[[U2]], %[[F]]
func.func @three_gradients(%g0: tensor<4x8xf16>, %g1: tensor<16xf32>,
                           %g2: tensor<2x3x5xbf16>, %inv: tensor<f32>)
    -> (tensor<4x8xf16>, tensor<16xf32>, tensor<2x3x5xbf16>, tensor<i1>) {
  %u:3, %found = amp.unscale_and_check %g0, %g1, %g2 inv_scale %inv
      : tensor<4x8xf16>, tensor<16xf32>, tensor<2x3x5xbf16>
  return %u#0, %u#1, %u#2, %found
      : tensor<4x8xf16>, tensor<16xf32>, tensor<2x3x5xbf16>, tensor<i1>
}

// -----

// Dynamic shapes: the total is computed from memref.dim at run time.
// CHECK-LABEL: func.func @dynamic(
// CHECK: %[[D:.*]] = memref.dim
// CHECK: memref.alloc(%[[D]]) : memref<?xf32>
// CHECK: scf.parallel
// CHECK: scf.parallel
func.func @dynamic(%g: tensor<?xf32>, %inv: tensor<f32>)
    -> (tensor<?xf32>, tensor<i1>) {
  %u, %found = amp.unscale_and_check %g inv_scale %inv : tensor<?xf32>
  return %u, %found : tensor<?xf32>, tensor<i1>
}

// -----

func.func @f64_gradient(%g: tensor<4xf64>, %inv: tensor<f32>)
    -> (tensor<4xf64>, tensor<i1>) {
  // expected-error @+1 {{amp-gpu-fuse-unscale-and-check supports f16, bf16 and f32 gradients, not 'tensor<4xf64>'}}
  %u, %found = amp.unscale_and_check %g inv_scale %inv : tensor<4xf64>
  return %u, %found : tensor<4xf64>, tensor<i1>
}
