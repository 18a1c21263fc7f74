//===- Passes.td - data parallelism over MPI ---------------*- tablegen -*-===//
//
// Data-parallel training (docs/distributed.md): `amp-data-parallel` makes a
// training step average its gradients and its loss over the ranks of a
// process grid (upstream `shard.all_reduce`, tensor level), and the CPU
// lowering turns those all-reduces into upstream `mpi.allreduce` calls on
// MPI_COMM_WORLD (`amp-data-parallel-to-mpi`, then upstream MPIToLLVM through
// convert-to-llvm, then `amp-openmpi-op-symbols`).
//
//===----------------------------------------------------------------------===//

#ifndef AMP_DISTRIBUTED_PASSES_TD
#define AMP_DISTRIBUTED_PASSES_TD

include "mlir/Pass/PassBase.td"

def DataParallel : Pass<"amp-data-parallel", "ModuleOp"> {
  let summary = "Average every gradient and the loss over the ranks before "
                "unscale-and-check (DDP + GradScaler semantics)";
  let description = [{
    Makes each `amp.train_step` function (contract of docs/training-step.md,
    checked first with located errors) one replica of a data-parallel step
    over `world-size` ranks, each of which runs it on its own shard of the
    global batch (PyTorch DistributedDataParallel; shared REFERENCE.md,
    "Data parallelism with loss scaling"; docs/distributed.md):

    - every gradient is all-reduced to the mean over the ranks, g = sum_r
      (g_r / N), divided before the sum as DDP's allreduce hook does, and
      the reduced value replaces the gradient where the step consumes it:
      the operand of its `amp.grad` (before `amp-loss-scaling`) or of the
      `amp.unscale_and_check` (after it). So the unscale, the found_inf
      flag, the skip decision, the optimizer update and the scale update
      all read the same bits on every rank. The markers sit after any
      micro-batch loop, so there is one reduction per optimizer step, not
      per micro-batch (DDP's `no_sync`);
    - the loss result becomes the global mean loss sum_r (L_r / N), the
      same on every rank (rank 0 reports it);
    - a rank-local non-finite loss, which the gradient reduction need not
      carry, makes every rank skip: the smallest reduced gradient is
      multiplied by `1.0` (x * 1.0 == x for every x) or NaN, chosen by
      whether the reduced loss is finite, so the step's own non-finite
      check sees NaN on every rank; both operands are reduced values, so
      the decision is identical by construction (no second collective); a
      factor, not a term, so the backward stays linear in the seed when
      loss scaling follows;
    - the eval step is left alone: it needs no communication.

    The reductions are `shard.all_reduce` ops (sum over axis 0) of 1-D f32
    tensors on a 1-D grid `@amp_data_parallel` of shape `world-size`; the
    function gets `amp.data_parallel = {world_size, bucket,
    reduce_precision}` and the module the DLTI entry `MPI:Implementation`
    that upstream's MPIToLLVM reads for the ABI.

    Options: `world-size` (>= 1, required); `bucket=flat` (default: one
    all-reduce over all gradients, copied into one buffer) or
    `bucket=per-gradient` (one all-reduce per gradient, no copy);
    `reduce-precision=f32` (default) or `f16` / `bf16`: each rank rounds
    g_r / N to that type and the reduced sum is rounded to it again (MPI
    has no 16-bit float datatype, so the values travel as f32; NCCL would
    carry them in 16 bits); an overflow anywhere becomes +-inf, which no
    later addition makes finite, so the check after the reduction still
    sees every overflow; `mpi=openmpi|mpich` (the ABI the lowering
    targets); `test-injection` (test hook: the step calls
    `amp_dp_test_injection() -> i32` and adds +inf to its first gradient
    (1) or NaN to its loss (2) before the reductions; after loss scaling,
    as amp-run applies it: on the fp32 step, loss scaling's linearity check
    refuses the added term).
    Works on the fp32 step (then `amp-mixed-precision` may follow) and on
    its output; the gradients must be f32 and their markers at the top
    level. Errors, located: world-size < 1, a step already data-parallel,
    a gradient that is not a static f32 tensor, `amp.grad` inside a loop,
    a loss-scaled step without its `amp.unscale_and_check`, a gradient
    computed from another parameter's reduced gradient, a symbol
    `@amp_data_parallel` or `@amp_dp_test_injection` of another kind, a
    conflicting `MPI:Implementation`.
  }];
  let options = [
    Option<"worldSize", "world-size", "int64_t", /*default=*/"0",
           "Number of ranks the step runs on (>= 1; amp-run passes MPI's "
           "world size)">,
    Option<"bucket", "bucket", "::mlir::amp::GradientBucketing",
           /*default=*/"::mlir::amp::GradientBucketing::Flat",
           "How gradients are grouped into all-reduces",
           [{::llvm::cl::values(
               clEnumValN(::mlir::amp::GradientBucketing::Flat, "flat",
                          "one all-reduce over all gradients"),
               clEnumValN(::mlir::amp::GradientBucketing::PerGradient,
                          "per-gradient", "one all-reduce per gradient"))}]>,
    Option<"reducePrecision", "reduce-precision", "::mlir::amp::Precision",
           /*default=*/"::mlir::amp::Precision::F32",
           "Precision of the reduced values: f32, or f16 / bf16 (rounded "
           "before and after the sum; the overflow check follows it)">,
    Option<"mpi", "mpi", "::mlir::amp::MPIImplementation",
           /*default=*/"::mlir::amp::MPIImplementation::OpenMPI",
           "MPI ABI of the lowered calls (DLTI MPI:Implementation)",
           [{::llvm::cl::values(
               clEnumValN(::mlir::amp::MPIImplementation::OpenMPI, "openmpi",
                          "Open MPI (Debian's libopenmpi)"),
               clEnumValN(::mlir::amp::MPIImplementation::MPICH, "mpich",
                          "MPICH and its ABI (Intel MPI, MVAPICH)"))}]>,
    Option<"testInjection", "test-injection", "bool", /*default=*/"false",
           "Test hook: call amp_dp_test_injection() each step; 1 adds +inf "
           "to the first gradient, 2 NaN to the loss, before the reductions">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::DLTIDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::shard::ShardDialect",
                           "::mlir::tensor::TensorDialect"];
}

def DataParallelToMPI : Pass<"amp-data-parallel-to-mpi", "ModuleOp"> {
  let summary = "Lower amp-data-parallel's shard.all_reduce ops to "
                "mpi.allreduce on MPI_COMM_WORLD";
  let description = [{
    The CPU lowering's first step for a data-parallel step (run by
    `amp-lower-to-llvm`, before one-shot bufferization): each
    `shard.all_reduce` of a static 1-D tensor over axis 0 of a static 1-D
    `shard.grid` (what `amp-data-parallel` creates) becomes

        %send = bufferization.to_buffer %in read_only
        %recv = memref.get_global @amp_dp_recv
        mpi.allreduce(%send, %recv, MPI_SUM, %comm_world)
        %out = bufferization.to_tensor %recv restrict writable

    with one `mpi.comm_world` per function; the grids are then erased.
    This is where the reduced tensors become buffers. The receive buffer
    is a module-level `memref.global` (64-byte aligned, one per
    all-reduce), and so is the send buffer when the input is written into
    a `tensor.empty` of its type (the bucket, a gradient's share: that
    `tensor.empty` is replaced by the global); otherwise bufferization
    keeps the input's own buffer. Allocated once and reused by every call,
    they cost no allocation and no first touch of fresh pages per step; a
    reduced value is overwritten by the next call (a caller that keeps a
    returned one must copy it, as `buffer-results-to-out-params` does), and
    calls must not overlap. Upstream `convert-shard-to-mpi`
    (LLVM 22) would split a new communicator (MPI_Comm_split, a collective
    that is never freed) for every all-reduce on every step, and its
    MPI_Comm_split lowering stores Open MPI's pointer-sized communicator in
    32 bits (a crash in the next call); a grid over all ranks is
    MPI_COMM_WORLD itself. Reductions: sum, max, min. Errors, located: an
    all-reduce over a grid that is not static and 1-D, over other axes, of
    a tensor that is not static and 1-D, or of an element type MPI has no
    datatype for in upstream's lowering (f32, f64, i8..i64).
  }];
  let dependentDialects = ["::mlir::bufferization::BufferizationDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::mpi::MPIDialect"];
}

def OpenMPIOpSymbols : Pass<"amp-openmpi-op-symbols", "ModuleOp"> {
  let summary = "Name Open MPI's predefined reduction ops as libmpi exports "
                "them (after convert-to-llvm)";
  let description = [{
    Upstream's MPIToLLVM (LLVM 22) declares Open MPI's predefined
    reduction operations as external globals `@ompi_mpi_sum`,
    `@ompi_mpi_max`, ...; Open MPI's mpi.h (`MPI_SUM` is
    `&ompi_mpi_op_sum`) and libmpi.so export them as `ompi_mpi_op_sum`,
    `ompi_mpi_op_max`, ... so the JIT or the linker cannot resolve them.
    This pass renames every external `llvm.mlir.global` of type
    `!llvm.struct<"ompi_predefined_op_t", opaque>` named `ompi_mpi_<op>`
    to `ompi_mpi_op_<op>` (merging with one already so named) and updates
    every `llvm.mlir.addressof`. Datatypes and MPI_COMM_WORLD are named
    correctly upstream and left alone. A no-op without such globals
    (MPICH's ABI uses integer constants).
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def ChunkBatchReductions : Pass<"amp-chunk-batch-reductions", "ModuleOp"> {
  let summary = "Sum every reduction over the batch in N consecutive chunks, "
                "as N data-parallel ranks do (one process reproduces an "
                "N-rank run)";
  let description = [{
    A one-process step at batch N x B normally sums each reduction over the
    batch (weight-gradient contractions, bias-gradient sums, the loss) in
    one order over all N x B examples, while N data-parallel ranks
    (`amp-data-parallel`) each sum B examples from zero and MPI then adds
    the N partial results. The two differ by rounding from the first step,
    and SGD can amplify that (docs/distributed.md). This pass makes the
    one-process step sum as the ranks do: every sum reduction over the
    batch in each `amp.train_step` function is split into `chunks` clones,
    each over one consecutive slice of B = (N x B) / `chunks` examples
    (`tensor.extract_slice` of the operands, the same loop nest) and
    starting from its own copy of the original zero init, and the partial
    results are added in chunk order, ((p_0 + p_1) + p_2) ..., in one
    elementwise `linalg.generic`.

    For `chunks` = 2 the run then equals the 2-rank run at batch B bit for
    bit: the backward is linear in its seed and the ranks' seed is the
    one-process seed times the power of two N (1/B against 1/(N B)), which
    commutes with rounding; each rank's share g_r / N is then exactly the
    one-process chunk, and MPI's p_0 + p_1 is the combine (IEEE addition is
    commutative). For more chunks the combine is left to right, which MPI
    does not promise (ring and tree all-reduces add in other orders).

    The batch dimension is dim 0 of the `input` and the `label` / `target`
    arguments (docs/training-step.md). It is followed forward as a
    batch-major dimension (its extent a multiple of the batch size, whole
    examples in order, as when a [B, S, D] activation is collapsed to
    B x S rows) through linalg ops (a loop is a batch loop when an operand's
    batch dimension is indexed by that loop alone), elementwise ops,
    `tensor.cast`, `tensor.expand_shape` / `collapse_shape` that keep it
    outermost and `tensor.extract_slice` that keep it whole. Not followed,
    so reductions over them are neither chunked nor warned about: a value
    broadcast to the batch's shape from values without one (a constant
    seed), `tensor.concat`, a reshape that splits the batch itself, a cast
    to a dynamic shape. A reduction is chunked when a batch loop is one
    of its reduction loops, every result is a sum
    (`arith.addf` of the init's block argument, used once), every init is a
    `linalg.fill` of +-0.0, and its body does not read the loop's index;
    one that is not (an accumulation into a non-zero init, a reduction
    over two batch loops) stays as it is, and a warning names it, unless
    it is a min, a max or an integer sum, which are exact in any order.
    Each chunk is a clone, so the compile time grows with `chunks`.
    Reductions inside loops (gradient accumulation's micro-batches) are
    not followed.

    Errors, located: `chunks` < 1, no `amp.train_step` function, a step
    whose contract does not hold, a dynamic batch dimension, a batch size
    that `chunks` does not divide. `chunks` = 1 leaves the module
    unchanged. amp-run applies it with `--emulate-ranks=N`.
  }];
  let options = [
    Option<"chunks", "chunks", "int64_t", /*default=*/"0",
           "Number of chunks (the number of ranks to reproduce, >= 1)">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

#endif // AMP_DISTRIBUTED_PASSES_TD
