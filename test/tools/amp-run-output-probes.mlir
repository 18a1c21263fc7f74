// Output paths are probed before anything trains: a file beside which no
// temporary file can be created (/proc) is refused up front, and
// --save-model onto the --model file (under any name) is refused instead of
// replacing the model it reads.
// RUN: rm -rf %t && mkdir -p %t
// RUN: amp-opt --amp-build-train-step="min-elements=1" %s -o %t/step.mlir
// DEFINE: %{run} = amp-run %t/step.mlir --data=synthetic --run=f32 --max-steps=2 --progress=false
//
// RUN: not %{run} --csv=/proc/version > %t/proc.out 2>&1
// RUN: FileCheck %s --check-prefix=PROC < %t/proc.out
// PROC-NOT: synthetic data
// PROC-NOT: run f32
// PROC: amp-run: --csv: cannot write '/proc/version': cannot create a temporary file beside it:
// RUN: not %{run} --dump-state=/proc/version 2>&1 | FileCheck %s --check-prefix=PROC-STATE
// PROC-STATE: amp-run: --dump-state: cannot write '/proc/version': cannot create a temporary file beside it:
// RUN: not %{run} --save-checkpoint=/proc/amp-ck 2>&1 | FileCheck %s --check-prefix=PROC-CKPT
// PROC-CKPT: amp-run: --save-checkpoint: cannot write '/proc/amp-ck': {{.*}}'/proc'
//
// The model is the source of --save-model: the same path, a symbolic link
// to it, another spelling of it.
// RUN: cp %s %t/model.mlir
// RUN: ln -s model.mlir %t/link.mlir
// RUN: cp %t/model.mlir %t/before.mlir
// RUN: not %{run} --model=%t/model.mlir --save-model=%t/model.mlir > %t/same.out 2>&1
// RUN: FileCheck %s --check-prefix=SAME < %t/same.out
// SAME-NOT: run f32
// SAME: amp-run: --save-model={{.*}}.mlir is the --model file {{.*}}.mlir: the trained model would replace the model it was read from; give another path
// RUN: not %{run} --model=%t/model.mlir --save-model=%t/link.mlir 2>&1 | FileCheck %s --check-prefix=SAME
// RUN: not %{run} --model=%t/link.mlir --save-model=%t/./model.mlir 2>&1 | FileCheck %s --check-prefix=SAME
// RUN: cmp %t/model.mlir %t/before.mlir

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
//
// Two outputs that name one file, or an output onto the step itself: the
// last writer replaced the other's bytes (only the dump survived).
// RUN: not amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --run=f32 --max-steps=2 --csv=%t/same.txt --dump-state=%t/same.txt 2>&1 | FileCheck %s --check-prefix=COLLIDE
// COLLIDE: amp-run: --csv and --dump-state name the same file {{.*}}same.txt: one would replace the other; give two paths
// RUN: cp %amp_src_root/examples/fashion-mnist/mlp.mlir %t/stepcopy.mlir
// RUN: not amp-run %t/stepcopy.mlir --run=f32 --max-steps=2 --csv=%t/stepcopy.mlir 2>&1 | FileCheck %s --check-prefix=ONSTEP
// ONSTEP: amp-run: --csv={{.*}}stepcopy.mlir is the step file it would replace; give another path
// RUN: cmp %t/stepcopy.mlir %amp_src_root/examples/fashion-mnist/mlp.mlir
//
// An output onto the checkpoint file --save-checkpoint writes, or onto a
// file the run reads (a data file, under any spelling, or the checkpoint
// --resume reads): the output would have replaced it (a CSV in place of
// the checkpoint, which the next --resume could not read).
// RUN: not amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --run=f32 --max-steps=2 --csv=%t/ck/checkpoint.safetensors --save-checkpoint=%t/ck 2>&1 | FileCheck %s --check-prefix=ONCKPT
// ONCKPT: amp-run: --csv and --save-checkpoint name the same file {{.*}}ck/checkpoint.safetensors: one would replace the other; give two paths
// RUN: echo x > %t/x.npy && echo y > %t/y.npy
// RUN: not %{run} --data=npy:%t/x.npy,%t/y.npy --csv=%t/./y.npy 2>&1 | FileCheck %s --check-prefix=ONDATA
// ONDATA: amp-run: --csv={{.*}}y.npy is a data file of --data it would replace; give another path
// RUN: not %{run} --data=npy:%t/x.npy,%t/y.npy --dump-state=%t/x.npy 2>&1 | FileCheck %s --check-prefix=ONDATA-STATE
// ONDATA-STATE: amp-run: --dump-state={{.*}}x.npy is a data file of --data it would replace; give another path
// RUN: echo y | cmp - %t/y.npy
// RUN: mkdir -p %t/idx && touch %t/idx/t10k-labels-idx1-ubyte.gz
// RUN: not %{run} --data=idx:%t/idx --save-model=%t/idx/t10k-labels-idx1-ubyte.gz --model=%s 2>&1 | FileCheck %s --check-prefix=ONIDX
// ONIDX: amp-run: --save-model={{.*}}t10k-labels-idx1-ubyte.gz is a data file of --data it would replace; give another path
// RUN: %{run} --save-checkpoint=%t/ck2 > /dev/null
// RUN: not %{run} --resume=%t/ck2 --csv=%t/ck2/checkpoint.safetensors 2>&1 | FileCheck %s --check-prefix=ONRESUME
// ONRESUME: amp-run: --csv={{.*}}ck2/checkpoint.safetensors is the checkpoint --resume reads it would replace; give another path
// Saving into the checkpoint a run resumes from is how a run goes on.
// RUN: %{run} --resume=%t/ck2 --save-checkpoint=%t/ck2 --epochs=2 > /dev/null
//
// --dump-state=DIR/ with several runs writes DIR/<run> (it wrote hidden
// files DIR/.f32, DIR/.bf16), as --csv=DIR/ writes DIR/<run>.csv.
// RUN: amp-run %t/step.mlir --data=synthetic --run=f32,bf16 --max-steps=2 --progress=false --dump-state=%t/states/ > /dev/null
// RUN: ls %t/states | FileCheck %s --check-prefix=STATES
// STATES: bf16
// STATES-NEXT: f32
