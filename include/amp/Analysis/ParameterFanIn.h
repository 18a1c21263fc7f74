//===- ParameterFanIn.h - a parameter's fan-in from its use ------*- C++
//-*-===//
//
// Read-only. The fan-in of a weight as the op that consumes it sees it, so
// that a driver initializes it like PyTorch's nn.Linear / nn.Conv2d
// (U(+-1/sqrt(fan_in)), kaiming_uniform with a = sqrt(5)) whatever layout
// the model stores it in: 784 for W: 784 x 128 in X * W and for PyTorch's
// W: 128 x 784 read transposed, C * KH * KW for an F x C x KH x KW filter.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_ANALYSIS_PARAMETERFANIN_H
#define AMP_ANALYSIS_PARAMETERFANIN_H

#include "mlir/IR/Value.h"

#include <cstdint>
#include <optional>

namespace mlir::amp {

/// The product of the sizes of `param`'s dimensions that index reduction
/// loops of the first contraction or convolution (linalg's
/// isaContractionOpInterface / isaConvolutionOpInterface: matmul, batched
/// and transposed forms, conv, generics of that shape) that reads it,
/// followed through ops that only permute or convert elements
/// (linalg.transpose, tensor.cast, elementwise generics with identity maps
/// such as autocast's casts, arith/tensor elementwise casts). nullopt when no
/// contraction reads it or a size is dynamic.
std::optional<int64_t> contractionFanIn(Value param);

} // namespace mlir::amp

#endif // AMP_ANALYSIS_PARAMETERFANIN_H
