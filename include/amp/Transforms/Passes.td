//===- Passes.td - amp passes ------------------------------*- tablegen -*-===//
//
// The target-independent rewrites of a training step: the contract check,
// autocast, loss scaling and the underflow statistics. The lowering passes
// live in their rooms (Conversion/, CPU/, GPU/ Passes.td); `amp-opt --help`
// and docs/passes.md come from the summaries, descriptions and options
// declared in all of them.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_TRANSFORMS_PASSES_TD
#define AMP_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def VerifyTrainingStep : Pass<"amp-verify-training-step", "ModuleOp"> {
  let summary = "Check the training-step contract and report violations";
  let description = [{
    Checks every `func.func` carrying `amp.train_step` against the contract
    in docs/training-step.md: argument roles (`amp.role` = "param",
    "opt_state", "input", "label"; after dynamic loss scaling also
    "loss_scale", "growth_tracker", "hysteresis_tracker" and
    "consecutive_skips", after static loss scaling "consecutive_skips"),
    one `amp.role = "loss"` result of type tensor<f32> (and after loss
    scaling one result per added argument plus "found_inf"),
    one `amp.updates = i` result per param/opt_state argument i with that
    argument's type, exactly one `amp.loss_grad`, exactly one `amp.grad` per
    parameter. Every violation is a located error; the pass fails on any.
    Changes nothing.
  }];
  let dependentDialects = ["::mlir::amp::AmpDialect"];
}

def Autocast : Pass<"amp-autocast", "ModuleOp"> {
  let summary = "Automatic mixed precision: paint allow/deny/infer/clear, "
                "fewest casts, f32 accumulation";
  let description = [{
    Automatic mixed precision for linalg/tensor/arith/math (and TOSA) IR.
    The precision policy (Analysis/PrecisionPolicy: classifyOp, planAutocast)
    gives every op a class (allow / deny / infer / clear, or unknown) and
    paints the def-use graph like TensorFlow grappler's
    auto_mixed_precision pass (shared REFERENCE.md, "Autocast"):
    1. allow ops (contractions, convolutions) run Mixed: `precision` inputs,
       fp32 accumulator and fp32 result (Micikevicius et al. 2018);
    2. deny (exp/log/pow/rsqrt/erf, reductions, softmax, the loss, amp ops)
       spreads forward through infer/clear ops;
    3. infer/clear ops between allow ops store their tensors in `precision`
       (elementwise bodies compute in f32 and round once, PyTorch opmath);
    4. clear ops next to a low-precision value follow it (both ways).
    Unknown ops, scf/func ops and terminators are never painted: loop-carried
    values and region results keep their types.

    Casts: one per (value, target type), placed after the definition (at
    function entry for arguments, so a weight is cast once per step) and
    shared by all users; an existing `arith.extf` from `precision` is
    absorbed (f16 -> f32 -> f16 is exact); f32 -> f16 -> f32 never folds.
    Tensor constants and `tensor.empty` are converted at compile time (a
    warning located at the constant when a value overflows or flushes to
    zero). Idempotent: a second run changes nothing.

    Options: precision=f16|bf16|f32 (f32: the pass does nothing);
    allow=/deny= op names that override the default lists;
    keep-io-types (default true: no signature changes; false: a private
    function whose uses are all func.call takes an argument in low
    precision when every use in its body reads it low, and returns a
    result low when every return passes a low value; its calls follow);
    report=<file.json> writes every op's location, class, precision,
    reason and deciding rule plus totals (casts inserted, boundary edges,
    low-precision activation bytes, FLOPs in low precision, and the same
    figures for a naive PyTorch-style per-op policy), atomically;
    remarks=true emits one remark per op. Errors: an unknown precision, an
    op named in both allow= and deny=, an allow=/deny= entry that names no
    op (e.g. misspelled), an unwritable report file.
    Documentation: docs/autocast.md.
  }];
  let options = [
    Option<"precision", "precision", "::mlir::amp::Precision",
           /*default=*/"::mlir::amp::Precision::F16",
           "Low-precision element type: f16, bf16, or f32 (no change)">,
    ListOption<"allowOps", "allow", "std::string",
               "Op names forced into the allow class (e.g. linalg.generic)">,
    ListOption<"denyOps", "deny", "std::string",
               "Op names forced into the deny class (stay f32)">,
    Option<"keepIOTypes", "keep-io-types", "bool", /*default=*/"true",
           "Keep every function signature; false: private functions whose "
           "uses are all func.call take/return low-precision tensors where "
           "their body reads/produces them low">,
    Option<"reportFile", "report", "std::string", /*default=*/"\"\"",
           "Write the autocast decisions as JSON to this file">,
    Option<"emitRemarks", "remarks", "bool", /*default=*/"false",
           "Emit one remark per op with its class, precision and rule">,
  ];
  let statistics = [
    Statistic<"numAllow", "allow-ops", "Ops in the allow class">,
    Statistic<"numDeny", "deny-ops", "Ops in the deny class">,
    Statistic<"numInfer", "infer-ops", "Ops in the infer class">,
    Statistic<"numClear", "clear-ops", "Ops in the clear class">,
    Statistic<"numUnknown", "unknown-ops",
              "Ops the policy does not know (kept f32)">,
    Statistic<"numLowOps", "low-ops",
              "Ops that store their tensors in low precision">,
    Statistic<"numMixedOps", "mixed-ops",
              "Contractions with low inputs and f32 accumulation">,
    Statistic<"numCasts", "casts-inserted", "Tensor casts inserted">,
    Statistic<"numConstants", "constants-converted",
              "Constants converted at compile time">,
    Statistic<"numSignatures", "signatures-changed",
              "Private function signatures changed (keep-io-types=false)">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def LossScaling : Pass<"amp-loss-scaling", "ModuleOp"> {
  let summary = "Loss scaling, fused unscale + non-finite check, skip-update";
  let description = [{
    Rewrites each `amp.train_step` function that satisfies the contract
    (docs/training-step.md; checked first, with located errors, including
    any use of a seed-derived value outside the backward: a result, the
    update, a gradient norm or clip factor, a use of `amp.loss_grad` itself):
    - the backward seed `amp.loss_grad` becomes the loss scale S (also
      inside a micro-batch `scf.for`: S is the same for every micro-batch;
      accumulators of scaled gradients must be f32);
    - all `amp.grad` values go through one `amp.unscale_and_check` with
      inv_scale = 1/S (computed in f64, rounded to f32, as PyTorch), placed
      after the last gradient, so clipping and the optimizer see unscaled
      gradients;
    - every op that computes an `amp.updates` result from gradients moves into
      one `scf.if` on found_inf whose overflow branch yields the old
      parameters and optimizer state unchanged (bit-identical, step counters
      included);
    - mode=dynamic: the function gains arguments (appended in this order)
      `amp.role` = "loss_scale" (tensor<f32>), "growth_tracker",
      "hysteresis_tracker" and "consecutive_skips" (tensor<i32> each), the
      matching results (with `amp.updates` = the argument index) and a last
      result `amp.role = "found_inf"` (tensor<i1>); `amp.update_scale`
      computes the next scale with PyTorch's rule plus min/max clamps and
      hysteresis (shared REFERENCE.md);
    - mode=static: S = init-scale as a constant; the step still checks and
      skips; argument and result "consecutive_skips", result "found_inf";
    - mode=none: the function is left unchanged;
    - mode=auto (default): dynamic for precision=f16, none for bf16 and f32.
    Loss scaling (static or dynamic) with precision=bf16 is an error: bf16
    has fp32's exponent range and needs none.
    Semantics: Micikevicius et al. 2018; PyTorch torch.amp.GradScaler;
    Megatron-LM / DeepSpeed hysteresis; ONNX Runtime / Apex scale cap.
  }];
  let options = [
    Option<"mode", "mode", "::mlir::amp::LossScaleMode",
           /*default=*/"::mlir::amp::LossScaleMode::Auto",
           "Loss-scale mode: auto, dynamic, static or none">,
    Option<"initScale", "init-scale", "double", /*default=*/"32768.0",
           "Initial (dynamic) or fixed (static) loss scale S">,
    Option<"growthInterval", "growth-interval", "int", /*default=*/"2000",
           "Clean steps before the scale grows">,
    Option<"growthFactor", "growth-factor", "double", /*default=*/"2.0",
           "Factor applied to S after growth-interval clean steps (> 1)">,
    Option<"backoffFactor", "backoff-factor", "double", /*default=*/"0.5",
           "Factor applied to S on a step with non-finite gradients (0..1)">,
    Option<"hysteresis", "hysteresis", "int", /*default=*/"1",
           "Overflowing steps (since the last growth) before S backs off; "
           "1 = PyTorch">,
    Option<"minScale", "min-scale", "double",
           /*default=*/"5.9604644775390625e-08",
           "Floor of S (default 2^-24); scales below 1 are allowed">,
    Option<"maxScale", "max-scale", "double", /*default=*/"16777216.0",
           "Cap of S (default 2^24)">,
    Option<"precision", "precision", "::mlir::amp::Precision",
           /*default=*/"::mlir::amp::Precision::F16",
           "Autocast precision of the step (f16, bf16, f32): picks the "
           "auto mode and rejects loss scaling with bf16">,
  ];
  let dependentDialects = ["::mlir::amp::AmpDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect"];
}

def InstrumentUnderflow : Pass<"amp-instrument-underflow", "ModuleOp"> {
  let summary = "Count backward values that flush to zero/subnormal in f16";
  let description = [{
    Statistics for loss scaling (Micikevicius et al. 2018, figure 3). For
    each `amp.train_step` function (contract checked first): every f32
    tensor of the backward at the function's top level (values derived from
    the `amp.loss_grad` seed that the `amp.grad` gradients are computed
    from, before `amp.grad`) gets one `amp.count_underflow` with
    `precision`; the counts are summed in i64 and returned as two new
    results, `amp.role = "underflow_count"` (finite non-zero elements whose
    rounding to `precision` is zero or subnormal) and
    `amp.role = "underflow_total"` (finite non-zero elements inspected).
    Values inside micro-batch loops are not counted. Run it before
    `amp-loss-scaling` (which turns the seed into S, so the counts then
    describe the scaled backward); `amp-mixed-precision` does so with
    `underflow-stats`. The step's arithmetic is unchanged.
  }];
  let options = [
    Option<"precision", "precision", "::mlir::amp::Precision",
           /*default=*/"::mlir::amp::Precision::F16",
           "Low-precision type to round to: f16 or bf16">,
  ];
  let dependentDialects = ["::mlir::amp::AmpDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::tensor::TensorDialect"];
}

def MasterWeights : Pass<"amp-master-weights", "ModuleOp"> {
  let summary = "Store parameters in bf16 between steps (plain, Kahan or "
                "stochastic rounding)";
  let description = [{
    Changes how the parameters of each `amp.train_step` function (contract
    checked, before or after loss scaling) are stored between steps
    (docs/master-weights.md). With `mode=f32` nothing changes. Otherwise
    every `"param"` argument `tensor<...xf32>` becomes `tensor<...xbf16>`
    (also in the `amp.eval_step`, and its `amp.initial_value` is rounded to
    nearest even); the step reads it once through `arith.extf` to f32, so
    the forward, backward and optimizer are unchanged and run in f32; the
    new value (f32, the `amp.updates` result) is rounded back to bf16:

    - `bf16`: round to nearest even (`arith.truncf`). An update with
      |u| < |w| * 2^-9 rounds back to w: lost.
    - `bf16-kahan`: one extra `"opt_state"` argument per parameter, the
      compensation c (bf16, same shape, starts at 0, `amp.state =
      "kahan_compensation"`). With w the stored weight and u the f32 update:
      y = u + c; w' = bf16(w + y); c' = bf16(y - (w' - w)) (Kahan
      summation; Zamirai et al., "Revisiting BFloat16 Training", 2020).
    - `bf16-stochastic`: w' = bf16 rounded stochastically: the f32 bit
      pattern plus 16 random bits, truncated (toward zero), so that
      P(up) = (x - lo) / (hi - lo) and E[w'] = x (torchao's
      `bf16_stochastic_round`); NaN and infinities round as `arith.truncf`.
      The 16 bits per element are the top bits of a hash (built from
      murmur3's 32-bit finalizer) of (`seed`, the step counter, the
      parameter's ordinal, the element's linear index): a counter-based stream (Salmon et al.,
      "Random123", 2011), so they do not depend on the thread count, and
      every data-parallel rank draws the same. The counter is one extra
      `"opt_state"` argument `tensor<i32>` (`amp.state =
      "rounding_counter"`, starts at 0, +1 per applied step).

    After loss scaling, a skipped step (found_inf) keeps every parameter,
    compensation and the counter bit-identical (bf16(extf(w)) == w for both
    roundings; the Kahan update and the counter select on found_inf). The
    rounding op of each parameter carries the unit attribute
    `amp.rounds_update` with the f32 value it rounds as operand #0
    (`amp-instrument-updates` reads the intended update there). Errors: a
    parameter that is not f32 (already stored in bf16: run the pass once).
  }];
  let options = [
    Option<"mode", "mode", "::mlir::amp::MasterWeights",
           /*default=*/"::mlir::amp::MasterWeights::F32",
           "Storage: f32, bf16, bf16-kahan or bf16-stochastic">,
    Option<"seed", "seed", "int", /*default=*/"0",
           "bf16-stochastic: seed of the random stream">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def InstrumentUpdates : Pass<"amp-instrument-updates", "ModuleOp"> {
  let summary = "Measure each step's parameter updates: norm ratio and "
                "updates lost to rounding";
  let description = [{
    Update statistics of each `amp.train_step` function (contract checked;
    run it last, after loss scaling and `amp-master-weights`). For every
    parameter argument w (f32, or bf16 read through `arith.extf`) with its
    `amp.updates` result w' (the stored new value) and the intended new
    value v in f32 (operand #0 of the op marked `amp.rounds_update` that
    produced w', or w' itself), five numbers, summed over the elements in
    f64: ||w' - w||^2, ||w||^2, changed = #{v != w}, lost = #{v != w and
    w' == w} (the stored value did not change although the intended update
    was non-zero: lost to rounding in the storage type; 0 for f32 storage),
    bf16_lost = #{v != w and bf16(v) == bf16(w)} (what round-to-nearest
    bf16 storage would lose; for f32 master weights "what bf16 would have
    lost"). They become one result `tensor<Px5xf64>` with `amp.role =
    "update_stats"`, row k for the k-th parameter in argument order. A
    skipped step has v == w: nothing changed, nothing lost. The update
    ratio ||w' - w|| / ||w|| is the usual health figure (~1e-3).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def PromoteToF64 : Pass<"amp-promote-to-f64", "ModuleOp"> {
  let summary = "Compute every f32 value of a step in f64 (gradient checks)";
  let description = [{
    Retypes every `func.func` of the module so that each f32 scalar, tensor
    and memref element becomes f64: function signatures, op results, block
    arguments (linalg bodies included) and float constants (`dense`,
    `dense_resource` with its blob, scalar literals); an `arith.extf` or
    `arith.truncf` that becomes f64 -> f64 is removed. Other element types
    (f16, bf16, integers) are kept. A gradient check runs the step this way
    so that central finite differences resolve the analytic gradient to
    ~1e-8 instead of ~1e-3 (amp-run --check-gradients). Errors, located on
    the op: `amp` ops (lower them first with amp-lower-to-standard, whose
    ops are typed f32), a bitcast of an f32 value, a `dense_resource`
    constant whose blob is elided or unavailable, a top-level op with
    regions that is not a `func.func` (e.g. `llvm.func`).

    With `low-precision=true` (what --check-gradients runs), f16 and bf16
    become f64 too, and the casts between them and f32/f64 disappear: a
    model that rounds to 16 bits itself (an `arith.truncf` to bf16 traced
    under torch.autocast, an f16-stored weight) is checked without its
    roundings. Its loss is then smooth where the rounded one is a staircase
    whose finite differences are 0 or huge, and its backward, which treats
    each rounding as the identity (amp-differentiate's rule for `truncf`),
    is the derivative of what is checked. The f64 -> bf16 conversion that
    the staircase needed is gone as well (LLVM calls `__truncdfbf2` for
    it, which the JIT lacks). A `dense_resource` of f16 or bf16 is refused.
  }];
  let options = [
    Option<"lowPrecision", "low-precision", "bool", /*default=*/"false",
           "Also compute f16 and bf16 values in f64 (the model's own "
           "roundings left out)">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def KeepAccumulatorsLow : Pass<"amp-keep-accumulators-low", "ModuleOp"> {
  let summary = "Store the f32 accumulators the backward reads in the "
                "autocast precision (activation memory)";
  let description = [{
    After `amp-autocast`, a contraction or convolution reads f16/bf16
    operands and accumulates into an f32 result (the Mixed class). When the
    backward reads that result (e.g. an eval-mode batch norm's backward
    reads its input for the weight's gradient) the step keeps it in f32
    from the forward to the backward. For each `amp.train_step` function
    (contract checked, markers not required) whose `amp.loss_grad` seed sits
    in the entry block, every top-level linalg op before the seed on tensors
    with one f32 tensor result and float inputs of one low type (f16 or
    bf16) whose result is read after the seed (the return excluded), or
    from which an f32 value that is read after the seed is computed by
    cheap ops (those `amp-recompute-for-backward` recomputes: a bias add
    and the GELU input it is, a softmax's scaled scores, exponentials and
    output, a residual stream and its layer-norm statistics; not a chain
    that reaches the backward only through a cast to the low type), gets
    `%t = arith.truncf %r` to that low type and `%e = arith.extf %t` right
    after it, and every other reader of `%r`, in the forward and in the
    backward, reads `%e`. In the second case, when the only reader of `%r`
    is a bias add (an elementwise generic yielding `addf` of `%r` and a
    broadcast operand), the sum is rounded instead of `%r`: PyTorch's
    linear (addmm) rounds once after adding the bias, and `x W` may exceed
    f16's range where `x W + b` does not. With `amp-recompute-for-backward` after it, the
    backward recomputes `%e` from `%t`, and the kept bytes of the value are
    halved.

    Copies: an f32 tensor value before the seed that is read after it and
    that the forward also rounds to f16/bf16 with an `arith.truncf` (for a
    low-precision consumer: a softmax's probabilities, which autocast keeps
    in f32 for the deny-class softmax and rounds for the attention's
    batch_matmul) gets `%e = arith.extf %t` after that truncf, and its
    readers in the backward (top-level ops after the seed that depend on
    it; an optimizer-state update that reads the value but no gradient
    keeps the f32 value) read `%e`: the step keeps the rounded copy only
    (issue 32: an activation that feeds a low-precision contraction is kept
    in the low type, never in f32 and the low type both). The forward's
    readers keep the f32 value. Numerics: the backward reads the value as
    the low-precision consumer's backward already does (PyTorch's autocast
    keeps the probabilities twice, in f32 for the softmax backward and in
    f16 for the matmul's; this step keeps them once, rounded).

    Numerics: the forward and the backward read the accumulator rounded once
    to the low type, as in PyTorch's autocast (a `torch.autocast` matmul or
    convolution returns f16/bf16; the accumulation stays f32). Only kept
    accumulators are rounded: those only the forward reads stay f32. In f16
    an accumulator above 65504 becomes inf, which the loss then shows (the
    non-finite check skips the step); bf16 has f32's range. Without the seed
    (after `amp-loss-scaling`) or with the seed inside a loop the step is
    left unchanged. `amp-mixed-precision` runs it after autocast (not for
    f32) unless `keep-accumulators-low=false`. Errors: a violated
    training-step contract (located), a module without a training step.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def ExtendInConsumers : Pass<"amp-extend-in-consumers", "ModuleOp"> {
  let summary = "Widen f16/bf16 tensors inside the linalg.generic bodies "
                "that read them instead of in a separate f32 copy";
  let description = [{
    After autocast, an f32 op reads a low-precision value through one
    `arith.extf` of the whole tensor: a second copy of the value at 4 bytes
    per element that lives until its last reader (a kept f16 activation's
    f32 view that a batch norm's backward reads, an f16 cotangent read by
    an f32 reduction). For each `arith.extf` of a ranked tensor, every
    `linalg.generic` on tensors that reads its result as an input (not an
    init) reads the extf's operand instead, and its body widens the element
    with a scalar `arith.extf` (same fastmath flags) before any other use
    of it: PyTorch's kernels load half values and compute in float in the
    same way (the "opmath" type). The extf is erased when nothing else
    reads it; other readers (named linalg ops, tensor ops, inits) keep
    it. Exact: f16/bf16 -> f32 is lossless, so every result is the same
    bits; what changes is the bytes the step holds (amp-memory-report's
    peak, the CPU arena). Run by amp-mixed-precision (f16 and bf16) after
    `amp-recompute-for-backward`. No errors.
  }];
  let dependentDialects = ["arith::ArithDialect", "linalg::LinalgDialect"];
}

def RecomputeForBackward : Pass<"amp-recompute-for-backward", "ModuleOp"> {
  let summary = "Recompute cheap forward values where the backward reads "
                "them instead of keeping them (activation memory)";
  let description = [{
    A forward value that the backward reads is live from its definition to
    the backward: the activation memory of a training step
    (`amp-memory-report`'s "kept for the backward"). For each
    `amp.train_step` function (contract checked, markers not required)
    whose `amp.loss_grad` seed sits in the entry block, a value defined
    before the seed and read after it is recomputed right before its first
    reader after the seed when its op is cheap (one result, no memory
    effects, and one pass over its bytes: `arith.truncf`, `arith.extf`,
    `linalg.transpose`, `linalg.broadcast`, `tensor.collapse_shape`,
    `tensor.expand_shape`, `tensor.extract_slice`, `tensor.pad`, the
    `tensor.empty` and `tensor.dim` of dynamic shapes, or a
    linalg op on tensors with an operand or result indexed by all of its
    loops (a permutation map: its iteration domain is that operand's size,
    static or dynamic) or with static shapes and a domain no larger than
    its largest operand, and a body without memory effects: elementwise
    ops, fills, reductions along some dimensions such as a softmax's row
    max and sum or a layer norm's statistics, a max pool whose stride is
    its window; not a contraction or a convolution;
    these linalg ops only with
    `elementwise=true`, the default) and everything it reads is
    at hand in the backward anyway: entry-block arguments, constants and
    `tensor.empty`, values the backward reads itself, or other such cheap
    values (recomputed with it). A reduction on static shapes whose result
    has at most 1/8 of its input's elements (a softmax's row max and sum, a
    layer norm's mean and variance) is kept instead of recomputed when the
    clones read it: its few bytes cost less than reading its input again.
    An `arith.extf` is recomputed whatever
    it reads: its narrower input is then kept instead of its result (the
    f32 view of an accumulator that `amp-keep-accumulators-low` stored in
    f16/bf16, or of an f16 ReLU output that an f32 op of the backward
    reads), and that input counts as at hand for the other cheap values (a
    pad of it is recomputed too). The readers after the seed (the return
    excluded) then read the clone, and the forward's value dies after its
    last forward use. Typical cases after `amp-autocast`: the f16/bf16 copy
    of a weight and its transpose (a low-precision weight copy no longer
    lives across the whole step), the low-precision copy of the input
    batch, the f16/bf16 copy of an f32 activation that an f32 backward op
    keeps anyway (e.g. the softmax output that the softmax backward reads
    in f32 and a batch_matmul backward in f16: kept once, in f32), reshapes
    and pads of kept values, and the elementwise and row-reduction chains
    computed from low-precision accumulators (bias adds, activations, a
    batch or layer norm and its statistics, a softmax: in an f16/bf16 step
    the backward then keeps only the f16/bf16 accumulators) or from other
    kept values (in f32 steps too).

    The clones are the same ops on the same operands, so the step computes
    the same bits (no tolerance: results, the skip region's bit-identity and
    thread determinism are unchanged); what changes is one more pass over
    the recomputed bytes per step. Each clone carries the unit attribute
    `amp.recomputed`, which also keeps CSE (whose equivalence compares
    attributes) from merging it back into the forward's op in later
    clean-ups, the lowerings' included. Without the seed (after
    `amp-loss-scaling`) or with the seed inside a loop (micro-batches) the
    step is left unchanged. `amp-mixed-precision` runs it after autocast's
    clean-up, before loss scaling, in every precision (f32 included).
    Errors: a violated training-step contract (located), a module without
    a training step.
  }];
  let options = [
    Option<"elementwise", "elementwise", "bool", /*default=*/"true",
           "Also recompute the linalg ops whose work is one pass over their "
           "bytes (elementwise ops, fills, row reductions); false: only "
           "casts and layout ops (almost free, less memory saved)">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def MemoryReport : Pass<"amp-memory-report", "ModuleOp"> {
  let summary = "Report the bytes a training step keeps (state, batch, "
                "activations kept for the backward, peak live)";
  let description = [{
    For each `amp.train_step` function (contract checked, markers not
    required), Analysis/MemoryReport.h: the bytes of the parameters, the
    optimizer state, the loss-scale state and the batch (arguments by
    `amp.role`); the activation bytes kept from the forward for the backward
    (what is live where the backward starts: values defined before the
    `amp.loss_grad` seed, not arguments or constants, that an op after it
    reads; needs the markers, so run it before `amp-loss-scaling`, e.g.
    after `amp-autocast` or as `amp-mixed-precision` leaves the step before
    loss scaling, `loss-scale=none`); and the peak of live values in program order,
    arguments included (tensor level, before bufferization: no in-place
    reuse, no temporaries inside ops). With `kept=true` it also lists the
    kept values, largest first, under the kept row; with `peak=true` the
    values live where the peak is reached (arguments included: what holds
    the peak), largest first, under the peak row. Prints a text report to stderr, or with
    `output=FILE` writes JSON (atomically; `-` for stdout):
    an object whose "functions" array holds one object per step with the
    keys name, parameters, optimizer_state, loss_scale_state, batch,
    kept_for_backward (null without the seed), peak_live (bytes, integers)
    and approximate (a boolean). Approximate: a
    value of dynamic shape or without a byte size was not counted, or the
    seed sits inside a loop. The IR is not changed. Errors: a violated
    training-step contract (located), a module without a training step, an
    output file that cannot be written.
  }];
  let options = [
    Option<"output", "output", "std::string", /*default=*/"\"\"",
           "Write the report as JSON to this file ('-': stdout) instead of "
           "text to stderr (default: text to stderr)">,
    Option<"listKept", "kept", "bool", /*default=*/"false",
           "Also list the values kept for the backward (text report; "
           "default false)">,
    Option<"listPeak", "peak", "bool", /*default=*/"false",
           "Also list the values live at the peak, arguments included "
           "(text report; default false)">,
  ];
}

#endif // AMP_TRANSFORMS_PASSES_TD
