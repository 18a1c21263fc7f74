// --eval-only evaluates a test set smaller than a batch as training's eval
// does (the last batch partial), refuses every flag that only shapes
// training, and refuses before it prints its table.
// REQUIRES: numpy
// RUN: rm -rf %t && mkdir -p %t
// RUN: amp-opt --amp-build-train-step="min-elements=1" %s -o %t/step.mlir
// RUN: amp-opt --amp-build-train-step="min-elements=1 eval-step=false" %s -o %t/no-eval.mlir
// RUN: %numpy_python -c "import numpy as np; r = np.random.default_rng(0); np.save('%t/x.npy', r.random((16, 8), dtype=np.float32)); np.save('%t/y.npy', np.arange(16) %% 3); np.save('%t/x3.npy', r.random((3, 8), dtype=np.float32)); np.save('%t/y3.npy', np.arange(3))"
//
// Training evaluates the 3 test examples after its epoch; so does
// --eval-only (batch 4).
// RUN: amp-run %t/step.mlir --run=f32 --max-steps=1 --progress=false --data=npy:%t/x.npy,%t/y.npy,%t/x3.npy,%t/y3.npy | FileCheck %s --check-prefix=TRAIN
// TRAIN: f32{{ +}}{{[0-9.]+}}{{ +}}{{0\.[0-9]+|1\.0000}}{{ +}}-
// RUN: amp-run %t/step.mlir --run=f32 --eval-only --data=npy:%t/x.npy,%t/y.npy,%t/x3.npy,%t/y3.npy | FileCheck %s --check-prefix=SMALL
// SMALL: run{{ +}}test acc
// SMALL-NEXT: f32{{ +}}{{[0-9.]+}}{{ +}}{{[0-9.]+}}{{ +}}3  the step's initial values
// The training set alone smaller than a batch (it is the test set here).
// RUN: amp-run %t/step.mlir --run=f32 --eval-only --data=npy:%t/x3.npy,%t/y3.npy | FileCheck %s --check-prefix=SMALL
//
// Flags that only shape training are refused, as --epochs is.
// DEFINE: %{eval} = not amp-run %t/step.mlir --eval-only --data=npy:%t/x.npy,%t/y.npy --run=f16+dynamic
// RUN: %{eval} --update-stats 2>&1 | FileCheck %s --check-prefix=FLAG -DFLAG=update-stats
// RUN: %{eval} --underflow-stats 2>&1 | FileCheck %s --check-prefix=FLAG -DFLAG=underflow-stats
// RUN: %{eval} --growth-interval=5 2>&1 | FileCheck %s --check-prefix=FLAG -DFLAG=growth-interval
// RUN: %{eval} --init-scale=1024 2>&1 | FileCheck %s --check-prefix=FLAG -DFLAG=init-scale
// RUN: %{eval} --hysteresis=2 2>&1 | FileCheck %s --check-prefix=FLAG -DFLAG=hysteresis
// RUN: %{eval} --rounding-seed=2 2>&1 | FileCheck %s --check-prefix=FLAG -DFLAG=rounding-seed
// FLAG: amp-run: --eval-only evaluates the step's eval step and trains nothing: --[[FLAG]] shapes a training run and does not apply; drop it
//
// A checkpoint made with loss-scale options is evaluated without them.
// RUN: amp-run %t/step.mlir --run=f16+dynamic --max-steps=2 --progress=false --init-scale=1024 --growth-interval=3 --data=npy:%t/x.npy,%t/y.npy --save-checkpoint=%t/ck > /dev/null
// RUN: amp-run %t/step.mlir --run=f16+dynamic --eval-only --data=npy:%t/x.npy,%t/y.npy --resume=%t/ck | FileCheck %s --check-prefix=RESUMED
// RESUMED: f16 + dynamic{{ +}}{{[0-9.]+}}{{ +}}{{[0-9.]+}}{{ +}}16  the checkpoint {{.*}}checkpoint.safetensors (2 steps)
//
// Refusals come before the table.
// RUN: not amp-run %t/step.mlir --run=f32 --eval-only --data=npy:%t/x.npy,%t/y.npy --resume=%t/ck > %t/other.out 2>&1
// RUN: FileCheck %s --check-prefix=WRONG-CKPT < %t/other.out
// WRONG-CKPT-NOT: test acc
// WRONG-CKPT: amp-run: --eval-only: run f32: cannot resume from '{{.*}}': it was made by the run f16 + dynamic, this run is f32
// WRONG-CKPT-NOT: test acc
// RUN: not amp-run %t/no-eval.mlir --run=f32 --eval-only --data=npy:%t/x.npy,%t/y.npy > %t/no-eval.out 2>&1
// RUN: FileCheck %s --check-prefix=NO-EVAL < %t/no-eval.out
// NO-EVAL-NOT: test acc
// NO-EVAL-NOT: loaded
// NO-EVAL: amp-run: --eval-only: run f32: the step has no amp.eval_step: --eval-only evaluates one
// NO-EVAL-NOT: test acc

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
