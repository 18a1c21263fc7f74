// An amp-run checkpoint is a safetensors file that numpy reads in a few
// lines (test/tools/Inputs/read-checkpoint.py, as in
// docs/data-and-checkpoints.md): its state equals the --dump-state digest
// written when a signal stopped the run.
// REQUIRES: numpy
// RUN: rm -rf %t && mkdir -p %t
// RUN: amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --data=synthetic --synthetic-examples=1024 --progress=false --run=f16+dynamic --epochs=2 --save-checkpoint=%t/ck --test-signal-at-step=11 --dump-state=%t/digest > /dev/null || true
// RUN: %numpy_python %S/Inputs/read-checkpoint.py %t/ck/checkpoint.safetensors %t/digest | FileCheck %s
// CHECK: checked 16 state tensors; step 11 epoch 2 order (1024,)
