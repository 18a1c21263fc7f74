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

#endif // AMP_CPU_PASSES_TD
