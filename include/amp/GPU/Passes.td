//===- Passes.td - GPU lowering passes -*- tablegen -*-===//
//
// The passes of the GPU lowering `amp-lower-to-nvvm` (Pipelines.h,
// docs/gpu.md): the fused non-finite check as one kernel, the step's
// decisions on the device, elementwise fusion that leaves contractions
// alone, Tensor Core contractions, the mapping to blocks
// and threads, and the final check.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_GPU_PASSES_TD
#define AMP_GPU_PASSES_TD

include "mlir/Pass/PassBase.td"

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

def GPUFuseElementwise : Pass<"amp-gpu-fuse-elementwise", "func::FuncOp"> {
  let summary = "Fuse elementwise linalg ops with one use into their "
                "consumers on tensors, contractions excepted (GPU)";
  let description = [{
    GPU lowering, on tensors, after `convert-elementwise-to-linalg` and
    before bufferization: what upstream's `linalg-fuse-elementwise-ops`
    does (producer-consumer fusion of a `linalg.generic` whose result has
    one use, folding of reshapes into generics by expansion, splat
    constants and fills into bodies, the linalg and reshape clean-ups), with
    one exception: nothing is fused into a contraction-like generic (a
    reduction loop and two or more non-scalar operands), and no reshape is
    folded into one by expanding its loops.

    Why: `amp-gpu-tensor-core-contractions` matches a contraction after
    bufferization by its body, `out + extf(a) * extf(b)` with f16 or bf16
    buffers `a` and `b`. Fused into it, a producer's ops end up inside that
    body, on the producer's operands: an `arith.truncf` of an f32 weight or
    input (the f16 copy that `amp-recompute-for-backward` recomputes for a
    backward contraction has that contraction as its only use) made the
    body `extf(truncf(x))` on an f32 buffer, and the contraction ran on the
    SIMT path instead of mma.sync. Unfused, the producer is one kernel that
    writes the f16 copy once, instead of the conversion being repeated for
    each of the N (or M) products that read an element. Every other fusion
    is upstream's: casts, skip selects and optimizer updates still fuse into
    their consumers. Fusion reorders no arithmetic, so values are unchanged
    either way.
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect",
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
    outermost `scf.parallel` is collapsed to one dimension (upstream's
    `collapseParallelLoops`; the last dimension varies fastest, so
    neighbouring threads touch neighbouring elements of a row-major buffer:
    coalesced loads and stores), then tiled (`scf::tileParallelLoop`, a
    guard instead of min/max bounds) into a block loop over
    ceil(n / block-size) blocks (block x, up to 2^31 - 1) and a thread loop
    of `block-size` threads (thread x), both with `#gpu.loop_dim_map`
    attributes. Every iteration of the nest gets a thread of its own,
    whatever the rank and the sizes: until 2026-12-04 dimensions beyond the
    third ran sequentially in each thread and small inner dimensions left
    most of a 32 x 8 thread tile idle (a convolution's weight gradient,
    loops 128 x 16 x 8 x 3 x 3: 2048 iterations per thread and 9 of 256
    threads busy; docs/performance.md, "GPU").
  }];
  let options = [
    Option<"blockSize", "block-size", "int64_t", "256",
           "Threads per block">,
  ];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::affine::AffineDialect"];
}

def GPUStridedCopiesToLinalg
    : Pass<"amp-gpu-strided-copies-to-linalg", "func::FuncOp"> {
  let summary = "memref.copy between non-contiguous buffers as linalg.copy";
  let description = [{
    Runs right after bufferization in `amp-lower-to-nvvm`. Bufferizing
    `tensor.pad` (torch-mlir writes one before every padded convolution and
    pooling), `tensor.insert_slice` or `tensor.concat` copies into a strided
    subview: a `memref.copy` with a non-identity layout on either side. A
    device has no strided `gpu.memcpy`, so each such copy becomes a
    `linalg.copy`, which `convert-linalg-to-parallel-loops` and
    `amp-gpu-map-parallel-loops` turn into a kernel (one thread per
    element). Contiguous copies stay `memref.copy` (later `gpu.memcpy`).
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
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

#endif // AMP_GPU_PASSES_TD
