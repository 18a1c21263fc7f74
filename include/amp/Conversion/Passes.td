//===- Passes.td - lowering the amp dialect -*- tablegen -*-===//
//
// What the CPU and GPU pipelines share before they part: the `amp` ops
// lowered to upstream dialects, upstream's aggregate ops decomposed.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_CONVERSION_PASSES_TD
#define AMP_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def LowerAmpToStandard : Pass<"amp-lower-to-standard", "ModuleOp"> {
  let summary = "Lower amp ops to linalg, tensor and arith";
  let description = [{
    - `amp.loss_grad` (unscaled step) -> constant 1.0 : tensor<f32>;
    - `amp.grad` -> its gradient operand (identity);
    - `amp.unscale_and_check` -> one linalg.generic per gradient that reads
      the gradient once, writes the unscaled value and or-reduces a
      non-finite flag (|g| >= +inf, unordered, so NaN counts) into one
      found_inf chained through all gradients: a single pass over the data;
    - `amp.update_scale` -> scalar arith/select with PyTorch's rule.
    After this pass no `amp` op remains; the result is plain upstream IR.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::tensor::TensorDialect"];
}

def DecomposeAggregateOps
    : Pass<"amp-decompose-aggregate-ops", "func::FuncOp"> {
  let summary = "Decompose aggregate linalg ops (softmax) into generics";
  let description = [{
    CPU lowering helper: every op implementing linalg's
    AggregatedOpInterface (`linalg.softmax`: max, sub, exp, sum, div) is
    replaced by its upstream decomposition into linalg.generic/fill ops, which
    bufferization and `convert-linalg-to-loops` handle.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect"];
}

#endif // AMP_CONVERSION_PASSES_TD
