//===- Passes.h - data parallelism over MPI ---------------------*- C++ -*-===//
//
// Pass declarations generated from Distributed/Passes.td (see there, or
// docs/passes.md and docs/distributed.md, for each pass's contract and
// options), and the enums of their options.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_DISTRIBUTED_PASSES_H
#define AMP_DISTRIBUTED_PASSES_H

#include "amp/Support/OptionParsers.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/DLTI/DLTI.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MPI/IR/MPI.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Shard/IR/ShardDialect.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Pass/Pass.h"

namespace mlir::amp {

/// How `amp-data-parallel` groups the gradients into all-reduces: one
/// over all of them (PyTorch DDP's buckets, here a single one) or one per
/// gradient.
enum class GradientBucketing { Flat, PerGradient };

/// The MPI ABI the lowered calls target (upstream's DLTI entry
/// "MPI:Implementation": "OpenMPI" or "MPICH").
enum class MPIImplementation { OpenMPI, MPICH };

/// "flat", "per-gradient"; "OpenMPI", "MPICH" (the DLTI value).
llvm::StringRef stringifyGradientBucketing(GradientBucketing bucket);
llvm::StringRef stringifyMPIImplementation(MPIImplementation mpi);

/// The name of the process grid, the function attribute and the test hook
/// `amp-data-parallel` creates (docs/distributed.md).
constexpr llvm::StringLiteral kDataParallelGrid = "amp_data_parallel";
constexpr llvm::StringLiteral kDataParallelAttr = "amp.data_parallel";
constexpr llvm::StringLiteral kTestInjectionFn = "amp_dp_test_injection";

/// Declares the memory effects upstream's `mpi.allreduce` (LLVM 22) lacks:
/// it reads its send buffer, writes its receive buffer, and communicates
/// (a write of one "mpi communication" resource, which keeps the order of
/// the collectives). Without them bufferization's ownership-based
/// deallocation refuses the op ("ops with unknown memory side effects are
/// not supported"). Registered by registerAllDialectsAndExtensions and by
/// amp-data-parallel-to-mpi.
void registerMPIMemoryEffects(DialectRegistry &registry);

#define GEN_PASS_DECL
#include "amp/Distributed/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "amp/Distributed/Passes.h.inc"

} // namespace mlir::amp

#endif // AMP_DISTRIBUTED_PASSES_H
