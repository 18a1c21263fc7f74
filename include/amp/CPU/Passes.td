//===- Passes.td - CPU lowering passes -*- tablegen -*-===//
//
// The passes of the CPU lowering `amp-lower-to-llvm` (Pipelines.h) that are
// amp's own: contraction loop order, register-tiled micro-kernels,
// aggregate-op decomposition and the final check. docs/passes.md is
// generated from here and the other rooms' Passes.td.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_CPU_PASSES_TD
#define AMP_CPU_PASSES_TD

include "mlir/Pass/PassBase.td"

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

def CPUConvolutionsToGemm
    : Pass<"amp-cpu-convolutions-to-gemm", "func::FuncOp"> {
  let summary = "Convolutions and their gradients as one GEMM per image "
                "(im2col) for the micro-kernels (CPU)";
  let description = [{
    CPU lowering, on tensors, before bufferization. A convolution (named,
    such as torch-mlir's `linalg.conv_2d_nchw_fchw`, or a generic), the
    weight gradient and the input gradient amp-differentiate writes for it
    are sums of products `out + x * y` (each factor maybe widened by
    `arith.extf`) whose operands are read through windows (`oh * s + kh`)
    or under index masks (`select(0 <= h - kh < H, x * y, 0)`). No
    micro-kernel matches that form, so they ran as loop nests. This pass
    rewrites each as GEMMs, the im2col method of Caffe and of PyTorch's
    CPU `slow_conv2d` (Chellapilla et al., "High Performance Convolutional
    Neural Networks for Document Processing", 2006):

    - a loop that every operand reading it reads as its plain first
      dimension (the batch: a parallel loop of the output, or the
      reduction of the weight gradient) becomes an `scf.for` over slices,
      one image at a time, so that the copies stay one image big;
    - per image, the loops split into M (read by one input and the
      output), N (the other input and the output) and K (reductions, read
      by both inputs); the output's dimensions must be the M loops then the
      N loops or the other way round;
    - an input read through windows or masks is copied into a matrix
      `[K..., M or N...]` or `[M or N..., K...]`, whichever has the longer
      innermost loop (the image's rows in im2col), the masks applied to
      the copy (a masked term is `0 * y` instead of `0`); an input that already is a matrix in that
      grouping (the weight of a convolution, the output gradient of its
      weight gradient) is only viewed (`tensor.collapse_shape`); a copy of
      an input that does not depend on the image is made once, before the
      loop;
    - the GEMM is a rank-2 `linalg.generic` `C[i, j] += R[i, k] * Q[k, j]`
      (either operand transposed) into the output slice viewed as a matrix,
      which amp-cpu-tile-contractions puts on its register-tiled kernels
      (bf16 on `vdpbf16ps` with bf16-dot).

    Only ops with f32 outputs and f32/f16/bf16 inputs are rewritten (the
    kernels' types), whose output reads exactly the parallel loops, and
    whose masks each read the loops of one input (a mask that reads the
    batch loop only goes into the copy of an input that reads the batch);
    ops with a loop read by both inputs and the output
    other than the peeled one (depthwise convolutions, batched matmuls), a
    broadcast loop, or a dynamic extent other than the batch are left
    alone. Numerics: each output element sums the same terms, in another
    order (the GEMM's K order, image by image for the weight gradient,
    whose sum over the batch is then not blocked as amp-split-long-sums
    blocks other long sums); a masked term `0 * y` is NaN where y is not
    finite (the step then skips anyway) and -0.0 where y is negative.
    A copy of a 16-bit input that the GEMM widens is written in f32 (the
    widening the micro-kernel would otherwise do in its own pack, done
    once in the copy): always for f16, and for bf16 with `widen-bf16`
    (amp-lower-to-llvm sets it where the vdpbf16ps kernel, which reads
    bf16 pairs, is off). Same products: the widening is exact.
    amp-lower-to-llvm runs it unless `conv-gemm=false`.
  }];
  let options = [
    Option<"widenBF16", "widen-bf16", "bool", "false",
           "Write the copies of bf16 inputs in f32 (for the FMA kernel; "
           "off for the vdpbf16ps kernel, which reads bf16)">
  ];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::arith::ArithDialect"];
}

def CPUCollapseContiguousLoops
    : Pass<"amp-cpu-collapse-contiguous-loops", "func::FuncOp"> {
  let summary = "Merge the loops of linalg.generic ops that walk contiguous "
                "memory in every operand (CPU)";
  let description = [{
    CPU lowering, on tensors, before bufferization. Each linalg op becomes
    a loop nest, and LLVM's loop vectorizer only vectorizes its innermost
    loop. In an image model that loop is a row (28, 14 or 7 elements), and
    for a loop that short, with the runtime alias checks that loops over
    memrefs need, its cost model declines: the elementwise ops, casts and
    per-channel reductions of a CNN step ran one element at a time.

    This pass merges each run of two or more consecutive loops of one
    iterator type that every indexing map reads as consecutive results
    (`linalg::areDimSequencesPreserved`: contiguous in every operand, or
    not read by it, as a per-channel scale is not read by (h, w)) into one
    loop, with upstream's `linalg::collapseOpIterationDims`; the operands
    are reshaped (`tensor.collapse_shape`, views after bufferization) and
    the results expanded back. `[n, c, h, w]` elementwise becomes one loop
    over all elements; a batch norm's per-channel sum over `(n, h, w)`
    keeps n and merges (h, w).

    Left alone: ops whose innermost loop has 64 or more iterations (they
    vectorize as they are), ops whose result a terminator returns or
    yields (the expanded view would cost a copy into the out-parameter
    the op writes directly, e.g. the skip-update region's new
    parameters), contraction-like ops (their loops are what the
    micro-kernels match), bodies that read `linalg.index` (the merged
    index would be split again per element), maps that are not projected
    permutations (windows, constant indices) and operands of dynamic
    shape. Same bits:
    every output element is computed from the same operands in the same
    order.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def CPUFuseElementwise : Pass<"amp-cpu-fuse-elementwise", "func::FuncOp"> {
  let summary = "Fuse elementwise linalg ops into their consumers on tensors, "
                "contractions excepted (CPU)";
  let description = [{
    CPU lowering, on tensors, after `convert-elementwise-to-linalg` and
    before bufferization: upstream's producer-consumer fusion of
    elementwise `linalg.generic` ops (`populateElementwiseOpsFusionPatterns`,
    the pass `linalg-fuse-elementwise-ops`), steered for the micro-kernels
    of `amp-cpu-tile-contractions`:

    - an all-parallel producer is fused into an all-parallel consumer; a
      producer with other uses stays a result of the fused op (computed
      once, written once);
    - into a consumer with reduction loops (a bias gradient's column sum,
      softmax's row max and sum, the loss) only a producer with no other
      use, so that no result is written from inside a reduction;
    - never into a contraction-like consumer (a reduction loop and two or
      more non-scalar operands), so that the matmul-shaped generics keep
      the body the micro-kernels match;
    - first, a reduction generic that also has elementwise results (an
      output indexed by all loops whose value reads no output: the
      unscaled gradients of the lowered `amp.unscale_and_check`, beside
      its found-inf flag) is split in two when every reader of those
      results is an all-parallel generic: the flag reduction then only
      reads the gradients, and the unscale is fused into the optimizer
      update (one pass less over every gradient).

    Why: each linalg op is one pass over memory. In an autocast step the
    casts are ops of their own (`arith.truncf` of each contraction result,
    `arith.extf` before each f32 reduction), and the bias add, ReLU and
    cast chain of a layer was three passes over the activation; fused it
    is one, with one conversion per element in and one out (the roundings
    to f16/bf16 between the ops stay, so the values are those of the
    unfused step, bit for bit). The optimizer's momentum and parameter
    updates and the skip-update select become one pass per parameter.

    Numerics: fusion does not reorder any arithmetic; each element goes
    through the same ops in the same order. ThreadDeterminismTest
    (Fashion-MNIST steps) and LossScalingProperty.ScaleOneIsBitIdentical
    (S = 1 against no loss scaling, f32 and f16) check bits with it. An
    earlier version of the pipeline failed the f16 case of the latter with
    this pass, for a cause not pinned down; it passes since 2026-12-01.
    `amp-lower-to-llvm` runs the pass only with `fuse=true` (off by
    default: it makes the transformer-block step slower, see
    docs/performance.md).
    With `unscale-only` the pass does the split and fuses only the
    elementwise halves it split off into their readers: the unscale goes
    into the optimizer update (inside the skip-update region) and the
    check only reads the gradients, while every other op stays as it is.
    `amp-lower-to-llvm` runs it so by default (fuse=false), and the whole
    pass with `fuse=true`.
    Errors: the greedy rewrite not converging (a bug).
  }];
  let options = [
    Option<"unscaleOnly", "unscale-only", "bool", "false",
           "Only split the elementwise results off reductions (the "
           "unscaled gradients) and fuse them into their readers">,
  ];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def CPUSplitBatchContractions
    : Pass<"amp-cpu-split-batch-contractions", "func::FuncOp"> {
  let summary = "Write batched contractions on buffers as a loop of rank-2 "
                "contractions, for the CPU micro-kernels (CPU)";
  let description = [{
    CPU lowering, on buffers, right before `amp-cpu-tile-contractions`. A
    `linalg.batch_matmul` (generalized first) or a `linalg.generic` with
    four loops whose every operand is indexed first by the same parallel
    loop b (and nowhere else by it), and whose other three loops make the
    contraction `amp-cpu-tile-contractions` matches (C[i, j] += A[i, k] *
    B[k, j], either operand transposed, 16-bit operands widened), becomes an
    `scf.for` over b of that rank-2 contraction on the b-th matrices
    (rank-reducing `memref.subview`s). Ops whose rank-2 form the
    micro-kernels would not take (`matchBufferContraction`) are left alone.

    Why: the attention of a transformer is batched (scores Q K^T and the
    output P V per image and head, and their gradients). The micro-kernels
    only take rank-2 contractions, so these ran on the loop path, with a
    gather per element of the transposed operand and, in bf16, one 16-bit
    insert per element: 40% of the hand-written transformer block's f32
    step.

    Numerics: the micro-kernels' (each output's terms in k order, fused
    multiply-adds), as for every other contraction of the step; the loop
    path rounded each product before the add. Same bits for any thread
    count.
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::linalg::LinalgDialect"];
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

    - C is cut into `tile-rows` x `tile-cols` micro-tiles (MR x NR,
      default 6 x 16: twelve 8-wide f32 accumulators, what AVX2 holds in
      its 16 registers). A micro-tile is loaded into vector registers, the
      k loop adds broadcast(A[i + r, k]) * B[k, j0 : j0 + NR] to row r with
      `vector.fma`, and the micro-tile is stored.
    - Cache blocking: the micro-tiles are grouped into blocks of
      `block-rows` x `block-cols` elements of C (MC x NC, rounded up to
      multiples of MR x NR), and within a block k runs in slices of
      `tile-depth` (KC): for each slice, every row panel of MR rows sweeps
      the block's columns, so the slice of B (KC x NC) stays in L2 and the
      slice of A (MR x KC) in L1 (the loop order of BLIS).
    - Threads: the blocks are independent (each C element is in one
      block), so they are an `scf.parallel` over (row block, column
      block), which `amp-lower-to-llvm` runs on its threads; contractions
      of fewer than `min-parallel-work` multiply-adds (static sizes) keep
      plain loops, as a fork would cost more.
    - 16-bit operands are widened once into f32 copies in their own
      layout (a contiguous copy, eight conversions per instruction) before
      the kernel, which then runs as for f32; accumulation is f32, as
      autocast prescribes. When the 16-bit operand is autocast's
      `arith.truncf` of a function argument that the step never writes (a
      parameter, the input), the copy reads the f32 argument and rounds
      each element itself (truncf, then extf: the same values), and the
      cast, once nothing else reads its buffer, is erased: one pass over
      the parameter instead of two.
    - With `bf16-dot` (for CPUs with AVX512_BF16; amp-run and the JIT
      turn it on from the host's CPU features, LowerToLLVMConfig), a
      contraction whose A and B are both bf16 (or autocast's bf16 casts of
      f32 arguments, rounded by the pack as above) runs on `vdpbf16ps`
      (`x86vector.avx512.dot`: 16 f32 lanes, each adding two bf16
      products per instruction, twice the f32 FMA rate) instead: A and B
      are packed into bf16 pairs along k (PackBF16Pairs.h: B as
      P[kk][j], A as P[i][kk] or P[kk][i]; an odd k's last pair is padded
      with zero), and a `dot-tile-rows` x `dot-tile-cols` micro-tile
      (default 8 x 32: sixteen 16-lane accumulators of AVX-512's 32
      registers; with 6 x 32's twelve, the bf16 steps on an AMD EPYC with
      two vdpbf16ps per cycle were 5-9% slower, and 12 x 32 or 14 x 32 were
      no faster than 8 x 32) adds, per pair of k, one broadcast 32-bit A
      pair times
      `dot-tile-cols` / 16 B rows; depth slices are `tile-depth` / 2
      pairs. The instruction adds the product of each pair's second
      (odd) element first (Intel SDM, VDPBF16PS; measured the same on AMD
      Zen 4), so each pair holds k = 2kk + 1 first and k = 2kk second:
      every accumulator adds its products in increasing k, each bf16
      product is exact in f32 and each addition rounds once, so the
      results are the FMA kernel's bit for bit, except that the
      instruction reads and writes every denormal as zero (DAZ, FTZ: an
      input, a product or a partial sum below 1.2e-38 in magnitude, so a
      sum that passes through that range can differ even when its inputs
      and result are normal) and that a NaN made from two NaNs may carry
      the other one's payload. An odd k's pad is -0.0 in A and +0.0 in
      B, so that a -0.0 sum stays -0.0. Packs are shared between
      contractions as above.
    - A copy is made once per buffer, not once per contraction: a later
      contraction in the same block that would copy the same buffer the
      same way (layout, rounding) reads the earlier copy, which is freed
      after its last reader, when nothing can have written the buffer in
      between (the buffer, or the allocation or argument it is a view of,
      is a whole allocation or a function argument, none of its writers
      lies between, and it has no use that could give it a second name: a
      select, a call, a branch or a yield; its views' uses count as its
      own). The Q, K and V projections of one activation read one copy. On
      a 16-bit step the input, the activations and the output gradients
      are each widened once for the forward contraction, the weight
      gradient's and the input gradient's. An operand that an earlier
      all-parallel `arith.extf` generic already widens into an f32 buffer
      of its shape (the bias gradient's widening of an output gradient)
      is read from that buffer, if neither buffer changes in between.
      The values read are the same, so no bit changes.
    - A 16-bit A operand is widened by the op that writes it, when that is
      the last write of its buffer (an allocation, read through reshapes)
      before the contraction and nothing writes the buffer in between: an
      all-parallel generic that writes all of the buffer through an
      identity map (a ReLU, a residual add, a broadcast, a rounding cast
      of a buffer that is not an argument), with at most `writer-distance`
      ops with memory effects between it and the contraction (default 0:
      the generic is the op before it), is rebuilt with one more output,
      `arith.extf` of the value it stores (widenInWriter); a kernel of
      this pass that rounded its accumulators into the buffer (a
      contraction whose f16/bf16 result the next contraction reads), at
      most three such ops before, stores each rounded vector widened into
      an f32 buffer too, through the same views (widenInKernel). A shared
      pack is reused only as far (three ops from its last reader). The
      f32 copy lives from its writer to its reader: the arena peak of the
      examples/pytorch transformer's bf16 step rose from 2.56 to 3.01 MB
      with four ops for both, and is 2.58 MB (f32: 3.45 MB) with these
      limits. The pack
      is then made in the same pass over memory as the 16-bit values,
      instead of a pass of its own that reads them back; a 16-bit output
      that nothing else reads then goes (the generic's output, the
      kernel's rounded stores). `extf` of the stored
      value is what the copy computed, so no bit changes.
    - C's initial value: when every element of C holds one value as the
      contraction starts, because a `linalg.fill` of C or a `memref.copy`
      into C from a filled buffer put it there, the first depth slice
      starts its accumulators from that value (a broadcast) instead of
      loading C, and the fill or copy goes (BLAS's beta = 0). On a
      bufferized step every contraction's init is a zero fill, and where
      CSE merged the fills of two contractions bufferization copies the
      shared zeros into each: a memset and a memcpy of C per contraction.
      Requires static k > 0 (with no slice C keeps its initial value), no
      use of C between the fill or copy and the contraction, a fill of the
      copy's source that nothing overwrites before the copy, and both
      buffers whole allocations or function arguments with no use that
      could give them a second name (as for the shared copies above). A
      filled buffer left with no reader is removed. Broadcasting the
      value or loading it gives the same accumulators, so no bit changes.
      Where static k fits in one depth slice, the accumulators start from
      the value without a branch.
    - Batches: a contraction in an `scf.for` from 0 to the first
      dimension of a static allocation W by 1, whose C is W's slice
      [iv, 0, ...] [1, all...] (CPUSplitBatchContractions' loop over a
      batched contraction; or the slice of an expand_shape of W that keeps
      W's first dimension alone, then collapsed: CPUConvolutionsToGemm's
      per-image GEMM), with no other use of W in the loop, writes every
      element of W exactly once: what holds for all of W before or after
      the loop (a fill of W, its cast below) is applied to each C.
    - C rounded in the kernel: when C (or W) is a fresh, statically shaped
      allocation of the contraction's (the loop's) block that an
      all-parallel generic after it rounds whole (a body of one
      `arith.truncf` from f32 to f16 or bf16, to nearest even, and the
      yield; identity maps; reading C or a `memref.collapse_shape`/
      `expand_shape` of it) into a fresh static allocation, the last depth
      slice rounds its accumulators and stores them into that allocation
      (viewed in C's shape, W's slice of it for a batch) instead of
      storing f32 into C; the earlier slices still store f32 into C, and
      the cast goes, then C where only frees are left (one depth slice).
      On a 16-bit step every contraction's accumulator is rounded so
      (autocast's result cast, PyTorch's f16 matmul output): one pass over
      C and C's f32 buffer less per contraction. Requires static k > 0 (a
      slice must store), no use of C between the contraction and the cast
      nor any read of C after the cast (C dies there), and no use of the
      cast's output before the cast. The same f32 value is rounded the
      same way (vector or scalar `arith.truncf`), so no bit changes.
    - The last N mod NR columns are one masked tile per row panel
      (`vector.maskedload`/`maskedstore`); the last M mod MR rows of a
      block are one row panel of that many rows when the block's size is
      static, else panels of 4, 2 and 1 rows (the binary digits of the
      count). One-row tiles had NR / 16 accumulators, too few to cover an
      FMA's or vdpbf16ps's latency: the 4 rows left of the CNN's M = 16
      weight gradients took as long as the other 12 (CNN step f32 4.5 ->
      3.9 ms, bf16 2.84 -> 2.57 ms on the AMD EPYC with AVX512_BF16).
    - B read as B[j, k] is first copied into a (k, j) buffer
      (`linalg.transpose`, freed after the kernel), as a BLAS packs it.

    Numerics: each C element still accumulates over k in increasing order
    (slice after slice, stored and reloaded in between, which changes no
    bit) in one thread, whatever the number of threads; but every
    multiply-add is fused (one rounding, as in BLAS and cuBLAS)
    where the generic rounds the product and the sum separately.
    Everything else (C of another type, a body with more ops, rank != 2,
    batched contractions, a C or B row that is not unit-stride, C viewing
    the same buffer as A or B) is left to `convert-linalg-to-loops`.
    Errors: `tile-rows` outside [1, 32], `tile-cols` outside [1, 256],
    `tile-depth`, `block-rows` or `block-cols` below 1; with `bf16-dot`,
    `dot-tile-rows` outside [1, 32] or `dot-tile-cols` not a multiple of
    16 in [16, 128].
  }];
  let options = [
    Option<"tileRows", "tile-rows", "int64_t", "6",
           "MR: rows of C per micro-tile (1 to 32)">,
    Option<"tileCols", "tile-cols", "int64_t", "16",
           "NR: columns of C per micro-tile, the vector width (1 to 256)">,
    Option<"tileDepth", "tile-depth", "int64_t", "256",
           "KC: k iterations per slice of a block">,
    Option<"blockRows", "block-rows", "int64_t", "48",
           "MC: rows of C per block (rounded up to a multiple of MR)">,
    Option<"blockCols", "block-cols", "int64_t", "64",
           "NC: columns of C per block (rounded up to a multiple of NR)">,
    Option<"minParallelWork", "min-parallel-work", "int64_t", "262144",
           "Contractions with fewer multiply-adds (M * N * K, static "
           "sizes) run their blocks in one thread">,
    Option<"bf16Dot", "bf16-dot", "bool", "false",
           "bf16 x bf16 -> f32 contractions use AVX512_BF16's vdpbf16ps "
           "(x86vector.avx512.dot); the code then needs a CPU with "
           "AVX512_BF16">,
    Option<"dotTileRows", "dot-tile-rows", "int64_t", "8",
           "bf16-dot kernel: rows of C per micro-tile (1 to 32)">,
    Option<"dotTileCols", "dot-tile-cols", "int64_t", "32",
           "bf16-dot kernel: columns of C per micro-tile, a multiple of 16 "
           "(16 to 128)">,
    Option<"writerDistance", "writer-distance", "int64_t", "0",
           "A 16-bit A operand's f32 copy is made by the element-wise "
           "generic that writes the operand when at most this many ops with "
           "memory effects lie between the generic and the contraction "
           "(-1: never); more trades memory for speed (the copy lives "
           "across them)">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect",
                           "::mlir::x86vector::X86VectorDialect"];
}

def CPUFreeAtLastUse : Pass<"amp-cpu-free-at-last-use", "func::FuncOp"> {
  let summary = "Free each temporary of the entry block right after its last "
                "use instead of at the end of the block (CPU)";
  let description = [{
    CPU lowering, after the deallocation pipeline: upstream's
    ownership-based buffer deallocation places a block's frees at the end
    of the block, so in a training step every temporary (the forward's
    activations, the backward's cotangents, the casts) stays allocated
    until the step returns, and the step's peak memory is the sum of them
    all. This pass moves the free of a buffer to right after its last use,
    as PyTorch's caching allocator frees a tensor when its last reference
    dies, so a forward value is freed as soon as the backward has read it
    for the last time and `amp-cpu-plan-buffers` lets later buffers reuse
    its bytes.

    A buffer qualifies when it is a `memref.alloc` in the function's entry
    block freed by exactly one `memref.dealloc` of the entry block after
    it. Its last use is the last entry-block op that uses it or a view of
    it (ViewLikeOpInterface results, followed transitively; a use inside
    an op's regions counts at that op). The buffer is left alone unless
    every use only reads or writes its elements or its shape and keeps
    nothing of it: a linalg op on buffers, `memref.load`/`dim`/`copy`,
    `memref.store` into it, vector loads and stores through it, each
    nested (if at all) only in loops, branches and alloca scopes that
    finish before their entry-block op does. A terminator, a call,
    `memref.store` of the buffer itself, its address as an integer
    (`memref.extract_aligned_pointer_as_index`: the deallocation
    pipeline's runtime alias checks compare addresses, and a freed
    buffer's address may come back for another one), a cast to another
    type system, `bufferization.to_tensor`, an `async.execute` or any other
    op could carry the address past the uses seen here, and keeps the free
    where it was. Nothing else changes; a buffer read until the end keeps
    its free there.

    Measured (docs/performance.md, "Peak memory"): the examples/pytorch
    CNN at batch 512, the f32 step's arena 83.1 MB -> 38.5 MB.
  }];
  let dependentDialects = ["memref::MemRefDialect"];
}

def CPUPlanBuffers : Pass<"amp-cpu-plan-buffers", "func::FuncOp"> {
  let summary = "Place the temporary buffers of a bufferized function in "
                "one allocation, sharing memory between buffers that are "
                "never alive at the same time (CPU)";
  let description = [{
    CPU lowering, after bufferization, the deallocation pipeline and the
    passes that add buffers of their own (`amp-cpu-tile-contractions`'
    packs): static memory planning, as XLA's buffer assignment and
    TensorFlow Lite's arena planner do for inference graphs.

    First, the temporaries of `scf.for` bodies move out of their loops
    (innermost first, out of every enclosing `scf.for` up to the entry
    block): a `memref.alloc` without operands of a static shape in a loop
    body, freed by exactly one `memref.dealloc` in the same body and not
    yielded (itself or a view), is allocated before the loop and freed
    after it, so that every iteration reuses one buffer (the bf16 pair
    packs of a convolution's per-image GEMMs were a malloc and a free per
    image). Never out of `scf.parallel` (each thread keeps its own) or
    other regions.

    A temporary is a `memref.alloc` in the function's entry block with a
    static shape, the identity layout, the default memory space and an
    integer or float element of a whole number of bytes (not i1 or index),
    freed by exactly one `memref.dealloc`, also in the entry block, and
    not the init (itself or through a view) of a linalg op with reduction
    loops: such an op becomes a loop nest that updates its output element
    in the innermost loop, which LLVM keeps in a register only if it can
    prove the loop's other accesses never touch it, and two views of one
    arena defeat that proof where two mallocs did not. Its
    lifetime is the range of entry-block ops from the alloc to the dealloc
    (ops nested in them included): no use lies after the free, which
    `amp-cpu-free-at-last-use` has moved to right after the last use
    (the deallocation pipeline frees at the end of the block). With two temporaries or more, one arena
    (`memref.alloc` of i8, aligned to the largest alignment) is allocated
    before the first and freed after the last free; each temporary becomes
    a `memref.view` of the arena at an offset aligned to
    max(`min-alignment`, its own, its element's size), and its free goes (a buffer asking for
    more than 4096 bytes of alignment keeps its own allocation). Offsets are chosen
    greedy by size (Pisarchyk and Lee, "Efficient Memory Management for
    Deep Neural Net Inference", 2020): the largest temporary first, each
    at the lowest offset where it overlaps no placed temporary alive at the
    same time. The same first fit runs in four more orders and the smallest
    arena is kept: by size with equal sizes the longest-lived first (XLA's
    order), the longest-lived first, by size times lifetime, and the
    paper's greedy by breadth (the points where the most bytes are alive
    first, at each its temporaries largest first). Buffers allocated in
    nested regions (the skip-update branches), freed conditionally or
    never, are left as they are.

    On each function it sets `amp.cpu_buffer_peak` (i64): the most bytes
    of the entry block's allocations (the arena and the buffers left their
    own allocation; a buffer freed outside the entry block counts to its
    end) allocated at once, in program order: the step's buffers as the
    CPU runs it, what amp-run's memory lines print as "CPU buffers". It is
    absent where some entry-block allocation has no static size (a
    dynamic batch).

    Why: a step allocates and frees each of its temporaries on every call;
    an f16 step has three times as many as its f32 one (the casts, the
    widened packs), and malloc's search of its bins for each large block
    was a visible part of the MLP's mixed-precision cost. One allocation
    per call replaces them, and a buffer reuses memory that a buffer freed
    just before left in cache.

    Numerics: none; only where the bytes live changes. Contents of a
    temporary before its first write were undefined before and are after.
    Errors: `min-alignment` not a power of 2.
  }];
  let options = [
    Option<"minAlignment", "min-alignment", "int64_t", "64",
           "Alignment in bytes of each temporary's offset in the arena "
           "(at least; a power of 2)">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect"];
}

def CPUVectorizeRows : Pass<"amp-cpu-vectorize-rows", "func::FuncOp"> {
  let summary = "Lower linalg ops on buffers to loops over vectors of their "
                "output rows, reductions inside (CPU)";
  let description = [{
    CPU lowering, on buffers, after `amp-cpu-plan-buffers` and before
    `amp-cpu-accumulate-in-registers` and `convert-linalg-to-loops` (which
    lower everything this pass leaves). The row of a `linalg.generic` is
    its first output's fastest-varying dimension; when that has fewer than
    4 elements, the dimension before it joins when the two are contiguous
    in the output (a pooling gradient's (ow, kw): rows of 2 x 14). The op
    becomes `scf.for` loops over its other parallel loops and the
    reduction loops before the row (the op's order), around vectors of
    16 lanes of the row (and one of the rest); the reduction loops after
    the row run inside each vector, the outputs carried as `iter_args`
    vectors (a max pooling's window, a tie index's window). Each operand is
    read along the row as

    - uniform (one element for every lane: a scalar `memref.load`; body
      values computed from only such values stay scalars, once per vector),
    - contiguous (`vector.load`; outputs must be, and are written with
      `vector.store`),
    - or shuffled (lane l at a fixed offset from lane 0 within 64 elements:
      one wider `vector.load` of the span, or two overlapping ones of half
      the next power of two where the span is not one, and a
      `vector.shuffle`; a stride-2 window row, a gradient repeated for the
      two positions of a window),

    from its map's linear results and the memref's static strides; anything
    else (a transposed read) leaves the op alone. `linalg.index` of a row
    loop is a vector of the lanes' indices, of another loop the scalar
    loop variable; an `arith.select` with a scalar condition keeps it
    scalar. Named copies, fills, maps and 2-D poolings are generalized
    first.

    Why: LLVM's loop vectorizer declines the rows of an image model. Rows
    shorter than 16 (14, 7) get no runtime alias checks at all; rows of 28
    are fully unrolled before it runs; its cost model prices an f16 <-> f32
    conversion (F16C's `vcvtph2ps` / `vcvtps2ph`) as scalar work; and a
    pooling's reduction loops are innermost. The im2col copies, batch-norm
    passes, casts and poolings of the CNN step ran one element at a time
    (`vpinsrw` + `vcvtph2ps` per f16 element). Here the vectors are
    explicit; LLVM only splits them into registers.

    Reductions along a contiguous row: an op with one output, every loop
    parallel but the last, a reduction of static extent >= 4 (a softmax's
    row maximum over 28 keys), whose body yields `arith.maximumf` or
    `arith.minimumf` (f32) of the output element and a value computed from
    the inputs by f32 elementwise ops (a bf16/f16 input widened first), with
    inputs read contiguous or uniform along the reduction, becomes loops
    over the parallel loops around vectors of 16 lanes of the reduction
    (and one of the rest), each reduced horizontally (`vector.reduction`)
    and combined into the output element in order. A maximum or minimum is
    exact and order-independent: the same bits as the loop's (a NaN's
    payload aside). These rows were a scalar chain of compares and blends
    (6% of the transformer block's bf16 step).

    Reductions across their outputs (tried before the form above): an op
    with one f32 output whose last dimension is unit-stride and indexed by
    a parallel loop (the lanes: static extent >= 8, or dynamic, as
    amp-cpu-parallelize's chunks of rows are), indexed by every parallel
    loop (one per dimension) and not by the reduction, with elements that
    do not overlap, one reduction loop of static extent 4 to 64, every
    other loop parallel, a body of f32 elementwise
    ops (inputs of bf16/f16 only widened by `arith.extf`), and inputs that
    share no bytes with the output, at least one read contiguously along
    the reduction and the others not along it at all (then contiguous or
    uniform along the lanes; a contiguous one along its last dimension). It becomes loops over the other parallel
    loops around blocks of 16 lanes (and a masked last block): the block's
    outputs are one vector; per chunk of 16 reduction steps (and the rest,
    masked), each input read along the reduction is loaded as one vector
    per lane and transposed in registers (16 x 16, `vector.shuffle`), so
    that vector t holds step t of every lane's reduction; the body then runs
    on those vectors step after step, the output vector carried along. Each
    output sees the same operations in the same order as in the loop, sums
    included: the same bits, but for the two exceptions under Numerics
    (test cpu-vectorize-rows-transposed-exec.mlir, against upstream's
    loops; cpu-vectorize-rows.mlir @transposed_left_alone for what is
    left to the loops). The transformer block's softmax row sums and
    maxima and its gradient's rowsum(dP * P) had been 16-lane gathers (of
    16-bit values one `vpinsrw` at a time in bf16) or horizontal
    reductions: 6% of its bf16 step.

    Which ops: rows of 4 to 63 elements, any row with an f16 or bf16
    value (operand or body; then dynamic rows too, in vectors of 16 and the
    rest one element at a time) and any row with reductions inside; longer
    f32 elementwise rows vectorize in LLVM already. (Long bf16 rows were
    left to LLVM too until its cost model for znver5 was seen vectorizing
    them 4 lanes at a time: the CNN's bf16 batch norms over rows of 784,
    12% of its step on AVX512_BF16.) Every output is
    indexed by every parallel loop and by no reduction loop (so the loops
    can be reordered). Element types are integers or floats of 8 bits or
    more (an `i1` vector is stored packed; an `i1` input along a one-loop
    static row of identity layout is read one element at a time, never
    shuffled or written). The body holds only ops with the Elementwise and
    Vectorizable traits (arith, math), constants and `linalg.index`. A
    bf16 vector is an i16 vector of its bits: selects, shuffles and
    loop-carried values move bits, `arith.extf` to f32 is a shift, any
    other op on bf16 (only bf16 and i1 operands and results: a max
    pooling's `arith.maximumf`, a tie's `arith.cmpf`) runs in f32 and
    rounds to nearest even (`arith.truncf`), as LLVM promotes scalar bf16;
    only loads and stores name bf16, and `amp-cpu-bf16-memory-as-i16`
    types them i16 after the LLVM lowering. (LLVM 22's x86 instruction
    selection aborts on bf16 vector selects and shuffles: "Do not know how
    to soft promote this operator's operand"; test
    Regression/cpu-vectorize-rows-bf16-llvm.mlir.) A bf16 output carried
    through inner reductions whose every step is a maximum or minimum (a
    bf16 op, or autocast's rounding of one computed on widened bf16 values)
    and that the body reads only widened is carried in f32 instead and
    rounded once after the loops: each step's value is one of two bf16
    values, so the bits are those of rounding every step (a NaN's payload
    aside), without a rounding and a widening per window element. No
    output may share bytes with another operand (`mayShareBytes`,
    Analysis/BufferUses) unless it is that same buffer read through the
    same map and no reduction runs inside the row: a vector reads its lanes
    before it writes any. Like `amp-cpu-accumulate-in-registers`, it takes
    distinct function arguments to be distinct buffers (the training
    step's contract); a function called with overlapping views of one
    buffer is outside it. An operand read along the row needs a unit
    innermost stride, and a contiguous one the row along that innermost
    dimension (not along one before a unit dimension: a vector.load runs
    along the last dimension).

    Numerics: none. Each output element is computed by the same ops from
    the same operands (a vector `math.exp` becomes the same libm calls, or
    amp-cpu-polynomial-exp's polynomial, whose scalar and vector forms give
    the same bits), and receives its reduction updates in the same order
    (the reduction loops keep their order; parallel loops only select
    elements), so the results are the same bits (test
    `cpu-vectorize-rows-exec.mlir` against upstream's lowering; the CNN's
    losses over 30 steps, every precision). Two exceptions: which NaN's
    payload a NaN-propagating op returns (LLVM may swap the operands of a
    commutative vector op), and bodies with fast-math flags, which allow
    LLVM other orders.
    bf16 casts (`arith.extf`, `arith.truncf`, rounding mode kept) and
    selects give the same bits as the scalar ops, which arith-expand makes
    the same integer ops. Other bf16 arithmetic (a bf16 `arith.maximumf`,
    `arith.mulf`) is LLVM's scalar promotion written out (widen, compute in
    f32, round to nearest even), with two differences from the scalar
    lowering: a denormal result is kept, where LLVM's scalar rounding on a
    CPU with AVX512_BF16 (`vcvtneps2bf16`) flushes it to zero, and a NaN is
    the canonical 0x7FC0, where the scalar op may keep its sign and payload
    (`cpu-vectorize-rows-bf16-exec.mlir` compares normal values bit for
    bit). The steps that autocast builds compute in f32 with explicit casts;
    their bf16 maxima only move values.
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect",
                           "::mlir::affine::AffineDialect",
                           "::mlir::memref::MemRefDialect"];
}

def CPUAccumulateInRegisters
    : Pass<"amp-cpu-accumulate-in-registers", "func::FuncOp"> {
  let summary = "Lower linalg ops on buffers with reduction loops to loops "
                "that carry their output elements in registers (CPU)";
  let description = [{
    CPU lowering, on buffers, right before `convert-linalg-to-loops` (which
    lowers everything this pass leaves). A linalg op (named or generic)
    with reduction loops, static sizes where it tiles, every output indexed
    by all parallel loops and by no reduction loop, no output whose bytes
    another operand may reach, and a body that touches no memory, becomes `scf.for` loops over its parallel dimensions
    around `scf.for` loops over its reduction dimensions (each group in the
    op's order) that carry the output elements as `iter_args` values: one
    `memref.load` of each before the reduction loops, one `memref.store`
    after. A tile of up to 8 output elements is carried at once, its points unrolled inside the reduction loops, so
    that LLVM sees independent chains of additions:

    - when the innermost loop is a reduction (a convolution's (c, kh, kw),
      a batch-norm sum over (n, h, w), a softmax row): tiles of the first
      output's fastest-varying parallel dimension, the largest tile size
      that divides it (28 -> 7), or one element when none does;
    - when the innermost loops are parallel and their points fit in 8 (a
      convolution weight gradient's kw, a bias gradient over 8 classes):
      those loops, unrolled, and the reduction loops move inside
      the others. When the innermost loop alone does not fit (a matmul in
      the (i, k, j) order of `amp-interchange-contraction-loops`), the op
      is left alone: that loop is a unit-stride loop over outputs that
      LLVM vectorizes, and moving the reduction inward would make the
      accesses strided.

    Why: `convert-linalg-to-loops` loads and stores the output element at
    every reduction step, and LLVM keeps it in a register only when it can
    prove that no other access of the loop aliases it. The step's
    temporaries are views of one arena (`amp-cpu-plan-buffers`) and 16-bit
    inputs are read through another type, so it often cannot: the
    convolutions and their gradients (`linalg.conv_2d_nchw_fchw`, the
    windowed generics of `amp-differentiate`) and the batch-norm and bias
    reductions ran at one store per multiply-add. On the CNN of
    `examples/pytorch/` the f16 step went from 27.7 to 5.8 ms and the f32
    step from 9.0 to 4.7 ms, at the same compile time (docs/performance.md).

    Aliasing (`mayShareBytes`, Analysis/BufferUses): two operands are
    apart when their buffers are distinct allocations, an allocation and
    an argument or global, two function arguments (the training step's
    contract), two globals of different names, or disjoint byte ranges of
    `memref.view` slots of one buffer with constant shifts (the arena of
    `amp-cpu-plan-buffers`), through views that stay inside their source
    (subview, cast, expand/collapse_shape, transpose). Anything else (a
    global and an argument, an `arith.select` of buffers, a call result, a
    `reinterpret_cast`, which can reach outside its source) may alias, and
    the op is left alone.

    Numerics: none. Each output element receives the same updates in the
    same order as in the op's own loop order: its reduction loops keep
    their relative order, and the parallel loops only select the element.
    The results are the same bits (test
    `cpu-accumulate-in-registers-exec.mlir` against upstream's lowering;
    amp-run `--dump-state` digests of whole steps).
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

def CPUSinkResultCopies : Pass<"amp-cpu-sink-result-copies", "func::FuncOp"> {
  let summary = "Move the copy of an scf.if result into its out-parameter "
                "into the branches, so that a branch writes its result in "
                "place";
  let description = [{
    CPU lowering, right after `buffer-results-to-out-params` (before the
    deallocation pipeline). A function result that is an `scf.if` result
    cannot be hoisted into its out-parameter: the pass before leaves
    `memref.copy %r, %out` after the `scf.if`. Loss scaling's skip-update
    region is such an `scf.if` (found_inf: yield the old state; else: the
    optimizer's new state in fresh buffers), so every step copied the whole
    new parameter and optimizer state once more (470 K floats, 1.9 MB, read
    and written on the Fashion-MNIST MLP).

    For each such copy, where `%out` is an argument of the function used by
    that copy only, `%r` is used by that copy only, and every op between
    the `scf.if` and the copy writes no memory or only function arguments
    that no branch yields (other out-parameters), the copy moves into both
    branches:

    - a branch that yields a `memref.alloc` of its own, of `%out`'s type,
      yielded once and otherwise only read and written element-wise in that
      branch (linalg ops, loads, stores, copies: no view, cast, call or
      store of the buffer itself), has that buffer replaced by `%out`: the
      branch computes its result straight into the out-parameter (what
      hoisting does for a result that is not an `scf.if`'s);
    - any other branch copies its yielded value into `%out` before its
      `scf.yield` (the skipped step: the old state).

    The result is the same in both cases: `%out` holds the yielded value
    when the function returns, and nothing else reads or writes `%out`.
    Like `buffer-results-to-out-params` with hoisted allocations, this
    writes an out-parameter before the function has read all of its
    inputs, so a caller must not pass an input buffer as an out-parameter
    (amp-run's BoundStep swaps two buffers per state argument). The
    `scf.if` results become unused, for canonicalization to drop.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

def CPUParallelize : Pass<"amp-cpu-parallelize", "func::FuncOp"> {
  let summary = "Cut the linalg ops of a bufferized step into scf.parallel "
                "chunks of output elements (CPU threads)";
  let description = [{
    CPU lowering, after bufferization and `amp-cpu-tile-contractions`:
    every linalg op on memrefs (elementwise and reduction generics, fills,
    the packing copies of the micro-kernels, the fused unscale-and-check)
    that is not already inside an `scf.parallel` and does at least
    `min-work` loop iterations is cut along its outermost parallel loop
    with more than one iteration into chunks of about `chunk-work`
    iterations each: an `scf.parallel` over the chunks, each running the
    op on its slice (upstream `linalg` tiling, so `linalg.index` stays
    right). `amp-lower-to-llvm` then runs the `scf.parallel` loops on
    threads (`convert-scf-to-openmp`) or, with `threads=1`, as plain loops.

    Guarantee: a step's results do not depend on the number of threads.
    Only parallel loops are cut, so every output element is computed by
    one thread, from the same operands, with its reduction loops run in
    the same order as without the pass; the chunks are fixed here (from
    the static sizes), not by the thread count. Floating-point reductions
    are never split. The one exception is exact: an output that only
    accumulates an integer `arith.ori` over loops that index nothing else
    (the found-inf flag of the fused unscale-and-check) is first
    or-reduced per index of the outermost loop into a temporary buffer,
    which makes that loop parallel, and the buffer is or-reduced into the
    output afterwards; `or` is exact, associative and commutative, so the
    flag is the same bit in any order.

    Left alone: ops with fewer than `min-work` iterations (a fork/join
    costs more than they do), ops with no parallel loop of more than one
    iteration, ops on tensors. Dynamic sizes count as 128 iterations when
    estimating the work. Errors: `chunk-work` or `min-work` below 1.
  }];
  let options = [
    Option<"minWork", "min-work", "int64_t", "32768",
           "Ops with fewer loop iterations than this stay sequential">,
    Option<"chunkWork", "chunk-work", "int64_t", "16384",
           "Loop iterations per chunk (per scf.parallel iteration)">,
  ];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

def CPUPolynomialExp : Pass<"amp-cpu-polynomial-exp", "func::FuncOp"> {
  let summary = "f32 math.exp as a polynomial that vectorizes, NaN passed "
                "through (CPU)";
  let description = [{
    CPU lowering, after the linalg ops became loops and before
    `convert-math-to-llvm` (`amp-lower-to-llvm polynomial-exp=true`, the
    default). Every `math.exp` on f32 or a vector of f32 becomes upstream's
    polynomial approximation (`math::populateMathPolynomialApproximationPatterns`,
    the Cephes `expf`: n = floor(x log2(e) + 1/2), a = x - n ln 2 in two
    parts, a degree-7 polynomial for e^a, times 2^n built in the exponent
    bits), with one addition: a NaN input gives that NaN (the approximation
    reads 0 in its place, since its `fptosi` of a NaN would be poison).
    Other element types, tensors, scalable vectors and other math ops are
    left alone.

    Why: LLVM has no vector `expf` without a vector math library, so a
    vector `math.exp` (a softmax's row of 28 scores, which
    `amp-cpu-vectorize-rows` computes as vectors) became one libm call per
    lane: 10% of the transformer block's bf16 step. The polynomial is
    about 20 vector instructions for 16 lanes.

    Numerics (a documented change from libm; `polynomial-exp=false` keeps
    libm's `expf`): normal results within 1 ulp of exp rounded to f32
    (measured over every 251st f32 bit pattern, 17.1M inputs; the test
    allows 2), but up to 6 ulp for x in (88.376, 88.7228], where the
    approximation clamps its 2^n at 2^127 (measured by a dense sweep of
    that range; the test allows 8; unittests
    Conversion/ExpAccuracyTest.cpp); results below 2^-126 (x < -87.34) are
    approximations in [0, 2^-126), and 0 from about x < -87.65 (flushed,
    where libm gives subnormals down to x = -103.97); exp(-inf) = 0,
    exp(+inf) = +inf, exp(x) = +inf from x = 88.7228394 (as libm); NaN in,
    the same NaN out. The scalar and the vector form give the same bits,
    so `amp-cpu-vectorize-rows` still does not change results.
  }];
  let dependentDialects = ["arith::ArithDialect", "math::MathDialect",
                           "vector::VectorDialect"];
}

def CPUPolynomialErf : Pass<"amp-cpu-polynomial-erf", "func::FuncOp"> {
  let summary = "f32 math.erf as a rational approximation that vectorizes "
                "(CPU)";
  let description = [{
    CPU lowering, next to `amp-cpu-polynomial-exp`, before
    `convert-math-to-llvm` (`amp-lower-to-llvm polynomial-erf=true`, the
    default). Every `math.erf` on f32 or a fixed-size vector of f32 becomes
    upstream's approximation (`math::populatePolynomialApproximateErfPattern`):
    erf(|x|) as offset + P(|x|)/Q(|x|), P and Q of degree 4 with minimax
    coefficients for |x| in [0, 0.8), [0.8, 2) and [2, 3.75), and 1 from
    3.75 on, the sign of x restored (erf is odd; a `math.copysign` keeps
    the sign of -0, which upstream's x < 0 test loses). f16, tensors, scalable
    vectors and other math ops are left alone.

    Why: LLVM has no vector `erff` without a vector math library, so every
    exact GELU (PyTorch's `gelu`, `approximate="none"`, which torch-mlir
    exports as x/2 (1 + erf(x/sqrt 2))) became one libm call per element,
    and glibc's `erff` calls `expf` in turn. On the examples/pytorch
    transformer block those calls were 50% of the training step's time in
    every precision (perf, 1 thread).

    Numerics (a documented change from libm; `polynomial-erf=false` keeps
    libm's `erff`): within 3e-7 of erf computed in double (absolute;
    2.5e-7 over every 251st f32 bit pattern in unittests
    Conversion/ErfAccuracyTest.cpp, 2.86e-7 at x = 1.863 over all 2^32 in
    a break-it run; about 5 ulp of results near 1), and within 4 ulp
    (relative; 3, and 3.28 over all inputs) for |x| < 0.8, down to the
    subnormals; erf(+-inf) = +-1, erf(+-0) = +-0, a NaN gives a NaN. A bf16
    erf, which the lowering computes in f32, gets the approximation too;
    an erf of a constant is folded with libm's value instead. PyTorch's own CPU `erf` kernel is also a polynomial, not
    libm's. The scalar and the vector forms give the same bits.
  }];
  let dependentDialects = ["arith::ArithDialect", "math::MathDialect",
                           "vector::VectorDialect"];
}

def CPUPolynomialTanh : Pass<"amp-cpu-polynomial-tanh", "func::FuncOp"> {
  let summary = "f32 math.tanh as a rational approximation that vectorizes "
                "(CPU)";
  let description = [{
    CPU lowering, next to `amp-cpu-polynomial-erf`, before
    `convert-math-to-llvm` (`amp-lower-to-llvm polynomial-tanh=true`, the
    default). Every `math.tanh` on f32 or a fixed-size vector of f32
    becomes upstream's approximation
    (`math::populatePolynomialApproximateTanhPattern`, Eigen's
    `generic_fast_tanh_float`, as XLA's CPU backend also uses): x clamped
    to [-7.99881172, 7.99881172], then x P(x^2)/Q(x^2) with P of degree 6
    and Q of degree 3; x itself for |x| < 0.0004. f16, tensors, scalable
    vectors and other math ops are left alone.

    Why: LLVM has no vector `tanhf` without a vector math library, so
    every tanh-form GELU (PyTorch's `gelu(approximate="tanh")`, GPT-2's
    `NewGELU`, which torch-mlir exports as
    x/2 (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))) and every tanh
    activation became one libm call per element, and those loops stayed
    scalar.

    Numerics (a documented change from libm; `polynomial-tanh=false` keeps
    libm's `tanhf`): within 5 ulp of tanh rounded to f32 over every
    251st f32 bit pattern (at x = -3.789, a result near 1: 2.7e-7
    absolute; unittests Conversion/TanhAccuracyTest.cpp, which allows 6;
    glibc 2.36's `tanhf` is itself up to 2 ulp off), x itself below
    0.0004 (subnormals and the sign of zero kept), never beyond +-1,
    tanh(+-inf) = +-1, a NaN gives a NaN (the clamp's compares are
    unordered).
    The scalar and the vector forms give the same bits; a tanh of a
    constant is folded with libm's value.
  }];
  let dependentDialects = ["arith::ArithDialect", "math::MathDialect",
                           "vector::VectorDialect"];
}

def CPUOutlineLoopNests : Pass<"amp-cpu-outline-loop-nests", "ModuleOp"> {
  let summary = "Every outermost loop nest of a function as a function of "
                "its own (CPU compile time)";
  let description = [{
    CPU lowering, after the loops are made (`convert-linalg-to-loops`, the
    polynomial and bf16 passes) and before they become OpenMP or plain
    control flow (`amp-lower-to-llvm outline-loops=true`, the default).
    In every function with a body and at least two outermost loop nests
    (`scf.for` or `scf.parallel` inside no other loop; those inside an
    `scf.if`, such as loss scaling's skip-update region, count), each
    nest moves into a new private function `<function>_nest<N>` next to
    it and is replaced by a `func.call` of it. The values the nest uses
    from outside become the new function's arguments, constants excepted:
    they are cloned into it, so that LLVM still sees constant loop bounds
    and vector constants. The nest's results (an `scf.for`'s iter_args)
    are the function's results. The functions get LLVM's internal linkage
    and `noinline` (`passthrough`), so that LLVM's inliner does not put
    them back. Left in place: a nest whose results a stack allocation
    made inside it could reach (a `memref.alloca` or `llvm.alloca` in an
    `scf.for` that yields results: the callee's frame is gone once the
    call returns), and a nest in the region of any op but the function
    and scf control flow (`scf.if`, `scf.while`, `scf.execute_region`,
    `scf.index_switch`): another op's region may need what only that op
    provides, or be free of side effects, as a call is not.

    Why: LLVM's loop passes (LoopRotate, IndVarSimplify, GVN) cost more
    than linearly in the size of a function. MobileNetV3's lowered step is
    one `train_step` of 177 K lines of LLVM IR with `threads=1`, and
    `opt -O3` spent 69 s on it (24 s of it in LoopRotate). Each nest
    alone is a few hundred lines.

    Identical nests share one function (`share=true`, the default): a
    nest whose function would have the same type and the same body as one
    made before in the module (the same ops, attributes and types on
    corresponding values, `OperationEquivalence`, locations aside: each
    layer of a transformer or ResNet stage, and the eval step's copy of the
    forward) calls that function, the first one made, and no new one is
    made. A function computes from its arguments only (constants are
    cloned in, globals are named by symbol), so the call computes what the
    nest did. A 4-layer encoder's step: 1098 functions -> 108, LLVM's
    `-O3` on the JIT's module 30 s -> 3.4 s (docs/performance.md).

    Numerics: none. The same ops run in the same order, and LLVM does not
    reassociate floating-point ops without fast-math flags. The results are
    the same bits (the `--dump-state` digests of the speed models in f32,
    f16 + dynamic and bf16, docs/performance.md). Cost: one call per nest
    and step, and LLVM no longer sees that two views of the step's arena
    cannot overlap, which a loop it vectorizes itself then checks at run
    time.
  }];
  let options = [
    Option<"share", "share", "bool", "true",
           "A nest the same as one outlined before calls that function "
           "(same bits; false: one function per nest, for A/B comparisons)">,
  ];
  let dependentDialects = ["::mlir::func::FuncDialect",
                           "::mlir::LLVM::LLVMDialect"];
}

def CPUBF16MemoryAsI16 : Pass<"amp-cpu-bf16-memory-as-i16", "ModuleOp"> {
  let summary = "Type the LLVM dialect's loads, stores and selects of bf16 "
                "as i16 (CPU)";
  let description = [{
    CPU lowering, in the LLVM dialect, after `convert-to-llvm` and
    `reconcile-unrealized-casts`. Each memory op on bf16 or vectors of
    bf16 (`llvm.load`, `llvm.store`, `llvm.intr.masked.load`,
    `llvm.intr.masked.store`, `llvm.intr.masked.gather`,
    `llvm.intr.masked.scatter`) and each `llvm.select` of them becomes the
    same op (alignment, volatility, ordering, mask, metadata) on i16: its
    bf16 operands (a stored value, a masked load's pass-through, a
    select's choices) are `llvm.bitcast` to i16, its bf16 result is i16
    and bitcast back to bf16. Then a bitcast of a bitcast back to the
    first type is replaced by its source, and the casts left without uses
    are erased. Every other op is left as it is.

    Why: `amp-cpu-vectorize-rows` computes bf16 rows on i16 vectors of the
    bits (selects, shuffles, loop-carried values) and in f32 (arithmetic);
    only loads and stores name bf16. Left typed bf16, InstCombine moves the
    bitcasts the other way (a select of two bitcast bf16 loads becomes a
    select of bf16 vectors), and LLVM 22's x86 instruction selection
    aborts on the result: "Do not know how to soft promote this operator's
    operand" (a select of 9 bf16 lanes, the ResNet-18's padded im2col).
    With the memory typed i16, no bf16 vector is left for it to form.
    And on a CPU without AVX512 (AVX2: no 16-bit masked load), LLVM
    scalarizes a masked load of bf16 (a row's tail) into selects of bf16
    lanes, which it legalizes through f32 and a call of `__truncsfbf2`:
    a symbol the JIT does not resolve, so every bf16 step failed to load
    there. A masked load of i16 scalarizes into integer selects. And
    `arith-expand`'s f32 -> bf16 rounding ends in a select of bf16 (the
    canonical NaN or the rounded bits), which LLVM, without AVX512_BF16,
    did one lane at a time (a compare, a `cmov` and a 2-byte store per
    element: 13% of the transformer block's bf16 step on an AVX2 CPU);
    a select of i16 vectorizes (`vpblendvb`). Measured there (1 thread):
    the transformer block's bf16 step from about 2.7 to 2.2 ms, the
    CNN's (batch 128) from about 14.7 to 11.6 ms.

    Numerics: none: the same bytes are loaded and stored.
  }];
}

def CPUBF16IntCastsViaF32
    : Pass<"amp-cpu-bf16-int-casts-via-f32", "func::FuncOp"> {
  let summary = "Integer <-> bf16 conversions through f32 (CPU)";
  let description = [{
    CPU lowering, on arith before `arith-expand`. `arith.sitofp` and
    `arith.uitofp` to bf16 (scalars and vectors) become the same conversion
    to f32 and an `arith.truncf` to bf16; `arith.fptosi` and `arith.fptoui`
    of bf16 become an `arith.extf` to f32 and the same conversion.
    `arith-expand` then rounds the truncf in integer ops (or LLVM with one
    `vcvtneps2bf16` where the step uses AVX512_BF16).

    Why: autocast gives a mask's `x.float()` (`arith.uitofp` of an i1) or a
    position's `sitofp` feeding a bf16 contraction the bf16 type, and the
    canonicalizer folds `truncf(uitofp x)` into `uitofp x : i1 to bf16`.
    Without AVX512_BF16, LLVM converts an integer to bf16 through f32 and a
    call of `__truncsfbf2`, which the JIT does not resolve: the bf16 step
    failed to load ("Symbols not found: [ __truncsfbf2 ]") while f32 and
    f16 ran.

    Numerics: an integer of at most 24 significant bits (i1, i8, i16, and
    any i32 / i64 below 2^24 in magnitude: masks, token positions) is
    exact in f32, so the result is the one rounding to bf16 (nearest, ties
    to even) that a direct conversion gives; a larger one is rounded twice
    (to f32, then to bf16) and may differ from it by one bf16 ulp on a
    tie. bf16 -> f32 is exact, so the conversions to integers are
    unchanged.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def CheckLLVMLowering : Pass<"amp-check-llvm-lowering", "ModuleOp"> {
  let summary = "Fail on any op that the LLVM lowering left behind";
  let description = [{
    Last pass of `amp-lower-to-llvm`: every op must now be in the LLVM
    dialect, or be an OpenMP op (the parallel loops, which LLVM IR
    translation lowers to libomp calls), or be the module. For each kind of op that is not, one error
    located on its first occurrence names it, and the pass fails; without it
    the pipeline would succeed and only LLVM IR translation would fail, far
    from the cause.
  }];
}

#endif // AMP_CPU_PASSES_TD
