//===- RaiseSoftmax.cpp - amp-raise-softmax -------------------------------===//
//
// A decomposed softmax (row max, exp of the shifted scores, row sum,
// divide), as torch-mlir exports torch.softmax, becomes linalg.softmax,
// whose adjoint reads only the probabilities (Passes.td has the contract).
// The match starts at the divide and walks up its operands; each step
// checks one generic's maps, iterators and body.
//
//===----------------------------------------------------------------------===//

#include "amp/Raising/Passes.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

#include <cmath>

namespace mlir::amp {
#define GEN_PASS_DEF_RAISESOFTMAX
#include "amp/Raising/Passes.h.inc"
} // namespace mlir::amp

using namespace mlir;

namespace {

/// The dimension `d` that `map` reduces away: the identity map of `rank`
/// dimensions without result `d`, or with result `d` replaced by the
/// constant 0 (keepdim). Fails for any other map.
std::optional<unsigned> reducedDim(AffineMap map, unsigned rank) {
  if (map.getNumDims() != rank || map.getNumSymbols() != 0)
    return std::nullopt;
  if (map.getNumResults() == rank) {
    std::optional<unsigned> dim;
    for (auto [i, expr] : llvm::enumerate(map.getResults())) {
      if (auto c = dyn_cast<AffineConstantExpr>(expr);
          c && c.getValue() == 0 && !dim) {
        dim = i;
        continue;
      }
      auto d = dyn_cast<AffineDimExpr>(expr);
      if (!d || d.getPosition() != i)
        return std::nullopt;
    }
    return dim;
  }
  if (map.getNumResults() + 1 != rank)
    return std::nullopt;
  unsigned next = 0;
  std::optional<unsigned> dim;
  for (AffineExpr expr : map.getResults()) {
    auto d = dyn_cast<AffineDimExpr>(expr);
    if (!d)
      return std::nullopt;
    if (d.getPosition() != next) {
      if (dim || d.getPosition() != next + 1)
        return std::nullopt;
      dim = next++;
    }
    ++next;
  }
  return dim.value_or(rank - 1);
}

/// The value yielded for result `i` of `op`'s body.
Value yielded(linalg::GenericOp op, unsigned i) {
  return op.getBody()->getTerminator()->getOperand(i);
}

/// `op` reduces its only input along `dim` into result `result` (the
/// others unread): the input's map is the identity, the result's map is
/// `reduced`, `dim` is the only reduction loop, and the body yields
/// `combine(in, out)` (either order) for that result, where the init is a
/// linalg.fill of a constant accepted by `init`.
template <typename Combine>
bool isRowReduction(linalg::GenericOp op, unsigned result, AffineMap reduced,
                    unsigned dim, llvm::function_ref<bool(APFloat)> init) {
  if (op.getNumDpsInputs() != 1 || result >= op.getNumResults() ||
      !op.getMatchingIndexingMap(op.getDpsInputOperand(0)).isIdentity() ||
      op.getMatchingIndexingMap(op.getDpsInitOperand(result)) != reduced)
    return false;
  for (auto [i, type] : llvm::enumerate(op.getIteratorTypesArray()))
    if ((type == utils::IteratorType::reduction) != (i == dim))
      return false;
  for (auto [i, r] : llvm::enumerate(op->getResults()))
    if (i != result && !r.use_empty())
      return false;
  auto combine = yielded(op, result).getDefiningOp<Combine>();
  Value in = op.getBody()->getArgument(0);
  Value out = op.getMatchingBlockArgument(op.getDpsInitOperand(result));
  if (!combine || !((combine.getLhs() == in && combine.getRhs() == out) ||
                    (combine.getLhs() == out && combine.getRhs() == in)))
    return false;
  auto fill = op.getDpsInits()[result].getDefiningOp<linalg::FillOp>();
  FloatAttr value;
  return fill && matchPattern(fill.value(), m_Constant(&value)) &&
         init(value.getValue());
}

/// `x - m` or `(x - m) * c` / `c * (x - m)` (0 < |c| <= 1) computed by `t`
/// in `op`'s body,
/// with `x` the input indexed by the identity and `m` the input indexed by
/// `reduced`: the scores, the row values subtracted and the scale (null
/// without one).
struct Shifted {
  Value scores, shift;
  FloatAttr scale;
};
std::optional<Shifted> matchShifted(linalg::GenericOp op, Value t,
                                    AffineMap reduced) {
  Shifted shifted;
  if (auto mul = t.getDefiningOp<arith::MulFOp>()) {
    Value other = mul.getRhs();
    t = mul.getLhs();
    if (!matchPattern(other, m_Constant(&shifted.scale)))
      std::swap(t, other);
    if (!matchPattern(other, m_Constant(&shifted.scale)) ||
        !shifted.scale.getValue().isFiniteNonZero() ||
        // |c| <= 1 (an attention's 1/sqrt(d)): x * c then cannot overflow
        // where (x - max x) * c does not (a temperature above 1 can).
        std::abs(shifted.scale.getValueAsDouble()) > 1.0)
      return std::nullopt;
  }
  auto sub = t.getDefiningOp<arith::SubFOp>();
  if (!sub || op.getNumDpsInputs() != 2)
    return std::nullopt;
  auto lhs = dyn_cast<BlockArgument>(sub.getLhs());
  auto rhs = dyn_cast<BlockArgument>(sub.getRhs());
  if (!lhs || !rhs || lhs.getOwner() != op.getBody() ||
      rhs.getOwner() != op.getBody() ||
      lhs.getArgNumber() >= op.getNumDpsInputs() ||
      rhs.getArgNumber() >= op.getNumDpsInputs())
    return std::nullopt;
  OpOperand *x = op.getDpsInputOperand(lhs.getArgNumber());
  OpOperand *m = op.getDpsInputOperand(rhs.getArgNumber());
  if (!op.getMatchingIndexingMap(x).isIdentity() ||
      op.getMatchingIndexingMap(m) != reduced)
    return std::nullopt;
  shifted.scores = x->get();
  shifted.shift = m->get();
  return shifted;
}

/// linalg.generic `y = e / s` (elementwise, `s` indexed without the
/// softmax dimension) whose `e = exp(shifted scores)` and `s = sum(e)`.
struct RaiseSoftmaxPattern : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp divide,
                                PatternRewriter &rewriter) const override {
    // The divide: y[..] = e[..] / s[reduced ..].
    if (divide.getNumDpsInputs() != 2 || divide.getNumResults() != 1 ||
        divide.getNumLoops() != divide.getNumParallelLoops() ||
        !divide.hasPureTensorSemantics())
      return rewriter.notifyMatchFailure(divide, "not an elementwise divide");
    auto div = yielded(divide, 0).getDefiningOp<arith::DivFOp>();
    Block *body = divide.getBody();
    if (!div || div.getLhs() != body->getArgument(0) ||
        div.getRhs() != body->getArgument(1))
      return rewriter.notifyMatchFailure(divide, "not e / s");
    auto type = dyn_cast<RankedTensorType>(divide.getResult(0).getType());
    unsigned rank = divide.getNumLoops();
    AffineMap reduced = divide.getIndexingMapsArray()[1];
    std::optional<unsigned> dim = reducedDim(reduced, rank);
    if (!type || !dim || !divide.getIndexingMapsArray()[0].isIdentity() ||
        !divide.getIndexingMapsArray()[2].isIdentity())
      return rewriter.notifyMatchFailure(divide, "maps of a softmax divide");
    Value e = divide.getDpsInputs()[0], s = divide.getDpsInputs()[1];
    if (e.getType() != type)
      return rewriter.notifyMatchFailure(divide, "exponentials' type");

    // s = sum_d e into zeros, read only here.
    auto sum = s.getDefiningOp<linalg::GenericOp>();
    if (!sum || !s.hasOneUse() || sum.getNumDpsInputs() != 1 ||
        sum.getDpsInputs()[0] != e ||
        !isRowReduction<arith::AddFOp>(sum, cast<OpResult>(s).getResultNumber(),
                                       reduced, *dim,
                                       [](APFloat v) { return v.isZero(); }))
      return rewriter.notifyMatchFailure(divide, "not a row sum of e");

    // e = exp(t), read by the sum and the divide only; t shifted in the
    // same generic or in one of its own.
    auto exp = e.getDefiningOp<linalg::GenericOp>();
    if (!exp || exp.getNumResults() != 1 ||
        exp.getNumLoops() != exp.getNumParallelLoops() ||
        !exp.getIndexingMapsArray().back().isIdentity() ||
        llvm::any_of(e.getUsers(), [&](Operation *user) {
          return user != sum && user != divide;
        }))
      return rewriter.notifyMatchFailure(divide, "exponentials");
    auto mathExp = yielded(exp, 0).getDefiningOp<math::ExpOp>();
    if (!mathExp)
      return rewriter.notifyMatchFailure(divide, "not exp");
    Value t = mathExp.getOperand();
    linalg::GenericOp shiftOp = exp;
    std::optional<Shifted> shifted;
    if (auto arg = dyn_cast<BlockArgument>(t);
        arg && arg.getOwner() == exp.getBody() && exp.getNumDpsInputs() == 1 &&
        arg.getArgNumber() == 0) {
      Value z = exp.getDpsInputs()[0];
      shiftOp = z.getDefiningOp<linalg::GenericOp>();
      if (!exp.getIndexingMapsArray()[0].isIdentity() || !shiftOp ||
          !z.hasOneUse() || shiftOp.getNumResults() != 1 ||
          shiftOp.getNumLoops() != shiftOp.getNumParallelLoops() ||
          !shiftOp.getIndexingMapsArray().back().isIdentity())
        return rewriter.notifyMatchFailure(divide, "shift");
      shifted = matchShifted(shiftOp, yielded(shiftOp, 0), reduced);
    } else {
      // The shift's maps are checked by matchShifted, not isElementwise.
      shifted = matchShifted(exp, t, reduced);
    }
    if (!shifted || shifted->scores.getType() != type)
      return rewriter.notifyMatchFailure(divide, "not exp(x - m)");

    // m = max_d x (maximumf into -inf; maxnumf into -inf or NaN).
    auto max = shifted->shift.getDefiningOp<linalg::GenericOp>();
    if (!max || max.getNumDpsInputs() != 1 ||
        max.getDpsInputs()[0] != shifted->scores)
      return rewriter.notifyMatchFailure(divide, "shift is not a row max");
    unsigned maxResult = cast<OpResult>(shifted->shift).getResultNumber();
    auto negInf = [](APFloat v) { return v.isInfinity() && v.isNegative(); };
    if (!isRowReduction<arith::MaximumFOp>(max, maxResult, reduced, *dim,
                                           negInf) &&
        !isRowReduction<arith::MaxNumFOp>(
            max, maxResult, reduced, *dim,
            [&](APFloat v) { return negInf(v) || v.isNaN(); }))
      return rewriter.notifyMatchFailure(divide, "not a row max of x");

    Location loc = divide.getLoc();
    Value input = shifted->scores;
    if (FloatAttr scale = shifted->scale;
        scale && !scale.getValue().isExactlyValue(1.0)) {
      AffineMap identity = rewriter.getMultiDimIdentityMap(rank);
      Value init = tensor::EmptyOp::create(
          rewriter, loc, tensor::getMixedSizes(rewriter, loc, input),
          type.getElementType());
      input = linalg::GenericOp::create(
                  rewriter, loc, type, input, init,
                  ArrayRef<AffineMap>{identity, identity},
                  SmallVector<utils::IteratorType>(
                      rank, utils::IteratorType::parallel),
                  [&](OpBuilder &b, Location l, ValueRange args) {
                    Value c = arith::ConstantOp::create(b, l, scale);
                    Value scaled = arith::MulFOp::create(b, l, args[0], c);
                    linalg::YieldOp::create(b, l, scaled);
                  })
                  .getResult(0);
    }
    // A destination of its own (the divide may write into e, which would
    // then stay alive only to be overwritten).
    Value init = tensor::EmptyOp::create(
        rewriter, loc, tensor::getMixedSizes(rewriter, loc, input),
        type.getElementType());
    rewriter.replaceOpWithNewOp<linalg::SoftmaxOp>(divide, type, input, init,
                                                   *dim);
    return success();
  }
};

struct RaiseSoftmaxPass : amp::impl::RaiseSoftmaxBase<RaiseSoftmaxPass> {
  void runOnOperation() override { amp::raiseSoftmax(getOperation()); }
};

} // namespace

void mlir::amp::populateRaiseSoftmaxPatterns(RewritePatternSet &patterns) {
  patterns.add<RaiseSoftmaxPattern>(patterns.getContext());
}

bool mlir::amp::raiseSoftmax(func::FuncOp fn) {
  // The pattern on each divide, then the ops it left dead erased (only
  // those: nothing else in the function changes, so that errors reported
  // later name the same ops).
  SmallVector<linalg::GenericOp> candidates;
  fn.walk([&](linalg::GenericOp op) { candidates.push_back(op); });
  RaiseSoftmaxPattern pattern(fn.getContext());
  PatternRewriter rewriter(fn.getContext());
  bool changed = false;
  llvm::SetVector<Operation *> maybeDead;
  for (linalg::GenericOp divide : candidates) {
    SmallVector<Operation *> producers;
    for (Value operand : divide->getOperands())
      if (Operation *def = operand.getDefiningOp())
        producers.push_back(def);
    rewriter.setInsertionPoint(divide);
    if (failed(pattern.matchAndRewrite(divide, rewriter)))
      continue;
    changed = true;
    maybeDead.insert(producers.begin(), producers.end());
  }
  // Erase dead producers, then what they read, transitively.
  while (!maybeDead.empty()) {
    Operation *op = maybeDead.pop_back_val();
    if (!isOpTriviallyDead(op))
      continue;
    for (Value operand : op->getOperands())
      if (Operation *def = operand.getDefiningOp())
        maybeDead.insert(def);
    op->walk([&](Operation *nested) {
      for (Value operand : nested->getOperands())
        if (Operation *def = operand.getDefiningOp();
            def && !op->isAncestor(def))
          maybeDead.insert(def);
    });
    maybeDead.remove(op);
    rewriter.eraseOp(op);
  }
  return changed;
}
