//===- Passes.h - amp passes ------------------------------------*- C++ -*-===//
//
// Pass declarations generated from Transforms/Passes.td (see there, or
// docs/passes.md, for each pass's contract and options).
//
//===----------------------------------------------------------------------===//

#ifndef AMP_TRANSFORMS_PASSES_H
#define AMP_TRANSFORMS_PASSES_H

#include "amp/Dialect/Amp/IR/AmpDialect.h"
#include "amp/Support/OptionParsers.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Pass/Pass.h"

namespace mlir::amp {

#define GEN_PASS_DECL
#include "amp/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "amp/Transforms/Passes.h.inc"

} // namespace mlir::amp

#endif // AMP_TRANSFORMS_PASSES_H
