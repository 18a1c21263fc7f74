// --save-model on a model printed without its weights (every blob
// dense_resource<__elided__>, as torch-mlir exports are often shared): the
// builder records where each elided constant is (amp.elided_at) and which
// file it read (amp.source_model), so --model may be left out; the saved
// model names each trained constant (amp_trained_<argument>) and holds its
// blob. A step built from it evaluates to exactly the accuracy the training
// run ended with, and only the elided constants' lines and the new resource
// section differ from this file. The elided ReLU-network weights start
// random (the first layer) or at 0 (the biases).
// RUN: rm -rf %t && mkdir -p %t
// RUN: amp-opt %s --amp-build-train-step -o %t/step.mlir 2>/dev/null
// RUN: FileCheck %s --check-prefix=STEP < %t/step.mlir
// STEP: module attributes {amp.source_model = "{{/.*}}amp-run-save-model-elided.mlir", amp.source_model_xxh3 = "{{[0-9a-f]+}}"}
// STEP: func.func @train_step({{.*}}amp.elided_at = loc("{{.*}}amp-run-save-model-elided.mlir":{{[0-9]+}}:11)
// RUN: amp-run %t/step.mlir --data=synthetic --run=f32 --max-steps=30 --progress=false --save-model=%t/trained.mlir > %t/all.out
// RUN: amp-opt %t/trained.mlir --amp-build-train-step -o %t/step2.mlir 2>/dev/null
// RUN: amp-run %t/step2.mlir --data=synthetic --run=f32 --eval-only --progress=false >> %t/all.out
// RUN: FileCheck %s < %t/all.out
// CHECK: amp-run: wrote the trained model {{.*}}trained.mlir (4 blobs of {{.*}}amp-run-save-model-elided.mlir replaced, 4 of them elided there and now named)
// CHECK: f32{{ +}}{{[0-9.]+}}{{ +}}[[ACC:[0-9]\.[0-9]+]]
// CHECK: run{{ +}}test acc
// CHECK-NEXT: f32{{ +}}[[ACC]]{{[0-9]*}}{{ +}}{{[0-9.]+}}{{ +}}{{[0-9]+}}  the step's initial values
// The saved model: no elided weight is left, the four constants are named.
// RUN: grep -v "^//" %t/trained.mlir > %t/code.mlir
// RUN: not grep "__elided__" %t/code.mlir
// RUN: grep -c "dense_resource<amp_trained_[0-9]*>" %t/code.mlir | FileCheck %s --check-prefix=NAMED
// NAMED: 4
// RUN: grep -c "amp_trained_[0-9]*: \"0x04000000" %t/code.mlir | FileCheck %s --check-prefix=NAMED
// Only the four constants' lines changed, and the resource section was
// added (the file had none).
// RUN: not diff %s %t/trained.mlir > %t/diff
// RUN: grep -c "^<" %t/diff | FileCheck %s --check-prefix=NAMED
// RUN: grep "^>" %t/diff | grep -c "dense_resource<amp_trained_" | FileCheck %s --check-prefix=NAMED
// Refused before training: the model is not the file the step was built
// from, byte for byte. Two weights of one type swapped by name keep every
// place, and would have received each other's weights.
// RUN: sed 's/^    %w1 = /\n    %w1 = /' %s > %t/moved.mlir
// RUN: not amp-run %t/step.mlir --data=synthetic --run=f32 --save-model=%t/x.mlir --model=%t/moved.mlir 2>&1 | FileCheck %s --check-prefix=MOVED
// MOVED: amp-run: --save-model: {{.*}}moved.mlir is not the file the step was built from byte for byte (amp.source_model_xxh3 differs), and the step's elided weights are written by their places in it; build the step again from this file, or keep the weights with --save-checkpoint=DIR
// A copy of the same bytes is the same model.
// RUN: cp %s %t/copy.mlir
// RUN: amp-run %t/step.mlir --data=synthetic --run=f32 --max-steps=30 --progress=false --save-model=%t/fromcopy.mlir --model=%t/copy.mlir > /dev/null
// RUN: cmp %t/trained.mlir %t/fromcopy.mlir
// A model whose locations name another file (torch-mlir's Python debug
// locations): the places are not known, a remark says so, and
// --save-model refuses.
// RUN: sed 's/: tensor<32x784xf32>$/: tensor<32x784xf32> loc("model.py":12:0)/' %s > %t/pyloc.mlir
// RUN: amp-opt %t/pyloc.mlir --amp-build-train-step -o %t/pyloc-step.mlir 2>&1 | FileCheck %s --check-prefix=PYLOC
// PYLOC: remark: amp-build-train-step: 1 parameter(s) come from constants printed without their data (__elided__) whose place in the model file is not known
// RUN: not amp-run %t/pyloc-step.mlir --data=synthetic --run=f32 --save-model=%t/x.mlir 2>&1 | FileCheck %s --check-prefix=PYSAVE
// PYSAVE: amp-run: --save-model: the parameter argument #0 of @train_step starts from the elided blob __elided__ and the step does not say where its constant is
// RUN: not ls %t/x.mlir
// A parameter made from a dense literal (here a small convolution's
// weights written inline) has no blob to write into: refused, with the
// reason.
// RUN: amp-opt %S/../Transforms/keep-accumulators-low.mlir --amp-build-train-step="loss=mse" -o %t/literal.mlir 2>/dev/null
// RUN: not amp-run %t/literal.mlir --data=synthetic --run=f32 --save-model=%t/x.mlir 2>&1 | FileCheck %s --check-prefix=LITERAL
// LITERAL: amp-run: --save-model: the parameter argument #0 of @train_step starts from a dense literal (arith.constant dense<...>
// RUN: not ls %t/x.mlir
#map = affine_map<(d0, d1) -> (d0, d1)>
#t = affine_map<(d0, d1) -> (d1, d0)>
#b = affine_map<(d0, d1) -> (d1)>
module {
  func.func @forward(%x: tensor<16x784xf32>) -> tensor<16x10xf32> {
    %w1 = arith.constant dense_resource<__elided__> : tensor<32x784xf32>
    %b1 = arith.constant dense_resource<__elided__> : tensor<32xf32>
    %w2 = arith.constant dense_resource<__elided__> : tensor<10x32xf32>
    %b2 = arith.constant dense_resource<__elided__> : tensor<10xf32>
    %zero = arith.constant 0.0 : f32
    %et1 = tensor.empty() : tensor<784x32xf32>
    %w1t = linalg.generic {indexing_maps = [#map, #t], iterator_types = ["parallel", "parallel"]} ins(%w1 : tensor<32x784xf32>) outs(%et1 : tensor<784x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<784x32xf32>
    %e1 = tensor.empty() : tensor<16x32xf32>
    %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<16x32xf32>) -> tensor<16x32xf32>
    %mm1 = linalg.matmul ins(%x, %w1t : tensor<16x784xf32>, tensor<784x32xf32>) outs(%f1 : tensor<16x32xf32>) -> tensor<16x32xf32>
    %h = linalg.generic {indexing_maps = [#map, #b, #map], iterator_types = ["parallel", "parallel"]} ins(%mm1, %b1 : tensor<16x32xf32>, tensor<32xf32>) outs(%e1 : tensor<16x32xf32>) {
    ^bb0(%a: f32, %c: f32, %o: f32):
      %s = arith.addf %a, %c : f32
      %p = arith.cmpf ugt, %s, %zero : f32
      %r = arith.select %p, %s, %zero : f32
      linalg.yield %r : f32
    } -> tensor<16x32xf32>
    %et2 = tensor.empty() : tensor<32x10xf32>
    %w2t = linalg.generic {indexing_maps = [#map, #t], iterator_types = ["parallel", "parallel"]} ins(%w2 : tensor<10x32xf32>) outs(%et2 : tensor<32x10xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<32x10xf32>
    %e2 = tensor.empty() : tensor<16x10xf32>
    %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<16x10xf32>) -> tensor<16x10xf32>
    %mm2 = linalg.matmul ins(%h, %w2t : tensor<16x32xf32>, tensor<32x10xf32>) outs(%f2 : tensor<16x10xf32>) -> tensor<16x10xf32>
    %y = linalg.generic {indexing_maps = [#map, #b, #map], iterator_types = ["parallel", "parallel"]} ins(%mm2, %b2 : tensor<16x10xf32>, tensor<10xf32>) outs(%e2 : tensor<16x10xf32>) {
    ^bb0(%a: f32, %c: f32, %o: f32):
      %s = arith.addf %a, %c : f32
      linalg.yield %s : f32
    } -> tensor<16x10xf32>
    return %y : tensor<16x10xf32>
  }
}
