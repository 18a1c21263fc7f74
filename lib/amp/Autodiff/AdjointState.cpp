//===- AdjointState.cpp - cotangents while a backward is built ------------===//

#include "amp/Autodiff/AdjointState.h"

#include "amp/Autodiff/AdjointBuilders.h"

using namespace mlir;
using namespace mlir::amp::autodiff;

Value AdjointState::getCotangent(OpBuilder &builder, Value value) {
  if (auto it = summed.find(value); it != summed.end())
    return it->second;
  auto it = contributions.find(value);
  Value sum;
  if (it != contributions.end() && !it->second.empty())
    sum = buildSum(builder, value.getLoc(), it->second);
  summed[value] = sum;
  return sum;
}

Value AdjointState::getCotangentOrZeros(OpBuilder &builder, Value value) {
  Value cotangent = isActive(value) ? getCotangent(builder, value) : Value();
  return cotangent ? cotangent : buildZerosLike(builder, value.getLoc(), value);
}

void AdjointState::addCotangent(Value value, Value contribution) {
  if (!isActive(value))
    return;
  if (contribution.getType() != value.getType()) {
    emitError(contribution.getLoc())
        << "amp-differentiate internal error: a cotangent of type "
        << contribution.getType() << " was added to a value of type "
        << value.getType();
    hadError = true;
    return;
  }
  if (summed.contains(value)) {
    emitError(contribution.getLoc())
        << "amp-differentiate internal error: a cotangent contribution "
           "arrived after the value's cotangent was summed";
    hadError = true;
    return;
  }
  contributions[value].push_back(contribution);
}
