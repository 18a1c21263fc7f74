//===- Passes.td - amp training-step builder passes --------*- tablegen -*-===//
//
// The passes of the training-step room. `amp-opt --help` and the
// training-step section of docs/passes.md come from the summaries,
// descriptions and options here.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_TRAINSTEP_PASSES_TD
#define AMP_TRAINSTEP_PASSES_TD

include "mlir/Pass/PassBase.td"

def BuildTrainStep : Pass<"amp-build-train-step", "ModuleOp"> {
  let summary = "Forward model -> fp32 training step (loss, backward, "
                "optimizer) and eval step, in the amp contract";
  let description = [{
    Turns a forward model, a `func.func` that returns logits, a regression
    output or its loss (the linalg-on-tensors form torch-mlir exports, with
    weights as `arith.constant dense_resource<...>` or as arguments), into
    `@train_step` and `@eval_step` following docs/training-step.md, so that
    `amp-mixed-precision`, `amp-lower-to-llvm`, `amp-lower-to-nvvm` and
    `amp-run` take the result unchanged:

    - `@train_step(params..., opt_state..., inputs..., label | target)` with
      `amp.role` on every argument returns `(loss, params'..., opt_state'...)`
      with `amp.role = "loss"` and `amp.updates = i`. Its body is the model's
      forward with every trained value read from its `param` argument, the
      loss in f32, `%seed = amp.loss_grad %loss`, the backward built from
      the seed by amp-differentiate's rules, one `amp.grad` per parameter
      and the optimizer's update on the `amp.grad` results.
    - A parameter made from a constant keeps the constant's value (`dense`
      or `dense_resource`, an elided blob too) as its `amp.initial_value`,
      so amp-run starts from the model's weights (an elided blob: drawn at
      random).
    - `@eval_step(params..., inputs...)` returns the model's output as
      `amp.role = "logits"` (for a batch x classes output; not for
      loss=none).
    - The model function is erased when nothing refers to it.
    - A softmax the model computes as row max, exp, row sum and divide
      (torch-mlir's export of torch.softmax) becomes `linalg.softmax`
      first (amp-raise-softmax), so that its backward reads only the
      probabilities; `raise-softmax=false` differentiates the four ops.

    What is trained (`params=`, a list): `constants` (default) makes every
    float tensor constant at the top level of the model's body with at
    least `min-elements` elements that the output depends on a parameter,
    except constants whose dense_resource key matches `frozen=` (a key, or
    a pattern with a leading or trailing `*`) and, with
    `freeze-running-stats` (default), PyTorch's BatchNorm buffers: keys
    ending in `running_mean` or `running_var`, and constants a
    linalg.generic reads only as `rsqrt(v + eps)` / `sqrt(v + eps)` (a
    running variance) or as `x - v` beside such a variance (a running
    mean), each with a remark; `arguments` every float
    tensor argument but the input (and, with loss=none, the label or
    target); an integer names one argument; any other entry names a
    dense_resource constant by its key. Buffers that are not weights stay
    constants with a remark naming them: an f32 constant holding +-inf or
    NaN, or whose values are only 0 and one negative value of magnitude >=
    1e4 (an additive attention mask: -1e4, -1e9, -inf,
    torch.finfo(float32).min); an elided blob has no values to look at and
    is trained. A splat constant or an elided blob that several operands
    read (torch-mlir's uniquing of equal constants: one dense<1.0> for
    every BatchNorm's gamma and running_var) is one parameter per operand.
    The constants of one dense_resource key (a tied weight, as
    an embedding shared with the classifier) are one parameter whose
    gradient sums those of all its uses. A constant the loss has no
    gradient for (the output depends on it only through fptosi / sitofp or
    a comparison) stays a constant with a warning, as PyTorch leaves its
    .grad None; named in params= it is an error.

    The inputs (data fed each step, dimension 0 the batch; float tensors,
    or integer tensors such as token ids) are `inputs=<i>,<j>,...` (or
    `input=<index>`, one). By default every argument that params= does not
    name is an input, except with loss=none the label or target: the last
    such argument other than the first float one, when there are two or
    more. With params=arguments the input is the first float tensor
    argument not named by index (the other float arguments are trained),
    and (but with loss=none) every integer tensor argument is an input
    too; with loss=none the label or target is then the last integer
    argument, else the last argument left when two or more are (a model
    (x, weights..., target)). The step takes its
    inputs in the model's argument order; with loss=mse or
    softmax-cross-entropy dimension 0 of each is the output's.

    Re-batching (`batch=`): the model is first re-batched from the batch it
    was traced at (dimension 0 of the input) to `batch=N` or
    `batch=dynamic`, as `amp-rebatch` does (its description has the rules
    and errors); absent or 0 keeps the traced batch.

    Sequence-first models (`batch-dim=`; PyTorch's `batch_first=False`,
    the default of nn.MultiheadAttention, nn.Transformer*, nn.LSTM, nn.GRU:
    inputs [S, B, E]): the batch is first moved to dimension 0 of every
    input (a `linalg.transpose` at the model's entry gives the body its
    layout) and, followed by amp-rebatch's analysis, of the output ([S, B,
    E] -> [B, S, E]; a [B, C] output stays), so that the step, amp-run's
    data and re-batching take examples along dimension 0. One value applies
    to every input (and with loss=none to the label or target when its
    dimension there holds the inputs' traced batch and its dimension 0
    does not; both: an error asking for the target's own value), or one
    per input in their order (with loss=none one more for the label or
    target). An op that mixes examples along that
    dimension is an error, as for batch=.

    Losses (`loss=`, in f32, mean reduction as in PyTorch):
    `softmax-cross-entropy` (default; output: batch x classes logits, adds a
    `label` argument tensor<B x i32>; loss = mean_i logsumexp(z_i) - z_{i,
    y_i}, with the row maximum subtracted; the label is compared with the
    class index, no gather), `mse` (adds a `target` argument of the output's
    type; loss = mean (y - t)^2), `none` (the model returns its loss,
    `tensor<f32>`; its non-input argument is the label or target, else an
    unused label is added).

    Optimizers (`optimizer=`, torch.optim's formulas; state as `opt_state`
    arguments that start at zero): `sgd`, `momentum` (default; `momentum`,
    dampening 0: one buffer per parameter), `adam` (`beta1`, `beta2`, `eps`;
    first moments, second moments, then a tensor<i32> step counter),
    `adamw` (decoupled decay). `lr` (0: 0.01 for sgd and momentum, 0.001
    for adam and adamw), `weight-decay` (added to the unscaled gradient in
    the update, or decoupled for adamw). docs/training-step-builder.md has
    the formulas and their sources.

    Errors, located on the module, the function, the argument or the op:
    invalid option values (each names the option), a model that cannot be
    re-batched (amp-rebatch's errors, naming the op that mixes examples),
    no model function (or
    several without function=), a declaration, several blocks, other than
    one result, an output that does not fit the loss (not batch x classes
    for softmax-cross-entropy, not a tensor<f32> for loss=none, dynamic
    dimensions but the batch), no trainable parameter (with a note per
    constant left and why), a params= entry that names nothing, a parameter
    that is not a static f32 tensor or that the output does not depend on,
    a named parameter the loss has no gradient for, a dense_resource blob
    whose size in bytes is not its type's, the constants of one key with
    different types,
    an argument that is neither input nor parameter, existing
    `@train_step`/`@eval_step` symbols, and amp-differentiate's errors (an
    op without an adjoint rule, ...). The module is unchanged on error.
  }];
  let options = [
    Option<"function", "function", "std::string", /*default=*/"\"\"",
           "The model function (default: the only public func.func with a "
           "body)">,
    ListOption<"params", "params", "std::string",
               "What is trained: constants, arguments, argument indices, "
               "dense_resource keys (default: constants)">,
    Option<"minElements", "min-elements", "int64_t", /*default=*/"2",
           "params=constants: the fewest elements a trained constant has "
           "(default: 2)">,
    ListOption<"frozen", "frozen", "std::string",
               "dense_resource keys (or *-patterns) of constants that "
               "params=constants leaves constant (default: none)">,
    Option<"freezeRunningStats", "freeze-running-stats", "bool",
           /*default=*/"true",
           "params=constants leaves BatchNorm running statistics "
           "constant: keys ending in running_mean or running_var, and "
           "constants read as rsqrt(v + eps) or as x - v beside one "
           "(default: true)">,
    Option<"input", "input", "int64_t", /*default=*/"-1",
           "One input argument (an alias of inputs=<index>; default: -1, "
           "the default inputs)">,
    ListOption<"inputs", "inputs", "int64_t",
               "The input arguments, data fed each step (default: every "
               "argument that is not a parameter, nor with loss=none the "
               "label)">,
    Option<"output", "output", "int64_t", /*default=*/"-1",
           "The model's result that is its output when it returns several "
           "(a traced forward returning a tuple); the others are dropped "
           "(default: -1, the model returns one value)">,
    Option<"batch", "batch", "std::string", /*default=*/"\"\"",
           "Re-batch the model to this batch size, or dynamic (absent or 0: "
           "the batch it was traced at; default: absent)">,
    ListOption<"batchDim", "batch-dim", "int64_t",
               "The dimension of the inputs that holds the batch, moved to "
               "dimension 0 of the step's inputs and output (1: PyTorch's "
               "batch_first=False; one value for all inputs, or one per "
               "input; default: 0)">,
    Option<"loss", "loss", "::mlir::amp::trainstep::LossKind",
           /*default=*/"::mlir::amp::trainstep::LossKind::SoftmaxCrossEntropy",
           "The loss of the model's output (default: "
           "softmax-cross-entropy)", [{::llvm::cl::values(
             clEnumValN(::mlir::amp::trainstep::LossKind::SoftmaxCrossEntropy,
                        "softmax-cross-entropy",
                        "batch x classes logits against i32 labels"),
             clEnumValN(::mlir::amp::trainstep::LossKind::MeanSquaredError,
                        "mse", "mean squared error against a target"),
             clEnumValN(::mlir::amp::trainstep::LossKind::None, "none",
                        "the model returns its loss"))}]>,
    Option<"optimizer", "optimizer", "::mlir::amp::trainstep::OptimizerKind",
           /*default=*/"::mlir::amp::trainstep::OptimizerKind::Momentum",
           "The update rule (default: momentum)", [{::llvm::cl::values(
             clEnumValN(::mlir::amp::trainstep::OptimizerKind::SGD, "sgd",
                        "plain SGD"),
             clEnumValN(::mlir::amp::trainstep::OptimizerKind::Momentum,
                        "momentum", "SGD with momentum"),
             clEnumValN(::mlir::amp::trainstep::OptimizerKind::Adam, "adam",
                        "Adam"),
             clEnumValN(::mlir::amp::trainstep::OptimizerKind::AdamW, "adamw",
                        "AdamW (decoupled weight decay)"))}]>,
    Option<"lr", "lr", "double", /*default=*/"0.0",
           "Learning rate (default: 0, the optimizer's default: 0.01 for sgd "
           "and momentum, 0.001 for adam and adamw)">,
    Option<"momentum", "momentum", "double", /*default=*/"0.9",
           "optimizer=momentum: the momentum mu, in [0, 1) (default: 0.9)">,
    Option<"beta1", "beta1", "double", /*default=*/"0.9",
           "adam, adamw: decay of the first moment, in [0, 1) (default: "
           "0.9)">,
    Option<"beta2", "beta2", "double", /*default=*/"0.999",
           "adam, adamw: decay of the second moment, in [0, 1) (default: "
           "0.999)">,
    Option<"eps", "eps", "double", /*default=*/"1e-8",
           "adam, adamw: added to sqrt(v), > 0 (default: 1e-8)">,
    Option<"weightDecay", "weight-decay", "double", /*default=*/"0.0",
           "Weight decay, >= 0: wd * w added to the unscaled gradient "
           "(adamw: w scaled by 1 - lr * wd; default: 0)">,
    Option<"evalStep", "eval-step", "bool", /*default=*/"true",
           "Also build @eval_step (batch x classes outputs; default: true)">,
    Option<"raiseSoftmax", "raise-softmax", "bool", /*default=*/"true",
           "Raise decomposed softmaxes (row max, exp, row sum, divide) to "
           "linalg.softmax first (amp-raise-softmax; default: true)">,
  ];
  let dependentDialects = [
    "::mlir::amp::AmpDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::math::MathDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

def Rebatch : Pass<"amp-rebatch", "ModuleOp"> {
  let summary = "Rewrite a forward model traced at batch B to batch N or a "
                "dynamic batch";
  let description = [{
    torch-mlir traces a model at one batch size (usually 1) and writes it
    into every type. This pass rewrites the model function (`function=`, or
    the only public func.func with a body) from the batch it was traced at,
    dimension 0 of the input (`input=`, or the first float tensor argument),
    to `batch=N` or `batch=dynamic`: every type, reshape, broadcast, init
    and splat constant whose dimension derives from the input's batch,
    through the whole graph, and the function's signature.
    `amp-build-train-step batch=` runs the same rewrite first.

    The batch is followed forward: linalg ops (generic and named) by their
    indexing maps (the loop that reads an operand's batch is the batch loop;
    every dimension it indexes is batched), tensor.pad (not padding the
    batch), tensor.collapse_shape / expand_shape (the batch a group of its
    own, or with unit dimensions), tensor.concat (not along the batch),
    tensor.extract_slice (all of the batch), tensor.insert_slice over the
    whole batch (the destination init is rebuilt), elementwise arith and math
    ops, and a gather in a linalg body (`tensor.extract` of a batched value
    whose batch index is `linalg.index` of a loop over the whole batch, used
    for nothing else: torch-mlir's nearest upsampling); that loop is the
    batch loop.
    An init or broadcast operand the batch loop indexes (`tensor.empty`,
    `linalg.fill` of one, a splat constant, a linalg op broadcasting along
    that dimension or whose inputs along it are such values, an insert of
    one into another over that whole dimension, a slice of all of it or a
    collapse of unit dimensions into it: a recurrent layer's zero state
    zeros(L, B, H) sliced per layer) is rebuilt at the new size
    (`tensor.dim` of the input for a dynamic batch); a size-1 input is
    broadcast. Traced at batch 1, torch-mlir's size-1 broadcasts of the
    batch (`(d0, d1) -> (0, d1)`) and its collapse of the batch before a
    broadcast re-adds it (matmul's batch dimensions) are read as the batch;
    an expand of the batch's unit dimension into several ([1, H] -> [1, 1,
    H]) puts it in the first, and in the next where an op reads it
    otherwise (quietly rerun). Traced at B > 1, a collapse that
    merges the batch with the dimensions after it ([B, T, D] -> [B*T, D]
    for a matmul, [B, H, T, d] -> [B*H, T, d] for attention) is followed
    as B x T rows through linalg ops that read them with a parallel loop of
    their own, elementwise ops and the expand that splits the batch off.
    Traced at 1, such a collapse is first read as a squeeze of the batch;
    where that fails (attention's heads [1, H, T, d] -> [H, T, d] for
    batch_matmul), the analysis is rerun, quietly, with it read as merged,
    and a per-head operand that does not derive from the input (a
    relative-position bias [H, T, T]) is tiled over the new batch. A
    collapse that merges the batch after other dimensions ([S, B, E] ->
    [S*B, E]: nn.MultiheadAttention's projections, a Linear on a
    sequence-first input), at any traced batch, is followed the same way,
    as S x B rows, to the expand that splits it into [S, B, ...] again.

    `batch-dim=D` (not 0): the input holds the batch in dimension D
    (PyTorch's `batch_first=False`: 1); it is moved to dimension 0 of the
    input and of the result first (transposes at the entry and before the
    return; amp-build-train-step's `batch-dim=` does the same), with or
    without `batch=`.

    Errors, located on the op and naming it ("amp-rebatch: batch=8:
    'linalg.matmul' contracts over the batch dimension ..."): a reduction or
    contraction over the batch, two operands whose batches different loops
    read, a collapse or expand that merges or splits the batch with other
    dimensions other than by the batch leading them (a flatten across the
    batch), any other op on a merged batch, `tensor.dim` of the batch (a
    model that computes with its batch size), a pad, concat, slice or insert
    of part of the batch, a gather whose batch index is not a loop over the
    whole batch, an operand of the traced batch size that does not derive
    from the input, an op that takes a batched value and is not one of the
    above, a result whose dimension 0 is not the batch, a dynamic traced
    batch re-batched to a size, an invalid `batch=` value, and a function
    other operations refer to. The module is unchanged on error; a `batch`
    equal to the traced one changes nothing.
  }];
  let options = [
    Option<"batch", "batch", "std::string", /*default=*/"\"\"",
           "The new batch size (>= 1) or dynamic; absent or 0: nothing "
           "changes (default: absent)">,
    Option<"function", "function", "std::string", /*default=*/"\"\"",
           "The model function (default: the only public func.func with a "
           "body)">,
    Option<"input", "input", "int64_t", /*default=*/"-1",
           "The input argument, whose dimension 0 is the batch (default: "
           "the first float tensor argument)">,
    Option<"batchDim", "batch-dim", "int64_t", /*default=*/"0",
           "The input's dimension that holds the batch; not 0: moved to "
           "dimension 0 of the input and of the result first (1: PyTorch's "
           "batch_first=False; default: 0)">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

#endif // AMP_TRAINSTEP_PASSES_TD
