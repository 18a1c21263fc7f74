// Checkpoints are refused when they are not this run's, saying what
// differs; --checkpoint-every and several runs' directories.
// RUN: rm -rf %t && mkdir -p %t
// RUN: amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --data=synthetic --synthetic-examples=1024 --progress=false --run=f32 --epochs=1 --max-steps=2 --save-checkpoint=%t/f32 > /dev/null
// RUN: amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --data=synthetic --synthetic-examples=1024 --progress=false --run=f16+dynamic --init-scale=16777216 --growth-interval=2 --epochs=1 --max-steps=2 --save-checkpoint=%t/f16 > /dev/null
//
// A checkpoint of another run or configuration is refused, saying what
// differs.
// RUN: not amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --data=synthetic --synthetic-examples=1024 --progress=false --run=f16+dynamic --epochs=2 --max-steps=2 --resume=%t/f32 2>&1 | FileCheck %s --check-prefix=REFUSED-NAME
// REFUSED-NAME: amp-run: run f16+dynamic: cannot resume from '{{.*}}f32/checkpoint.safetensors': it was made by the run f32, this run is f16 + dynamic
// RUN: not amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --data=synthetic --synthetic-examples=1024 --progress=false --run=f16+dynamic --init-scale=1024 --growth-interval=2 --epochs=2 --max-steps=2 --resume=%t/f16 2>&1 | FileCheck %s --check-prefix=OTHER-OPTIONS
// OTHER-OPTIONS: cannot resume from '{{.*}}': the run's options differ: init-scale=16777216 there, 1024 here
// RUN: not amp-run %amp_src_root/examples/fashion-mnist/adam.mlir --data=synthetic --synthetic-examples=1024 --progress=false --run=f32 --epochs=2 --max-steps=2 --resume=%t/f32 2>&1 | FileCheck %s --check-prefix=OTHER-STEP
// OTHER-STEP: cannot resume from '{{.*}}': it was made from another step: its signature is
// RUN: not amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --data=synthetic --synthetic-examples=1024 --progress=false --run=f32 --epochs=1 --resume=%t/f32 2>&1 | FileCheck %s --check-prefix=DONE
// DONE: it ends epoch 1 of 1; nothing is left to train with --epochs=1
// RUN: not amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --data=synthetic --progress=false --run=f32 --resume=%t/nothing 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: amp-run: --resume={{.*}}nothing: no checkpoint of run f32 ({{.*}}nothing/checkpoint.safetensors does not exist)
//
// Several runs: one checkpoint directory each, DIR/<run>.
// RUN: amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --data=synthetic --synthetic-examples=1024 --progress=false --run=f32,bf16 --max-steps=2 --save-checkpoint=%t/many > /dev/null
// RUN: ls %t/many/f32/checkpoint.safetensors %t/many/bf16/checkpoint.safetensors
//
// --checkpoint-every=3 over 2 epochs of 4 steps writes after steps 3, 4
// (the epoch's end), 6 and 8; the last one stands: the run's end, the next
// epoch (3) not started.
// RUN: amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --data=synthetic --synthetic-examples=1024 --progress=false --run=f32 --epochs=2 --max-steps=4 --save-checkpoint=%t/every --checkpoint-every=3 > /dev/null
// RUN: python3 -c "import json,struct; f=open('%t/every/checkpoint.safetensors','rb'); n=struct.unpack('<Q',f.read(8))[0]; m=json.loads(f.read(n))['__metadata__']; print('steps', m['steps'], 'epoch', m['epoch'], 'step_in_epoch', m['step_in_epoch'])" | FileCheck %s --check-prefix=EVERY
// EVERY: steps 8 epoch 3 step_in_epoch 0
//
