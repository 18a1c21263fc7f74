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
    bufferization and `convert-linalg-to-loops` handle. A softmax whose
    input and destination have compatible but different types (one made
    static by a canonicalization) is computed in the input's type and its
    result cast (`tensor.cast`) to its own.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::tensor::TensorDialect"];
}

def SplitSharedDestinations
    : Pass<"amp-split-shared-destinations", "func::FuncOp"> {
  let summary = "Give each destination use its own tensor.empty or zero "
                "fill before bufferization (buffer lifetimes)";
  let description = [{
    Both lowerings, on tensors, right before one-shot bufferization (after
    their last CSE, which would merge the copies again). CSE merges every
    `tensor.empty` of one shape into one value, and every `linalg.fill` of
    one such value with one constant; bufferization gives that value one
    buffer, and the ops that use it as their destination (`outs`) write
    that buffer in place wherever no later read conflicts: a softmax in the
    forward and the gradient of its input in the backward then share one
    allocation, which stays alive (and counts in the step's peak) across
    everything between them. First a reshape (`tensor.collapse_shape`,
    `tensor.expand_shape`) of a `tensor.empty` becomes a `tensor.empty`
    of its result shape (upstream's populateFoldTensorEmptyPatterns;
    amp-cpu-collapse-contiguous-loops writes into collapsed views of
    destinations). Then for each `tensor.empty`, and each
    `linalg.fill` on tensors of a `tensor.empty`, with several destination
    uses (an init operand of a destination-style op), every destination
    use after the first (in program order; every one when something else
    reads the value too) gets a copy of the op (a fill's
    copy with a copy of its empty), inserted right before the op that uses
    it; other uses keep the original. Each destination then gets its own
    buffer, allocated where it is first written and freed after its last
    use (amp-cpu-free-at-last-use), so that buffers live only as long as
    their values. Numerics: none (the same ops on the same values). Errors:
    none.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def SplitLongSums : Pass<"amp-split-long-sums", "func::FuncOp"> {
  let summary = "Sum long float reductions in blocks: partial sums, then "
                "their sum (accuracy of f32 sums over millions of terms)";
  let description = [{
    Both lowerings, on tensors, before bufferization. A `linalg.generic`
    whose every result is a float sum (the yielded value is `arith.addf` of
    the init's block argument, used only there, and a term) over at least
    `min-terms` terms per output element (the product of the static
    reduction extents) is rewritten into two generics:

    1. the partial sums: one reduction loop `d` of extent E is split into
       B blocks of E/B consecutive iterations (`d = b * E/B + i`, with B a
       divisor of E); a new outer parallel loop runs over the blocks, and
       each block sums its terms from -0.0 (the neutral element of
       `arith.addf`) into a tensor of the output's shape plus a trailing
       dimension of B;
    2. the sum of the B partials of each output element, in block order,
       added to the original init.

    With `lanes=L` > 1 (the CPU lowering uses 16, one AVX-512 vector of
    f32), the op's innermost loop, when it is a reduction of static extent
    that each input indexing it reads as its last dimension (consecutive
    elements), is also split into J interleaved partial sums: iteration
    `i * J + j` of it (inside the block when it is the split loop) adds to
    partial `j`, with J = L when L divides its extent E, else J = E when
    L <= E <= 4L (LLVM vectorizes no loop of fewer than 16 iterations: a
    row of 28 is better as 28 lanes than as 2 x 14), else the largest
    divisor of E in [L/4, L]; `j`
    is a parallel loop, the innermost, so each step of the loop above adds
    a vector of consecutive terms to a vector of partials instead of one
    term to one scalar chain (a sequential f32 sum cannot be vectorized
    without changing its order). The partials get a trailing dimension of
    J; the second generic sums them in block order, then lane order. Each
    chain is then R/(B*J) terms long: no less accurate, a different order,
    still fixed by the shapes (the same bits on any thread count; the
    ranks of a data-parallel run, and amp-run --emulate-ranks, see the
    same shapes).

    (d, B) minimize the longer of the two chains of additions, max(R/B,
    B) for R terms, so B is near sqrt(R), with at most `max-partials`
    elements in the partial-sum tensor. Operands indexed by expressions of
    `d` (a convolution's window), `linalg.index` of `d` and any body are
    rewritten accordingly.

    Why: a sum carried in one f32 accumulator has a rounding error that
    grows with the number of terms, up to n * 2^-24 relative (Higham,
    "The accuracy of floating point summation", SIAM J. Sci. Comput.
    1993); an mse loss over 8.4M elements was 0.7% off and a bias gradient
    over 33.5M terms 11% off. Blocked summation bounds it by (R/B + B) *
    2^-24, about 2 * sqrt(R) * 2^-24. PyTorch's CPU sums use a cascade of
    blocks for the same reason. The split depends on the op's shapes only,
    so the result is the same bits for any thread count and rank, and both
    stages are ordinary generics that the lowerings parallelize (the
    partials over the blocks).

    A reduction loop of dynamic extent (a dynamic batch) counts as one
    term and is not split; the others still are. Left alone: sums with
    fewer terms; min, max and integer reductions (exact in any order);
    outputs of dynamic shape; matmul-shaped
    generics (three loops, one of them a reduction, rank-2 operands),
    whose CPU micro-kernel already sums k in blocks (amp-cpu-tile-contractions)
    and whose GPU Tensor Core kernel keeps them whole; ops whose every
    block count would exceed `max-partials` or is below 16 (a reduction
    extent with no such divisor, e.g. a prime).
  }];
  let options = [
    Option<"minTerms", "min-terms", "int64_t", /*default=*/"8192",
           "Split only sums of at least this many terms per output element">,
    Option<"maxPartials", "max-partials", "int64_t", /*default=*/"1048576",
           "Most elements of the partial-sum tensor (output elements times "
           "blocks)">,
    Option<"lanes", "lanes", "int64_t", /*default=*/"1",
           "Also split the innermost reduction loop into this many "
           "interleaved partial sums (vector lanes; 1: no lanes)">,
  ];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::tensor::TensorDialect"];
}

#endif // AMP_CONVERSION_PASSES_TD
