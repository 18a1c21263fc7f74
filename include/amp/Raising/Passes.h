//===- Passes.h - amp raising passes ----------------------------*- C++ -*-===//
//
// Pass declarations generated from Passes.td (see there, or the raising
// section of docs/passes.md, for the contract), and the patterns for a
// compiler that runs them in its own driver.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RAISING_PASSES_H
#define AMP_RAISING_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/Pass.h"

namespace mlir::amp {

#define GEN_PASS_DECL
#include "amp/Raising/Passes.h.inc"

/// amp-raise-softmax's pattern (Passes.td has the contract): the divide of
/// a decomposed softmax, with its max, exp and sum, becomes
/// `linalg.softmax`.
void populateRaiseSoftmaxPatterns(RewritePatternSet &patterns);

/// Applies populateRaiseSoftmaxPatterns to `fn` (greedily, with the dead
/// decomposition erased). Returns whether a softmax was raised.
bool raiseSoftmax(func::FuncOp fn);

#define GEN_PASS_REGISTRATION
#include "amp/Raising/Passes.h.inc"

} // namespace mlir::amp

#endif // AMP_RAISING_PASSES_H
