//===- Passes.td - amp autodiff passes ---------------------*- tablegen -*-===//
//
// The passes of the autodiff room. `amp-opt --help` and the autodiff section
// of docs/passes.md come from the summaries, descriptions and options here.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_AUTODIFF_PASSES_TD
#define AMP_AUTODIFF_PASSES_TD

include "mlir/Pass/PassBase.td"

def Differentiate : Pass<"amp-differentiate", "ModuleOp"> {
  let summary = "Reverse-mode automatic differentiation: add @<f>_grad "
                "returning the loss and its gradients";
  let description = [{
    For a `func.func @f` whose only result is a scalar float tensor (the
    loss, `tensor<f32>` or `tensor<f64>`), adds `@f_grad` right after it:
    the same arguments, the forward of `@f` followed inline by its backward,
    and as results the loss followed by d loss / d arg_i for every
    differentiated argument i, each of the argument's type. `@f` itself is
    left as it was. The backward starts from a seed of 1.0, keeps the
    forward values it needs (no recomputation), and sums the cotangent of a
    value with several uses once. Calls to functions of the module are
    inlined into `@f_grad` and scf.for loops with a constant trip count are
    unrolled there first.

    Adjoint rules come from ReverseModeOpInterface external models, one
    file per dialect (linalg, tensor, arith, math, func, scf); docs/autodiff.md
    lists them, their math and their tie rules (max/min reductions split
    the gradient evenly among ties, max/min pooling sends it to the first
    maximum of the window, like PyTorch's amax and max_pool2d).

    Options: `function=<name>` differentiates that function only (default:
    every public function with a body whose only result is a scalar float
    tensor and that has a float tensor argument; a warning when there is
    none); `wrt=<i,j,...>` the argument indices to differentiate with
    respect to (default: every float tensor argument).

    Errors, located on the function or the op: no function of that name, a
    declaration, a body of more than one block, a result that is not one
    scalar float tensor, a wrt index out of range, listed twice, or naming
    an argument that is not a float tensor or scalar, an existing
    `@f_grad`, an op on the path from the arguments to the loss that has no
    adjoint rule (the message names the op and what to do), and the
    unsupported cases of the rules (a reduction whose combiner is not an
    add, max or min; an indexing map that is neither a projected
    permutation nor a convolution window; a loop without a constant trip
    count, ...).
  }];
  let options = [
    Option<"function", "function", "std::string", /*default=*/"\"\"",
           "The function to differentiate (default: every public function "
           "returning one scalar float tensor)">,
    ListOption<"wrt", "wrt", "unsigned",
               "Argument indices to differentiate with respect to (default: "
               "every float tensor argument)">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::math::MathDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

#endif // AMP_AUTODIFF_PASSES_TD
