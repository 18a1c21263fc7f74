// Everything a run can be refused for is checked once, by the training
// driver (Trainer.h planRun / checkRunAgainstData), for every device, before
// the data is loaded or any buffer is allocated. The CUDA side of each check
// is test/GPU/amp-run-checks-cuda.mlir (fake driver).
//
// The batch: a static one must agree with --batch-size; a dynamic one needs it.
// RUN: not amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --batch-size=64 2>&1 | FileCheck %s --check-prefix=BATCH
// BATCH-NOT: loading
// BATCH: amp-run: run f16+dynamic: --batch-size=64 conflicts with the static batch size 128 of the input
// RUN: not amp-run %S/Inputs/dynamic-batch.mlir --run=f32 2>&1 | FileCheck %s --check-prefix=NOBATCH
// NOBATCH-NOT: loading
// NOBATCH: amp-run: run f32: the input's batch dimension is dynamic: pass --batch-size=N with N >= 1
// --batch-size=0 and -1 get the same message.
// RUN: not amp-run %S/Inputs/dynamic-batch.mlir --batch-size=0 2>&1 | FileCheck %s --check-prefix=ZERO
// ZERO: amp-run: --batch-size=0: must be >= 1
// RUN: not amp-run %S/Inputs/dynamic-batch.mlir --batch-size=-1 2>&1 | FileCheck %s --check-prefix=MINUS
// MINUS: amp-run: --batch-size=-1: must be >= 1
// A dynamic batch trains with the given size.
// RUN: amp-run %S/Inputs/dynamic-batch.mlir --run=f32 --batch-size=32 --max-steps=3 | FileCheck %s --check-prefix=DYN
// DYN: f32{{ +}}{{-?[0-9.]+}}{{ +}}-{{ +}}-{{ +}}0{{ +}}3
// A batch larger than the training set, before any buffer is allocated.
// RUN: not amp-run %S/Inputs/dynamic-batch.mlir --run=f32 --batch-size=60001 2>&1 | FileCheck %s --check-prefix=BIG
// BIG: amp-run: run f32: batch size 60001 exceeds the training set (60000 examples)
// A batch whose buffers exceed this machine's memory is refused before the
// data is loaded (it used to abort with "LLVM ERROR: out of memory").
// RUN: not amp-run %S/Inputs/dynamic-batch.mlir --run=f32 --batch-size=100000000000 2>&1 | FileCheck %s --check-prefix=OOM
// OOM-NOT: loading
// OOM: amp-run: run f32: the step's buffers need {{[0-9.]+}} GiB (batch 100000000000) but this machine has {{[0-9.]+}} GiB of memory
// RUN: not amp-run %S/Inputs/huge-param.mlir --run=f32 2>&1 | FileCheck %s --check-prefix=HUGE
// HUGE: amp-run: run f32: the step's buffers need {{[0-9.]+}} GiB (batch 16) but this machine has
// A size whose bytes wrap around 64 bits (it used to train "successfully").
// RUN: not amp-run %S/Inputs/wrapping-param.mlir --run=f32 2>&1 | FileCheck %s --check-prefix=WRAP
// WRAP: amp-run: run f32: @train_step argument #0 (amp.role = "param") of type tensor<4294967296x4294967296xf32>: its size in bytes does not fit in 63 bits
//
// Only the batch may be dynamic (a dynamic parameter used to get the batch
// size as its size: out-of-bounds reads, heap corruption).
// RUN: not amp-run %S/Inputs/dynamic-param.mlir --run=f32 --batch-size=16 2>&1 | FileCheck %s --check-prefix=DYNPARAM
// DYNPARAM-NOT: loading
// DYNPARAM: amp-run: run f32: @train_step argument #0 (amp.role = "param") of type tensor<?x10xf32>: dimension 0 is dynamic; only dimension 0 (the batch) of the input, the label (or target) and the logits may be dynamic
// RUN: sed 's/tensor<?x784xf32>/tensor<?x?xf32>/g' %S/Inputs/dynamic-batch.mlir > %t.dyninput.mlir
// RUN: not amp-run %t.dyninput.mlir --run=f32 --batch-size=16 2>&1 | FileCheck %s --check-prefix=DYNINPUT
// DYNINPUT: amp-run: run f32: @train_step argument #1 (amp.role = "input") of type tensor<?x?xf32>: dimension 1 is dynamic
//
// The input must be f32; the eval step's classes must match the data.
// RUN: not amp-run %S/Inputs/f16-input.mlir --run=f32 2>&1 | FileCheck %s --check-prefix=F16IN
// F16IN-NOT: loading
// F16IN: amp-run: run f32: @train_step: the input must be f32 (amp-run feeds pixels in [0, 1] as f32; autocast narrows inside the step) or an i1, i8, i32 or i64 tensor (token ids), got tensor<128x784xf16>
// RUN: not amp-run %S/Inputs/five-classes.mlir --run=f32 2>&1 | FileCheck %s --check-prefix=CLASSES
// CLASSES: amp-run: run f32: the eval step returns 5 logits per example but the dataset has 10 classes
//
// The step is the fp32 one: a loss-scaled step would be trained under the
// wrong name.
// RUN: amp-opt %amp_src_root/examples/fashion-mnist/mlp.mlir --amp-mixed-precision -o %t.scaled.mlir
// RUN: not amp-run %t.scaled.mlir --run=f32 2>&1 | FileCheck %s --check-prefix=SCALED
// SCALED-NOT: loading
// SCALED: amp-run: run f32: @train_step is already loss-scaled; amp-run takes the fp32 training step
