//===- Passes.h - amp training-step builder passes --------------*- C++ -*-===//
//
// Pass declarations generated from Passes.td (see there, or the
// training-step section of docs/passes.md, for the contract and options).
//
//===----------------------------------------------------------------------===//

#ifndef AMP_TRAINSTEP_PASSES_H
#define AMP_TRAINSTEP_PASSES_H

#include "amp/Dialect/Amp/IR/AmpDialect.h"
#include "amp/TrainStep/TrainStepOptions.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Pass/Pass.h"

namespace mlir::amp {

#define GEN_PASS_DECL
#include "amp/TrainStep/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "amp/TrainStep/Passes.h.inc"

} // namespace mlir::amp

#endif // AMP_TRAINSTEP_PASSES_H
