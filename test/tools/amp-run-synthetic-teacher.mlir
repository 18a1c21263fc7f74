// --data=synthetic labels come from a fixed random teacher (a sparse random
// linear map of the inputs; --synthetic-labels=teacher, the default): the
// MLP learns them, its loss falls from ln(10) = 2.30 over 3 epochs; with
// --synthetic-labels=random (uniform labels, independent of the inputs) it
// cannot, and stays there.
// RUN: amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --data=synthetic --synthetic-examples=1024 --run=f32 --epochs=3 --progress-seconds=0 | FileCheck %s --check-prefix=TEACHER
// TEACHER: labels from a fixed random teacher
// TEACHER: epoch 1/3: train loss 2.{{[0-9]+}}
// TEACHER: epoch 3/3: train loss {{(1\.|2\.[01])[0-9]+}}
// RUN: amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --data=synthetic --synthetic-labels=random --synthetic-examples=1024 --run=f32 --epochs=3 --progress-seconds=0 | FileCheck %s --check-prefix=RANDOM
// RANDOM: uniform random labels
// RANDOM: epoch 3/3: train loss 2.{{[2-9][0-9]+}}
// RUN: not amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --data=synthetic --synthetic-labels=none 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: amp-run: --synthetic-labels=none: must be teacher or random
