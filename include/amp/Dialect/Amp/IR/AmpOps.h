//===- AmpOps.h - amp dialect ops -------------------------------*- C++ -*-===//
//
// The ops of the `amp` dialect (amp.loss_grad, amp.grad,
// amp.unscale_and_check, amp.update_scale). Their semantics are documented in
// AmpOps.td and in docs/dialect.md.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_DIALECT_AMP_IR_AMPOPS_H
#define AMP_DIALECT_AMP_IR_AMPOPS_H

#include "amp/Dialect/Amp/IR/AmpDialect.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define GET_OP_CLASSES
#include "amp/Dialect/Amp/IR/AmpOps.h.inc"

#endif // AMP_DIALECT_AMP_IR_AMPOPS_H
