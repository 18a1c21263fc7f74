// REQUIRES: cuda-runtime
// The driver's checks hold on the CUDA backend too (they used to drift: the
// GPU path took the static batch over --batch-size, fed an f16 input as f32,
// did not compare the eval step's classes with the data and trained an
// already loss-scaled step). The stand-in driver (Inputs/fake_cuda.c) lets
// them run without a GPU; the CPU side is test/tools/amp-run-checks.mlir.
// RUN: env LD_LIBRARY_PATH=%fake_cuda_dir not amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --device=cuda --batch-size=64 2>&1 | FileCheck %s --check-prefix=BATCH
// BATCH-NOT: loading
// BATCH: amp-run: run f16+dynamic: --batch-size=64 conflicts with the static batch size 128 of the input
// RUN: env LD_LIBRARY_PATH=%fake_cuda_dir not amp-run %amp_src_root/test/tools/Inputs/f16-input.mlir --device=cuda --run=f32 2>&1 | FileCheck %s --check-prefix=F16IN
// F16IN: amp-run: run f32: @train_step: the input must be f32
// RUN: env LD_LIBRARY_PATH=%fake_cuda_dir not amp-run %amp_src_root/test/tools/Inputs/five-classes.mlir --device=cuda --run=f32 2>&1 | FileCheck %s --check-prefix=CLASSES
// CLASSES: amp-run: run f32: the eval step returns 5 logits per example but the dataset has 10 classes
// RUN: amp-opt %amp_src_root/examples/fashion-mnist/mlp.mlir --amp-mixed-precision -o %t.scaled.mlir
// RUN: env LD_LIBRARY_PATH=%fake_cuda_dir not amp-run %t.scaled.mlir --device=cuda --run=f32 2>&1 | FileCheck %s --check-prefix=SCALED
// SCALED: amp-run: run f32: @train_step is already loss-scaled
// RUN: env LD_LIBRARY_PATH=%fake_cuda_dir not amp-run %amp_src_root/test/tools/Inputs/dynamic-param.mlir --device=cuda --run=f32 --batch-size=16 2>&1 | FileCheck %s --check-prefix=DYNPARAM
// DYNPARAM: amp-run: run f32: @train_step argument #0 (amp.role = "param") of type tensor<?x10xf32>: dimension 0 is dynamic
// RUN: env LD_LIBRARY_PATH=%fake_cuda_dir not amp-run %amp_src_root/test/tools/Inputs/huge-param.mlir --device=cuda --run=f32 2>&1 | FileCheck %s --check-prefix=HUGE
// HUGE: amp-run: run f32: the step's buffers need
// The rewrite's options reach the CUDA runs through the same driver: a bad
// one is refused with the same message.
// RUN: env LD_LIBRARY_PATH=%fake_cuda_dir not amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --device=cuda --backoff-factor=2 2>&1 | FileCheck %s --check-prefix=BF
// BF: amp-run: --backoff-factor=2: must lie in (0, 1)
// A dynamic batch runs on the fake device with --batch-size.
// RUN: env LD_LIBRARY_PATH=%fake_cuda_dir amp-run %amp_src_root/test/tools/Inputs/dynamic-batch.mlir --device=cuda --run=f32 --batch-size=32 --max-steps=2 2>&1 | FileCheck %s --check-prefix=DYN
// DYN: [f32] on Fake GPU (sm_90), compiled in
// DYN: f32{{ +}}{{.*}}{{ +}}0{{ +}}2{{ +}}
