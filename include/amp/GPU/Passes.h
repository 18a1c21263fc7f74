//===- Passes.h - amp GPU lowering passes -----------------------*- C++ -*-===//
//
// Pass declarations generated from GPU/Passes.td (see there, or
// docs/passes.md, for each pass's contract and options).
//
//===----------------------------------------------------------------------===//

#ifndef AMP_GPU_PASSES_H
#define AMP_GPU_PASSES_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::amp {

#define GEN_PASS_DECL
#include "amp/GPU/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "amp/GPU/Passes.h.inc"

} // namespace mlir::amp

#endif // AMP_GPU_PASSES_H
