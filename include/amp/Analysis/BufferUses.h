//===- BufferUses.h - a buffer's uses through its views ---------*- C++ -*-===//
//
// Walking the uses of a memref and of every view derived from it, and
// whether two memrefs may share bytes, for the CPU lowering's checks on
// bufferized steps (who writes a parameter, which buffers a reduction
// accumulates into, whether an output can live in registers).
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

/// The buffer `v` is a view of, followed through every ViewLikeOpInterface
/// op (subview, reshapes, memref.view, reinterpret_cast, ...), or `v`
/// itself.
Value viewRoot(Value v);

/// Whether the memrefs `a` and `b` may share bytes. They are apart when
/// their buffers (followed through view ops) are distinct allocations, an
/// allocation and an argument or global, two arguments of the function
/// (the training step's contract), or two globals of different names; or
/// when they are disjoint byte ranges of `memref.view`s of one buffer with
/// constant shifts and static shapes (amp-cpu-plan-buffers' arena slots),
/// reached through views that stay inside their source (subview, cast,
/// expand/collapse_shape, transpose). Anything else (a reinterpret_cast,
/// which can reach outside its source; an arith.select of buffers; a call
/// result; a global and an argument) may share bytes.
bool mayShareBytes(Value a, Value b);

} // namespace mlir::amp

#endif // AMP_ANALYSIS_BUFFERUSES_H
