// A pass that crashes inside amp-run's pipelines is contained like in
// amp-opt (amp/Support/CrashContainment.h, through the driver's one pipeline
// runner): one located error naming the pass, a reproducer file, exit 1, and
// no CSV. amp-test-crash crashes on purpose; it exists only with the hidden
// --amp-enable-test-passes, and the hidden --test-extra-passes runs it after
// the rewrite.
// RUN: rm -rf %t && mkdir -p %t/tmp
// RUN: env TMPDIR=%t/tmp not amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --amp-enable-test-passes --test-extra-passes=amp-test-crash --run=f32 --csv=%t/run.csv 2>&1 | FileCheck %s
// CHECK: amp-run: run f32: amp-mixed-precision, amp-test-crash failed:
// CHECK-NEXT: {{.*}}mlp.mlir:{{[0-9]+}}:{{[0-9]+}}: error: pass 'amp-test-crash' ({{.*}}TestCrashPass) crashed on 'builtin.module' (signal 11: Segmentation fault): an internal compiler error
// CHECK-SAME: reproducer: '{{.*}}tmp/amp-crash-reproducer-{{.*}}.mlir'
// RUN: ls %t | FileCheck %s --check-prefix=NOCSV
// NOCSV-NOT: run.csv
// RUN: cat %t/tmp/amp-crash-reproducer-*.mlir | FileCheck %s --check-prefix=REPRO
// REPRO: pipeline: "builtin.module(amp-test-crash{kind=segv only=})"
// An extra pipeline that does not parse is refused before anything loads.
// RUN: not amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --test-extra-passes=no-such-pass --run=f32 2>&1 | FileCheck %s --check-prefix=BAD
// BAD-NOT: loading
// BAD: amp-run: run f32: extra passes 'no-such-pass':
