//===- Passes.td - amp raising passes ----------------------*- tablegen -*-===//
//
// The passes of the raising room: a frontend's decomposition of an op
// recognized and replaced by the named op, whose adjoint and kernels are
// cheaper. `amp-opt --help` and the raising section of docs/passes.md come
// from the summaries, descriptions and options here.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RAISING_PASSES_TD
#define AMP_RAISING_PASSES_TD

include "mlir/Pass/PassBase.td"

def RaiseSoftmax : Pass<"amp-raise-softmax", "func::FuncOp"> {
  let summary = "Raise a decomposed softmax (row max, exp, row sum, divide) "
                "to linalg.softmax";
  let description = [{
    torch-mlir exports `torch.softmax` (and an attention's
    `softmax(q k^T * c)`) as four linalg.generic ops on tensors: the max
    along a dimension `d` (`arith.maximumf` or `arith.maxnumf` into a
    `linalg.fill` of -inf, or NaN with maxnumf; a second result such as
    `torch.max`'s index may be present if nothing reads it), `exp(x - m)`
    (or `exp((x - m) * c)` with a constant `c`, 0 < |c| <= 1, such as an
    attention's 1/sqrt(d): a larger `c` could make `x * c` overflow where
    `(x - m) * c` does not; the subtraction possibly
    in a generic of its own), the sum of the exponentials along `d` (into
    a fill of zero) and the exponentials divided by the sum. The reduced
    operands are indexed by the identity map without `d`, or with `d`
    replaced by 0 (PyTorch's keepdim, size 1). The exponentials and the
    sum must have no other readers. The divide's result becomes
    `linalg.softmax dimension(d)` of `x` (of `x * c`, a new elementwise
    generic, with a scale) into a new `tensor.empty` of `x`'s shape; the
    rest is then dead and erased.

    Why: differentiated op by op, the decomposition's backward reads the
    scores, the exponentials and the probabilities and routes a gradient
    through the max that is zero in exact arithmetic; linalg.softmax's
    adjoint (PyTorch's `_softmax_backward_data`) reads the probabilities
    only: `dx = y * (dy - sum_d(dy * y))`. amp-build-train-step runs this
    pattern on the model before differentiating it (`raise-softmax`).

    Numerics: without a scale the forward computes the same bits (the
    lowerings decompose linalg.softmax into the same four ops: a max into
    NaN with maxnumf, which equals -inf with maximumf for every row, NaN
    rows included). With a scale, `x * c` is rounded before the max is
    subtracted instead of after (`exp(x*c - max(x*c))` for
    `exp((x - max x) * c)`, equal in exact arithmetic for any `c`):
    probabilities differ in the last bits. Element types: any float; shapes
    static or dynamic (input and result of the same type). Nothing else is
    changed; the pass emits no errors.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::tensor::TensorDialect"];
}

#endif // AMP_RAISING_PASSES_TD
