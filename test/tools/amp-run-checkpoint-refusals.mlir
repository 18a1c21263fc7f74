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
//
// The same step with another learning rate (same signature): the state is
// loaded, with a warning that this run does not continue the saved one bit
// for bit (resuming to fine-tune with another rate is legitimate).
// RUN: sed 's/arith.constant 0.05 : f32/arith.constant 0.01 : f32/' %amp_src_root/examples/fashion-mnist/mlp.mlir > %t/mlp-lr.mlir
// RUN: amp-run %t/mlp-lr.mlir --data=synthetic --synthetic-examples=1024 --progress=false --run=f32 --epochs=2 --max-steps=2 --resume=%t/f32 2>&1 | FileCheck %s --check-prefix=OTHER-BODY
// OTHER-BODY: amp-run: warning: resuming from '{{.*}}f32/checkpoint.safetensors', which was saved by a run of another step (same signature, different body
// OTHER-BODY: f32{{ +}}
// RUN: amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --data=synthetic --synthetic-examples=1024 --progress=false --run=f32 --epochs=2 --max-steps=2 --resume=%t/f32 2>&1 | FileCheck %s --check-prefix=SAME-BODY
// SAME-BODY-NOT: warning
//
// A data order that is not a permutation of the training examples (an
// edited or corrupted file) is refused instead of reading outside the data.
// RUN: cp -r %t/f32 %t/order-oob && cp -r %t/f32 %t/order-repeat
// RUN: python3 %S/Inputs/edit-checkpoint-order.py %t/order-oob/checkpoint.safetensors 0 1000000000
// RUN: python3 %S/Inputs/edit-checkpoint-order.py %t/order-repeat/checkpoint.safetensors 1 same-as-0
// RUN: not amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --data=synthetic --synthetic-examples=1024 --progress=false --run=f32 --epochs=2 --resume=%t/order-oob 2>&1 | FileCheck %s --check-prefix=ORDER-OOB
// ORDER-OOB: cannot resume from '{{.*}}order-oob/checkpoint.safetensors': its data order is not a permutation of the {{[0-9]+}} training examples (element 0 is 1000000000)
// RUN: not amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --data=synthetic --synthetic-examples=1024 --progress=false --run=f32 --epochs=2 --resume=%t/order-repeat 2>&1 | FileCheck %s --check-prefix=ORDER-REPEAT
// ORDER-REPEAT: its data order is not a permutation of the {{[0-9]+}} training examples (element 1 is {{[0-9]+}}, repeated)
