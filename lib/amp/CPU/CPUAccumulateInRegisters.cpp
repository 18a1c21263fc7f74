//===- CPUAccumulateInRegisters.cpp - amp-cpu-accumulate-in-registers -----===//
//
// Lowers the linalg ops on buffers that have reduction loops to scf.for
// loops that carry their output elements (a tile of up to 8) in iter_args
// across the reduction loops: one load and one store per output element
// instead of one per reduction step. See the pass description in
// CPU/Passes.td.
//
//===----------------------------------------------------------------------===//

#include "amp/CPU/Passes.h"

#include "LoopIndices.h"
#include "amp/Analysis/BufferUses.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::amp {
#define GEN_PASS_DEF_CPUACCUMULATEINREGISTERS
#include "amp/CPU/Passes.h.inc"
} // namespace mlir::amp

using namespace mlir;
using namespace mlir::amp;

/// How an op is lowered: `outer` loops (parallel, the op's order) around
/// the `reduction` loops (the op's order) that carry the accumulators; the
/// `inner` parallel loops (static extents `innerExtents`) are unrolled
/// inside the reduction loops, one accumulator per point of them. When
/// `tiled` is set, `inner` is that one loop, which is also in `outer` with
/// step innerExtents[0] (a tile of it, unrolled inside the reduction).
struct AccumulatorPlan {
  SmallVector<unsigned> outer, reduction, inner;
  SmallVector<int64_t> innerExtents;
  int64_t tilePoints = 1; ///< the product of innerExtents
  std::optional<unsigned> tiled;
};

/// Most accumulators one op keeps in registers (scalars; the AVX2 register
/// file holds 16). 16 made the CNN's f32 step 3.7 ms instead of 4.7, but
/// doubled its compile time (LLVM on the unrolled bodies, 13 -> 25 s).
constexpr int64_t kMaxTilePoints = 8;

/// The plan for `op`, or nullopt when this pass leaves it to
/// convert-linalg-to-loops. Each output element sees the same sequence of
/// updates as in the op's own loop order (its reduction loops keep their
/// relative order, and the parallel loops only select the element), so the
/// results are the same bits.
static std::optional<AccumulatorPlan> planAccumulators(linalg::LinalgOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumLoops() == 0 ||
      op->getNumRegions() != 1 || op.getBlock() == nullptr ||
      op.getNumDpsInits() == 0)
    return std::nullopt;
  SmallVector<utils::IteratorType> iters = op.getIteratorTypesArray();
  if (!llvm::is_contained(iters, utils::IteratorType::reduction))
    return std::nullopt;
  SmallVector<int64_t> extents = op.getStaticLoopRanges();
  AccumulatorPlan plan;
  // The innermost parallel loops, unrolled, as many as fit in registers
  // (the others move outside the reduction loops). When the innermost one
  // alone does not fit, the op is left alone: that loop is a unit-stride
  // loop over outputs that LLVM vectorizes (amp-interchange-contraction-loops
  // puts matmuls in that form), and moving the reduction inward would make
  // the accesses strided.
  unsigned numLoops = iters.size(), firstInner = numLoops;
  while (firstInner > 0 &&
         iters[firstInner - 1] == utils::IteratorType::parallel) {
    int64_t extent = extents[firstInner - 1];
    if (ShapedType::isDynamic(extent) ||
        plan.tilePoints * extent > kMaxTilePoints)
      break;
    plan.tilePoints *= extent;
    --firstInner;
  }
  if (iters.back() == utils::IteratorType::parallel && firstInner == numLoops)
    return std::nullopt;
  for (unsigned loop = firstInner; loop < numLoops; ++loop) {
    plan.inner.push_back(loop);
    plan.innerExtents.push_back(extents[loop]);
  }
  // The innermost loop is a reduction: tiles of the parallel loop that is
  // the first output's fastest-varying dimension (its stores contiguous),
  // the largest tile that divides it and fits.
  if (plan.inner.empty()) {
    AffineMap out =
        op.getMatchingIndexingMap(&*op.getDpsInitsMutable().begin());
    AffineDimExpr last(nullptr);
    if (out.getNumResults())
      last = dyn_cast<AffineDimExpr>(out.getResults().back());
    if (last && iters[last.getPosition()] == utils::IteratorType::parallel &&
        !ShapedType::isDynamic(extents[last.getPosition()])) {
      int64_t extent = extents[last.getPosition()];
      for (int64_t tile = std::min(extent, kMaxTilePoints); tile >= 2; --tile)
        if (extent % tile == 0) {
          plan.inner.push_back(last.getPosition());
          plan.innerExtents.push_back(tile);
          plan.tilePoints = tile;
          plan.tiled = last.getPosition();
          break;
        }
    }
  }
  for (unsigned loop = 0; loop < firstInner; ++loop)
    (iters[loop] == utils::IteratorType::parallel ? plan.outer : plan.reduction)
        .push_back(loop);
  for (OpOperand &init : op.getDpsInitsMutable()) {
    // Every parallel loop selects a different element of every output, and
    // no reduction loop indexes one: a reduction loop there would write
    // the output at several places during the reduction.
    AffineMap map = op.getMatchingIndexingMap(&init);
    if (!map.isProjectedPermutation() ||
        map.getNumResults() !=
            plan.outer.size() + (plan.tiled ? 0 : plan.inner.size()))
      return std::nullopt;
    for (unsigned loop : plan.reduction)
      if (map.isFunctionOfDim(loop))
        return std::nullopt;
    // An output whose bytes an input also reads (the same buffer, a view
    // of it, an overlapping arena slot), or another output writes, would
    // be read or written at its old value while the accumulator holds the
    // new one.
    for (OpOperand &other : op->getOpOperands())
      if (&other != &init && isa<MemRefType>(other.get().getType()) &&
          mayShareBytes(other.get(), init.get()))
        return std::nullopt;
  }
  // A body that reads or writes memory itself (a buffer from outside the
  // op) could see an output between its updates.
  WalkResult memory = op.getBlock()->walk([](Operation *inner) {
    return isMemoryEffectFree(inner) ? WalkResult::advance()
                                     : WalkResult::interrupt();
  });
  if (memory.wasInterrupted())
    return std::nullopt;
  return plan;
}

/// Lowers `op` by `plan` (planAccumulators).
static void lowerWithAccumulators(linalg::LinalgOp op,
                                  const AccumulatorPlan &plan,
                                  RewriterBase &rewriter) {
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  SmallVector<Range> ranges = op.createLoopRanges(rewriter, loc);
  // createLoopRanges starts every loop at 0, step 1.
  auto bounds = [&](ArrayRef<unsigned> loops, SmallVector<Value> &lbs,
                    SmallVector<Value> &ubs, SmallVector<Value> &steps) {
    for (unsigned loop : loops) {
      lbs.push_back(
          getValueOrCreateConstantIndexOp(rewriter, loc, ranges[loop].offset));
      ubs.push_back(
          getValueOrCreateConstantIndexOp(rewriter, loc, ranges[loop].size));
      steps.push_back(plan.tiled == loop
                          ? arith::ConstantIndexOp::create(rewriter, loc,
                                                           plan.innerExtents[0])
                          : getValueOrCreateConstantIndexOp(
                                rewriter, loc, ranges[loop].stride));
    }
  };
  SmallVector<Value> oLbs, oUbs, oSteps, rLbs, rUbs, rSteps;
  bounds(plan.outer, oLbs, oUbs, oSteps);
  bounds(plan.reduction, rLbs, rUbs, rSteps);
  unsigned numInits = op.getNumDpsInits();
  Block *body = op.getBlock();

  auto buildOuterBody = [&](OpBuilder &b, Location l, ValueRange oIvs) {
    SmallVector<Value> ivs(op.getNumLoops());
    for (auto [loop, iv] : llvm::zip_equal(plan.outer, oIvs))
      ivs[loop] = iv;
    Value tileStart = plan.tiled ? ivs[*plan.tiled] : Value();
    // The inner loops' variables at tile point `t` (row-major over
    // innerExtents), offset by the tile's start for a tiled loop.
    auto setInner = [&](OpBuilder &ib, Location il, int64_t t) {
      for (int64_t i = plan.inner.size() - 1; i >= 0; --i) {
        Value point =
            arith::ConstantIndexOp::create(ib, il, t % plan.innerExtents[i]);
        ivs[plan.inner[i]] =
            tileStart ? arith::AddIOp::create(ib, il, tileStart, point) : point;
        t /= plan.innerExtents[i];
      }
    };
    // The accumulators' initial values: the outputs at each tile point (no
    // reduction loop indexes an output).
    SmallVector<Value> inits;
    SmallVector<SmallVector<Value>> outIndices;
    for (int64_t t = 0; t < plan.tilePoints; ++t) {
      setInner(b, l, t);
      for (OpOperand &init : op.getDpsInitsMutable()) {
        outIndices.push_back(
            indicesAtLoops(b, l, op.getMatchingIndexingMap(&init), ivs));
        inits.push_back(
            memref::LoadOp::create(b, l, init.get(), outIndices.back()));
      }
    }
    scf::LoopNest nest = scf::buildLoopNest(
        b, l, rLbs, rUbs, rSteps, inits,
        [&](OpBuilder &nb, Location nl, ValueRange rIvs,
            ValueRange accs) -> scf::ValueVector {
          for (auto [loop, iv] : llvm::zip_equal(plan.reduction, rIvs))
            ivs[loop] = iv;
          scf::ValueVector results;
          for (int64_t t = 0; t < plan.tilePoints; ++t) {
            setInner(nb, nl, t);
            IRMapping map;
            for (OpOperand *input : op.getDpsInputOperands()) {
              Value value = input->get();
              if (isa<MemRefType>(value.getType()))
                value = memref::LoadOp::create(
                    nb, nl, value,
                    indicesAtLoops(nb, nl, op.getMatchingIndexingMap(input),
                                   ivs));
              map.map(body->getArgument(input->getOperandNumber()), value);
            }
            for (unsigned k = 0; k < numInits; ++k)
              map.map(body->getArgument(op.getNumDpsInputs() + k),
                      accs[t * numInits + k]);
            for (Operation &inner : body->without_terminator()) {
              if (auto index = dyn_cast<linalg::IndexOp>(inner)) {
                map.map(index.getResult(), ivs[index.getDim()]);
                continue;
              }
              nb.clone(inner, map);
            }
            for (Value yielded : body->getTerminator()->getOperands())
              results.push_back(map.lookupOrDefault(yielded));
          }
          return results;
        });
    for (int64_t t = 0; t < plan.tilePoints; ++t)
      for (auto [k, init] : llvm::enumerate(op.getDpsInitsMutable()))
        memref::StoreOp::create(b, l, nest.results[t * numInits + k],
                                init.get(), outIndices[t * numInits + k]);
  };
  scf::buildLoopNest(rewriter, loc, oLbs, oUbs, oSteps, buildOuterBody);
  rewriter.eraseOp(op);
}

namespace {
struct CPUAccumulateInRegistersPass
    : amp::impl::CPUAccumulateInRegistersBase<CPUAccumulateInRegistersPass> {
  void runOnOperation() override {
    std::vector<std::pair<linalg::LinalgOp, AccumulatorPlan>> work;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (std::optional<AccumulatorPlan> plan = planAccumulators(op))
        work.emplace_back(op, std::move(*plan));
    });
    IRRewriter rewriter(&getContext());
    for (auto &[op, plan] : work)
      lowerWithAccumulators(op, plan, rewriter);
  }
};
} // namespace
