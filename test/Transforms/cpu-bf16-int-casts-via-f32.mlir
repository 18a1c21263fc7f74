// amp-cpu-bf16-int-casts-via-f32: integer <-> bf16 conversions through f32.
// RUN: amp-opt %s --split-input-file --amp-cpu-bf16-int-casts-via-f32 | FileCheck %s

// CHECK-LABEL: func.func @to_bf16(
// CHECK-SAME: %[[M:.*]]: i1, %[[P:.*]]: vector<8xi64>
// CHECK: %[[A:.*]] = arith.uitofp %[[M]] : i1 to f32
// CHECK: %[[B:.*]] = arith.truncf %[[A]] : f32 to bf16
// CHECK: %[[C:.*]] = arith.sitofp %[[P]] : vector<8xi64> to vector<8xf32>
// CHECK: %[[D:.*]] = arith.truncf %[[C]] : vector<8xf32> to vector<8xbf16>
// CHECK: return %[[B]], %[[D]]
func.func @to_bf16(%m: i1, %p: vector<8xi64>) -> (bf16, vector<8xbf16>) {
  %a = arith.uitofp %m : i1 to bf16
  %b = arith.sitofp %p : vector<8xi64> to vector<8xbf16>
  return %a, %b : bf16, vector<8xbf16>
}

// -----

// CHECK-LABEL: func.func @from_bf16(
// CHECK-SAME: %[[X:.*]]: bf16
// CHECK: %[[W:.*]] = arith.extf %[[X]] : bf16 to f32
// CHECK: arith.fptosi %[[W]] : f32 to i32
// CHECK: %[[W2:.*]] = arith.extf %[[X]] : bf16 to f32
// CHECK: arith.fptoui %[[W2]] : f32 to i8
// Other types are left alone:
// CHECK: arith.sitofp %{{.*}} : i32 to f16
// CHECK: arith.fptosi %{{.*}} : f32 to i32
func.func @from_bf16(%x: bf16, %i: i32, %f: f32) -> (i32, i8, f16, i32) {
  %a = arith.fptosi %x : bf16 to i32
  %b = arith.fptoui %x : bf16 to i8
  %c = arith.sitofp %i : i32 to f16
  %d = arith.fptosi %f : f32 to i32
  return %a, %b, %c, %d : i32, i8, f16, i32
}
