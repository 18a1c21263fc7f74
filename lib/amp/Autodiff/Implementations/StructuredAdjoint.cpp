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
// M_x drops. An operand with convolution windows (result s * o + d * k)
// gets the transposed iteration space of ConvolutionWindows.cpp; how the
// outputs are formed comes from ReductionForms.cpp.
//
// A ReLU in torch-mlir's form (y = select(x > 0, x, 0)) takes its mask from
// the result: dx = select(y > 0, dy, 0), PyTorch's
// threshold_backward(grad, result, 0). The same bits (the comparison gives
// the same answer on y as on x, NaN included), but the backward reads y,
// which the next op keeps for its own backward anyway, instead of x.
//
//===----------------------------------------------------------------------===//

#include "StructuredAdjoint.h"

#include "amp/Autodiff/AdjointBuilders.h"
#include "amp/Autodiff/Differentiate.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::amp::autodiff;
using namespace mlir::amp::autodiff::structured;

namespace {

/// The cotangent of one float output and what its reduction needs.
struct OutputAdjoint {
  unsigned index;
  Value cotangent;
  OutputForm form;
  /// Max/Min only: Split: how many elements equal the result (float, the
  /// result's type); First: the linear index of the first one in the
  /// reduction dimensions (-1 for the init value), in the narrowest of i8,
  /// i16, i32 that holds every index of a static reduction domain (a 2x2
  /// pooling window: i8, 1/8 of PyTorch's int64 indices), `index` where
  /// the domain is dynamic or larger.
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
  /// The linear index of the reduction dimensions, row-major (First), in
  /// `tieIndexType()`.
  Value reductionIndex(OpBuilder &nb, Location l);
  /// The element type of a First tie tensor (see OutputAdjoint::tie).
  Type tieIndexType();
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
  /// The comparison of a ReLU whose mask is taken from the result
  /// (matchReluOnResult); null otherwise.
  arith::CmpFOp reluCompare;
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

/// The comparison of `op` when it is an elementwise ReLU whose mask the
/// result gives exactly: one input x and one output y of the same element
/// type, no reduction, and the body `c = cmpf ogt|ugt, x, z; y = select c,
/// x, z` with z a constant +-0 (in the body or captured). Then
/// pred(y, z) == pred(x, z) for every x: where pred(x, z) holds y is x, and
/// elsewhere y is z and pred(z, z) is false (both predicates are strict).
static arith::CmpFOp matchReluOnResult(linalg::LinalgOp op) {
  if (op.getNumDpsInputs() != 1 || op.getNumDpsInits() != 1 ||
      op.getNumReductionLoops() != 0 ||
      op.getDpsInputs()[0].getType() != op->getResult(0).getType())
    return nullptr;
  Block *body = op.getBlock();
  auto ops = body->without_terminator();
  if (std::distance(ops.begin(), ops.end()) > 3)
    return nullptr;
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  auto select = yield.getValues()[0].getDefiningOp<arith::SelectOp>();
  Value x = body->getArgument(0);
  if (!select || select->getBlock() != body || select.getTrueValue() != x)
    return nullptr;
  auto compare = select.getCondition().getDefiningOp<arith::CmpFOp>();
  if (!compare || compare->getBlock() != body || compare.getLhs() != x ||
      compare.getRhs() != select.getFalseValue() ||
      (compare.getPredicate() != arith::CmpFPredicate::OGT &&
       compare.getPredicate() != arith::CmpFPredicate::UGT))
    return nullptr;
  FloatAttr zero;
  if (!matchPattern(compare.getRhs(), m_Constant(&zero)) ||
      !zero.getValue().isZero())
    return nullptr;
  return compare;
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
  if (reluCompare)
    extras.push_back({op->getResult(0), op.getIndexingMapMatchingResult(
                                            cast<OpResult>(op->getResult(0)))});
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
  Type type = tieIndexType();
  return type.isIndex()
             ? linear
             : Value(arith::IndexCastOp::create(nb, l, type, linear));
}

Type StructuredAdjoint::tieIndexType() {
  // The largest linear index of the reduction domain; the type must also
  // hold -1 (the init) and its maximum (no element seen yet).
  int64_t last = 0;
  SmallVector<int64_t> sizes = op.getStaticLoopRanges();
  for (auto [size, iterator] :
       llvm::zip_equal(sizes, op.getIteratorTypesArray())) {
    if (iterator != utils::IteratorType::reduction)
      continue;
    if (ShapedType::isDynamic(size) || size > (int64_t(1) << 31) ||
        (last + 1) > (int64_t(1) << 31) / std::max<int64_t>(size, 1))
      return b.getIndexType();
    last = (last + 1) * size - 1;
  }
  for (unsigned width : {8u, 16u, 32u})
    if (last < (int64_t(1) << (width - 1)) - 1)
      return b.getIntegerType(width);
  return b.getIndexType();
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
  Type tieType = split ? floatType : tieIndexType();
  // Split: 1 where the init equals the result; First: -1 there (the init
  // comes first), the largest index elsewhere.
  Value start = buildElementwise(
      b, loc, {init, result}, tieType,
      [&](OpBuilder &nb, Location l, ValueRange args) -> Value {
        Value equal = arith::CmpFOp::create(nb, l, arith::CmpFPredicate::OEQ,
                                            args[0], args[1]);
        if (split)
          return arith::SelectOp::create(
              nb, l, equal,
              arith::ConstantOp::create(nb, l, nb.getFloatAttr(floatType, 1.0)),
              arith::ConstantOp::create(nb, l,
                                        nb.getFloatAttr(floatType, 0.0)));
        unsigned width =
            tieType.isIndex() ? 64 : tieType.getIntOrFloatBitWidth();
        int64_t largest = int64_t((uint64_t(1) << (width - 1)) - 1);
        Value yes =
            arith::ConstantOp::create(nb, l, nb.getIntegerAttr(tieType, -1));
        Value no = arith::ConstantOp::create(
            nb, l, nb.getIntegerAttr(tieType, largest));
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

FailureOr<Value> StructuredAdjoint::buildContribution(Value target,
                                                      AffineMap map,
                                                      Value inBody,
                                                      unsigned operandNumber) {
  unsigned numLoops = op.getNumLoops();
  SmallVector<MappedValue> inputs = forwardInputs();
  unsigned numForward = inputs.size();
  llvm::append_range(inputs, extraInputs());
  FailureOr<WindowPlan> plan =
      planWindows(op, target, map, operandNumber, inputs);
  if (failed(plan))
    return failure();
  if (auto targetType = dyn_cast<RankedTensorType>(target.getType()))
    if (std::optional<BlockedWindows> blocked =
            blockWindows(*plan, targetType, map)) {
      // The cotangent of the blocked view, then its collapse: every
      // position of the operand is written by exactly one window element.
      auto view = tensor::ExpandShapeOp::create(b, loc, blocked->type, target,
                                                blocked->reassociation);
      FailureOr<Value> contribution =
          buildContribution(view, blocked->map, inBody, operandNumber);
      if (view->use_empty())
        view->erase();
      if (failed(contribution) || !*contribution)
        return contribution;
      return tensor::CollapseShapeOp::create(b, loc, targetType, *contribution,
                                             blocked->reassociation)
          .getResult();
    }
  AffineMap outMap = plan->outMap;
  SmallVector<utils::IteratorType> iterators;
  for (unsigned d = 0; d < numLoops; ++d)
    iterators.push_back(outMap.isFunctionOfDim(d)
                            ? utils::IteratorType::parallel
                            : utils::IteratorType::reduction);
  bool accumulates =
      llvm::is_contained(iterators, utils::IteratorType::reduction);
  // A constant result writes one position of its dimension; the others
  // (when the dimension is longer than 1) must read zero.
  bool writesSome = llvm::any_of(outMap.getResults(), [](AffineExpr e) {
    return isa<AffineConstantExpr>(e);
  });
  Type elementType = getElementTypeOrSelf(target.getType());
  Value init;
  if (isa<RankedTensorType>(target.getType())) {
    init = accumulates || writesSome ? buildZerosLike(b, loc, target)
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
  if (reluCompare) {
    // The mask from the result (the last extra argument): the clones of the
    // forward comparison and select become dead, and x is dropped below.
    auto clone = cast<arith::CmpFOp>(
        mapping.lookup(reluCompare.getResult()).getDefiningOp());
    OpBuilder::InsertionGuard guard(nb);
    nb.setInsertionPointAfter(clone);
    Value onResult = arith::CmpFOp::create(nb, loc, clone.getPredicate(),
                                           extraArgs.back(), clone.getRhs());
    clone.getResult().replaceAllUsesWith(onResult);
  }
  Value contribution =
      scalar.isActive(source) ? scalar.getCotangent(nb, source) : Value();
  if (!contribution) {
    generic.erase();
    eraseUnusedChain(init);
    return Value();
  }
  contribution = maskUnreadPositions(nb, loc, contribution, *plan);
  Value acc = block->getArguments().back();
  if (accumulates)
    contribution = arith::AddFOp::create(nb, loc, acc, contribution);
  linalg::YieldOp::create(nb, loc, contribution);
  eraseDeadOps(*block);

  // Only now that the body is known: dilate and pad the window operands it
  // reads.
  for (auto [i, forwardMap] : plan->padded) {
    if (block->getArgument(i).use_empty())
      continue;
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(generic);
    generic->setOperand(
        i, dilateAndPad(b, loc, inputs[i].value, forwardMap, *plan));
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
        Value first = arith::CmpIOp::create(
            nb, l, arith::CmpIPredicate::eq, args[3],
            arith::ConstantOp::create(
                nb, l, nb.getIntegerAttr(args[3].getType(), -1)));
        return arith::SelectOp::create(nb, l, first, args[2], zero);
      });
  state.addCotangent(init, contribution);
}

LogicalResult StructuredAdjoint::build() {
  if (!op.hasPureTensorSemantics())
    return op->emitError() << "amp-differentiate: '" << op->getName()
                           << "' works on buffers; only ops on tensors are "
                              "differentiated (run it before bufferization)";
  FailureOr<bool> gather = buildGatherAdjoint(b, op, state);
  if (failed(gather) || *gather)
    return failure(failed(gather));
  llvm::SetVector<Value> captured;
  getUsedValuesDefinedAbove(op->getRegions(), captured);
  for (Value v : captured)
    if (state.isActive(v) && !isa<FloatType>(v.getType()))
      return op->emitError()
             << "amp-differentiate: the body reads the tensor " << v.getType()
             << " from outside with tensor.extract and computes with what "
                "it reads instead of yielding one element; only a gather "
                "whose body yields the element it reads (an embedding "
                "lookup), a linear combination of such elements (bilinear "
                "upsampling) or adds it, masked, to the output (adaptive "
                "average pooling) is differentiated: do each lookup in a "
                "generic of its own and the arithmetic in the next";
  if (failed(collectOutputs()))
    return failure();
  if (outputs.empty())
    return success();
  reluCompare = matchReluOnResult(op);
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
