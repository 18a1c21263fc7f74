//===- ReverseModeOpInterface.h - adjoint rules of ops ----------*- C++ -*-===//
//
// The op interface of adjoint rules (ReverseModeOpInterface.td) and the
// state rules read and write (AdjointState.h).
//
//===----------------------------------------------------------------------===//

#ifndef AMP_AUTODIFF_REVERSEMODEOPINTERFACE_H
#define AMP_AUTODIFF_REVERSEMODEOPINTERFACE_H

#include "amp/Autodiff/AdjointState.h"

#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/PatternMatch.h"

#include "amp/Autodiff/ReverseModeOpInterface.h.inc"

#endif // AMP_AUTODIFF_REVERSEMODEOPINTERFACE_H
