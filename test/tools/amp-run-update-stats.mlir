// --update-stats and --underflow-stats only instrument the training step:
// the warning that bf16 storage stalls training does not depend on the
// progress display, and a run resumes from its checkpoint with or without
// them, bit for bit.
// RUN: rm -rf %t && mkdir -p %t
// RUN: amp-opt --amp-build-train-step="min-elements=1" %s -o %t/step.mlir
// RUN: amp-opt --amp-build-train-step="min-elements=1 lr=1e-6" %s -o %t/slow-step.mlir
//
// Updates of about 1e-7 on weights of 0.1 round back in bf16 storage: the
// warning, also with --progress=false (the summary line is progress).
// RUN: amp-run %t/slow-step.mlir --data=synthetic --run=bf16 --master-weights=bf16 --max-steps=30 --update-stats --progress=false > %t/stall.out
// RUN: FileCheck %s --check-prefix=STALL < %t/stall.out
// STALL-NOT: updates: mean
// STALL: [bf16 params=bf16] warning: 30 of 30 steps lost at least half of their parameter updates to rounding in bf16 storage
// STALL: parameter updates (--update-stats)
// RUN: amp-run %t/slow-step.mlir --data=synthetic --run=bf16 --master-weights=bf16 --max-steps=30 --update-stats | FileCheck %s --check-prefix=STALL-PROGRESS
// STALL-PROGRESS: [bf16 params=bf16] updates: mean
// STALL-PROGRESS-NEXT: [bf16 params=bf16] warning: 30 of 30 steps
//
// 2 x 6 steps in one go, and 6 + 6 with the second half instrumented: the
// same state bits (f16 with a dynamic loss scale, bf16 storage).
// DEFINE: %{run} = amp-run %t/step.mlir --data=synthetic --run=f16+dynamic,bf16 --master-weights=bf16 --max-steps=6 --progress=false
// RUN: %{run} --epochs=2 --dump-state=%t/full > /dev/null
// RUN: %{run} --epochs=1 --save-checkpoint=%t/ck > /dev/null
// RUN: %{run} --epochs=2 --resume=%t/ck --update-stats --underflow-stats --dump-state=%t/resumed | FileCheck %s --check-prefix=RESUMED
// RESUMED: amp-run: run f16+dynamic (2 epochs, resumed from {{.*}}ck/f16+dynamic)
// RESUMED: amp-run: run bf16 (2 epochs, resumed from {{.*}}ck/bf16)
// RESUMED: parameter updates (--update-stats)
// RUN: cmp %t/full.f16+dynamic %t/resumed.f16+dynamic
// RUN: cmp %t/full.bf16 %t/resumed.bf16
// And back: a checkpoint written with them resumes without them.
// RUN: %{run} --epochs=1 --save-checkpoint=%t/ck2 --update-stats --underflow-stats > /dev/null
// RUN: %{run} --epochs=2 --resume=%t/ck2 --dump-state=%t/resumed2 > /dev/null
// RUN: cmp %t/full.bf16 %t/resumed2.bf16
// Options that change the state's bits are still compared.
// RUN: not %{run} --epochs=2 --resume=%t/ck --rounding-seed=3 2>&1 | FileCheck %s --check-prefix=OTHER
// OTHER: amp-run: run f16+dynamic: cannot resume from '{{.*}}': the run's options differ: rounding-seed=0 there, 3 here

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
