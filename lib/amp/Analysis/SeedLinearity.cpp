//===- SeedLinearity.cpp - the backward is linear in the seed -------------===//

#include "amp/Analysis/SeedLinearity.h"

#include "amp/Dialect/Amp/IR/AmpOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/DenseMap.h"

using namespace mlir;
using namespace mlir::amp;

namespace {
/// How a value changes when the seed is multiplied by S > 0.
enum class Degree {
  Zero,  ///< known to be zero: a term of any degree
  Free,  ///< does not change (the forward, constants, invariant ratios)
  Scaled ///< multiplied by S (the backward)
};

/// Why an op breaks homogeneity (the error's wording).
enum class Break {
  None,
  Mixed,
  Quadratic,
  Division,
  Threshold,
  NonLinear,
  NotProportional
};

class Analysis {
public:
  Analysis(Value seed, const llvm::SetVector<Value> &backward)
      : seed(seed), backward(backward) {
    degrees[seed] = Degree::Scaled;
  }

  LogicalResult visitBlock(Block &block);

private:
  Degree degreeOf(Value v);
  LogicalResult visitOp(Operation *op);
  LogicalResult visitRegionBody(Operation *op, Block &body,
                                ArrayRef<Degree> argDegrees,
                                SmallVectorImpl<Degree> &yielded);
  LogicalResult report(Operation *op, Break why, StringRef detail = "");
  /// Whether an error on `op` matters: it computes part of the backward
  /// (its own results, or the op that holds it, are in `backward`).
  bool inBackward(Operation *op);

  Value seed;
  const llvm::SetVector<Value> &backward;
  llvm::DenseMap<Value, Degree> degrees;
};
} // namespace

/// Whether `v` is a zero constant (scalar or splat), a fill or splat of one,
/// or a tensor.empty (never a term of a sum).
static bool isKnownZero(Value v) {
  if (matchPattern(v, m_AnyZeroFloat()))
    return true;
  Operation *def = v.getDefiningOp();
  if (!def)
    return false;
  if (isa<tensor::EmptyOp>(def))
    return true;
  if (auto fill = dyn_cast<linalg::FillOp>(def))
    return matchPattern(fill.getInputs()[0], m_AnyZeroFloat());
  if (auto splat = dyn_cast<tensor::SplatOp>(def))
    return matchPattern(splat.getInput(), m_AnyZeroFloat());
  return false;
}

Degree Analysis::degreeOf(Value v) {
  auto it = degrees.find(v);
  if (it != degrees.end())
    return it->second;
  return isKnownZero(v) ? Degree::Zero : Degree::Free;
}

bool Analysis::inBackward(Operation *op) {
  for (Operation *p = op; p; p = p->getParentOp()) {
    if (isa<func::FuncOp>(p))
      return false;
    if (llvm::any_of(p->getResults(),
                     [&](Value r) { return backward.contains(r); }))
      return true;
  }
  return false;
}

LogicalResult Analysis::report(Operation *op, Break why, StringRef detail) {
  InFlightDiagnostic diag = op->emitError();
  switch (why) {
  case Break::Mixed:
    diag << "this "
         << (isa<arith::AddFOp>(op) ? std::string("addition")
             : isa<arith::SubFOp>(op)
                 ? std::string("subtraction")
                 : "'" + op->getName().getStringRef().str() + "'")
         << " in the backward combines a value derived from the "
            "backward seed (multiplied by the loss scale S under loss "
            "scaling) with "
         << detail
         << ", a term that does not depend on the seed: unscaling the "
            "gradient would divide that term by S (e.g. L2 weight decay "
            "added to the raw gradient); apply weight decay in the update "
            "on the unscaled gradient (the result of `amp.grad`), or scale "
            "the term by the loss scale";
    break;
  case Break::Quadratic:
    diag << "this op multiplies two values derived from the backward seed: "
            "the result grows with S^2 under loss scaling, so unscaling by "
            "1/S does not restore it; the backward must be linear in the "
            "seed";
    break;
  case Break::Division:
    diag << "this op divides by a value derived from the backward seed: the "
            "result does not grow with the loss scale S, so unscaling by "
            "1/S shrinks it; the backward must be linear in the seed";
    break;
  case Break::Threshold:
    diag << "this op " << detail
         << " a value derived from the backward seed against a term that "
            "does not depend on the seed (clipping or thresholding the "
            "scaled backward: under loss scaling the threshold becomes "
            "t / S); clip the unscaled gradients, the results of "
            "`amp.grad`";
    break;
  case Break::NonLinear:
    diag << "this op (" << op->getName() << ") applies " << detail
         << " to a value derived from the backward seed: loss scaling needs "
            "a backward that is linear in the seed (grad(S * L) = S * "
            "grad(L)); move it after `amp.grad`, onto the unscaled gradient";
    break;
  case Break::NotProportional:
    diag << "this gradient is computed from the backward seed but does not "
            "grow with it (a normalisation g / |g|, a product with zero, a "
            "constant): loss scaling needs grad(S * L) = S * grad(L), and "
            "the skip-update check would divide it by S; the gradient must "
            "be linear in the seed";
    break;
  case Break::None:
    break;
  }
  diag.attachNote(seed.getLoc()) << "backward seed here";
  return failure();
}

/// The degree of a sum-like combination (add, sub, select branches, max,
/// min, data joined into one tensor), or Break::Mixed.
static std::pair<Degree, Break> sumOf(ArrayRef<Degree> terms) {
  bool free = false, scaled = false;
  for (Degree d : terms) {
    free |= d == Degree::Free;
    scaled |= d == Degree::Scaled;
  }
  if (free && scaled)
    return {Degree::Scaled, Break::Mixed};
  return {scaled ? Degree::Scaled
          : free ? Degree::Free
                 : Degree::Zero,
          Break::None};
}

LogicalResult Analysis::visitRegionBody(Operation *op, Block &body,
                                        ArrayRef<Degree> argDegrees,
                                        SmallVectorImpl<Degree> &yielded) {
  for (auto [arg, d] : llvm::zip(body.getArguments(), argDegrees))
    degrees[arg] = d;
  if (failed(visitBlock(body)))
    return failure();
  for (Value v : body.getTerminator()->getOperands())
    yielded.push_back(degreeOf(v));
  return success();
}

LogicalResult Analysis::visitBlock(Block &block) {
  for (Operation &op : block)
    if (failed(visitOp(&op)))
      return failure();
  return success();
}

LogicalResult Analysis::visitOp(Operation *op) {
  SmallVector<Degree> in;
  for (Value v : op->getOperands())
    in.push_back(degreeOf(v));
  bool anyScaled = llvm::is_contained(in, Degree::Scaled);
  // A seed-free result that is known to be zero stays Zero.
  auto setAll = [&](Degree d) {
    for (Value r : op->getResults())
      degrees[r] = d == Degree::Free && isKnownZero(r) ? Degree::Zero : d;
    return success();
  };
  // Breaks matter only where they compute the backward (other uses of the
  // seed are errors of the seed flow, or dead code).
  auto fail = [&](Break why, StringRef detail = "") {
    if (!inBackward(op))
      return setAll(Degree::Scaled);
    return report(op, why, detail);
  };

  if (isa<amp::LossGradOp>(op))
    return success(); // the seed: Scaled from the start
  if (isa<amp::GradOp>(op)) {
    // A gradient derived from the seed but not proportional to it (a
    // normalization g / |g| of the scaled backward); one that does not
    // depend on the seed at all is the seed flow's error.
    if (in[0] == Degree::Free && backward.contains(op->getOperand(0)))
      return report(op, Break::NotProportional);
    return setAll(Degree::Free);
  }
  // Sums and products of a known zero stay known zeros below (a weight's
  // gradient through a zero initial state, x0^T dY with x0 a zero fill).
  // So do quotients of one, selects of two, and slices, inserts and
  // reshapes of them (an LSTM's fused gates: the gradient of the forget
  // gate, which multiplies c0 = 0, through the sigmoid's derivative and
  // inserted into zeros).
  bool movesData =
      isa<tensor::ExtractSliceOp, tensor::InsertSliceOp, tensor::ExpandShapeOp,
          tensor::CollapseShapeOp, tensor::CastOp, tensor::ExtractOp,
          tensor::InsertOp, tensor::FromElementsOp, tensor::SplatOp,
          tensor::ConcatOp, tensor::ReshapeOp, tensor::PadOp>(op);
  bool zeroIn =
      llvm::is_contained(in, Degree::Zero) &&
      (movesData || isa<arith::AddFOp, arith::SubFOp, arith::MulFOp,
                        arith::DivFOp, arith::NegFOp, arith::ExtFOp,
                        arith::TruncFOp, arith::SelectOp, math::FmaOp>(op));
  if (isa<amp::CountUnderflowOp>(op) || !anyScaled) {
    // No seed dependence here: results are seed-free (region ops are still
    // walked, their bodies may capture the backward).
    if ((op->getNumRegions() == 0 && !zeroIn) || isa<amp::CountUnderflowOp>(op))
      return setAll(Degree::Free);
  }

  // arith and math on scalars or tensors.
  if (isa<arith::AddFOp, arith::SubFOp>(op)) {
    auto [d, why] = sumOf(in);
    if (why != Break::None)
      return fail(why,
                  "operand #" + std::to_string(in[0] == Degree::Free ? 0 : 1));
    return setAll(d);
  }
  if (isa<arith::MulFOp>(op)) {
    if (in[0] == Degree::Zero || in[1] == Degree::Zero)
      return setAll(Degree::Zero);
    if (in[0] == Degree::Scaled && in[1] == Degree::Scaled)
      return fail(Break::Quadratic);
    return setAll(anyScaled ? Degree::Scaled : Degree::Free);
  }
  if (isa<arith::DivFOp>(op)) {
    if (in[1] == Degree::Scaled)
      return fail(Break::Division);
    return setAll(in[0]);
  }
  if (isa<arith::NegFOp, arith::ExtFOp, arith::TruncFOp, math::AbsFOp>(op))
    return setAll(in[0]);
  if (isa<arith::MaximumFOp, arith::MinimumFOp, arith::MaxNumFOp,
          arith::MinNumFOp>(op)) {
    auto [d, why] = sumOf(in);
    if (why != Break::None)
      return fail(Break::Threshold, "takes the maximum or minimum of");
    return setAll(d);
  }
  if (isa<arith::CmpFOp>(op)) {
    auto [d, why] = sumOf(in);
    if (why != Break::None)
      return fail(Break::Threshold, "compares");
    return setAll(Degree::Free); // S > 0 keeps the order
  }
  if (auto select = dyn_cast<arith::SelectOp>(op)) {
    if (in[0] == Degree::Scaled)
      return fail(Break::NonLinear, "a condition");
    auto [d, why] = sumOf({in[1], in[2]});
    if (why != Break::None)
      return fail(Break::Mixed, "the other operand of the select");
    return setAll(d);
  }
  if (isa<math::FmaOp>(op)) {
    if (in[0] == Degree::Scaled && in[1] == Degree::Scaled)
      return fail(Break::Quadratic);
    Degree product =
        in[0] == Degree::Zero || in[1] == Degree::Zero       ? Degree::Zero
        : in[0] == Degree::Scaled || in[1] == Degree::Scaled ? Degree::Scaled
                                                             : Degree::Free;
    auto [d, why] = sumOf({product, in[2]});
    if (why != Break::None)
      return fail(Break::Mixed, "the addend of the fma");
    return setAll(d);
  }
  // Tensor ops that move data: their float operands are joined.
  if (movesData) {
    SmallVector<Degree> data;
    for (auto [v, d] : llvm::zip(op->getOperands(), in))
      if (isa<FloatType>(getElementTypeOrSelf(v.getType())))
        data.push_back(d);
    if (auto pad = dyn_cast<tensor::PadOp>(op))
      if (Value padding = pad.getConstantPaddingValue())
        data.push_back(degreeOf(padding));
    auto [d, why] = sumOf(data);
    if (why != Break::None)
      return fail(Break::Mixed, "seed-free data");
    return setAll(d);
  }
  // Shape queries read no element: a dynamic batch's size read off a
  // backward tensor does not change with S.
  if (isa<arith::ConstantOp, linalg::IndexOp, tensor::DimOp, tensor::RankOp>(
          op))
    return setAll(Degree::Free);

  // Ops with regions: linalg bodies, scf loops and branches.
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
    Block *body = linalgOp.getBlock();
    SmallVector<Degree> args;
    for (OpOperand &operand : op->getOpOperands())
      if (operand.getOperandNumber() < body->getNumArguments())
        args.push_back(degreeOf(operand.get()));
    SmallVector<Degree> yielded;
    if (failed(visitRegionBody(op, *body, args, yielded)))
      return failure();
    for (auto [r, d] : llvm::zip(op->getResults(), yielded)) {
      // An accumulator that starts from a seed-free term (an `outs` that is
      // not zero, read by the body) mixes like an add.
      degrees[r] = d;
    }
    return success();
  }
  if (auto loop = dyn_cast<scf::ForOp>(op)) {
    SmallVector<Degree> args{Degree::Free}; // the induction variable
    for (auto [k, init] : llvm::enumerate(loop.getInitArgs())) {
      bool carriesBackward = backward.contains(loop->getResult(k));
      Degree d = degreeOf(init);
      if (carriesBackward && d == Degree::Free)
        return report(op, Break::Mixed,
                      "the initial value of iter_arg #" + std::to_string(k) +
                          " (a micro-batch accumulator of scaled gradients "
                          "must start from zero)");
      args.push_back(carriesBackward ? Degree::Scaled : d);
    }
    SmallVector<Degree> yielded;
    if (failed(visitRegionBody(op, *loop.getBody(), args, yielded)))
      return failure();
    for (auto [k, r] : llvm::enumerate(op->getResults()))
      degrees[r] = args[k + 1] == Degree::Scaled ? Degree::Scaled : yielded[k];
    return success();
  }
  if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
    SmallVector<Degree> thenDegrees, elseDegrees;
    if (failed(
            visitRegionBody(op, ifOp.getThenRegion().front(), {}, thenDegrees)))
      return failure();
    if (!ifOp.getElseRegion().empty() &&
        failed(
            visitRegionBody(op, ifOp.getElseRegion().front(), {}, elseDegrees)))
      return failure();
    for (auto [k, r] : llvm::enumerate(op->getResults())) {
      auto [d, why] =
          sumOf({thenDegrees[k],
                 k < elseDegrees.size() ? elseDegrees[k] : Degree::Zero});
      if (why != Break::None)
        return fail(Break::Mixed,
                    "the other branch's result #" + std::to_string(k));
      degrees[r] = d;
    }
    return success();
  }
  if (op->hasTrait<OpTrait::IsTerminator>())
    return success();
  if (!anyScaled) {
    for (Region &region : op->getRegions())
      for (Block &block : region)
        if (failed(visitBlock(block)))
          return failure();
    return setAll(Degree::Free);
  }

  // A sum, maximum or minimum over the ranks of one value
  // (amp-data-parallel): every rank's term has the value's degree, and S > 0
  // keeps the order.
  if (auto allReduce = dyn_cast<shard::AllReduceOp>(op)) {
    shard::ReductionKind kind = allReduce.getReduction();
    if (kind != shard::ReductionKind::Sum &&
        kind != shard::ReductionKind::Max && kind != shard::ReductionKind::Min)
      return fail(Break::NonLinear,
                  "a collective reduction other than sum, max or min");
    return setAll(in[0]);
  }
  if (isa<math::MathDialect>(op->getDialect()))
    return fail(Break::NonLinear, "a non-linear function");
  if (isa<arith::ArithDialect>(op->getDialect()))
    return fail(Break::NonLinear, "an operation without a linearity rule");
  return fail(Break::NonLinear,
              isa<func::CallOp>(op)
                  ? "a call (amp does not follow the backward into the "
                    "callee; inline it, e.g. with --inline)"
                  : "an operation without a linearity rule");
}

LogicalResult
mlir::amp::checkSeedLinearity(func::FuncOp func, Value seed,
                              const llvm::SetVector<Value> &backward) {
  Analysis analysis(seed, backward);
  return analysis.visitBlock(func.getBody().front());
}
