// --eval-only runs the eval step on the test set and trains nothing: from
// a checkpoint (--resume) it gives the accuracy the training run ended with.
// RUN: rm -rf %t && mkdir -p %t
// RUN: amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --data=synthetic --synthetic-examples=1024 --progress=false --run=f16+dynamic --save-checkpoint=%t/ck > %t/all.out
// RUN: amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --data=synthetic --synthetic-examples=1024 --progress=false --run=f16+dynamic --eval-only --resume=%t/ck >> %t/all.out
// RUN: FileCheck %s < %t/all.out
// CHECK: f16 + dynamic{{ +}}{{[0-9.]+}}{{ +}}[[ACC:[0-9]\.[0-9]+]]
// CHECK: run{{ +}}test acc{{ +}}test loss{{ +}}examples{{ +}}from
// CHECK-NEXT: f16 + dynamic{{ +}}[[ACC]]{{[0-9]*}}{{ +}}{{[0-9.]+}}{{ +}}256  the checkpoint {{.*}}checkpoint.safetensors (8 steps)
//
// Flags of a training run are refused.
// RUN: not amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --data=synthetic --eval-only --epochs=2 2>&1 | FileCheck %s --check-prefix=EPOCHS
// EPOCHS: amp-run: --eval-only evaluates the step's eval step and trains nothing: --epochs shapes a training run and does not apply; drop it
