//===- Implementations.h - adjoint rules per dialect ------------*- C++ -*-===//
//
// Registration of the ReverseModeOpInterface external models, one function
// per dialect (lib/amp/Autodiff/Implementations/<Dialect>AutodiffImpl.cpp),
// as upstream registers BufferizableOpInterface models. docs/autodiff.md
// lists every rule and its math.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_AUTODIFF_IMPLEMENTATIONS_H
#define AMP_AUTODIFF_IMPLEMENTATIONS_H

#include "mlir/IR/DialectRegistry.h"

namespace mlir::amp::autodiff {

/// Every linalg structured op on tensors (generic and the named ops:
/// contractions, convolutions, pooling, transpose, broadcast, reduce, map,
/// fill, elementwise, ...) and linalg.softmax.
void registerLinalgAutodiffExternalModels(DialectRegistry &registry);

/// tensor.pad, extract_slice, insert_slice, collapse_shape, expand_shape,
/// concat, cast, extract, insert, splat, from_elements.
void registerTensorAutodiffExternalModels(DialectRegistry &registry);

/// Float arithmetic on scalars and tensors: addf, subf, mulf, divf, negf,
/// maximumf/maxnumf, minimumf/minnumf, select, extf, truncf.
void registerArithAutodiffExternalModels(DialectRegistry &registry);

/// math ops on scalars and tensors (exp, log, tanh, sqrt, rsqrt, erf, powf,
/// absf, ...; rounding ops with a zero derivative).
void registerMathAutodiffExternalModels(DialectRegistry &registry);

/// func.call (differentiated by inlining the callee).
void registerFuncAutodiffExternalModels(DialectRegistry &registry);

/// scf.for with a constant trip count (unrolled) and scf.if.
void registerSCFAutodiffExternalModels(DialectRegistry &registry);

/// All of the above.
void registerAutodiffExternalModels(DialectRegistry &registry);

} // namespace mlir::amp::autodiff

#endif // AMP_AUTODIFF_IMPLEMENTATIONS_H
