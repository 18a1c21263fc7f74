//===- AmpDialect.h - the amp dialect ---------------------------*- C++ -*-===//
//
// Declares the `amp` dialect: see AmpDialect.td for its purpose and
// docs/dialect.md for the ops.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_DIALECT_AMP_IR_AMPDIALECT_H
#define AMP_DIALECT_AMP_IR_AMPDIALECT_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Dialect.h"

#include "amp/Dialect/Amp/IR/AmpOpsDialect.h.inc"

#endif // AMP_DIALECT_AMP_IR_AMPDIALECT_H
