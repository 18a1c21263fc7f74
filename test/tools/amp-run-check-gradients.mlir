// amp-run --check-gradients: the shipped hand-written backward passes are
// the derivatives of the losses their steps return, to f64 precision
// (central differences in f64, amp-promote-to-f64), and a wrong backward is
// caught.
// RUN: amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --check-gradients | FileCheck %s --check-prefix=MLP
// MLP: amp-run: gradient check (f64, central differences
// MLP: argument{{ +}}parameter{{ +}}elements{{ +}}worst rel err
// MLP-NEXT: #0{{ +}}784x256xf32{{ +}}5{{ +}}{{0\.000e\+00|[0-9.]+e-(0[6-9]|[1-9][0-9])}}
// MLP-COUNT-5: #{{[0-9]+}}{{ +}}{{[0-9x]+}}xf32{{ +}}5{{ +}}{{0\.000e\+00|[0-9.]+e-(0[6-9]|[1-9][0-9])}}
// MLP: loss 2.{{[0-9]+}}, worst relative error {{.*}} (tolerance 1e-05): passed
// RUN: amp-run %amp_src_root/examples/fashion-mnist/adam.mlir --check-gradients | FileCheck %s --check-prefix=PASS
// RUN: amp-run %amp_src_root/examples/fashion-mnist/transformer.mlir --check-gradients | FileCheck %s --check-prefix=PASS
// PASS: (tolerance 1e-05): passed
//
// The softmax cross-entropy gradient with p + onehot instead of p - onehot.
// RUN: sed 's/%%d = arith.subf %%p, %%oh : f32/%%d = arith.addf %%p, %%oh : f32/' %amp_src_root/examples/fashion-mnist/mlp.mlir > %t.broken.mlir
// RUN: not amp-run %t.broken.mlir --check-gradients > %t.out 2> %t.err
// RUN: FileCheck %s --check-prefix=BROKEN < %t.out
// BROKEN: (tolerance 1e-05): FAILED
// RUN: FileCheck %s --check-prefix=BROKEN-ERR < %t.err
// BROKEN-ERR: amp-run: --check-gradients: the backward differs from the finite differences of the loss
//
// Gradients near 1e-6 at a loss near 1: the right backward passes, one 2x
// off fails. (Retries with h / 10^4 once excused it: their rounding noise,
// 16 ulp x |L| / h, was larger than the gradient.)
// RUN: amp-run %S/Inputs/small-gradient.mlir --check-gradients --data=synthetic | FileCheck %s --check-prefix=PASS
// RUN: sed 's/%%factor = arith.constant 2.0/%%factor = arith.constant 4.0/' %S/Inputs/small-gradient.mlir > %t.small2x.mlir
// RUN: not amp-run %t.small2x.mlir --check-gradients --data=synthetic | FileCheck %s --check-prefix=SMALL2X
// SMALL2X: #0{{ +}}64xf32{{ +}}5{{ +}}{{[45]\.[0-9]+e-01}}
// SMALL2X: (tolerance 1e-05): FAILED
//
// Synthetic data, a dynamic batch.
// RUN: amp-run %S/Inputs/dynamic-batch.mlir --data=synthetic --batch-size=8 --check-gradients | FileCheck %s --check-prefix=SYN
// SYN: amp-run: synthetic data, 512 training examples of 784 values, 10 classes
// SYN: (tolerance 1e-05): passed
//
// A flag that only shapes a training run is refused, not silently ignored
// (the check is of the step's own backward in f64, before any rewrite).
// RUN: not amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --check-gradients --run=f16 2>&1 | FileCheck %s --check-prefix=REFUSED-RUNOPT
// REFUSED-RUNOPT: amp-run: --check-gradients checks the step's own backward in f64, before the mixed-precision rewrite, on the first batch: --run shapes a training run and does not apply; drop it
// RUN: not amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --check-gradients --epochs=3 2>&1 | FileCheck %s --check-prefix=FLAG-EPOCHS
// FLAG-EPOCHS: --epochs shapes a training run
// RUN: not amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --check-gradients --init-scale=16 2>&1 | FileCheck %s --check-prefix=FLAG-SCALE
// FLAG-SCALE: --init-scale shapes a training run
// Its errors name the check, not a training run.
// RUN: not amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --check-gradients --batch-size=32 2>&1 | FileCheck %s --check-prefix=LABELERR
// LABELERR: amp-run: --check-gradients: --batch-size=32 conflicts with the static batch size 128
// LABELERR-NOT: run f16+dynamic
// RUN: not amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --check-gradients --data-parallel=on 2>&1 | FileCheck %s --check-prefix=DP-ON
// DP-ON: amp-run: --check-gradients runs on one process: drop --data-parallel=on
