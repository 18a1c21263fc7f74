//===- ReverseModeOpInterface.cpp - adjoint rules of ops ------------------===//

#include "amp/Autodiff/ReverseModeOpInterface.h"

#include "amp/Autodiff/ReverseModeOpInterface.cpp.inc"
