//===- ChunkBatchReductions.cpp - amp-chunk-batch-reductions --------------===//
//
// Every sum over the batch computed as N data-parallel ranks compute it: N
// consecutive chunks, each summed from zero, then added in chunk order
// (docs/distributed.md, "Reproducing an N-rank run in one process"). First
// the batch dimensions of the step's values, followed forward from the
// input and label arguments; then one rewrite per reduction over them.
//
//===----------------------------------------------------------------------===//

#include "amp/Analysis/Gather.h"
#include "amp/Analysis/SumReduction.h"
#include "amp/Analysis/TrainingStep.h"
#include "amp/Distributed/Passes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/bit.h"

namespace mlir::amp {
#define GEN_PASS_DEF_CHUNKBATCHREDUCTIONS
#include "amp/Distributed/Passes.h.inc"
} // namespace mlir::amp

using namespace mlir;
using namespace mlir::amp;

namespace {

/// Bit d set: dimension d of a tensor (or loop d of a linalg op) runs over
/// the examples of the batch, batch-major: its extent is the batch size
/// times m, and index i belongs to example i / m (a [B, S] collapsed to
/// B x S rows, as a sequence model's contractions see it).
using DimMask = uint64_t;

/// The positions of the set bits of `mask`, lowest first.
static SmallVector<unsigned> bitsOf(DimMask mask) {
  SmallVector<unsigned> bits;
  for (; mask; mask &= mask - 1)
    bits.push_back(static_cast<unsigned>(llvm::countr_zero(mask)));
  return bits;
}

/// A reduction over the batch: `loop` is a batch loop and a reduction loop
/// of `op` (the first; `batchLoops` counts them).
struct BatchReduction {
  linalg::LinalgOp op;
  unsigned loop;
  unsigned batchLoops;
};

/// The batch dimensions of the values of one step function, followed
/// forward from its input and label arguments through the top-level ops.
class BatchDims {
public:
  BatchDims(int64_t batch) : batch(batch) {}

  DimMask of(Value v) const { return dims.lookup(v); }

  /// Marks dimensions `mask` of `v` as batch dimensions, those whose static
  /// extent is a multiple of the batch size only.
  void mark(Value v, DimMask mask) {
    auto type = dyn_cast<RankedTensorType>(v.getType());
    if (!type || type.getRank() > 64)
      return;
    for (unsigned d : bitsOf(mask))
      if (d < type.getRank() && !type.isDynamicDim(d) &&
          type.getDimSize(d) % batch == 0)
        dims[v] |= DimMask(1) << d;
  }

  /// Follows the batch dimensions through `op`; a linalg op that reduces
  /// over a batch loop is appended to `reductions`.
  void visit(Operation *op, SmallVectorImpl<BatchReduction> &reductions);

private:
  void visitLinalg(linalg::LinalgOp op,
                   SmallVectorImpl<BatchReduction> &reductions);

  int64_t batch;
  DenseMap<Value, DimMask> dims;
};

void BatchDims::visitLinalg(linalg::LinalgOp op,
                            SmallVectorImpl<BatchReduction> &reductions) {
  if (!op.hasPureTensorSemantics() || op.getNumLoops() > 64)
    return;
  // A loop is a batch loop when it alone indexes an operand's batch
  // dimension.
  DimMask loops = 0;
  for (OpOperand &operand : op->getOpOperands()) {
    DimMask operandDims = of(operand.get());
    if (!operandDims)
      continue;
    AffineMap map = op.getMatchingIndexingMap(&operand);
    for (unsigned d : bitsOf(operandDims))
      if (auto dim = dyn_cast<AffineDimExpr>(map.getResult(d)))
        loops |= DimMask(1) << dim.getPosition();
  }
  if (!loops)
    return;
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  SmallVector<unsigned> reduced;
  for (unsigned loop : bitsOf(loops))
    if (iterators[loop] == utils::IteratorType::reduction)
      reduced.push_back(loop);
  if (!reduced.empty())
    reductions.push_back(
        {op, reduced.front(), static_cast<unsigned>(reduced.size())});
  // Results: the dimensions indexed by a parallel batch loop.
  for (OpResult result : op->getResults()) {
    AffineMap map = op.getIndexingMapMatchingResult(result);
    DimMask resultDims = 0;
    for (auto [d, expr] : llvm::enumerate(map.getResults()))
      if (auto dim = dyn_cast<AffineDimExpr>(expr))
        if ((loops >> dim.getPosition()) & 1 &&
            iterators[dim.getPosition()] == utils::IteratorType::parallel)
          resultDims |= DimMask(1) << d;
    mark(result, resultDims);
  }
}

void BatchDims::visit(Operation *op,
                      SmallVectorImpl<BatchReduction> &reductions) {
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
    return visitLinalg(linalgOp, reductions);
  if (op->hasTrait<OpTrait::Elementwise>() || isa<tensor::CastOp>(op)) {
    DimMask operandDims = 0;
    for (Value operand : op->getOperands())
      operandDims |= of(operand);
    for (Value result : op->getResults())
      mark(result, operandDims);
    return;
  }
  if (auto expand = dyn_cast<tensor::ExpandShapeOp>(op)) {
    // A batch dimension goes to the outermost dimension of its group that
    // is not 1, when that one still holds whole examples (mark checks its
    // extent is a multiple of the batch size).
    DimMask resultDims = 0;
    SmallVector<ReassociationIndices> groups = expand.getReassociationIndices();
    for (unsigned d : bitsOf(of(expand.getSrc())))
      for (int64_t r : groups[d])
        if (expand.getResultType().getDimSize(r) != 1) {
          resultDims |= DimMask(1) << r;
          break;
        }
    return mark(expand.getResult(), resultDims);
  }
  if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(op)) {
    // A collapsed group whose outermost dimension that is not 1 is a batch
    // dimension stays batch-major.
    DimMask srcDims = of(collapse.getSrc()), resultDims = 0;
    for (auto [r, group] : llvm::enumerate(collapse.getReassociationIndices()))
      for (int64_t d : group) {
        if ((srcDims >> d) & 1)
          resultDims |= DimMask(1) << r;
        if (collapse.getSrcType().getDimSize(d) != 1)
          break;
      }
    return mark(collapse.getResult(), resultDims);
  }
  if (auto pad = dyn_cast<tensor::PadOp>(op)) {
    // A batch dimension not padded (a convolution's input padded in its
    // image dimensions only).
    DimMask srcDims = of(pad.getSource()), resultDims = 0;
    for (unsigned d : bitsOf(srcDims)) {
      std::optional<int64_t> low = getConstantIntValue(pad.getMixedLowPad()[d]),
                             high =
                                 getConstantIntValue(pad.getMixedHighPad()[d]);
      if (low && high && *low == 0 && *high == 0)
        resultDims |= DimMask(1) << d;
    }
    return mark(pad.getResult(), resultDims);
  }
  if (auto insert = dyn_cast<tensor::InsertSliceOp>(op)) {
    // A batch dimension of the inserted value that fills the destination's
    // dimension whole (the padded cotangent of a convolution's input: its
    // image inserted into zeros), when no dimension is dropped.
    DimMask srcDims = of(insert.getSource()), resultDims = 0;
    RankedTensorType dest = insert.getDestType();
    if (insert.getSourceType().getRank() == dest.getRank())
      for (unsigned d : bitsOf(srcDims)) {
        std::optional<int64_t> offset =
            getConstantIntValue(insert.getMixedOffsets()[d]);
        if (offset && *offset == 0 && !dest.isDynamicDim(d) &&
            insert.getSourceType().getDimSize(d) == dest.getDimSize(d))
          resultDims |= DimMask(1) << d;
      }
    return mark(insert.getResult(), resultDims);
  }
  if (auto slice = dyn_cast<tensor::ExtractSliceOp>(op)) {
    // A batch dimension taken whole, renumbered past dropped dimensions.
    DimMask srcDims = of(slice.getSource());
    llvm::SmallBitVector dropped = slice.getDroppedDims();
    DimMask resultDims = 0;
    unsigned r = 0;
    for (unsigned d = 0; d < slice.getSourceType().getRank(); ++d) {
      if (dropped.test(d))
        continue;
      std::optional<int64_t> offset =
          getConstantIntValue(slice.getMixedOffsets()[d]);
      if ((srcDims >> d) & 1 && offset && *offset == 0)
        resultDims |= DimMask(1) << r;
      ++r;
    }
    return mark(slice.getResult(), resultDims);
  }
}

/// The combiner of each result of a reduction: its yielded value is
/// `arith.addf` of the init's block argument (used only there) and a term;
/// `failure` names the first result that is not a sum.
static LogicalResult matchSums(linalg::LinalgOp op, std::string &why) {
  for (OpOperand &init : op.getDpsInitsMutable()) {
    if (!isSumOfInitAndTerm(op, init)) {
      Operation *def = op.getMatchingYieldValue(&init)->get().getDefiningOp();
      if (isa_and_nonnull<arith::MaximumFOp, arith::MinimumFOp,
                          arith::MaxNumFOp, arith::MinNumFOp, arith::AddIOp,
                          arith::OrIOp, arith::AndIOp, arith::MaxSIOp,
                          arith::MinSIOp, arith::MaxUIOp, arith::MinUIOp>(def))
        why.clear(); // exact in any order: a min, a max, an integer sum
      else
        why = "its result " +
              std::to_string(init.getOperandNumber() - op.getNumDpsInputs()) +
              " is not a sum of its init and a term";
      return failure();
    }
  }
  return success();
}

/// Why `r` cannot be split into chunks of `chunk` examples (empty: it can;
/// `silent`: a min, max or integer sum, which needs no chunks).
static std::string whyNotChunked(BatchReduction r, int64_t batch,
                                 bool &silent) {
  silent = false;
  linalg::LinalgOp op = r.op;
  if (r.batchLoops > 1)
    return "it reduces over two loops that both run over the batch (the "
           "ranks never pair examples of different ranks)";
  int64_t extent = op.getStaticLoopRanges()[r.loop];
  if (ShapedType::isDynamic(extent) || extent % batch != 0)
    return "its batch loop does not run over the whole batch";
  for (Value v : op->getOperands())
    if (auto type = dyn_cast<ShapedType>(v.getType());
        type && !type.hasStaticShape())
      return "an operand has a dynamic shape";
  bool readsIndex = false;
  op.getBlock()->walk(
      [&](linalg::IndexOp index) { readsIndex |= index.getDim() == r.loop; });
  if (readsIndex)
    return "its body reads the batch loop's index (linalg.index)";
  for (OpOperand *input : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(input);
    for (AffineExpr expr : map.getResults())
      if (expr.isFunctionOfDim(r.loop) && !isa<AffineDimExpr>(expr))
        return "an operand is indexed by an expression of the batch loop";
  }
  std::string why;
  if (failed(matchSums(op, why))) {
    silent = why.empty();
    return why;
  }
  for (Value init : op.getDpsInits()) {
    auto fill = init.getDefiningOp<linalg::FillOp>();
    if (!fill || !matchPattern(fill.getInputs()[0], m_AnyZeroFloat()))
      return "an init is not a linalg.fill of 0.0 (the ranks would each "
             "add it)";
  }
  return "";
}

/// The elementwise sum of `partials` (static tensors of one type), left to
/// right: ((p0 + p1) + p2) ..., as MPI adds the ranks' results.
static Value sumInChunkOrder(OpBuilder &b, Location loc,
                             ArrayRef<Value> partials) {
  auto type = cast<RankedTensorType>(partials.front().getType());
  Value empty =
      tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType());
  SmallVector<AffineMap> maps(partials.size() + 1,
                              b.getMultiDimIdentityMap(type.getRank()));
  SmallVector<utils::IteratorType> iterators(type.getRank(),
                                             utils::IteratorType::parallel);
  auto sum = linalg::GenericOp::create(
      b, loc, TypeRange{type}, partials, ValueRange{empty}, maps, iterators,
      [&](OpBuilder &nb, Location nl, ValueRange args) {
        Value acc = args[0];
        for (size_t c = 1; c < partials.size(); ++c)
          acc = arith::AddFOp::create(nb, nl, acc, args[c]);
        linalg::YieldOp::create(nb, nl, acc);
      });
  return sum.getResult(0);
}

/// Why the scatter-add `loop` (a gather's adjoint, kScatterAddAttr) cannot
/// be split into `chunks` by the batch, or "" when it can: its outer loop
/// must run from 0 in steps of 1 over a batch dimension (an index of a
/// tensor.extract in its body, at a position `dims` marks as batch, whose
/// static extent is the loop's), a multiple of `chunks`.
static std::string whyScatterNotChunked(scf::ForOp loop, const BatchDims &dims,
                                        int64_t chunks) {
  std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound()),
                         ub = getConstantIntValue(loop.getUpperBound()),
                         step = getConstantIntValue(loop.getStep());
  if (!lb || *lb != 0 || !ub || !step || *step != 1)
    return "its outer loop does not run from 0 to a static bound in steps "
           "of 1";
  Value iv = loop.getInductionVar();
  bool overBatch = false;
  loop.getBody()->walk([&](tensor::ExtractOp extract) {
    auto type = cast<RankedTensorType>(extract.getTensor().getType());
    for (auto [d, index] : llvm::enumerate(extract.getIndices()))
      if (index == iv && ((dims.of(extract.getTensor()) >> d) & 1) &&
          type.getDimSize(d) == *ub)
        overBatch = true;
  });
  if (!overBatch)
    return "its outer loop does not run over the batch";
  if (*ub % chunks != 0)
    return "chunks does not divide its outer loop's extent";
  return "";
}

/// Replaces the scatter-add `loop` by `chunks` copies over consecutive
/// slices of its outer loop, each from the loop's zero init, and their sum
/// in chunk order.
static void chunkScatter(scf::ForOp loop, int64_t chunks) {
  OpBuilder b(loop);
  Location loc = loop.getLoc();
  int64_t extent = *getConstantIntValue(loop.getUpperBound());
  SmallVector<Value> partials;
  for (int64_t c = 0; c < chunks; ++c) {
    auto part = cast<scf::ForOp>(b.clone(*loop));
    part.setLowerBound(
        arith::ConstantIndexOp::create(b, loc, c * extent / chunks));
    part.setUpperBound(
        arith::ConstantIndexOp::create(b, loc, (c + 1) * extent / chunks));
    part->moveAfter(part.getUpperBound().getDefiningOp());
    partials.push_back(part.getResult(0));
  }
  Value sum = sumInChunkOrder(b, loc, partials);
  loop.getResult(0).replaceAllUsesWith(sum);
  loop.erase();
}

/// Replaces `r` by `chunks` clones over consecutive slices of the batch,
/// each from its own zero init, and one elementwise sum of their results
/// in chunk order.
static void chunk(BatchReduction r, int64_t chunks) {
  linalg::LinalgOp op = r.op;
  Location loc = op.getLoc();
  OpBuilder b(op);
  int64_t size = op.getStaticLoopRanges()[r.loop] / chunks;
  SmallVector<SmallVector<Value>> partials(op->getNumResults());
  for (int64_t c = 0; c < chunks; ++c) {
    SmallVector<Value> operands;
    for (OpOperand &operand : op->getOpOperands()) {
      Value v = operand.get();
      auto type = dyn_cast<RankedTensorType>(v.getType());
      if (!type) { // a scalar operand, the same for every chunk
        operands.push_back(v);
        continue;
      }
      if (op.isDpsInit(&operand)) {
        // A fresh copy of the zero fill: each chunk sums from zero.
        auto fill = v.getDefiningOp<linalg::FillOp>();
        Value empty = tensor::EmptyOp::create(b, loc, type.getShape(),
                                              type.getElementType());
        operands.push_back(
            linalg::FillOp::create(b, loc, fill.getInputs()[0], empty)
                .getResult(0));
        continue;
      }
      AffineMap map = op.getMatchingIndexingMap(&operand);
      SmallVector<OpFoldResult> offsets(type.getRank(), b.getIndexAttr(0)),
          sizes, strides(type.getRank(), b.getIndexAttr(1));
      for (int64_t extent : type.getShape())
        sizes.push_back(b.getIndexAttr(extent));
      bool sliced = false;
      for (auto [d, expr] : llvm::enumerate(map.getResults()))
        if (expr.isFunctionOfDim(r.loop)) {
          offsets[d] = b.getIndexAttr(c * size);
          sizes[d] = b.getIndexAttr(size);
          sliced = true;
        }
      operands.push_back(sliced ? tensor::ExtractSliceOp::create(
                                      b, loc, v, offsets, sizes, strides)
                                      .getResult()
                                : v);
    }
    Operation *part = clone(b, op, op->getResultTypes(), operands);
    for (OpResult result : part->getResults())
      partials[result.getResultNumber()].push_back(result);
  }
  SmallVector<Value> sums;
  for (OpResult result : op->getResults())
    sums.push_back(sumInChunkOrder(b, loc, partials[result.getResultNumber()]));
  llvm::SetVector<Operation *> fills;
  for (Value init : op.getDpsInits())
    fills.insert(init.getDefiningOp());
  op->replaceAllUsesWith(sums);
  op->erase();
  // The original zero fills, when nothing else reads them.
  for (Operation *fill : fills)
    if (fill->use_empty())
      fill->erase();
}

struct ChunkBatchReductionsPass
    : amp::impl::ChunkBatchReductionsBase<ChunkBatchReductionsPass> {
  using ChunkBatchReductionsBase::ChunkBatchReductionsBase;

  LogicalResult runOnStep(func::FuncOp func) {
    FailureOr<TrainingStep> step =
        TrainingStep::analyze(func, /*requireMarkers=*/false);
    if (failed(step))
      return failure();
    BlockArgument input = func.getArgument(step->input);
    auto inputType = cast<RankedTensorType>(input.getType());
    if (inputType.isDynamicDim(0))
      return emitError(input.getLoc(), "amp-chunk-batch-reductions: the "
                                       "input's batch dimension is dynamic; "
                                       "chunks need a static batch size");
    int64_t batch = inputType.getDimSize(0);
    if (batch % chunks != 0)
      return emitError(input.getLoc(), "amp-chunk-batch-reductions: chunks=")
             << static_cast<int64_t>(chunks)
             << " does not divide the batch size " << batch
             << " (each chunk is one rank's batch)";
    BatchDims dims(batch);
    for (unsigned i : step->inputs)
      dims.mark(func.getArgument(i), 1);
    dims.mark(func.getArgument(step->label), 1);
    SmallVector<BatchReduction> reductions;
    for (Operation &op : func.getBody().front())
      dims.visit(&op, reductions);
    // A sum over the batch left whole: the one process no longer adds as
    // the ranks do, so say which and why.
    auto warnWhole = [&](Location loc, StringRef what, StringRef why) {
      emitWarning(loc, "amp-chunk-batch-reductions: this ")
          << what << " is not split into chunks: " << why
          << "; it sums in one order over all " << batch << " examples, not as "
          << static_cast<int64_t>(chunks) << " ranks would";
    };
    for (BatchReduction r : reductions) {
      bool silent = false;
      std::string why = whyNotChunked(r, batch, silent);
      if (silent)
        continue;
      if (!why.empty()) {
        warnWhole(r.op->getLoc(), "reduction over the batch", why);
        continue;
      }
      chunk(r, chunks);
    }
    // The embedding gradients (gathers' scatter-adds, scf.for nests).
    SmallVector<scf::ForOp> scatters;
    for (Operation &op : func.getBody().front())
      if (auto loop = dyn_cast<scf::ForOp>(op);
          loop && loop->hasAttr(kScatterAddAttr))
        scatters.push_back(loop);
    for (scf::ForOp loop : scatters) {
      if (std::string why = whyScatterNotChunked(loop, dims, chunks);
          !why.empty()) {
        warnWhole(loop.getLoc(), "scatter-add (an embedding's gradient)", why);
        continue;
      }
      chunkScatter(loop, chunks);
    }
    return success();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (chunks < 1) {
      emitError(module.getLoc(), "amp-chunk-batch-reductions: chunks=")
          << static_cast<int64_t>(chunks)
          << ": give the number of ranks to reproduce (>= 1)";
      return signalPassFailure();
    }
    if (failed(forEachTrainStep(
            module, "amp-chunk-batch-reductions", [&](func::FuncOp func) {
              return chunks > 1 ? runOnStep(func) : success();
            })))
      signalPassFailure();
  }
};

} // namespace
