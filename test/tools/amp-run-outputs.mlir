// Every output path is checked before any data is loaded or any run trains
// (issue 30): a missing directory, a directory, a stream named for several
// runs; after SIGINT the finished runs' table is printed with the
// interrupted run marked, and a run that never started writes nothing.
// RUN: rm -rf %t && mkdir -p %t
//
// RUN: not amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --data=synthetic --run=f32,bf16 --max-steps=1 --dump-state=/nonexistent/x > %t/nodir.out 2>&1
// RUN: FileCheck %s --check-prefix=NODIR < %t/nodir.out
// NODIR-NOT: synthetic data
// NODIR: amp-run: --dump-state: cannot write '/nonexistent/x.f32': the directory '/nonexistent' does not exist
// NODIR-NOT: train loss
// RUN: not amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --data=synthetic --run=f32 --max-steps=1 --csv=/nonexistent/x.csv 2>&1 | FileCheck %s --check-prefix=NODIR-CSV
// NODIR-CSV: amp-run: --csv: cannot write '/nonexistent/x.csv': the directory '/nonexistent' does not exist
// A regular file where the directory should be is named as such:
// RUN: touch %t/afile
// RUN: not amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --data=synthetic --run=f32 --max-steps=1 --csv=%t/afile/x.csv 2>&1 | FileCheck %s --check-prefix=NOTDIR-CSV
// NOTDIR-CSV: amp-run: --csv: cannot write '{{.*}}/afile/x.csv': '{{.*}}/afile' is not a directory
// RUN: not amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --data=synthetic --run=f32 --max-steps=1 --save-checkpoint=/dev/null/ck 2>&1 | FileCheck %s --check-prefix=NODIR-CKPT
// NODIR-CKPT: amp-run: --save-checkpoint: cannot write '/dev/null/ck': '/dev/null' is not a directory
// RUN: not amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --data=synthetic --run=f32 --max-steps=1 --dump-state=%t 2>&1 | FileCheck %s --check-prefix=ISDIR
// ISDIR: amp-run: --dump-state: cannot write '{{.*}}': {{.*}}directory
//
// A stream takes one run's output: several runs are refused, not written
// to regular files named /dev/stdout.f32.csv.
// RUN: not amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --data=synthetic --run=f32,bf16 --max-steps=1 --csv=/dev/stdout 2>&1 | FileCheck %s --check-prefix=STREAM
// STREAM: amp-run: --csv=/dev/stdout: a stream or device takes the output of one run, and 2 runs were asked for; give a directory (--csv=DIR/: DIR/<run>) or a file name P (P.<run>.csv)
// RUN: not amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --data=synthetic --run=f16,bf16 --max-steps=1 --autocast-report=/dev/full 2>&1 | FileCheck %s --check-prefix=STREAM-REPORT
// STREAM-REPORT: amp-run: --autocast-report=/dev/full: a stream or device takes the output of one run
// RUN: amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --data=synthetic --run=f32 --max-steps=1 --progress=false --csv=/dev/stdout | FileCheck %s --check-prefix=ONE-STREAM
// ONE-STREAM: run,step,epoch,loss
// ONE-STREAM-NEXT: f32,1,1,
// /dev/stdout and /dev/stderr redirected to a file are written through the
// open descriptor: what was in the file before (echo) and the table after
// stay (reopening /dev/stdout used to replace the whole log with the CSV).
// RUN: (echo "earlier line"; amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --data=synthetic --run=f16 --max-steps=1 --progress=false --csv=/dev/stdout --autocast-report=/dev/stderr) > %t.log 2> %t.errlog
// RUN: FileCheck %s --check-prefix=REDIRECTED < %t.log
// REDIRECTED: earlier line
// REDIRECTED: run,step,epoch,loss
// REDIRECTED-NEXT: f16,1,1,
// REDIRECTED: run{{ +}}train loss
// RUN: (echo "earlier error" >&2; amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --data=synthetic --run=f16 --max-steps=1 --progress=false --autocast-report=/dev/stderr) 2> %t.err2 > /dev/null
// RUN: FileCheck %s --check-prefix=REDIRECTED-REPORT < %t.err2
// REDIRECTED-REPORT: earlier error
// REDIRECTED-REPORT: "ops": [
//
// SIGINT after the third step: f32 (2 steps) finished, bf16 interrupted
// after its first, f16 never started: no report of it, exit 130.
// RUN: amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --data=synthetic --run=f32,bf16,f16 --max-steps=2 --progress=false --autocast-report=%t/reports/ --test-signal-at-step=3 > %t/sig.out 2> %t/sig.err || echo "exit status $?" >> %t/sig.out
// RUN: FileCheck %s --check-prefix=SIGNAL < %t/sig.out
// SIGNAL: run{{ +}}train loss
// SIGNAL-NEXT: f32{{ +}}{{[0-9.]+}}{{ +}}{{[0-9.]+}}{{ +}}-{{ +}}0{{ +}}2
// SIGNAL-NEXT: bf16 *{{ +}}{{[0-9.]+}}{{ +}}-{{ +}}-{{ +}}0{{ +}}1
// SIGNAL-NEXT: (train loss: the mean loss of the last epoch's steps; test acc: after the last epoch)
// SIGNAL-NEXT: (*: interrupted by a signal
// SIGNAL-NOT: {{^f16|\[f16\]}}
// SIGNAL: [f32] state
// SIGNAL: [bf16] state
// SIGNAL-NOT: {{^f16|\[f16\]}}
// SIGNAL: exit status 130
// RUN: FileCheck %s --check-prefix=SIGNAL-ERR < %t/sig.err
// SIGNAL-ERR: amp-run: stopped by SIGINT
// RUN: test -f %t/reports/bf16.json
// RUN: not test -e %t/reports/f16.json
//
// --help says how the report of each run is named.
// RUN: amp-run --help | FileCheck %s --check-prefix=HELP
// HELP: --autocast-report=<string> {{.*}}P.<run>.json
// HELP: --eval-only
// HELP: --resume=<string>
// HELP: --save-checkpoint=<string>
