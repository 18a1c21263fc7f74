//===- MaskConvention.h - what true means in a boolean mask input -*- C++
//-*-===//
//
// Read-only. A boolean (i1) input of a step is a mask, and exports use both
// conventions: nn.MultiheadAttention's key_padding_mask is true where a key
// is ignored (torch-mlir: `arith.select %m, -inf, %score`), while
// scaled_dot_product_attention's boolean attn_mask and masks written as
// `scores.masked_fill(~mask, -inf)` or `torch.where(mask, scores, -inf)` are
// true where a key is attended. A driver drawing synthetic masks needs to
// know which, or it masks every key of a row (NaN from the softmax of
// -inf).
//
//===----------------------------------------------------------------------===//

#ifndef AMP_ANALYSIS_MASKCONVENTION_H
#define AMP_ANALYSIS_MASKCONVENTION_H

#include "mlir/IR/Value.h"

#include <optional>

namespace mlir::amp {

/// Whether true in the boolean tensor `mask` (a step's i1 argument) keeps a
/// value, read from the `arith.select`s whose condition derives from it:
/// one whose false value is a masking constant (a float constant -inf or at
/// most -1e4: -inf, -1e9, finfo.min) keeps on true; one whose true value is
/// masks on true. The mask is followed through linalg.generic operands into
/// their bodies and out of their results (an i1 the body yields), named
/// data-movement ops (transpose, copy, broadcast), tensor reshapes, slices
/// and casts, tensor.extract, arith.andi / arith.ori with other masks (a
/// causal mask), and arith.xori with true (logical not, which swaps the
/// convention). nullopt when no such select is found or two selects
/// disagree.
std::optional<bool> maskKeepsWhenTrue(Value mask);

} // namespace mlir::amp

#endif // AMP_ANALYSIS_MASKCONVENTION_H
