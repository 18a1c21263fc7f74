// Valid upstream MLIR on which upstream passes of the CPU lowering crash
// (MLIR 22): an expand_shape whose reassociation group expands into more
// than one dynamic size becomes a memref.expand_shape that
// expand-strided-metadata segfaults on (memref::ReinterpretCastOp::build via
// dispatchIndexOpFoldResult), e.g. after tensor reshape folding of
// collapse_shape/expand_shape chains with dynamic dimensions.
//
// 1. amp-lower-to-llvm refuses the class up front, located at the op, with
//    what to do (-verify-diagnostics below). This file is in the robustness
//    corpus, so every amp pass runs on each case too.
// RUN: amp-opt %s -split-input-file --amp-lower-to-llvm -verify-diagnostics
//
// 2. The upstream passes alone still crash; amp-opt contains the crash: an
//    error naming the pass, a reproducer that reproduces it, exit 1, no
//    output.
// RUN: rm -rf %t && mkdir -p %t
// RUN: not amp-opt %s -split-input-file --one-shot-bufferize="bufferize-function-boundaries" --expand-strided-metadata --amp-crash-reproducer=%t/repro.mlir -o %t/out.mlir 2>&1 | FileCheck %s --check-prefix=CRASH
// RUN: not ls %t/out.mlir
// RUN: FileCheck %s --input-file=%t/repro.mlir --check-prefix=REPRO
// RUN: not amp-opt --run-reproducer %t/repro.mlir --amp-crash-reproducer=%t/repro2.mlir 2>&1 | FileCheck %s --check-prefix=CRASH
// CRASH: error: pass 'expand-strided-metadata' (ExpandStridedMetadataPass) crashed on 'builtin.module': an internal compiler error
// CRASH-SAME: reproducer: '{{.*}}repro{{2?}}.mlir'
// CRASH: amp-opt: a pass crashed (error above); no output written
// REPRO: // amp crash reproducer: pass 'expand-strided-metadata' (ExpandStridedMetadataPass) crashed on 'builtin.module'.
// REPRO: memref.expand_shape
// REPRO: pipeline: "builtin.module(expand-strided-metadata)"

// One collapse/expand chain: [?, ?] -> [?] -> [?, 4, ?].
func.func @collapse_expand(%a: tensor<?x?xf32>) -> tensor<?x4x?xf32> {
  %c = tensor.collapse_shape %a [[0, 1]] : tensor<?x?xf32> into tensor<?xf32>
  %c0 = arith.constant 0 : index
  %d = tensor.dim %a, %c0 : tensor<?x?xf32>
  // expected-error @+1 {{'tensor.expand_shape' op expands group #0 into 2 dynamic sizes (result 'tensor<?x4x?xf32>'), which amp-lower-to-llvm cannot lower: upstream MLIR 22's expand-strided-metadata crashes on it; make all but one size of each reassociation group static}}
  %e = tensor.expand_shape %c [[0, 1, 2]] output_shape [%d, 4, %d] : tensor<?xf32> into tensor<?x4x?xf32>
  return %e : tensor<?x4x?xf32>
}

// -----

// The second group of two.
func.func @second_group(%a: tensor<8x?xf32>, %n: index, %m: index) -> tensor<2x4x?x?xf32> {
  // expected-error @+1 {{expands group #1 into 2 dynamic sizes}}
  %e = tensor.expand_shape %a [[0, 1], [2, 3]] output_shape [2, 4, %n, %m] : tensor<8x?xf32> into tensor<2x4x?x?xf32>
  return %e : tensor<2x4x?x?xf32>
}

// -----

// Already bufferized input (memref.expand_shape).
func.func @memref_expand(%a: memref<?xf32>, %n: index, %m: index) -> memref<?x?xf32> {
  // expected-error @+1 {{'memref.expand_shape' op expands group #0 into 2 dynamic sizes}}
  %e = memref.expand_shape %a [[0, 1]] output_shape [%n, %m] : memref<?xf32> into memref<?x?xf32>
  return %e : memref<?x?xf32>
}
