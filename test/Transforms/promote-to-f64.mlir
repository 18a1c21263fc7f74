// RUN: amp-opt %s --split-input-file --amp-promote-to-f64 --verify-diagnostics | FileCheck %s

// Signatures, results, linalg bodies and constants become f64; f16 stays;
// f32 <-> f64 casts disappear.
// CHECK-LABEL: func.func @step(
// CHECK-SAME: %[[W:.*]]: tensor<4xf64>, %[[H:.*]]: tensor<4xf16>, %[[D:.*]]: tensor<4xf64>) -> tensor<f64>
// CHECK: arith.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> : tensor<4xf64>
// CHECK: linalg.generic
// CHECK: ^bb0(%{{.*}}: f64, %{{.*}}: f16, %{{.*}}: f64, %{{.*}}: f64):
// CHECK: arith.extf %{{.*}} : f16 to f64
// CHECK: arith.constant 5.000000e-01 : f64
// CHECK-NOT: arith.extf %{{.*}} : f64 to f64
// CHECK: return %{{.*}} : tensor<f64>
#id = affine_map<(i) -> (i)>
#sum = affine_map<(i) -> ()>
func.func @step(%w: tensor<4xf32>, %h: tensor<4xf16>, %d: tensor<4xf64>) -> tensor<f32> {
  %c = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %e = tensor.empty() : tensor<f32>
  %r = linalg.generic {indexing_maps = [#id, #id, #id, #sum], iterator_types = ["reduction"]}
      ins(%w, %h, %c : tensor<4xf32>, tensor<4xf16>, tensor<4xf32>) outs(%e : tensor<f32>) {
  ^bb0(%a: f32, %b: f16, %k: f32, %acc: f32):
    %x = arith.extf %b : f16 to f32
    %half = arith.constant 0.5 : f32
    %p = arith.mulf %a, %x : f32
    %q = arith.mulf %p, %half : f32
    %s = arith.addf %q, %k : f32
    %t = arith.addf %s, %acc : f32
    linalg.yield %t : f32
  } -> tensor<f32>
  return %r : tensor<f32>
}

// -----

// A weight blob is widened value by value.
// CHECK-LABEL: func.func @blob
// CHECK: arith.constant dense<[1.000000e+00, -2.500000e-01]> : tensor<2xf64>
func.func @blob() -> tensor<2xf32> {
  %c = arith.constant dense_resource<weights> : tensor<2xf32>
  return %c : tensor<2xf32>
}
{-#
  dialect_resources: {
    builtin: {
      weights: "0x040000000000803F000080BE"
    }
  }
#-}

// -----

func.func @elided() -> tensor<2xf32> {
  // expected-error @+1 {{amp-promote-to-f64: the dense_resource blob '__elided__' is elided or unavailable}}
  %c = arith.constant dense_resource<__elided__> : tensor<2xf32>
  return %c : tensor<2xf32>
}

// -----

func.func @markers(%l: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{amp-promote-to-f64: 'amp.loss_grad' is typed f32; lower the amp ops first (amp-lower-to-standard)}}
  %s = amp.loss_grad %l : tensor<f32>
  return %s : tensor<f32>
}

// -----

func.func @bits(%x: f32) -> i32 {
  // expected-error @+1 {{amp-promote-to-f64: a bitcast of an f32 value has no f64 meaning}}
  %b = arith.bitcast %x : f32 to i32
  return %b : i32
}

// -----

// The bitcast's operand made by an op before it (promoted first by the
// retyping walk, which then left an f64 -> i32 bitcast that does not
// verify; found by amp-robustness).
func.func @bits_of_load(%m: memref<2xf32>) -> i32 {
  %c0 = arith.constant 0 : index
  %x = memref.load %m[%c0] : memref<2xf32>
  // expected-error @+1 {{amp-promote-to-f64: a bitcast of an f32 value has no f64 meaning}}
  %b = arith.bitcast %x : f32 to i32
  return %b : i32
}

// -----

// expected-error @+1 {{amp-promote-to-f64: 'llvm.func' is not a func.func; the pass retypes func.func only}}
llvm.func @lowered(%a: f32) -> f32 {
  llvm.return %a : f32
}

// -----

// A splat stays one value, whatever its shape holds (here 2^64 elements).
// CHECK-LABEL: func.func @splat
// CHECK: arith.constant dense<1.500000e+00> : tensor<4294967296x4294967296xf64>
func.func @splat() -> tensor<4294967296x4294967296xf32> {
  %c = arith.constant dense<1.5> : tensor<4294967296x4294967296xf32>
  return %c : tensor<4294967296x4294967296xf32>
}

// -----

// Element types at any depth: a memref of memrefs of f32 (amp-robustness,
// 2026-12-05: the stored buffer became f64 while the outer memref's
// element type stayed f32, and memref.store failed to verify).
// CHECK-LABEL: func.func @nested
// CHECK:       memref.alloca() : memref<1xmemref<4xf64>>
// CHECK:       memref.store %{{.*}}, %{{.*}}[%{{.*}}] : memref<1xmemref<4xf64>>
func.func @nested(%a: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %box = memref.alloca() : memref<1xmemref<4xf32>>
  memref.store %a, %box[%c0] : memref<1xmemref<4xf32>>
  return
}
