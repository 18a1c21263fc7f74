// amp-mixed-precision passes autocast's overrides and report through
// (autocast-allow=, autocast-deny=, autocast-report=; docs/autocast.md).
//
// Default: the six matmuls of the MLP step read f16.
// RUN: amp-opt %amp_src_root/examples/fashion-mnist/mlp.mlir --amp-mixed-precision | FileCheck %s --check-prefix=DEFAULT
// DEFAULT-COUNT-6: linalg.matmul ins({{.*}}f16>, tensor<{{.*}}f16>)
//
// deny=linalg.matmul keeps every linalg.matmul f32 (the backward's
// transposed contractions are linalg.generic ops and stay allow), and the
// report says why.
// RUN: rm -f %t.json
// RUN: amp-opt %amp_src_root/examples/fashion-mnist/mlp.mlir --amp-mixed-precision="autocast-deny=linalg.matmul autocast-report=%t.json" | FileCheck %s --check-prefix=DENY
// DENY-NOT: linalg.matmul ins({{.*}}f16
// DENY-COUNT-6: linalg.matmul ins({{.*}}f32>, tensor<{{.*}}f32>)
// DENY-NOT: linalg.matmul ins({{.*}}f16
// RUN: FileCheck %s --check-prefix=REPORT < %t.json
// REPORT: "class": "deny",
// REPORT-NEXT: "flops": 51380224,
// REPORT-NEXT: "loc":
// REPORT-NEXT: "op": "linalg.matmul",
// REPORT-NEXT: "precision": "f32",
// REPORT-NEXT: "reason": "deny= option",
//
// An op in both lists is an error.
// RUN: not amp-opt %amp_src_root/examples/fashion-mnist/mlp.mlir --amp-mixed-precision="autocast-allow=linalg.matmul autocast-deny=linalg.matmul" 2>&1 | FileCheck %s --check-prefix=BOTH
// BOTH: op 'linalg.matmul' is named in both allow= and deny=
