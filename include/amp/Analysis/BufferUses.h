//===- BufferUses.h - a buffer's uses through its views ---------*- C++ -*-===//
//
// Walking the uses of a memref and of every view derived from it, for the
// CPU lowering's checks on bufferized steps (who writes a parameter, which
// buffers a reduction accumulates into).
//
//===----------------------------------------------------------------------===//

#ifndef AMP_ANALYSIS_BUFFERUSES_H
#define AMP_ANALYSIS_BUFFERUSES_H

#include "mlir/IR/Value.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace mlir::amp {

/// Whether `pred` holds for a use of `buffer` (a memref) or of a view
/// derived from it: a result of a ViewLikeOpInterface op whose view source
/// is the buffer or such a view, followed transitively. The view ops' own
/// uses of their source are not passed to `pred`; any other use is, once,
/// until `pred` first returns true.
bool anyUseThroughViews(Value buffer,
                        llvm::function_ref<bool(OpOperand &)> pred);

} // namespace mlir::amp

#endif // AMP_ANALYSIS_BUFFERUSES_H
