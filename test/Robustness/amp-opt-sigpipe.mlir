// A SIGPIPE (stderr piped into `head`, which exits after one line) ends
// amp-opt before its output is complete: neither the output nor the
// temporary file beside it is left. --mlir-print-ir-after-all writes far more
// than a pipe holds, so amp-opt is still running when head exits.
// RUN: rm -rf %t && mkdir -p %t/sig
// RUN: (amp-opt %amp_src_root/examples/fashion-mnist/mlp.mlir --amp-mixed-precision --amp-lower-to-llvm --mlir-print-ir-after-all -o %t/sig/x.mlir 2>&1 || true) | head -1 | FileCheck %s
// RUN: ls %t/sig | count 0
// CHECK: IR Dump After
