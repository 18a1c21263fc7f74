// Regression (found by amp-fuzz in CI): a function inside a nested
// builtin.module reached convert-to-llvm unlowered, because the pipelines'
// func-level passes (bufferization, linalg-to-loops) only visit the
// functions of the module they run on; convert-to-llvm then rewrote the
// linalg.matmul's body into llvm.fmul/llvm.fadd and left IR that does not
// verify ("expected add/mul op in the body"). Both lowerings now refuse a
// nested module, located, and say how to run them on it; run on the nested
// module, the CPU lowering produces its function.
// RUN: not amp-opt %s --amp-lower-to-llvm -o /dev/null 2>&1 | FileCheck %s --check-prefix=CPU
// RUN: not amp-opt %s --amp-lower-to-nvvm -o /dev/null 2>&1 | FileCheck %s --check-prefix=GPU
// RUN: amp-opt %s --pass-pipeline='builtin.module(builtin.module(amp-lower-to-llvm))' | FileCheck %s --check-prefix=NESTED

// CPU: lower-nested-module.mlir:[[@LINE+4]]:3: error: amp-lower-to-llvm lowers the functions of the module it runs on, not those of a nested builtin.module; run it on the nested module (--pass-pipeline='builtin.module(builtin.module(amp-lower-to-llvm))') or move its functions to the top level
// GPU: lower-nested-module.mlir:[[@LINE+3]]:3: error: amp-lower-to-nvvm lowers the functions of the module it runs on, not those of a nested builtin.module
// NESTED: llvm.func @matmul
module {
  module {
    func.func @matmul(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) -> tensor<2x4xf32> {
      %c = arith.constant 0.0 : f32
      %e = tensor.empty() : tensor<2x4xf32>
      %z = linalg.fill ins(%c : f32) outs(%e : tensor<2x4xf32>) -> tensor<2x4xf32>
      %m = linalg.matmul ins(%a, %b : tensor<2x3xf32>, tensor<3x4xf32>) outs(%z : tensor<2x4xf32>) -> tensor<2x4xf32>
      return %m : tensor<2x4xf32>
    }
  }
}
