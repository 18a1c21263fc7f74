// amp-lower-to-llvm's threads option: the step's parallel loops (the
// contraction blocks of amp-cpu-tile-contractions, the chunks of
// amp-cpu-parallelize) become OpenMP parallel loops, without a thread count
// by default (OpenMP's: every core), with num_threads(N) for threads=N, and
// plain loops for threads=1 (no OpenMP at all, no libomp needed).
// RUN: amp-opt %amp_src_root/examples/fashion-mnist/mlp.mlir --amp-mixed-precision --amp-lower-to-llvm \
// RUN:   | FileCheck %s --check-prefix=ALL
// RUN: amp-opt %amp_src_root/examples/fashion-mnist/mlp.mlir --amp-mixed-precision --amp-lower-to-llvm=threads=3 \
// RUN:   | FileCheck %s --check-prefix=THREE
// RUN: amp-opt %amp_src_root/examples/fashion-mnist/mlp.mlir --amp-mixed-precision --amp-lower-to-llvm=threads=1 \
// RUN:   | FileCheck %s --check-prefix=ONE --implicit-check-not="omp."

// ALL-LABEL: llvm.func @train_step(
// ALL-NOT:   num_threads
// ALL:       omp.parallel {
// ALL-NEXT:    omp.wsloop {
// ALL-NEXT:      omp.loop_nest
// ALL-LABEL: llvm.func @eval_step(

// THREE-LABEL: llvm.func @train_step(
// THREE:       %[[N:.*]] = llvm.mlir.constant(3 : i32) : i32
// THREE:       omp.parallel num_threads(%[[N]] : i32) {
// THREE-NEXT:    omp.wsloop {

// ONE-LABEL: llvm.func @train_step(
// ONE:       llvm.intr.fmuladd
// ONE-LABEL: llvm.func @eval_step(
