//===- StructuredAdjoint.cpp - adjoint of linalg structured ops -----------===//
//
// For an op with iteration space D, outputs r_k = fold_k over the reduction
// dimensions of e_k (the scalar body) and an operand x read with the map
// M_x, the cotangent is
//
//   dx[M_x(d)] += (d e_k / d x)(d) * s_k(d)   summed over d in D and k,
//
// with s_k the cotangent that reaches e_k: dr_k[M_k(d)] for plain outputs
// and add reductions; dr_k[M_k(d)] * [e_k(d) == r_k] / count_k for max/min
// reductions with the Split tie rule; dr_k[M_k(d)] * [d is the first
// maximum] with the First rule. It is one linalg.generic per operand over D
// whose body is a clone of the forward body followed by its symbolic adjoint
// (the arith/math rules), writing with M_x and reducing over the dimensions
// M_x drops. For an operand with convolution windows (result s * o + d * k)
// the generic iterates over the operand's positions i instead of o: every
// other operand indexed by o is dilated by s and padded by (K - 1) * d
// (insert_slice with stride s into zeros) and read at i - d * k + (K - 1) * d,
// and positions that no output produced are masked out: the transposed
// convolution of shared REFERENCE.md.
//
//===----------------------------------------------------------------------===//

#include "StructuredAdjoint.h"

#include "amp/Autodiff/AdjointBuilders.h"
#include "amp/Autodiff/Differentiate.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::amp::autodiff;
using namespace mlir::amp::autodiff::structured;

namespace {

/// An input of a generic being built, with its map over the iteration space.
struct MappedValue {
  Value value;
  AffineMap map;
};

/// The cotangent of one float output and what its reduction needs.
struct OutputAdjoint {
  unsigned index;
  Value cotangent;
  OutputForm form;
  /// Max/Min only: Split: how many elements equal the result (float, the
  /// result's type); First: the linear index of the first one in the
  /// reduction dimensions (index elements, -1 for the init value).
  Value tie;
};

/// Builds the adjoint of one structured op.
class StructuredAdjoint {
public:
  StructuredAdjoint(OpBuilder &b, linalg::LinalgOp op, TieRule ties,
                    AdjointState &state)
      : b(b), op(op), ties(ties), state(state), loc(op.getLoc()) {}

  LogicalResult build();

private:
  LogicalResult collectOutputs();
  void buildTie(OutputAdjoint &out);
  FailureOr<Value> buildContribution(Value target, AffineMap map, Value inBody,
                                     unsigned operandNumber);
  void addInitContribution(const OutputAdjoint &out);

  /// Clones the forward body into `nb`'s block, forward block arguments
  /// replaced by `forwardArgs`; returns the clones in order.
  SmallVector<Operation *> cloneBody(OpBuilder &nb, IRMapping &mapping,
                                     ValueRange forwardArgs);
  /// The linear index of the reduction dimensions, row-major (First).
  Value reductionIndex(OpBuilder &nb, Location l);
  /// The cotangent reaching the clone of output `out`'s element, from the
  /// generic's extra block arguments of `out` (dr, then r and the tie).
  Value seedOf(OpBuilder &nb, Location l, const OutputAdjoint &out,
               Value element, ValueRange extraArgs);
  /// The forward operands with block arguments, as generic inputs.
  SmallVector<MappedValue> forwardInputs();
  /// Extra inputs per output with a cotangent (dr; r and the tie for max /
  /// min), all with the output's map.
  SmallVector<MappedValue> extraInputs();
  unsigned numExtras(const OutputAdjoint &out) const {
    return out.form.combiner == Combiner::Max ||
                   out.form.combiner == Combiner::Min
               ? 3
               : 1;
  }

  OpBuilder &b;
  linalg::LinalgOp op;
  TieRule ties;
  AdjointState &state;
  Location loc;
  SmallVector<OutputAdjoint> outputs;
  /// Sizes of the reduction loops (First), built once.
  SmallVector<Value> reductionSizes;
};

} // namespace

/// Creates an empty linalg.generic with `inputs`, one output `init` with
/// `outMap`, and a body block (arguments of the element types) that the
/// caller fills; `nb` is set to the end of the block.
static linalg::GenericOp createGeneric(OpBuilder &b, Location loc,
                                       ArrayRef<MappedValue> inputs, Value init,
                                       AffineMap outMap,
                                       ArrayRef<utils::IteratorType> iterators,
                                       OpBuilder &nb) {
  SmallVector<Value> values;
  SmallVector<AffineMap> maps;
  SmallVector<Type> argTypes;
  for (const MappedValue &in : inputs) {
    values.push_back(in.value);
    maps.push_back(in.map);
    argTypes.push_back(getElementTypeOrSelf(in.value.getType()));
  }
  maps.push_back(outMap);
  argTypes.push_back(getElementTypeOrSelf(init.getType()));
  auto generic = linalg::GenericOp::create(b, loc, init.getType(), values, init,
                                           maps, iterators);
  SmallVector<Location> argLocs(argTypes.size(), loc);
  Block *block = nb.createBlock(&generic.getRegion(), {}, argTypes, argLocs);
  nb.setInsertionPointToEnd(block);
  return generic;
}

SmallVector<MappedValue> StructuredAdjoint::forwardInputs() {
  SmallVector<MappedValue> inputs;
  for (OpOperand *operand : op.getOpOperandsMatchingBBargs())
    inputs.push_back({operand->get(), op.getMatchingIndexingMap(operand)});
  return inputs;
}

SmallVector<MappedValue> StructuredAdjoint::extraInputs() {
  SmallVector<MappedValue> extras;
  for (const OutputAdjoint &out : outputs) {
    AffineMap map = op.getIndexingMapMatchingResult(
        cast<OpResult>(op->getResult(out.index)));
    extras.push_back({out.cotangent, map});
    if (numExtras(out) == 3) {
      extras.push_back({op->getResult(out.index), map});
      extras.push_back({out.tie, map});
    }
  }
  return extras;
}

SmallVector<Operation *> StructuredAdjoint::cloneBody(OpBuilder &nb,
                                                      IRMapping &mapping,
                                                      ValueRange forwardArgs) {
  Block *body = op.getBlock();
  for (auto [arg, replacement] :
       llvm::zip_equal(body->getArguments(), forwardArgs))
    mapping.map(arg, replacement);
  SmallVector<Operation *> clones;
  for (Operation &inner : body->without_terminator())
    clones.push_back(nb.clone(inner, mapping));
  return clones;
}

Value StructuredAdjoint::reductionIndex(OpBuilder &nb, Location l) {
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  Value linear = arith::ConstantIndexOp::create(nb, l, 0);
  unsigned r = 0;
  for (auto [dim, iterator] : llvm::enumerate(iterators)) {
    if (iterator != utils::IteratorType::reduction)
      continue;
    Value index = linalg::IndexOp::create(nb, l, dim);
    Value scaled = arith::MulIOp::create(nb, l, linear, reductionSizes[r++]);
    linear = arith::AddIOp::create(nb, l, scaled, index);
  }
  return linear;
}

Value StructuredAdjoint::seedOf(OpBuilder &nb, Location l,
                                const OutputAdjoint &out, Value element,
                                ValueRange extraArgs) {
  Value dr = extraArgs[0];
  if (numExtras(out) == 1)
    return dr;
  Value result = extraArgs[1], tie = extraArgs[2];
  Value zero = arith::ConstantOp::create(nb, l, nb.getZeroAttr(dr.getType()));
  if (ties == TieRule::Split) {
    Value equal = arith::CmpFOp::create(nb, l, arith::CmpFPredicate::OEQ,
                                        element, result);
    Value share = arith::DivFOp::create(nb, l, dr, tie);
    return arith::SelectOp::create(nb, l, equal, share, zero);
  }
  Value first = arith::CmpIOp::create(nb, l, arith::CmpIPredicate::eq,
                                      reductionIndex(nb, l), tie);
  return arith::SelectOp::create(nb, l, first, dr, zero);
}

LogicalResult StructuredAdjoint::collectOutputs() {
  for (OpResult result : op->getResults()) {
    if (!state.isActive(result))
      continue;
    Value cotangent = state.getCotangent(b, result);
    if (!cotangent)
      continue;
    FailureOr<OutputForm> form = analyzeOutput(op, result.getResultNumber());
    if (failed(form))
      return failure();
    outputs.push_back({result.getResultNumber(), cotangent, *form, Value()});
  }
  return success();
}

/// The tie tensor of a max/min output: a reduction over the forward
/// iteration space whose init accounts for the init value.
void StructuredAdjoint::buildTie(OutputAdjoint &out) {
  Value result = op->getResult(out.index);
  Value init = op.getDpsInitOperand(out.index)->get();
  AffineMap outMap = op.getIndexingMapMatchingResult(cast<OpResult>(result));
  Type floatType = getElementTypeOrSelf(result.getType());
  bool split = ties == TieRule::Split;
  Type tieType = split ? floatType : b.getIndexType();
  // Split: 1 where the init equals the result; First: -1 there (the init
  // comes first), the largest index elsewhere.
  Value start = buildElementwise(
      b, loc, {init, result}, tieType,
      [&](OpBuilder &nb, Location l, ValueRange args) -> Value {
        Value equal = arith::CmpFOp::create(nb, l, arith::CmpFPredicate::OEQ,
                                            args[0], args[1]);
        Value yes = split ? Value(arith::ConstantOp::create(
                                nb, l, nb.getFloatAttr(floatType, 1.0)))
                          : Value(arith::ConstantIndexOp::create(nb, l, -1));
        Value no = split ? Value(arith::ConstantOp::create(
                               nb, l, nb.getFloatAttr(floatType, 0.0)))
                         : Value(arith::ConstantIndexOp::create(
                               nb, l, std::numeric_limits<int64_t>::max()));
        return arith::SelectOp::create(nb, l, equal, yes, no);
      });
  if (!split && reductionSizes.empty()) {
    SmallVector<Range> ranges = op.createLoopRanges(b, loc);
    for (auto [range, iterator] :
         llvm::zip_equal(ranges, op.getIteratorTypesArray()))
      if (iterator == utils::IteratorType::reduction)
        reductionSizes.push_back(
            getValueOrCreateConstantIndexOp(b, loc, range.size));
  }
  SmallVector<MappedValue> inputs = forwardInputs();
  inputs.push_back({result, outMap});
  OpBuilder nb(b.getContext());
  linalg::GenericOp generic = createGeneric(b, loc, inputs, start, outMap,
                                            op.getIteratorTypesArray(), nb);
  Block *block = &generic.getRegion().front();
  IRMapping mapping;
  unsigned numForward = inputs.size() - 1;
  cloneBody(nb, mapping, block->getArguments().take_front(numForward));
  Value element = mapping.lookupOrDefault(out.form.elements.front());
  Value forwardResult = block->getArgument(numForward);
  Value acc = block->getArguments().back();
  Value equal = arith::CmpFOp::create(nb, loc, arith::CmpFPredicate::OEQ,
                                      element, forwardResult);
  Value next;
  if (split) {
    Value one =
        arith::ConstantOp::create(nb, loc, nb.getFloatAttr(floatType, 1.0));
    Value plus = arith::AddFOp::create(nb, loc, acc, one);
    next = arith::SelectOp::create(nb, loc, equal, plus, acc);
  } else {
    Value lower = arith::MinSIOp::create(nb, loc, acc, reductionIndex(nb, loc));
    next = arith::SelectOp::create(nb, loc, equal, lower, acc);
  }
  linalg::YieldOp::create(nb, loc, next);
  eraseDeadOps(*block);
  out.tie = dropUnusedInputs(b, generic).getResult(0);
}

/// `v`, read by a generic with `map`, dilated and padded along the out
/// dimensions of `windows` (sizes: the windowed operand's `extents`).
static Value dilateAndPad(OpBuilder &b, Location loc, Value v, AffineMap map,
                          ArrayRef<Window> windows,
                          ArrayRef<int64_t> kernelSizes,
                          ArrayRef<int64_t> extents) {
  auto type = cast<RankedTensorType>(v.getType());
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, v);
  SmallVector<OpFoldResult> paddedSizes = sizes;
  SmallVector<OpFoldResult> offsets(type.getRank(), b.getIndexAttr(0));
  SmallVector<OpFoldResult> strides(type.getRank(), b.getIndexAttr(1));
  SmallVector<int64_t> shape(type.getShape());
  for (auto [position, expr] : llvm::enumerate(map.getResults())) {
    unsigned dim = cast<AffineDimExpr>(expr).getPosition();
    for (auto [w, window] : llvm::enumerate(windows)) {
      if (window.outDim != dim)
        continue;
      int64_t border = (kernelSizes[w] - 1) * window.dilation;
      shape[position] = extents[w] + border;
      paddedSizes[position] = b.getIndexAttr(shape[position]);
      offsets[position] = b.getIndexAttr(border);
      strides[position] = b.getIndexAttr(window.stride);
    }
  }
  auto paddedType = type.clone(shape);
  Value zero =
      arith::ConstantOp::create(b, loc, b.getZeroAttr(type.getElementType()));
  Value padded = buildFilled(b, loc, paddedType, paddedSizes, zero);
  return tensor::InsertSliceOp::create(b, loc, v, padded, offsets, sizes,
                                       strides);
}

FailureOr<Value> StructuredAdjoint::buildContribution(Value target,
                                                      AffineMap map,
                                                      Value inBody,
                                                      unsigned operandNumber) {
  FailureOr<SmallVector<Window>> windows =
      analyzeWindows(op, map, operandNumber);
  if (failed(windows))
    return failure();
  unsigned numLoops = op.getNumLoops();
  SmallVector<MappedValue> inputs = forwardInputs();
  unsigned numForward = inputs.size();
  llvm::append_range(inputs, extraInputs());
  // Windows: the out dimension o of each window iterates over the operand's
  // positions i; operands indexed by o are read at i - d * k + (K - 1) * d.
  AffineMap outMap = map;
  SmallVector<int64_t> kernelSizes, extents, outSizes;
  llvm::BitVector padded(inputs.size());
  if (!windows->empty()) {
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    auto targetType = cast<RankedTensorType>(target.getType());
    SmallVector<AffineExpr> dims, replacement;
    for (unsigned d = 0; d < numLoops; ++d)
      dims.push_back(b.getAffineDimExpr(d));
    replacement = dims;
    SmallVector<AffineExpr> outResults(map.getResults());
    for (const Window &w : *windows) {
      int64_t kernel = ranges[w.kernelDim], out = ranges[w.outDim];
      int64_t extent = targetType.getDimSize(w.position);
      if (ShapedType::isDynamic(kernel) || ShapedType::isDynamic(out) ||
          ShapedType::isDynamic(extent))
        return op->emitError()
               << "amp-differentiate: the convolution window of operand #"
               << operandNumber
               << " has a dynamic size; windows (kernel, output and input "
                  "extents) must be static";
      kernelSizes.push_back(kernel);
      outSizes.push_back(out);
      extents.push_back(extent);
      replacement[w.outDim] = dims[w.outDim] - dims[w.kernelDim] * w.dilation +
                              (kernel - 1) * w.dilation;
      outResults[w.position] = dims[w.outDim];
    }
    if (!op.getBlock()->getOps<linalg::IndexOp>().empty())
      return op->emitError()
             << "amp-differentiate: operand #" << operandNumber
             << " is read through a convolution window and the body reads "
                "loop indices (linalg.index); only one of the two is "
                "differentiated";
    outMap = AffineMap::get(numLoops, 0, outResults, b.getContext());
    for (auto [i, in] : llvm::enumerate(inputs)) {
      // The operand itself: its element at forward position (o, k) is the
      // one at position i = s * o + d * k.
      if (in.value == target && in.map == map) {
        in.map = outMap;
        continue;
      }
      bool usesOut = llvm::any_of(*windows, [&](const Window &w) {
        return in.map.isFunctionOfDim(w.outDim);
      });
      if (!usesOut)
        continue;
      bool plain = llvm::all_of(*windows, [&](const Window &w) {
        return !in.map.isFunctionOfDim(w.outDim) ||
               in.map.getResultPosition(dims[w.outDim]).has_value();
      });
      if (!plain)
        return op->emitError()
               << "amp-differentiate: operand #" << operandNumber
               << " and another operand are both read through convolution "
                  "windows; only one windowed operand is differentiated";
      in.map = in.map.replaceDimsAndSymbols(replacement, {}, numLoops, 0);
      padded.set(i);
    }
  }

  SmallVector<utils::IteratorType> iterators;
  for (unsigned d = 0; d < numLoops; ++d)
    iterators.push_back(outMap.isFunctionOfDim(d)
                            ? utils::IteratorType::parallel
                            : utils::IteratorType::reduction);
  bool accumulates =
      llvm::is_contained(iterators, utils::IteratorType::reduction);
  Type elementType = getElementTypeOrSelf(target.getType());
  Value init;
  if (isa<RankedTensorType>(target.getType())) {
    init = accumulates ? buildZerosLike(b, loc, target)
                       : buildEmptyLike(b, loc, target);
  } else {
    Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(elementType));
    init =
        buildFilled(b, loc, RankedTensorType::get({}, elementType), {}, zero);
  }

  OpBuilder nb(b.getContext());
  linalg::GenericOp generic =
      createGeneric(b, loc, inputs, init, outMap, iterators, nb);
  Block *block = &generic.getRegion().front();
  IRMapping mapping;
  SmallVector<Operation *> clones =
      cloneBody(nb, mapping, block->getArguments().take_front(numForward));
  Value source = mapping.lookupOrDefault(inBody);
  ValueRange extraArgs =
      block->getArguments().drop_front(numForward).drop_back();
  SmallVector<std::pair<Value, Value>> seeds;
  for (const OutputAdjoint &out : outputs) {
    unsigned n = numExtras(out);
    for (auto [e, negated] :
         llvm::zip_equal(out.form.elements, out.form.negated)) {
      Value element = mapping.lookupOrDefault(e);
      Value seed = seedOf(nb, loc, out, element, extraArgs.take_front(n));
      if (negated)
        seed = arith::NegFOp::create(nb, loc, seed);
      seeds.push_back({element, seed});
    }
    extraArgs = extraArgs.drop_front(n);
  }
  SmallVector<Value> sinks = llvm::map_to_vector(
      seeds, [](const std::pair<Value, Value> &s) { return s.first; });
  AdjointState scalar(Activity::compute(clones, source, sinks));
  for (auto [element, seed] : seeds)
    scalar.addCotangent(element, seed);
  if (failed(buildAdjoints(nb, clones, scalar))) {
    generic.erase();
    eraseUnusedChain(init);
    return failure();
  }
  Value contribution =
      scalar.isActive(source) ? scalar.getCotangent(nb, source) : Value();
  if (!contribution) {
    generic.erase();
    eraseUnusedChain(init);
    return Value();
  }
  // Positions of the windowed operand that no output read contribute 0:
  // t = i - d * k must be a multiple of s in [0, s * O).
  for (auto [w, window] : llvm::enumerate(*windows)) {
    Value i = linalg::IndexOp::create(nb, loc, window.outDim);
    Value k = linalg::IndexOp::create(nb, loc, window.kernelDim);
    auto cst = [&](int64_t c) {
      return arith::ConstantIndexOp::create(nb, loc, c);
    };
    Value t = arith::SubIOp::create(
        nb, loc, i, arith::MulIOp::create(nb, loc, k, cst(window.dilation)));
    Value inRange = arith::AndIOp::create(
        nb, loc,
        arith::CmpIOp::create(nb, loc, arith::CmpIPredicate::sge, t, cst(0)),
        arith::CmpIOp::create(nb, loc, arith::CmpIPredicate::slt, t,
                              cst(window.stride * outSizes[w])));
    Value valid = inRange;
    if (window.stride != 1) {
      Value rem = arith::RemSIOp::create(nb, loc, t, cst(window.stride));
      valid = arith::AndIOp::create(
          nb, loc, valid,
          arith::CmpIOp::create(nb, loc, arith::CmpIPredicate::eq, rem,
                                cst(0)));
    }
    Value zero =
        arith::ConstantOp::create(nb, loc, nb.getZeroAttr(elementType));
    contribution = arith::SelectOp::create(nb, loc, valid, contribution, zero);
  }
  Value acc = block->getArguments().back();
  if (accumulates)
    contribution = arith::AddFOp::create(nb, loc, acc, contribution);
  linalg::YieldOp::create(nb, loc, contribution);
  eraseDeadOps(*block);

  // Only now that the body is known: dilate and pad the window operands it
  // reads.
  for (unsigned i : padded.set_bits()) {
    if (block->getArgument(i).use_empty())
      continue;
    AffineMap forwardMap =
        i < numForward
            ? op.getMatchingIndexingMap(op.getOpOperandsMatchingBBargs()[i])
            : AffineMap();
    if (i >= numForward) {
      unsigned e = i - numForward;
      for (const OutputAdjoint &out : outputs) {
        if (e < numExtras(out)) {
          forwardMap = op.getIndexingMapMatchingResult(
              cast<OpResult>(op->getResult(out.index)));
          break;
        }
        e -= numExtras(out);
      }
    }
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(generic);
    generic->setOperand(i, dilateAndPad(b, loc, inputs[i].value, forwardMap,
                                        *windows, kernelSizes, extents));
  }
  generic = dropUnusedInputs(b, generic);
  Value result = generic.getResult(0);
  if (!isa<RankedTensorType>(target.getType()))
    result = tensor::ExtractOp::create(b, loc, result, ValueRange{});
  return result;
}

void StructuredAdjoint::addInitContribution(const OutputAdjoint &out) {
  Value init = op.getDpsInitOperand(out.index)->get();
  if (!state.isActive(init))
    return;
  if (out.form.combiner == Combiner::Add) {
    state.addCotangent(init, out.cotangent);
    return;
  }
  Value result = op->getResult(out.index);
  Type elementType = getElementTypeOrSelf(result.getType());
  bool split = ties == TieRule::Split;
  Value contribution = buildElementwise(
      b, loc, {init, result, out.cotangent, out.tie}, elementType,
      [&](OpBuilder &nb, Location l, ValueRange args) -> Value {
        Value zero =
            arith::ConstantOp::create(nb, l, nb.getZeroAttr(elementType));
        if (split) {
          Value equal = arith::CmpFOp::create(nb, l, arith::CmpFPredicate::OEQ,
                                              args[0], args[1]);
          Value share = arith::DivFOp::create(nb, l, args[2], args[3]);
          return arith::SelectOp::create(nb, l, equal, share, zero);
        }
        Value first =
            arith::CmpIOp::create(nb, l, arith::CmpIPredicate::eq, args[3],
                                  arith::ConstantIndexOp::create(nb, l, -1));
        return arith::SelectOp::create(nb, l, first, args[2], zero);
      });
  state.addCotangent(init, contribution);
}

LogicalResult StructuredAdjoint::build() {
  if (!op.hasPureTensorSemantics())
    return op->emitError() << "amp-differentiate: '" << op->getName()
                           << "' works on buffers; only ops on tensors are "
                              "differentiated (run it before bufferization)";
  llvm::SetVector<Value> captured;
  getUsedValuesDefinedAbove(op->getRegions(), captured);
  for (Value v : captured)
    if (state.isActive(v) && !isa<FloatType>(v.getType()))
      return op->emitError()
             << "amp-differentiate: the body reads the tensor " << v.getType()
             << " from outside (a gather, e.g. tensor.extract for an "
                "embedding lookup); gathers have no adjoint rule: pass the "
                "tensor as an input with an indexing map instead";
  if (failed(collectOutputs()))
    return failure();
  if (outputs.empty())
    return success();
  for (OutputAdjoint &out : outputs)
    if (out.form.combiner == Combiner::Max ||
        out.form.combiner == Combiner::Min)
      buildTie(out);

  bool reduces = op.getNumReductionLoops() != 0;
  for (OpOperand *operand : op.getOpOperandsMatchingBBargs()) {
    Value value = operand->get();
    // A reduction's init is where the fold starts (addInitContribution).
    if (!state.isActive(value) || (reduces && op.isDpsInit(operand)) ||
        !op.payloadUsesValueFromOperand(operand))
      continue;
    FailureOr<Value> contribution = buildContribution(
        value, op.getMatchingIndexingMap(operand),
        op.getMatchingBlockArgument(operand), operand->getOperandNumber());
    if (failed(contribution))
      return failure();
    if (*contribution)
      state.addCotangent(value, *contribution);
  }
  for (Value v : captured) {
    if (!state.isActive(v))
      continue;
    AffineMap none = AffineMap::get(op.getNumLoops(), 0, b.getContext());
    FailureOr<Value> contribution =
        buildContribution(v, none, v, op->getNumOperands());
    if (failed(contribution))
      return failure();
    if (*contribution)
      state.addCotangent(v, *contribution);
  }
  if (reduces)
    for (const OutputAdjoint &out : outputs)
      addInitContribution(out);
  return success();
}

LogicalResult mlir::amp::autodiff::buildStructuredAdjoint(OpBuilder &b,
                                                          linalg::LinalgOp op,
                                                          TieRule ties,
                                                          AdjointState &state) {
  return StructuredAdjoint(b, op, ties, state).build();
}
