// Options of amp-autocast: constants converted at compile time (warnings
// located at the constant), deny=/allow= overrides, precision=f32 identity,
// the report.
// RUN: amp-opt %s -split-input-file -amp-autocast -verify-diagnostics | FileCheck %s
// RUN: amp-opt %s -split-input-file -amp-autocast=precision=f32 | FileCheck %s --check-prefix=F32
// RUN: amp-opt %s -split-input-file -amp-autocast="deny=linalg.matmul" | FileCheck %s --check-prefix=DENY
// RUN: not amp-opt %s -split-input-file -amp-autocast="allow=linalg.matmul deny=linalg.matmul" 2>&1 | FileCheck %s --check-prefix=BOTH
// RUN: rm -f %t.json && amp-opt %s -split-input-file -amp-autocast=report=%t.json -verify-diagnostics > /dev/null && FileCheck %s --input-file=%t.json --check-prefix=REPORT
// RUN: not amp-opt %s -split-input-file -amp-autocast=report=%t.missing/dir/r.json 2>&1 | FileCheck %s --check-prefix=NOREPORT

// BOTH: error: amp-autocast: op 'linalg.matmul' is named in both allow= and deny=
// A misspelled op, a name without a dialect and an unknown dialect are
// errors (they would match nothing); a registered dialect that is not loaded
// (tosa here) is accepted.
// RUN: not amp-opt %s -split-input-file -amp-autocast="allow=linalg.matmull" 2>&1 | FileCheck %s --check-prefix=TYPO
// RUN: not amp-opt %s -split-input-file -amp-autocast="deny=softmax" 2>&1 | FileCheck %s --check-prefix=NODOT
// RUN: not amp-opt %s -split-input-file -amp-autocast="deny=lnalg.softmax" 2>&1 | FileCheck %s --check-prefix=NODIALECT
// RUN: amp-opt %s -split-input-file -amp-autocast="allow=tosa.matmul" -o /dev/null
// With precision=f32 nothing changes and a requested report is not written:
// a warning says so.
// RUN: rm -f %t.f32.json && amp-opt %s -split-input-file -amp-autocast="precision=f32 report=%t.f32.json" -o /dev/null 2>&1 | FileCheck %s --check-prefix=F32REPORT
// RUN: not ls %t.f32.json
// F32REPORT: warning: amp-autocast: precision=f32 changes nothing; no report is written to '{{.*}}f32.json'
// TYPO: error: amp-autocast: allow= names 'linalg.matmull', which is not an op of dialect 'linalg'
// NODOT: error: amp-autocast: deny= names 'softmax', not an op name (dialect.op, e.g. linalg.matmul)
// NODIALECT: error: amp-autocast: deny= names 'lnalg.softmax', but no dialect 'lnalg' is registered
// NOREPORT: error: amp-autocast: report: cannot write '{{.*}}r.json': cannot create a temporary file beside it

// CHECK-LABEL: func @constants
// CHECK-DAG: arith.constant dense<{{\[\[}}0x7C00, 1.000000e+00], [2.000000e+00, 3.000000e+00]]> : tensor<2x2xf16>
// CHECK-DAG: arith.constant dense<0.000000e+00> : tensor<2x2xf16>
// CHECK-NOT: arith.constant {{.*}} : tensor<2x2xf32>
// CHECK: return
// F32-LABEL: func @constants
// F32-NOT: f16
// DENY-LABEL: func @constants
// DENY-NOT: f16
// REPORT: "op": "linalg.matmul",
// REPORT-NEXT: "precision": "mixed",
// REPORT-NEXT: "reason": "contraction: low-precision inputs, fp32 accumulation",
// REPORT-NEXT: "rule": "rule 1: allow op"
// REPORT: "totals": {
// REPORT: "boundary_edges": 2,
// REPORT: "casts_inserted": 2,
// REPORT: "constants_converted": 2,
// REPORT: "per_class": {
// REPORT-NEXT: "allow": 2,
// REPORT-NEXT: "clear": 4,
// REPORT-NEXT: "deny": 0,
// REPORT-NEXT: "infer": 0,
// REPORT-NEXT: "unknown": 0
func.func @constants(%a: tensor<2x2xf32>, %b: tensor<2x2xf32>, %c: tensor<2x2xf32>) -> tensor<2x2xf32> {
  // expected-warning @+1 {{constant value 1.000000e+05 overflows 'f16' and becomes inf}}
  %big = arith.constant dense<[[1.0e5, 1.0], [2.0, 3.0]]> : tensor<2x2xf32>
  // expected-warning @+1 {{constant value 1.000000e-09 flushes to zero in 'f16'}}
  %tiny = arith.constant dense<1.0e-9> : tensor<2x2xf32>
  %m = linalg.matmul ins(%a, %big : tensor<2x2xf32>, tensor<2x2xf32>) outs(%c : tensor<2x2xf32>) -> tensor<2x2xf32>
  %m2 = linalg.matmul ins(%m, %tiny : tensor<2x2xf32>, tensor<2x2xf32>) outs(%c : tensor<2x2xf32>) -> tensor<2x2xf32>
  return %m2 : tensor<2x2xf32>
}
