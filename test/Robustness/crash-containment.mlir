// Crash containment (amp/Support/CrashContainment.h), on by default in
// amp-opt: a pass that crashes becomes an error that names the pass, located
// at the operation it ran on, plus a reproducer file that reproduces the
// crash; amp-opt exits 1 and writes no output (no partial -o file, no
// temporary file). amp-test-crash crashes on purpose and exists only with
// the hidden flag --amp-enable-test-passes.
// RUN: rm -rf %t && mkdir -p %t
// RUN: not amp-opt %s --amp-enable-test-passes --amp-test-crash --amp-crash-reproducer=%t/repro.mlir -o %t/out.mlir 2>&1 | FileCheck %s --check-prefix=SEGV
// SEGV: Stack dump:
// SEGV: {{.*}}crash-containment.mlir:{{[0-9]+}}:{{[0-9]+}}: error: pass 'amp-test-crash' ({{.*}}TestCrashPass) crashed on 'builtin.module': an internal compiler error (the pass, not the input, is at fault; upstream MLIR's passes included); reproducer: '{{.*}}repro.mlir' (run it with `amp-opt --run-reproducer {{.*}}repro.mlir`); report it with that file
// SEGV: amp-opt: a pass crashed (error above); no output written
// RUN: ls %t | FileCheck %s --check-prefix=FILES
// FILES-NOT: out.mlir
// FILES: repro.mlir
// FILES-NOT: out.mlir
// The reproducer holds the IR the pass received and the pass as a pipeline;
// running it crashes the same way.
// RUN: FileCheck %s --input-file=%t/repro.mlir --check-prefix=REPRO
// REPRO: // amp crash reproducer: pass 'amp-test-crash'
// REPRO: func.func @victim
// REPRO: pipeline: "builtin.module(amp-test-crash{kind=segv only=})"
// RUN: not amp-opt --amp-enable-test-passes --run-reproducer %t/repro.mlir --amp-crash-reproducer=%t/again.mlir 2>&1 | FileCheck %s --check-prefix=AGAIN
// AGAIN: error: pass 'amp-test-crash' {{.*}} crashed on 'builtin.module'
//
// An abort (a failed assertion) in a nested pass: the error is located at
// the function it ran on and names it; the reproducer's pipeline keeps the
// nesting.
// RUN: not amp-opt %s --amp-enable-test-passes --pass-pipeline='builtin.module(func.func(amp-test-crash{kind=abort only=victim}))' --amp-crash-reproducer=%t/nested.mlir 2>&1 | FileCheck %s --check-prefix=ABORT
// ABORT: crash-containment.mlir:{{[0-9]+}}:1: error: pass 'amp-test-crash' ({{.*}}) crashed on 'func.func' @victim
// RUN: FileCheck %s --input-file=%t/nested.mlir --check-prefix=NESTED
// NESTED: pipeline: "builtin.module(func.func(amp-test-crash{kind=abort only=victim}))"
//
// The reproducer holds the top-level operation as the top-level pass (here
// the func.func pipeline's adaptor) received it, and replays the passes that
// had run on the crashed function before the crash: after a top-level pass
// of its own, inside the nested pipeline, on the second function of two.
// RUN: not amp-opt %s --amp-enable-test-passes --pass-pipeline='builtin.module(cse,func.func(canonicalize,amp-test-crash{kind=abort only=victim}))' --amp-crash-reproducer=%t/second.mlir 2>&1 | FileCheck %s --check-prefix=SECOND
// SECOND: error: pass 'amp-test-crash' ({{.*}}) crashed on 'func.func' @victim
// RUN: FileCheck %s --input-file=%t/second.mlir --check-prefix=SECOND-REPRO
// SECOND-REPRO: func.func @bystander
// SECOND-REPRO: func.func @victim
// SECOND-REPRO: pipeline: "builtin.module(func.func(canonicalize{{.*}},amp-test-crash{kind=abort only=victim}))"
// RUN: not amp-opt --amp-enable-test-passes --run-reproducer %t/second.mlir --amp-crash-reproducer=%t/second-again.mlir 2>&1 | FileCheck %s --check-prefix=SECOND-AGAIN
// SECOND-AGAIN: error: pass 'amp-test-crash' {{.*}} crashed on 'func.func' @victim
//
// Without a chosen path the reproducer goes to a new file in $TMPDIR.
// RUN: mkdir -p %t/tmp && env TMPDIR=%t/tmp not amp-opt %s --amp-enable-test-passes --amp-test-crash 2>&1 | FileCheck %s --check-prefix=TMP
// TMP: reproducer: '{{.*}}/tmp/amp-crash-reproducer-{{.*}}.mlir'
// RUN: ls %t/tmp | count 1
//
// --amp-crash-containment=false: the crash is a crash (signal, no error).
// RUN: not --crash amp-opt %s --amp-enable-test-passes --amp-test-crash --amp-crash-containment=false -o %t/off.mlir 2>&1 | FileCheck %s --check-prefix=OFF
// OFF-NOT: error: pass
// OFF: Stack dump:
// RUN: not ls %t/off.mlir
//
// The test pass is not registered without the flag (nor in the library, so
// the robustness corpus, which runs every registered amp- pass, never runs
// it).
// RUN: not amp-opt %s --amp-test-crash 2>&1 | FileCheck %s --check-prefix=HIDDEN
// HIDDEN: Unknown command line argument '--amp-test-crash'
// RUN: amp-opt --help | FileCheck %s --check-prefix=HELP
// HELP-NOT: amp-test-crash
// HELP-NOT: amp-enable-test-passes
// HELP: --amp-crash-containment
// HELP: --amp-crash-reproducer=<filename>
// HELP-NOT: amp-test-crash

func.func @bystander(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}

func.func @victim(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
