// --save-model writes the model the step was built from with the trained
// weights in its dense_resource blobs: a step built from the saved model
// evaluates to exactly the accuracy the training run ended with, and only
// the blob lines differ from the input model.
// REQUIRES: numpy
// RUN: rm -rf %t && mkdir -p %t
// RUN: %numpy_python %S/Inputs/make-linear-model.py > %t/model.mlir
// RUN: amp-opt %t/model.mlir --amp-build-train-step="batch=64" -o %t/step.mlir
// RUN: amp-run %t/step.mlir --run=f32 --max-steps=40 --progress=false --save-model=%t/trained.mlir --model=%t/model.mlir > %t/all.out
// RUN: amp-opt %t/trained.mlir --amp-build-train-step="batch=64" -o %t/step2.mlir
// RUN: amp-run %t/step2.mlir --run=f32 --eval-only --progress=false >> %t/all.out
// RUN: FileCheck %s < %t/all.out
// CHECK: amp-run: wrote the trained model {{.*}}trained.mlir (2 blobs of {{.*}}model.mlir replaced)
// CHECK: f32{{ +}}{{[0-9.]+}}{{ +}}[[ACC:[0-9]\.[0-9]+]]
// CHECK: run{{ +}}test acc
// CHECK-NEXT: f32{{ +}}[[ACC]]{{[0-9]*}}{{ +}}{{[0-9.]+}}{{ +}}10000  the step's initial values
//
// Only the two blob lines changed.
// RUN: not diff %t/model.mlir %t/trained.mlir > %t/diff
// RUN: grep -c '^[<>]' %t/diff | FileCheck %s --check-prefix=LINES
// LINES: 4
// RUN: grep '^[<>]' %t/diff | not grep -v '^[<>]       fc\.\(weight\|bias\): "0x04000000'
//
// A model printed without its blobs gets them (a resource section is
// added): the same trained model.
// RUN: %numpy_python %S/Inputs/make-linear-model.py --no-blobs > %t/noblobs.mlir
// RUN: amp-run %t/step.mlir --run=f32 --max-steps=40 --progress=false --save-model=%t/filled.mlir --model=%t/noblobs.mlir > /dev/null
// RUN: amp-opt %t/filled.mlir --amp-build-train-step="batch=64" -o %t/step3.mlir
// (The steps differ only in the model file they record, on the module.)
// RUN: sed 's/^module attributes {.*} {$/module {/' %t/step2.mlir > %t/step2.body
// RUN: sed 's/^module attributes {.*} {$/module {/' %t/step3.mlir > %t/step3.body
// RUN: cmp %t/step2.body %t/step3.body
//
// Refusals, before anything trains.
// A step built from standard input does not record its model
// (amp.source_model): --model is needed.
// RUN: amp-opt --amp-build-train-step="batch=64" < %t/model.mlir > %t/stdin-step.mlir
// RUN: not amp-run %t/stdin-step.mlir --run=f32 --save-model=%t/x.mlir 2>&1 | FileCheck %s --check-prefix=NOMODEL
// NOMODEL: amp-run: --save-model needs --model=FILE: the forward model the step was built from (amp-build-train-step's input), whose dense_resource blobs take the trained weights; this step does not record it (amp.source_model)
// Without --model, the step's amp.source_model is the model.
// RUN: amp-run %t/step.mlir --run=f32 --max-steps=40 --progress=false --save-model=%t/recorded.mlir > /dev/null
// RUN: cmp %t/trained.mlir %t/recorded.mlir
// RUN: not amp-run %t/step.mlir --run=f32 --save-model=%t/model.mlir 2>&1 | FileCheck %s --check-prefix=SOURCE
// SOURCE: amp-run: --save-model={{.*}}model.mlir is the model the step was built from, {{.*}}model.mlir: the trained model would replace the model it was read from; give another path
// RUN: not amp-run %t/step.mlir --run=f32 --model=%t/model.mlir 2>&1 | FileCheck %s --check-prefix=NOSAVE
// NOSAVE: amp-run: --model={{.*}}model.mlir is read by --save-model only
// RUN: not amp-run %t/step.mlir --run=f32,f16 --save-model=%t/x.mlir --model=%t/model.mlir 2>&1 | FileCheck %s --check-prefix=RUNS
// RUNS: amp-run: --save-model={{.*}}x.mlir: writes the model of one run, and 2 runs were asked for
// RUN: not amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --run=f32 --save-model=%t/x.mlir --model=%t/model.mlir 2>&1 | FileCheck %s --check-prefix=HAND
// HAND: amp-run: --save-model: the parameter argument #0 of @train_step has no amp.initial_value = dense_resource<key> (a parameter made from a function argument, params=arguments, or a hand-written step): there is no blob in the model to write it into; --save-checkpoint=DIR keeps every trained parameter
// RUN: sed 's/fc.bias/fc.other/g' %t/model.mlir > %t/other.mlir
// RUN: not amp-run %t/step.mlir --run=f32 --save-model=%t/x.mlir --model=%t/other.mlir 2>&1 | FileCheck %s --check-prefix=OTHER
// OTHER: amp-run: --save-model: {{.*}}other.mlir: the model has no dense_resource<fc.bias>: it is not the model the step was built from
// RUN: not amp-run %t/step.mlir --run=f32 --eval-only --save-model=%t/x.mlir --model=%t/model.mlir 2>&1 | FileCheck %s --check-prefix=EVAL
// EVAL: amp-run: --eval-only evaluates the step's eval step and trains nothing: --save-model shapes a training run and does not apply; drop it
// RUN: not ls %t/x.mlir
