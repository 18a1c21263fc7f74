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

/// Whether true (non-zero) in the mask tensor `mask` (a step's i1 or
/// integer argument) keeps a value, read from how values derived from it
/// mask: an `arith.select` whose condition derives from it and whose false
/// value is a masking constant keeps on true, one whose true value is
/// masks on true; an `arith.mulf` of the mask as 0.0 / 1.0 by a masking
/// constant (an additive bias, HF's `(1.0 - m) * -1e9`) masks where it is
/// 1. A masking constant is a float -inf or at most -1e4 (-1e9,
/// finfo.min), a scalar or splat, also through `arith.truncf`/`extf`, a
/// linalg.fill, or a generic operand (a 0-d tensor). The mask is followed
/// through linalg.generic operands into their bodies and out of their
/// results (a value the body yields), named data-movement ops (transpose,
/// copy, broadcast), tensor reshapes, slices and casts, tensor.extract,
/// integer and int-to-float casts, arith.andi / arith.ori with other masks
/// (a causal mask); arith.xori with true, `cmpi eq 0` and `1.0 - m` negate
/// it, `cmpi ne 0` does not. nullopt when nothing masks by it or two uses
/// disagree.
std::optional<bool> maskKeepsWhenTrue(Value mask);

} // namespace mlir::amp

#endif // AMP_ANALYSIS_MASKCONVENTION_H
