//===- Passes.h - lowering the amp dialect ----------------------*- C++ -*-===//
//
// Pass declarations generated from Conversion/Passes.td (see there, or
// docs/passes.md, for each pass's contract and options).
//
//===----------------------------------------------------------------------===//

#ifndef AMP_CONVERSION_PASSES_H
#define AMP_CONVERSION_PASSES_H

#include "amp/Dialect/Amp/IR/AmpDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Pass/Pass.h"

namespace mlir::amp {

#define GEN_PASS_DECL
#include "amp/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "amp/Conversion/Passes.h.inc"

} // namespace mlir::amp

#endif // AMP_CONVERSION_PASSES_H
