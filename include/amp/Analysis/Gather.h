//===- Gather.h - linalg generics that gather from a captured tensor -*- C++
//-*-===//
//
// torch-mlir lowers aten.embedding (and index_select) to a linalg.generic
// whose body reads an element of a tensor captured from above with
// tensor.extract, the indices computed from integer inputs (token ids,
// arith.index_cast) and linalg.index, and yields it. Autocast leaves such a
// gather in its table's type (PrecisionPolicy); amp-differentiate gives it a
// scatter-add (Autodiff/Implementations/GatherAdjoint.cpp). No mutation.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_ANALYSIS_GATHER_H
#define AMP_ANALYSIS_GATHER_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace mlir::amp {

/// The tensor.extract whose result `op` (with one output) yields, when the
/// tensor it reads is defined outside `op`; null otherwise. Says nothing
/// about how the indices are computed.
tensor::ExtractOp getYieldedGather(linalg::GenericOp op);

/// A window sum of gathered elements: torch-mlir's adaptive_avg_pool
/// (output sizes that do not divide the input's) sums, over reduction loops
/// that run over the largest window, the elements of a captured tensor at
/// indices computed from linalg.index, masked where a window is shorter:
///
///   out[M_o(d)] += mask(d) ? T[i(d)] : 0
///
/// `extract` reads T; `mask` (i1, null when every element is added) says
/// which are added, true when `maskNegated` is false.
struct SummedGather {
  tensor::ExtractOp extract;
  Value mask;
  bool maskNegated = false;
};

/// The summed gather of `op` (one output): its body yields `addf(x, out)`
/// (either order) where `out` is the output's block argument, used nowhere
/// else, and x is a tensor.extract of a tensor defined outside `op` or
/// `select(c, extract, 0.0)` / `select(c, 0.0, extract)`; nullopt otherwise.
/// Says nothing about how the indices and the mask are computed.
std::optional<SummedGather> getSummedGather(linalg::GenericOp op);

/// Unit attribute on the outer `scf.for` of a gather's adjoint (a
/// scatter-add): the loop carries the gradient (its one iter_arg, from
/// zeros) and adds the rows of its iteration space in order, so that
/// amp-chunk-batch-reductions may split it by the batch as data-parallel
/// ranks do.
inline constexpr llvm::StringLiteral kScatterAddAttr = "amp.scatter_add";

} // namespace mlir::amp

#endif // AMP_ANALYSIS_GATHER_H
