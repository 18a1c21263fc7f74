// REQUIRES: autocast-bench
// amp-bench-autocast takes model files and --precision (llvm::cl): --help
// lists them, an unknown option or precision is a usage error, a
// missing file is named (rc 1), and a given file is measured instead of the
// default models.
// RUN: amp-bench-autocast --help | FileCheck %s --check-prefix=HELP
// HELP: amp-bench-autocast: casts and low-precision FLOPs
// HELP: --precision=<f16|bf16|f32>
// RUN: not amp-bench-autocast --bogus 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: Unknown command line argument '--bogus'
// RUN: not amp-bench-autocast --precision=f8 2>&1 | FileCheck %s --check-prefix=PRECISION
// PRECISION: for the --precision option: 'f8' is not a precision (f16, bf16 or f32)
// RUN: not amp-bench-autocast --precision=f32 2>&1 | FileCheck %s --check-prefix=F32
// F32: amp-bench-autocast: --precision=f32: autocast changes nothing in f32; choose f16 or bf16
// RUN: not amp-bench-autocast %t.missing.mlir 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: amp-bench-autocast: cannot read '{{.*}}missing.mlir'
// RUN: amp-bench-autocast %s | FileCheck %s
// RUN: amp-bench-autocast --precision=bf16 %s | FileCheck %s
// CHECK: amp-bench-autocast-args.mlir: 2 casts (2 precision-boundary edges), naive per-op 3; low-precision FLOPs
// CHECK-NOT: examples/models
// CHECK: ROW|autocast casts, {{.*}}amp-bench-autocast-args.mlir|2 (edges 2)|naive per-op 3|<= naive, <= edges|met

func.func @forward(%x: tensor<4x8xf32>, %w: tensor<8x2xf32>) -> tensor<4x2xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x2xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<4x2xf32>) -> tensor<4x2xf32>
  %y = linalg.matmul ins(%x, %w : tensor<4x8xf32>, tensor<8x2xf32>) outs(%acc : tensor<4x2xf32>) -> tensor<4x2xf32>
  return %y : tensor<4x2xf32>
}
