// A checkpoint that is not this run's (other options, another --seed, no
// epochs left) is refused before the data is loaded and before any run
// starts (docs/data-and-checkpoints.md).
// RUN: rm -rf %t && mkdir -p %t
// RUN: amp-opt --amp-build-train-step="min-elements=1" %s -o %t/step.mlir
// DEFINE: %{run} = amp-run %t/step.mlir --data=synthetic --max-steps=2 --progress=false
// RUN: %{run} --run=bf16 --master-weights=bf16-stochastic --save-checkpoint=%t/ck > /dev/null
//
// RUN: not %{run} --run=bf16 --master-weights=bf16-stochastic --epochs=2 --resume=%t/ck --seed=5 > %t/seed.out 2>&1
// RUN: FileCheck %s --check-prefix=SEED < %t/seed.out
// SEED-NOT: synthetic data
// SEED-NOT: amp-run: run bf16 (
// SEED: amp-run: run bf16: cannot resume from '{{.*}}ck/checkpoint.safetensors': it was made with --seed=0, this run has 5
// RUN: not %{run} --run=bf16 --master-weights=bf16-stochastic --epochs=2 --resume=%t/ck --rounding-seed=1 > %t/options.out 2>&1
// RUN: FileCheck %s --check-prefix=OPTIONS < %t/options.out
// OPTIONS-NOT: synthetic data
// OPTIONS-NOT: amp-run: run bf16 (
// OPTIONS: amp-run: run bf16: cannot resume from '{{.*}}': the run's options differ: rounding-seed=0 there, 1 here
// RUN: not %{run} --run=bf16 --master-weights=bf16 --epochs=2 --resume=%t/ck 2>&1 | FileCheck %s --check-prefix=OTHER-NAME
// OTHER-NAME-NOT: synthetic data
// OTHER-NAME: amp-run: run bf16: cannot resume from '{{.*}}': it was made by the run bf16 params=bf16-stochastic, this run is bf16 params=bf16
// RUN: not %{run} --run=bf16 --master-weights=bf16-stochastic --epochs=1 --resume=%t/ck 2>&1 | FileCheck %s --check-prefix=DONE
// DONE-NOT: synthetic data
// DONE: amp-run: run bf16: cannot resume from '{{.*}}': it ends epoch 1 of 1; nothing is left to train with --epochs=1
// A checkpoint of several runs is one folder per run: resuming one run
// from the parent folder names the run's folder.
// RUN: %{run} --run=f32,bf16 --save-checkpoint=%t/two > /dev/null
// RUN: not %{run} --run=f32 --epochs=2 --resume=%t/two 2>&1 | FileCheck %s --check-prefix=SUBDIR
// SUBDIR: --resume={{.*}}two: no checkpoint of run f32 ({{.*}}two/checkpoint.safetensors does not exist); {{.*}}two/f32 holds one (written by a --run of several runs): --resume={{.*}}two/f32
// RUN: %{run} --run=f32 --epochs=2 --resume=%t/two/f32 | FileCheck %s --check-prefix=SUBDIR-OK
// SUBDIR-OK: amp-run: run f32 (2 epochs, resumed from {{.*}}two/f32)
// The run itself resumes.
// RUN: %{run} --run=bf16 --master-weights=bf16-stochastic --epochs=2 --resume=%t/ck | FileCheck %s --check-prefix=OK
// OK: amp-run: run bf16 (2 epochs, resumed from {{.*}}ck)

#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d1)>
module {
  func.func @forward(%x: tensor<4x8xf32>) -> tensor<4x3xf32> {
    %w = arith.constant dense<0.1> : tensor<8x3xf32>
    %b = arith.constant dense<0.0> : tensor<3xf32>
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<4x3xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x3xf32>) -> tensor<4x3xf32>
    %m = linalg.matmul ins(%x, %w : tensor<4x8xf32>, tensor<8x3xf32>) outs(%f : tensor<4x3xf32>) -> tensor<4x3xf32>
    %r = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%m, %b : tensor<4x3xf32>, tensor<3xf32>) outs(%e : tensor<4x3xf32>) {
    ^bb0(%a: f32, %bb: f32, %o: f32):
      %s = arith.addf %a, %bb : f32
      linalg.yield %s : f32
    } -> tensor<4x3xf32>
    return %r : tensor<4x3xf32>
  }
}
