// SIGINT while a run compiles (the MLIR lowering and LLVM's JIT: half a
// minute on a ResNet, and neither can be interrupted) ends amp-run at once:
// nothing of that run exists yet. The table of the runs that finished is
// printed, stderr says which run was compiling, the status is 130. Before,
// the signal waited for the compilation and for one step of the run.
// RUN: rm -rf %t && mkdir -p %t
// Second run (bf16) compiling: f32's row is printed, bf16 never trained.
// RUN: amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --data=synthetic --run=f32,bf16,f16 --max-steps=2 --progress=false --test-signal-while-compiling=2 > %t/out 2> %t/err || echo "exit status $?" >> %t/out
// RUN: FileCheck %s --check-prefix=OUT < %t/out
// RUN: FileCheck %s --check-prefix=ERR < %t/err
// OUT: amp-run: run f32
// OUT: amp-run: run bf16
// OUT: run{{ +}}train loss
// OUT-NEXT: f32{{ +}}{{[0-9.]+}}{{ +}}{{[0-9.]+}}{{ +}}-{{ +}}0{{ +}}2
// OUT-NEXT: (train loss: the mean loss of the last epoch's steps
// OUT-NOT: bf16 *
// OUT-NOT: f16
// OUT: exit status 130
// ERR: amp-run: stopped by SIGINT while compiling run bf16
// The compiling run wrote its autocast report while compiling: removed, as
// the run never started; the finished run's stays.
// RUN: not amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --data=synthetic --run=bf16,f16+dynamic --max-steps=2 --progress=false --test-signal-while-compiling=2 --autocast-report=%t/reports/ > /dev/null 2>&1
// RUN: ls %t/reports | FileCheck %s --check-prefix=REPORTS
// REPORTS-NOT: f16
// REPORTS: bf16.json
// REPORTS-NOT: f16
// First run compiling: no table, nothing trained.
// RUN: amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --data=synthetic --run=f32 --max-steps=2 --progress=false --test-signal-while-compiling=1 > %t/out1 2> %t/err1 || echo "exit status $?" >> %t/out1
// RUN: FileCheck %s --check-prefix=FIRST < %t/out1
// RUN: FileCheck %s --check-prefix=ERR1 < %t/err1
// FIRST: amp-run: run f32
// FIRST-NOT: compiled in
// FIRST-NOT: train loss
// FIRST: exit status 130
// ERR1: amp-run: stopped by SIGINT while compiling run f32
