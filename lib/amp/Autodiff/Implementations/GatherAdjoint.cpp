//===- GatherAdjoint.cpp - adjoint of a gather generic (embedding lookup) -===//
//
// torch-mlir lowers aten.embedding to a linalg.generic over the output's
// iteration space D whose body reads the weight it captures from above:
//
//   out[M_o(d)] = T[i_0(d), ..., i_r(d)]
//
// with each index i_k computed in the body from integer inputs (the token
// ids, arith.index_cast) and linalg.index. The adjoint is a scatter-add,
// PyTorch's embedding_backward (embedding_dense_backward):
//
//   dT[i(d)] += dout[M_o(d)]   for every d in D, in lexicographic order,
//
// built as an scf.for nest over D that carries dT (from zeros) and adds one
// element per iteration. Repeated ids are summed in the order of d, so the
// gradient has the same bits on any number of threads (the nest is one
// sequential loop; amp-cpu-parallelize leaves it alone), which is what
// PyTorch offers only with torch.use_deterministic_algorithms. An id out of
// the table's range adds nothing to dT (an unsigned compare per index: a
// negative id is out of range too); the forward's tensor.extract of it
// stays undefined behaviour.
//
// The same scatter differentiates a masked window sum of gathered elements
// (amp::getSummedGather: torch-mlir's adaptive_avg_pool2d at output sizes
// that do not divide the input's), D then including the window's reduction
// loops:
//
//   out[M_o(d)] += mask(d) ? T[i(d)] : 0
//     =>   dT[i(d)] += mask(d) ? dout[M_o(d)] : 0
//
// and the init's gradient is dout (torch's adaptive_avg_pool2d_backward
// spreads each output's gradient over its window the same way).
//
// And a linear combination of several gathered elements (linearGathers:
// torch-mlir's upsample_bilinear2d reads four and yields their weighted
// sum), the weights w_k(d) computed in the body from linalg.index:
//
//   out[M_o(d)] = sum_k w_k(d) T[i_k(d)] + c(d)
//     =>   dT[i_k(d)] += w_k(d) dout[M_o(d)]   for k in order, every d
//
// w_k(d) is the body cloned with element k set to 1 and the others to 0,
// less the body with all of them 0 (c(d) cancels); CSE shares the index
// arithmetic of the clones (PyTorch: upsample_bilinear2d_backward).
//
//===----------------------------------------------------------------------===//

#include "StructuredAdjoint.h"

#include "amp/Analysis/Gather.h"
#include "amp/Autodiff/AdjointBuilders.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::amp::autodiff;

/// The indices that `map` selects at the loop indices `ivs`: a dimension
/// or a constant per result (torch-mlir's maps); failure otherwise.
static FailureOr<SmallVector<Value>> indicesAt(OpBuilder &b, Location loc,
                                               AffineMap map, ValueRange ivs) {
  SmallVector<Value> indices;
  for (AffineExpr e : map.getResults()) {
    if (auto dim = dyn_cast<AffineDimExpr>(e))
      indices.push_back(ivs[dim.getPosition()]);
    else if (auto c = dyn_cast<AffineConstantExpr>(e))
      indices.push_back(arith::ConstantIndexOp::create(b, loc, c.getValue()));
    else
      return failure();
  }
  return indices;
}

/// True when every result of `map` is a dimension or a constant.
static bool isDimOrConstantMap(AffineMap map) {
  return llvm::all_of(map.getResults(), [](AffineExpr e) {
    return isa<AffineDimExpr, AffineConstantExpr>(e);
  });
}

/// The extracts of a differentiated tensor captured by `op`'s body when the
/// body's yield is a linear function of them (sums, differences, negations,
/// products and quotients by values that do not depend on them, selects on
/// conditions that do not), the output's block argument unread and no
/// reduction loop: torch-mlir's upsample_bilinear2d, out = sum_k w_k(d) *
/// T[i_k(d)]. Empty when the body reads no differentiated tensor so; a
/// located error where it computes with what it reads otherwise.
static FailureOr<SmallVector<tensor::ExtractOp>>
linearGathers(linalg::GenericOp op, AdjointState &state) {
  Block *body = op.getBody();
  SmallVector<tensor::ExtractOp> terms;
  for (auto extract : body->getOps<tensor::ExtractOp>())
    if (!op->getRegion(0).isAncestor(extract.getTensor().getParentRegion()) &&
        state.isActive(extract.getTensor()))
      terms.push_back(extract);
  if (terms.empty() || op.getNumDpsInits() != 1 ||
      op.getNumReductionLoops() != 0 ||
      op.payloadUsesValueFromOperand(op.getDpsInitOperand(0)))
    return SmallVector<tensor::ExtractOp>();
  Value table = terms.front().getTensor();
  llvm::DenseSet<Value> dependent;
  for (tensor::ExtractOp term : terms) {
    if (term.getTensor() != table)
      return SmallVector<tensor::ExtractOp>();
    dependent.insert(term.getResult());
  }
  auto isDep = [&](Value v) { return dependent.contains(v); };
  for (Operation &inner : body->without_terminator()) {
    if (llvm::none_of(inner.getOperands(), isDep))
      continue;
    bool ok = false;
    if (isa<arith::AddFOp, arith::SubFOp, arith::NegFOp>(inner))
      ok = true;
    else if (isa<arith::MulFOp>(inner))
      ok = !(isDep(inner.getOperand(0)) && isDep(inner.getOperand(1)));
    else if (isa<arith::DivFOp>(inner))
      ok = !isDep(inner.getOperand(1));
    else if (auto select = dyn_cast<arith::SelectOp>(inner))
      ok = !isDep(select.getCondition());
    if (!ok)
      return inner.emitError()
             << "amp-differentiate: this op computes non-linearly with "
                "elements that its linalg.generic gathers with "
                "tensor.extract from a differentiated tensor; a gather is "
                "differentiated when its output is a linear combination of "
                "them (an embedding lookup, bilinear upsampling) or their "
                "masked sum (adaptive average pooling)";
    for (Value r : inner.getResults())
      dependent.insert(r);
  }
  for (Operation &inner : body->without_terminator())
    if (!isPure(&inner) || inner.getNumRegions() != 0)
      return inner.emitError()
             << "amp-differentiate: this gather's body has an op with side "
                "effects or regions; only pure arithmetic is differentiated";
  return terms;
}

/// One iteration of a linear gather's scatter-add (linearGathers): with the
/// body's other values in `mapping` (cloned at this iteration), each
/// gathered element's weight w_k is the body evaluated with that element 1
/// and the others 0, less the body with all 0; adds w_k * `seed` to `acc`
/// at the element's indices, in the order of the extracts, where they are
/// inside the table. Returns the new `acc`.
static Value scatterLinear(OpBuilder &nb, Location l, linalg::GenericOp op,
                           ArrayRef<tensor::ExtractOp> terms,
                           const IRMapping &mapping, Value seed, Value acc) {
  Block *body = op.getBody();
  Value result = body->getTerminator()->getOperand(0);
  Type elemType = result.getType();
  auto evaluate = [&](int unit) {
    IRMapping m = mapping;
    for (auto [k, term] : llvm::enumerate(terms))
      m.map(tensor::ExtractOp(term).getResult(),
            arith::ConstantOp::create(
                nb, l, nb.getFloatAttr(elemType, int(k) == unit ? 1.0 : 0.0)));
    for (Operation &inner : body->without_terminator())
      if (!m.contains(inner.getResult(0)) && !isa<linalg::IndexOp>(inner))
        nb.clone(inner, m);
    return m.lookupOrDefault(result);
  };
  Value none = evaluate(-1);
  for (auto [k, t] : llvm::enumerate(terms)) {
    tensor::ExtractOp term = t;
    Value weight =
        arith::SubFOp::create(nb, l, evaluate(int(k)), none).getResult();
    Value add = arith::MulFOp::create(nb, l, weight, seed);
    SmallVector<Value> at;
    for (Value index : term.getIndices())
      at.push_back(mapping.lookupOrDefault(index));
    Value inside;
    for (auto [d, index] : llvm::enumerate(at)) {
      Value size = tensor::DimOp::create(nb, l, acc, d);
      Value ok =
          arith::CmpIOp::create(nb, l, arith::CmpIPredicate::ult, index, size);
      inside = inside ? arith::AndIOp::create(nb, l, inside, ok) : ok;
    }
    auto guard = scf::IfOp::create(
        nb, l, inside,
        [&](OpBuilder &tb, Location tl) {
          Value old = tensor::ExtractOp::create(tb, tl, acc, at);
          Value sum = arith::AddFOp::create(tb, tl, old, add);
          scf::YieldOp::create(
              tb, tl,
              ValueRange{tensor::InsertOp::create(tb, tl, sum, acc, at)});
        },
        [&](OpBuilder &eb, Location el) {
          scf::YieldOp::create(eb, el, ValueRange{acc});
        });
    acc = guard.getResult(0);
  }
  return acc;
}

FailureOr<bool>
mlir::amp::autodiff::buildGatherAdjoint(OpBuilder &b, linalg::LinalgOp linalgOp,
                                        AdjointState &state) {
  auto op = dyn_cast<linalg::GenericOp>(linalgOp.getOperation());
  if (!op)
    return false;
  tensor::ExtractOp gather = getYieldedGather(op);
  std::optional<SummedGather> summed;
  if (!gather && (summed = getSummedGather(op)))
    gather = summed->extract;
  // Otherwise a linear combination of several gathered elements (bilinear
  // upsampling): every extract of the differentiated tensor.
  SmallVector<tensor::ExtractOp> linear;
  if (!gather) {
    FailureOr<SmallVector<tensor::ExtractOp>> terms = linearGathers(op, state);
    if (failed(terms))
      return failure();
    if (terms->empty())
      return false;
    linear = std::move(*terms);
    gather = linear.front();
  }
  if (!gather || !state.isActive(gather.getTensor()))
    return false;
  Location loc = op.getLoc();
  Value table = gather.getTensor();
  OpOperand *init = op.getDpsInitOperand(0);
  // The indices must not depend on differentiated values: the body's other
  // reads are integer inputs (the ids) and linalg.index.
  if (op.getNumReductionLoops() != 0 && !summed && linear.empty())
    return op->emitError() << "amp-differentiate: this gather (tensor.extract "
                              "of a differentiated tensor from outside the "
                              "body) also reduces; only a gather over "
                              "parallel dimensions (an embedding lookup) or "
                              "a masked sum of gathered elements (adaptive "
                              "average pooling) is differentiated";
  for (OpOperand *operand : op.getOpOperandsMatchingBBargs())
    if (state.isActive(operand->get()) && !(summed && operand == init) &&
        op.payloadUsesValueFromOperand(operand))
      return op->emitError()
             << "amp-differentiate: this gather (tensor.extract of a "
                "differentiated tensor from outside the body) also reads the "
                "differentiated operand #"
             << operand->getOperandNumber()
             << " in its body; only a body that reads differentiated values "
                "through its gathered elements alone (an embedding lookup, "
                "bilinear upsampling, adaptive average pooling) is "
                "differentiated";
  llvm::SetVector<Value> captured;
  getUsedValuesDefinedAbove(op->getRegions(), captured);
  for (Value v : captured)
    if (v != table && state.isActive(v))
      return op->emitError() << "amp-differentiate: this gather also reads the "
                                "differentiated value "
                             << v.getType()
                             << " from outside its body; only the gathered "
                                "tensor may be differentiated";
  Value cotangent = state.getCotangent(b, op->getResult(0));
  if (!cotangent)
    return true;
  // A sum adds the gathered elements to its init: the init's gradient is
  // the output's.
  if (summed && state.isActive(init->get()))
    state.addCotangent(init->get(), cotangent);
  AffineMap outMap = op.getIndexingMapMatchingResult(op->getResult(0));
  if (!isDimOrConstantMap(outMap))
    return op->emitError() << "amp-differentiate: the gather's output has an "
                              "indexing map with a result that is neither a "
                              "dimension nor a constant";
  for (OpOperand *operand : op.getDpsInputOperands())
    if (op.payloadUsesValueFromOperand(operand) &&
        !isDimOrConstantMap(op.getMatchingIndexingMap(operand)))
      return op->emitError()
             << "amp-differentiate: the gather's input #"
             << operand->getOperandNumber()
             << " has an indexing map with a result that is neither a "
                "dimension nor a constant";

  // The ops of the body that the gather's indices depend on (the extract
  // and the yield excluded), in order.
  Block *body = op.getBody();
  llvm::SetVector<Operation *> needed;
  SmallVector<Value> work(gather.getIndices().begin(),
                          gather.getIndices().end());
  if (summed && summed->mask)
    work.push_back(summed->mask);
  for (tensor::ExtractOp term : linear)
    llvm::append_range(work, term->getOperands());
  while (!work.empty()) {
    Value v = work.pop_back_val();
    auto arg = dyn_cast<BlockArgument>(v);
    if (arg && arg.getOwner() == body &&
        op.isDpsInit(op.getMatchingOpOperand(arg)))
      return op->emitError() << "amp-differentiate: the index of this gather "
                                "reads the output's block argument; only "
                                "indices computed from the inputs and "
                                "linalg.index are differentiated";
    Operation *def = v.getDefiningOp();
    if (!def || def->getBlock() != body || !needed.insert(def))
      continue;
    if (!isPure(def) || def->getNumRegions() != 0)
      return def->emitError() << "amp-differentiate: the index of this gather "
                                 "is computed by an op with side effects or "
                                 "regions; only pure index arithmetic is "
                                 "differentiated";
    llvm::append_range(work, def->getOperands());
  }

  SmallVector<Range, 4> ranges = linalgOp.createLoopRanges(b, loc);
  SmallVector<Value> lbs, ubs, steps;
  for (Range r : ranges) {
    lbs.push_back(getValueOrCreateConstantIndexOp(b, loc, r.offset));
    ubs.push_back(getValueOrCreateConstantIndexOp(b, loc, r.size));
    steps.push_back(getValueOrCreateConstantIndexOp(b, loc, r.stride));
  }
  Value zeros = buildZerosLike(b, loc, table);
  scf::LoopNest nest = scf::buildLoopNest(
      b, loc, lbs, ubs, steps, ValueRange{zeros},
      [&](OpBuilder &nb, Location l, ValueRange ivs,
          ValueRange acc) -> scf::ValueVector {
        IRMapping mapping;
        for (OpOperand *operand : op.getDpsInputOperands()) {
          if (!op.payloadUsesValueFromOperand(operand))
            continue;
          SmallVector<Value> at =
              *indicesAt(nb, l, op.getMatchingIndexingMap(operand), ivs);
          mapping.map(op.getMatchingBlockArgument(operand),
                      tensor::ExtractOp::create(nb, l, operand->get(), at));
        }
        for (Operation &forward : body->without_terminator()) {
          if (!needed.contains(&forward))
            continue;
          if (auto index = dyn_cast<linalg::IndexOp>(forward)) {
            mapping.map(index.getResult(), ivs[index.getDim()]);
            continue;
          }
          nb.clone(forward, mapping);
        }
        Value seed = tensor::ExtractOp::create(nb, l, cotangent,
                                               *indicesAt(nb, l, outMap, ivs));
        if (!linear.empty()) {
          // The weights may read any loop's position.
          body->walk([&](linalg::IndexOp index) {
            mapping.map(index.getResult(), ivs[index.getDim()]);
          });
          return {scatterLinear(nb, l, op, linear, mapping, seed, acc[0])};
        }
        SmallVector<Value> at;
        for (Value index : gather.getIndices())
          at.push_back(mapping.lookupOrDefault(index));
        // An index outside the table adds nothing (the forward's read of it
        // is undefined; a write there would corrupt memory); nor does an
        // element a summed gather's mask leaves out.
        Value inside;
        if (summed && summed->mask) {
          inside = mapping.lookupOrDefault(summed->mask);
          if (summed->maskNegated)
            inside = arith::XOrIOp::create(
                nb, l, inside,
                arith::ConstantOp::create(nb, l, nb.getBoolAttr(true)));
        }
        for (auto [d, index] : llvm::enumerate(at)) {
          Value size = tensor::DimOp::create(nb, l, acc[0], d);
          Value ok = arith::CmpIOp::create(nb, l, arith::CmpIPredicate::ult,
                                           index, size);
          inside = inside ? arith::AndIOp::create(nb, l, inside, ok) : ok;
        }
        auto guard = scf::IfOp::create(
            nb, l, inside,
            [&](OpBuilder &tb, Location tl) {
              Value old = tensor::ExtractOp::create(tb, tl, acc[0], at);
              Value sum = arith::AddFOp::create(tb, tl, old, seed);
              scf::YieldOp::create(tb, tl,
                                   ValueRange{tensor::InsertOp::create(
                                       tb, tl, sum, acc[0], at)});
            },
            [&](OpBuilder &eb, Location el) {
              scf::YieldOp::create(eb, el, ValueRange{acc[0]});
            });
        return {guard.getResult(0)};
      });
  // The marker amp-chunk-batch-reductions (--emulate-ranks) splits the
  // scatter by: its outer loop adds one row of the iteration space after
  // the other into the gradient it carries.
  nest.loops.front()->setAttr(kScatterAddAttr, b.getUnitAttr());
  state.addCotangent(table, nest.results[0]);
  return true;
}
