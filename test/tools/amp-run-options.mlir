// The rewrite's options are defined once (amp/Support/MixedPrecisionConfig.h)
// and reach amp-run under the same names, with one parser and one message
// per bad value, naming the option and the value.
//
// One parser for the precision and the loss-scale mode: the same message
// from every pass, the pipeline and amp-run's --run.
// RUN: not amp-opt %amp_src_root/examples/fashion-mnist/mlp.mlir --amp-autocast=precision=f8 2>&1 | FileCheck %s --check-prefix=PREC
// RUN: not amp-opt %amp_src_root/examples/fashion-mnist/mlp.mlir --amp-mixed-precision=precision=f8 2>&1 | FileCheck %s --check-prefix=PREC
// RUN: not amp-opt %amp_src_root/examples/fashion-mnist/mlp.mlir --amp-loss-scaling=precision=f8 2>&1 | FileCheck %s --check-prefix=PREC
// RUN: not amp-opt %amp_src_root/examples/fashion-mnist/mlp.mlir --amp-instrument-underflow=precision=f8 2>&1 | FileCheck %s --check-prefix=PREC
// RUN: not amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --run=f8+dynamic 2>&1 | FileCheck %s --check-prefix=PREC
// PREC: 'f8' is not a precision (f16, bf16 or f32)
// RUN: not amp-opt %amp_src_root/examples/fashion-mnist/mlp.mlir --amp-mixed-precision=loss-scale=sometimes 2>&1 | FileCheck %s --check-prefix=MODE
// RUN: not amp-opt %amp_src_root/examples/fashion-mnist/mlp.mlir --amp-loss-scaling=mode=sometimes 2>&1 | FileCheck %s --check-prefix=MODE
// RUN: not amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --run=f16+sometimes 2>&1 | FileCheck %s --check-prefix=MODE
// MODE: 'sometimes' is not a loss-scale mode (auto, dynamic, static or none)
//
// Range checks name the option and the value, in amp-opt and amp-run alike
// (and before amp-run loads anything).
// RUN: not amp-opt %amp_src_root/examples/fashion-mnist/mlp.mlir --amp-mixed-precision=growth-factor=inf 2>&1 | FileCheck %s --check-prefix=OPT-GF
// OPT-GF: error: amp-loss-scaling: growth-factor=inf: must be finite and > 1
// RUN: not amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --growth-factor=inf 2>&1 | FileCheck %s --check-prefix=GF
// GF-NOT: loading
// GF: amp-run: --growth-factor=inf: must be finite and > 1
// RUN: not amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --growth-interval=0 2>&1 | FileCheck %s --check-prefix=GI
// GI: amp-run: --growth-interval=0: must be >= 1 clean step
// RUN: not amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --backoff-factor=1 2>&1 | FileCheck %s --check-prefix=BF
// BF: amp-run: --backoff-factor=1: must lie in (0, 1)
// RUN: not amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --hysteresis=0 2>&1 | FileCheck %s --check-prefix=HY
// HY: amp-run: --hysteresis=0: must be >= 1 overflowing step
// A static scale must lie in [min-scale, max-scale] too (it used to be
// accepted at 1e30).
// RUN: not amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --run=f16+static --init-scale=1e30 2>&1 | FileCheck %s --check-prefix=STATIC
// STATIC: amp-run: --init-scale=1e+30: lies outside [min-scale, max-scale] = [5.96046e-08, 1.67772e+07]
//
// growth-factor and backoff-factor reach the step: with growth interval 2
// and factor 4 the scale grows 32768 -> 131072 -> 524288 (f32: nothing
// overflows); written exactly (9 significant digits) in the CSV.
// RUN: amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --run=f32+dynamic --growth-interval=2 --growth-factor=4 --max-steps=5 --csv=%t.grow.csv > /dev/null
// RUN: FileCheck %s --check-prefix=GROW < %t.grow.csv
// GROW: run,step,epoch,loss,loss_scale,found_inf,step_ms
// GROW-NEXT: f32 + dynamic,1,1,{{[0-9.]+}},32768,0,
// GROW-NEXT: f32 + dynamic,2,1,{{[0-9.]+}},32768,0,
// GROW-NEXT: f32 + dynamic,3,1,{{[0-9.]+}},131072,0,
// GROW-NEXT: f32 + dynamic,4,1,{{[0-9.]+}},131072,0,
// GROW-NEXT: f32 + dynamic,5,1,{{[0-9.]+}},524288,0,
// Every step overflows: the scale backs off by 0.25, 64 -> 16 -> 4 -> 1 (the
// floor: stop).
// RUN: not amp-run %S/Inputs/always-overflow.mlir --run=f32+dynamic --init-scale=64 --min-scale=1 --backoff-factor=0.25 --max-steps=10 --csv=%t.back.csv > /dev/null 2>&1
// RUN: FileCheck %s --check-prefix=BACK < %t.back.csv
// BACK: f32 + dynamic,1,1,{{.*}},64,1,
// BACK-NEXT: f32 + dynamic,2,1,{{.*}},16,1,
// BACK-NEXT: f32 + dynamic,3,1,{{.*}},4,1,
// BACK-NEXT: f32 + dynamic,4,1,{{.*}},1,1,
// 2^24 used to be written as 1.67772e+07.
// RUN: amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --run=f32+dynamic --init-scale=16777216 --max-steps=1 --csv=%t.cap.csv > /dev/null
// RUN: FileCheck %s --check-prefix=CAP < %t.cap.csv
// CAP: f32 + dynamic,1,1,{{[0-9]\.[0-9]+}},16777216,0,
//
// Every option of amp-mixed-precision is an amp-run flag of the same name
// (precision and loss-scale through --run), with its default in --help.
// RUN: amp-opt --help > %t.opt-help
// RUN: amp-run --help > %t.run-help
// RUN: python3 %S/Inputs/check-option-reachability.py %t.opt-help %t.run-help | FileCheck %s --check-prefix=REACH
// REACH: amp-mixed-precision: 19 options, all reachable from amp-run
// RUN: FileCheck %s --check-prefix=HELP < %t.run-help
// HELP: --epochs=<int>{{.*}}(default: 1)
// HELP: --growth-factor=<number>{{.*}}(default: 2)
// HELP: --init-scale=<number>{{.*}}(default: 32768)
// HELP: --master-weights=<f32|bf16|bf16-kahan|bf16-stochastic>{{.*}}(default: f32)
// HELP: --min-scale=<number>{{.*}}(default: 5.96046e-08)
// HELP: --seed=<{{.*}}(default: 0)
// RUN: amp-run --version | FileCheck %s --check-prefix=VERSION
// VERSION: amp-mlir {{[0-9]+\.[0-9]+\.[0-9]+}} (amp-run), built with LLVM/MLIR 22.
