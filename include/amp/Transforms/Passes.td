//===- Passes.td - amp passes ------------------------------*- tablegen -*-===//
//
// Every pass of the project. `amp-opt --help` and docs/passes.md come from
// the summaries, descriptions and options declared here.
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
    "opt_state", "input", "label", and after loss scaling "loss_scale",
    "growth_tracker"), one `amp.role = "loss"` result of type tensor<f32>,
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
    Option<"precision", "precision", "std::string", /*default=*/"\"f16\"",
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
    Option<"mode", "mode", "std::string", /*default=*/"\"auto\"",
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
    Option<"precision", "precision", "std::string", /*default=*/"\"f16\"",
           "Autocast precision of the step (f16, bf16, f32): picks the "
           "auto mode and rejects loss scaling with bf16">,
  ];
  let dependentDialects = ["::mlir::amp::AmpDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect"];
}

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

def InterchangeContractionLoops
    : Pass<"amp-interchange-contraction-loops", "func::FuncOp"> {
  let summary = "Put a parallel loop innermost in linalg contractions (CPU)";
  let description = [{
    CPU lowering helper: generalizes linalg contractions (named or generic,
    one reduction loop) and interchanges their loops so that the reduction
    loop sits just outside the innermost parallel loop, i.e. (i, j, k) ->
    (i, k, j) for a matmul. After `convert-linalg-to-loops` the inner loop is
    then a unit-stride axpy that LLVM's loop vectorizer turns into SIMD FMAs
    (a reduction innermost would need float reassociation). Numerics are
    unchanged: each output element still accumulates over k in order.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def CPUTileContractions
    : Pass<"amp-cpu-tile-contractions", "func::FuncOp"> {
  let summary = "Register-tiled micro-kernels for matmul-shaped contractions "
                "(CPU)";
  let description = [{
    CPU lowering, after bufferization: every `linalg.generic` that computes
    C[i, j] += A[i, k] * B[k, j] on memrefs (the forward X * W, the weight
    gradient X^T * dY and the input gradient dY * W^T of a training step; A
    may be read as A[k, i] and B as B[j, k]; loops in any order; body
    `out + x * y` with x, y possibly `arith.extf` of the operands) with C
    f32, A and B f32, f16 or bf16, static or dynamic sizes, becomes the
    outer-product micro-kernel of BLIS (Van Zee and van de Geijn, "BLIS: A
    Framework for Rapidly Instantiating BLAS Functionality", TOMS 2015):

    - C is cut into `tile-rows` x `tile-cols` blocks (MR x NR, default
      6 x 16: twelve 8-wide f32 accumulators, what AVX2 holds in its 16
      registers). A block is loaded into vector registers once, the k loop
      adds broadcast(A[i + r, k]) * B[k, j0 : j0 + NR] to row r with
      `vector.fma`, and the block is stored once.
    - 16-bit operands are widened to f32 in registers (`arith.extf` of the
      loaded vector); accumulation is f32, as autocast prescribes.
    - The last N mod NR columns are one masked tile per row panel
      (`vector.maskedload`/`maskedstore`); the last M mod MR rows are
      one-row tiles.
    - B read as B[j, k] is first copied into a (k, j) buffer
      (`linalg.transpose`, freed after the kernel), as a BLAS packs it.

    Numerics: each C element still accumulates over k in increasing order,
    but every multiply-add is fused (one rounding, as in BLAS and cuBLAS)
    where the generic rounds the product and the sum separately.
    Everything else (C of another type, a body with more ops, rank != 2,
    batched contractions, a C or B row that is not unit-stride, C viewing
    the same buffer as A or B) is left to `convert-linalg-to-loops`.
    Errors: `tile-rows` outside [1, 32] or `tile-cols` outside [1, 256].
  }];
  let options = [
    Option<"tileRows", "tile-rows", "int64_t", "6",
           "MR: rows of C per micro-tile (1 to 32)">,
    Option<"tileCols", "tile-cols", "int64_t", "16",
           "NR: columns of C per micro-tile, the vector width (1 to 256)">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect"];
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

def CheckLLVMLowering : Pass<"amp-check-llvm-lowering", "ModuleOp"> {
  let summary = "Fail on any op that the LLVM lowering left behind";
  let description = [{
    Last pass of `amp-lower-to-llvm`: every op must now be in the LLVM
    dialect (or be the module). For each kind of op that is not, one error
    located on its first occurrence names it, and the pass fails; without it
    the pipeline would succeed and only LLVM IR translation would fail, far
    from the cause.
  }];
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
    Option<"precision", "precision", "std::string", /*default=*/"\"f16\"",
           "Low-precision type to round to: f16 or bf16">,
  ];
  let dependentDialects = ["::mlir::amp::AmpDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::tensor::TensorDialect"];
}

//===----------------------------------------------------------------------===//
// GPU (NVVM) lowering: used by amp-lower-to-nvvm (docs/gpu.md)
//===----------------------------------------------------------------------===//

def GPUFuseUnscaleAndCheck
    : Pass<"amp-gpu-fuse-unscale-and-check", "func::FuncOp"> {
  let summary = "One device loop (one kernel) for amp.unscale_and_check";
  let description = [{
    GPU lowering of `amp.unscale_and_check` (PyTorch's
    `_amp_foreach_non_finite_check_and_unscale_`, shared REFERENCE.md):
    instead of one linalg.generic per gradient, one `scf.parallel` over the
    concatenated index space of all gradients (gradient k owns the flat
    indices [off_k, off_k + numel_k)). Each iteration finds its gradient,
    reads the element once, writes g * inv_scale (computed in f32, rounded
    back to the gradient's element type) once into a fresh buffer, and when
    the element is +-inf or NaN (|g| >= inf, unordered compare) stores
    `true` into the single found_inf flag (a benign race: every writer
    stores the same value). The flag is zeroed by a one-element loop before.
    After `amp-gpu-map-parallel-loops` and `convert-parallel-loops-to-gpu`
    this is one kernel launch covering every gradient. Every gradient is a
    kernel parameter (8 bytes with bare pointers, 40+ as a descriptor) and
    CUDA limits parameters to 4 KiB below PTX 8.1, so steps with more than
    `max-gradients-per-kernel` gradients get one such loop per group of
    that many (still one flag, still one read and one write per element).

    Runs on tensors before one-shot bufferization: gradients enter through
    `bufferization.to_buffer read_only`, results leave through
    `bufferization.to_tensor restrict` of fresh `memref.alloc`s. Gradients
    must be ranked tensors of f16, bf16 or f32 with static or dynamic
    shapes; the inverse scale is a tensor<f32>.
  }];
  let options = [
    Option<"maxGradientsPerKernel", "max-gradients-per-kernel", "int64_t",
           "128", "Gradients covered by one loop (kernel); more get one "
           "loop per group">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::affine::AffineDialect",
                           "::mlir::bufferization::BufferizationDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

def GPUKeepOnDevice : Pass<"amp-gpu-keep-on-device", "func::FuncOp"> {
  let summary = "Move scalar and control decisions of the step onto the device";
  let description = [{
    GPU lowering helper, on tensors after `amp-lower-to-standard`: nothing
    of the step may read device memory from host code, so that a step is a
    sequence of kernel launches on one stream without a host round trip.
    - The skip-update `scf.if` (condition: `tensor.extract` of a 0-d i1
      tensor, tensor results only, no side effects in either branch)
      becomes predication: both branches are inlined and every result that
      differs is `select(found_inf, skip value, update value)` in a
      linalg.generic that reads the flag on the device. The skip branch
      yields the old parameters and optimizer state, so a skipped step
      stays bit-identical; the update is computed and discarded.
    - Scalar chains `tensor.extract` of 0-d tensors -> scalar arith/math ->
      `tensor.from_elements` (the loss-scale update of
      `amp.update_scale`, the inverse scale 1/S) become 0-d
      linalg.generic ops, i.e. single-thread kernels.
    - A scalar computed on the host from a 0-d `tensor.extract` (Adam's
      bias corrections 1 - beta^t from the step counter t) and used inside
      a `linalg.generic` body becomes one more 0-d input of that generic,
      computed by the scalar-chain rule above.
    - Splat dense tensor constants become `linalg.fill` of `tensor.empty`,
      so that bufferization does not place them in host globals.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def GPUParallelDimsOuter
    : Pass<"amp-gpu-parallel-dims-outer", "func::FuncOp"> {
  let summary = "Interchange linalg.generic loops so parallel loops are outer";
  let description = [{
    GPU lowering helper: permutes the loops of every `linalg.generic` so
    that all parallel loops come first (in their order) and the reduction
    loops last. `convert-linalg-to-parallel-loops` then produces one
    `scf.parallel` over all parallel dimensions with sequential reductions
    inside it, which maps to one kernel (e.g. a column sum over the batch
    would otherwise be a host loop around a kernel launch). Each output
    element still accumulates over the reduction in the same order, so
    numerics are unchanged.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def GPUTensorCoreContractions
    : Pass<"amp-gpu-tensor-core-contractions", "func::FuncOp"> {
  let summary = "f16/bf16 contractions with f32 accumulation as warp tiles "
                "on Tensor Cores (mma.sync)";
  let description = [{
    GPU lowering of the contractions that autocast leaves in f16 or bf16
    with fp32 accumulation (PyTorch autocast's matmul policy: f16 operands, f32
    accumulate; shared REFERENCE.md, "Autocast: which ops run in low
    precision"). Runs on buffers, after one-shot bufferization and before
    `convert-linalg-to-parallel-loops`.

    Matches a `linalg.generic` with loops (i, j, k) = (parallel, parallel,
    reduction), output map (i, j), A map (i, k) or (k, i), B map (k, j) or
    (j, k), body `out + extf(a) * extf(b)` (either order), A and B both f16
    or both bf16, the output f32, static identity-layout memrefs, M % 16 = 0, N % 8 = 0 and
    K % 16 = 0. These are the forward matmuls and both backward forms
    (A^T * dY for weight gradients, dY * B^T for input gradients). Any other
    op, including contractions whose sizes are not multiples of the mma
    shape, is left for the SIMT path.

    Each match becomes one warp tile per (32|16) x (32|16|8) block of the
    output: the accumulators are read from the output once, a loop over K in
    steps of 16 reads 16 x 16 A and 16 x 8 B fragments with
    `vector.transfer_read` and accumulates with `vector.contract` of the
    native m16n8k16 shape (f16 x f16 -> f32), and the accumulators are
    written back once. Upstream `convert-vector-to-gpu{use-nvgpu}` patterns
    then turn the tile into per-lane fragment loads and `nvgpu.mma.sync`
    (PTX `mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32`, sm_80 and
    newer). bf16, which LLVM 22's conversion does not know, goes through
    the same conversion on f16 views of its buffers (the 16-bit fragments of
    PTX's m16n8k16 have one layout for .f16 and .bf16); the loads are then
    retyped to bf16 and each mma becomes `nvvm.mma.sync` with bf16
    operands. An internal error is reported, located, if that retyping
    meets an op it does not expect. Each output element accumulates the same products in f32 as the
    SIMT loop; only the summation order within a k-step of 16 differs.

    With `launch` (the default) each tile is one `gpu.launch` with one warp
    (32 threads) per block and the blocks over (N tiles, M tiles). Without
    it the tiles stay an `scf.parallel` over (M tiles, N tiles), which runs
    on the CPU: the lit tests check the tiling's numerics that way.
  }];
  let options = [
    Option<"launch", "launch", "bool", "true",
           "Wrap the warp tiles in gpu.launch (one warp per block); false "
           "leaves an scf.parallel over the tiles (CPU-executable)">,
  ];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::NVVM::NVVMDialect",
                           "::mlir::nvgpu::NVGPUDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect"];
}

def GPUMapParallelLoops
    : Pass<"amp-gpu-map-parallel-loops", "func::FuncOp"> {
  let summary = "Tile outermost scf.parallel loops to blocks and threads";
  let description = [{
    Replaces upstream `gpu-map-parallel-loops` for the step: every
    outermost `scf.parallel` is tiled (`scf::tileParallelLoop`, guards
    instead of min/max bounds) into a block loop and a thread loop and both
    get `#gpu.loop_dim_map` attributes. The innermost (unit-stride) loop
    dimension maps to x so that neighbouring threads touch neighbouring
    elements (coalesced loads); up to three dimensions map to x, y, z, the
    rest run sequentially in each thread. Thread tiles: 256 for 1-d loops,
    8 x 32 for 2-d, 1 x 8 x 32 for 3-d and more (option `block-size` sets
    the 1-d size).
  }];
  let options = [
    Option<"blockSize", "block-size", "int64_t", "256",
           "Threads per block for one-dimensional loops">,
  ];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::affine::AffineDialect"];
}

def GPULaunchHostCompute
    : Pass<"amp-gpu-launch-host-compute", "func::FuncOp"> {
  let summary = "Wrap leftover host memory accesses in single-thread kernels; "
                "device allocations";
  let description = [{
    Runs on host functions after `convert-parallel-loops-to-gpu`, when
    every memref is device memory:
    - every maximal run of host ops that read or write memref contents
      (`memref.load/store`, loops over them: full reductions such as the
      loss, 0-d generics lowered to scalar code) and of the pure ops that
      consume their results moves into a `gpu.launch` of one block of one
      thread; a value of such a run used later by host code is an error
      located on the op;
    - `memref.alloc`/`memref.dealloc` become `gpu.alloc`/`gpu.dealloc`,
      `memref.copy` becomes `gpu.memcpy`, and `memref.get_global` (a
      non-splat constant) becomes a device buffer filled by `gpu.memcpy`
      from the host global.
    `gpu-async-region` then chains all of it on one stream.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect"];
}

def CheckNVVMLowering : Pass<"amp-check-nvvm-lowering", "ModuleOp"> {
  let summary = "Fail on any op that the NVVM lowering left behind";
  let description = [{
    Runs after `convert-gpu-to-nvvm` and `gpu-to-llvm`, before
    serialization: every op in a `gpu.module` must be in the LLVM or NVVM
    dialect, every host op in the LLVM dialect (or `gpu.binary` /
    `gpu.launch_func`, which LLVM IR translation handles). Without this check
    an op without a conversion pattern (e.g. arith on f16/bf16 when the
    ConvertToLLVM interfaces were not registered) reaches the serializer
    and fails far from its cause. One error per kind of op, located on its
    first occurrence.
  }];
}

#endif // AMP_TRANSFORMS_PASSES_TD
