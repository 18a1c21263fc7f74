//===- Passes.h - amp autodiff passes ---------------------------*- C++ -*-===//
//
// Pass declarations generated from Passes.td (see there, or the autodiff
// section of docs/passes.md, for each pass's contract and options).
//
//===----------------------------------------------------------------------===//

#ifndef AMP_AUTODIFF_PASSES_H
#define AMP_AUTODIFF_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Pass/Pass.h"

namespace mlir::amp {

#define GEN_PASS_DECL
#include "amp/Autodiff/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "amp/Autodiff/Passes.h.inc"

} // namespace mlir::amp

#endif // AMP_AUTODIFF_PASSES_H
