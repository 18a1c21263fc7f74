//===- Passes.h - amp CPU lowering passes -----------------------*- C++ -*-===//
//
// Pass declarations generated from CPU/Passes.td (see there, or
// docs/passes.md, for each pass's contract and options).
//
//===----------------------------------------------------------------------===//

#ifndef AMP_CPU_PASSES_H
#define AMP_CPU_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/X86Vector/X86VectorDialect.h"
#include "mlir/Pass/Pass.h"

namespace mlir::amp {

/// Set by amp-cpu-plan-buffers on each function it planned: the most bytes
/// of the entry block's allocations (the arena and the buffers left their
/// own) allocated at once, an i64; absent where some allocation has no
/// static size. amp-run prints it as the step's CPU buffers.
constexpr llvm::StringLiteral kCpuBufferPeakAttr = "amp.cpu_buffer_peak";

#define GEN_PASS_DECL
#include "amp/CPU/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "amp/CPU/Passes.h.inc"

} // namespace mlir::amp

#endif // AMP_CPU_PASSES_H
