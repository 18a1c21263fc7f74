//===- SumReduction.h - outputs of linalg ops that are sums ----*- C++ -*-===//
//
// Which outputs of a linalg op fold their values by addition, so that the
// order of the additions may be changed (amp-split-long-sums blocks them;
// amp-chunk-batch-reductions splits them as the ranks do). No mutation.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_ANALYSIS_SUMREDUCTION_H
#define AMP_ANALYSIS_SUMREDUCTION_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace mlir::amp {

/// Whether output `init` of `op` is a float sum: the value its body yields
/// for it is `arith.addf` of the init's block argument (used nowhere else)
/// and a term.
bool isSumOfInitAndTerm(linalg::LinalgOp op, OpOperand &init);

} // namespace mlir::amp

#endif // AMP_ANALYSIS_SUMREDUCTION_H
