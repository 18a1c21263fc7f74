//===- Rebatch.cpp - re-batch a forward model -----------------------------===//
//
// Analysis first: walk the body in program order and give every value that
// derives from the input's batch the position of its batch dimension, and
// every linalg op the indexing maps and operand replacements it needs; any
// op that mixes examples is an error there. Then one rewrite: new types,
// rebuilt inits and broadcasts, new maps, rebuilt reshapes and slices.
//
//===----------------------------------------------------------------------===//

#include "amp/TrainStep/Rebatch.h"

#include "amp/TrainStep/TrainStepOptions.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/Sequence.h"

using namespace mlir;
using namespace mlir::amp::trainstep;

static_assert(kDynamicBatch == ShapedType::kDynamic,
              "batch=dynamic is ShapedType::kDynamic");

namespace {

/// Where a value keeps the batch.
struct BatchDim {
  /// Batched: dimension `pos` is the batch. Squeezed: traced at batch 1 with
  /// the batch collapsed away; the re-batched value has the batch inserted
  /// at `pos` (one more dimension than the traced value).
  enum Kind { Batched, Squeezed } kind;
  unsigned pos;
  /// Squeezed: the collapse_shape that squeezed it (for the error).
  Operation *squeezedBy = nullptr;
  /// Batched: dimension `pos` holds batch x `factor` elements, the batch
  /// merged with the `factor` elements of the dimensions collapsed after it
  /// (traced at B > 1: a Linear's [B, T, D] -> [B*T, D], attention's heads
  /// [B, H, T, T] -> [B*H, T, T]); 1 for the batch alone.
  int64_t factor = 1;
  /// Traced at 1: the expand_shape that chose `pos` among several unit
  /// dimensions (Retry::unitExpandChoice), for the value it made.
  Operation *unitExpand = nullptr;
  unsigned unitCandidates = 0;
  /// Batched with `factor` > 1: how many of the `factor` elements come
  /// before the batch in dimension `pos` (the sequence positions of a
  /// sequence-first [S, B, E] -> [S*B, E], a Linear flattening its rows):
  /// index (o * batch + b) * (factor / outer) + i. 1: the batch leads.
  int64_t outer = 1;
};

/// What the rewrite does to one linalg op.
struct LinalgChange {
  SmallVector<AffineMap> maps;
  bool mapsChanged = false;
  /// (operand number, dimension): operand rebuilt at the new batch size
  /// (a broadcast value: empty, fill, splat, broadcasting linalg op).
  SmallVector<std::pair<unsigned, unsigned>> resize;
  /// (operand number, dimension): size-1 operand broadcast to the batch.
  SmallVector<std::pair<unsigned, unsigned>> broadcast;
  /// (operand number, dimension): an operand of `factor` elements there,
  /// tiled to batch x factor (traced at 1, a per-head value read along the
  /// batch merged with the heads).
  SmallVector<std::pair<unsigned, unsigned>> tile;
  /// The batch loop's factor (BatchDim::factor): resized and broadcast
  /// operands get batch x factor elements.
  int64_t factor = 1;
};

/// What an analysis is for, and how its errors read.
struct AnalysisMode {
  /// After the prefix in every error: "batch=8", "batch-dim=1".
  std::string option;
  /// Where the batch comes from, in errors ("dimension 1 of the input,
  /// argument #0"; originOf); empty only for followsBatch's quiet runs.
  std::string origin;
  /// Accept the batch alone in any dimension of a result and record it
  /// (Rebatcher::resultDims) instead of asking for dimension 0.
  bool locate = false;
};

/// The readings a model traced at batch 1 allows, as the quiet retries of
/// analyzeModel settle them.
struct Retry {
  /// Collapses that merge the batch with other dimensions and are followed
  /// as merged (BatchDim::factor) rather than squeezed.
  llvm::SmallPtrSet<Operation *, 4> mergeAtOne;
  /// Expand_shapes that split the batch's unit dimension into several unit
  /// dimensions ([1, 8] -> [1, 1, 8]): which of them holds the batch
  /// (0: the first; an op that reads it otherwise than the batch asks for
  /// the next).
  llvm::DenseMap<Operation *, unsigned> unitExpandChoice;
};

class Rebatcher {
public:
  Rebatcher(func::FuncOp model, ArrayRef<unsigned> inputs, int64_t traced,
            int64_t batch, StringRef prefix, const AnalysisMode &mode,
            const Retry &retry)
      : model(model), inputs(inputs), traced(traced), batch(batch),
        prefix(prefix), mode(mode), retry(retry) {}

  LogicalResult analyze();
  /// After a failed analyze(): the collapse whose squeezed batch the
  /// failure is about (a retry may follow it as merged), or null.
  Operation *squeezeFailure = nullptr;
  /// After a failed analyze(): the ambiguous unit expand (traced at 1) whose
  /// result the failing op read, and how many unit dimensions it could have
  /// put the batch in; a retry may take the next.
  Operation *unitExpandFailure = nullptr;
  unsigned unitExpandCandidates = 0;
  /// After analyze() with AnalysisMode::locate: per result, the dimension
  /// that holds the batch (none: the result does not derive from it).
  SmallVector<std::optional<unsigned>> resultDims;
  void rewrite();

private:
  InFlightDiagnostic error(Operation *op);
  std::string batchOrigin() const;
  /// The error of a squeezed batch (`bd`) that `user` reads without
  /// broadcasting it back over a batch loop: the collapse flattens across
  /// the batch.
  LogicalResult flattenError(BatchDim bd, Operation *user);
  /// Replaces the reshape `op` by `replacement` (batch dimension `bd`),
  /// keeping its traced type, and erases it.
  void replaceReshape(Operation *op, Value replacement, BatchDim bd);
  LogicalResult visit(Operation *op);
  /// `gathers`: the `tensor.extract`s in `op`'s body that read a value
  /// carrying the batch (torch-mlir's nearest upsampling, index_select).
  LogicalResult visitLinalg(linalg::LinalgOp op,
                            ArrayRef<tensor::ExtractOp> gathers);
  LogicalResult visitCollapse(tensor::CollapseShapeOp op, BatchDim src);
  LogicalResult visitExpand(tensor::ExpandShapeOp op, BatchDim src);
  /// `leading`: the rebuilt dimension may merge the batch with the
  /// dimensions after it (batch-major rows); false where the reader's rows
  /// are sequence-major (BatchDim::outer > 1), whose order such a value
  /// would not have.
  bool isResizable(Value value, unsigned pos, bool leading = true);

  RankedTensorType newType(Value traced) const;
  Value batchSize(OpBuilder &b);
  /// The new batch times `factor` (a constant, or the dynamic batch times
  /// it, computed at `b`'s insertion point).
  OpFoldResult batchSizeOfr(OpBuilder &b, int64_t factor = 1);
  Value resize(Value value, unsigned pos, int64_t factor = 1);
  Value broadcastAlong(Value value, unsigned pos, int64_t factor = 1);
  /// `value` repeated batch times along `pos` (expand a unit dimension
  /// before it, broadcast that, collapse the two).
  Value tileAlong(Value value, unsigned pos);
  /// The error of a value whose batch is merged with other dimensions
  /// (BatchDim::factor) read by `op`, which re-batching does not follow so.
  LogicalResult mergedError(Operation *op, Value merged);
  void rewriteLinalg(linalg::LinalgOp op, const LinalgChange &change);
  void rewriteCollapse(tensor::CollapseShapeOp op);
  void rewriteExpand(tensor::ExpandShapeOp op);
  void rewriteExtract(tensor::ExtractSliceOp op);
  void rewriteInsert(tensor::InsertSliceOp op);

  func::FuncOp model;
  /// The data arguments, each with the batch in dimension 0.
  SmallVector<unsigned> inputs;
  int64_t traced, batch;
  std::string prefix;
  const AnalysisMode &mode;
  const Retry &retry;
  /// The batch of every value that derives from the input's.
  llvm::DenseMap<Value, BatchDim> dims;
  /// The traced type of every value in `dims` (the rewrite changes types).
  llvm::DenseMap<Value, RankedTensorType> tracedTypes;
  llvm::DenseMap<Operation *, LinalgChange> linalgChanges;
  /// Rewrite: rebuilt values, by (traced value, dimension, factor).
  llvm::DenseMap<std::tuple<Value, unsigned, int64_t>, Value> resized,
      broadcasts;
  /// Rewrite: the ops `resize` rebuilt; erased when nothing else uses them.
  llvm::SmallPtrSet<Operation *, 16> rebuilt;
  Value dynamicSize;
};

} // namespace

InFlightDiagnostic Rebatcher::error(Operation *op) {
  InFlightDiagnostic diag = op->emitError();
  diag << prefix << ": " << mode.option << ": ";
  return diag;
}

LogicalResult Rebatcher::flattenError(BatchDim bd, Operation *user) {
  squeezeFailure = bd.squeezedBy;
  InFlightDiagnostic diag =
      error(bd.squeezedBy)
      << "'tensor.collapse_shape' merges the batch (" << batchOrigin()
      << ") with other dimensions, so the model flattens across the "
         "batch; it cannot be re-batched";
  diag.attachNote(user->getLoc())
      << "used by '" << user->getName()
      << "', which does not broadcast it back over a batch loop";
  return diag;
}

LogicalResult Rebatcher::mergedError(Operation *op, Value merged) {
  BatchDim bd = dims.lookup(merged);
  InFlightDiagnostic diag =
      error(op) << "'" << op->getName() << "' takes a value ("
                << tracedTypes.lookup(merged) << ") whose dimension " << bd.pos
                << " merges the batch (" << batchOrigin() << ") with "
                << bd.factor
                << " elements of other dimensions; re-batching follows such a "
                   "value through linalg ops, elementwise ops and the "
                   "expand_shape that splits the batch off again, not through '"
                << op->getName() << "'";
  // Traced at 1, a batch-major merge is first read as a squeeze.
  if (traced != 1 && bd.outer == 1)
    diag << " (trace the model at batch 1 to re-batch it)";
  return diag;
}

std::string Rebatcher::batchOrigin() const { return mode.origin; }

/// How messages print an indexing expression ("d0 + d5").
static std::string str(AffineExpr e) {
  std::string text;
  llvm::raw_string_ostream os(text);
  e.print(os);
  return text;
}

static bool isZero(AffineExpr e) {
  auto c = dyn_cast<AffineConstantExpr>(e);
  return c && c.getValue() == 0;
}

static bool usesIndexOf(linalg::LinalgOp op, unsigned loop) {
  auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
  if (!generic)
    return false;
  bool found = false;
  generic.getBody()->walk(
      [&](linalg::IndexOp index) { found |= index.getDim() == loop; });
  return found;
}

/// Whether every use of `linalg.index loop` in `op`'s body is the index of
/// the batch dimension (`dims`) of one of `gathers`: the op then reads each
/// example's own slice, as a batch loop of its own would.
static bool indexReadsOnlyBatches(linalg::LinalgOp op, unsigned loop,
                                  ArrayRef<tensor::ExtractOp> gathers,
                                  const llvm::DenseMap<Value, BatchDim> &dims) {
  bool only = true;
  op->walk([&](linalg::IndexOp index) {
    if (index.getDim() != loop)
      return;
    for (OpOperand &use : index->getUses()) {
      auto extract = dyn_cast<tensor::ExtractOp>(use.getOwner());
      only &=
          extract && llvm::is_contained(gathers, extract) &&
          use.getOperandNumber() == 1 + dims.lookup(extract.getTensor()).pos;
    }
  });
  return only;
}

/// The source dimension of `expand`'s result dimension `pos` when that is a
/// reassociation group of its own; nullopt otherwise.
static std::optional<unsigned> expandedSource(tensor::ExpandShapeOp expand,
                                              unsigned pos) {
  for (auto [i, group] : llvm::enumerate(expand.getReassociationIndices()))
    if (llvm::is_contained(group, static_cast<int64_t>(pos)))
      return group.size() == 1 ? std::optional<unsigned>(i) : std::nullopt;
  return std::nullopt;
}

/// The source dimension that holds all of `collapse`'s result dimension
/// `pos` when the other dimensions of its group are units (a zero state
/// [1, B, H] -> [B, H]; all units: the group's last); nullopt otherwise.
static std::optional<unsigned> collapsedSource(tensor::CollapseShapeOp collapse,
                                               unsigned pos) {
  RankedTensorType src = collapse.getSrcType();
  ReassociationIndices group = collapse.getReassociationIndices()[pos];
  std::optional<unsigned> found;
  for (int64_t d : group) {
    if (src.getDimSize(d) == 1)
      continue;
    if (found || src.isDynamicDim(d))
      return std::nullopt;
    found = static_cast<unsigned>(d);
  }
  return found ? found : std::optional<unsigned>(group.back());
}

/// Whether `op`, a slice of `part` out of `whole` or an insert of `part`
/// into `whole`, covers all of dimension `pos` (offset 0, stride 1, the same
/// static size, no rank reduction).
static bool coversDim(OffsetSizeAndStrideOpInterface op, RankedTensorType part,
                      RankedTensorType whole, unsigned pos) {
  if (part.getRank() != whole.getRank())
    return false;
  std::optional<int64_t> offset =
      getConstantIntValue(op.getMixedOffsets()[pos]);
  std::optional<int64_t> stride =
      getConstantIntValue(op.getMixedStrides()[pos]);
  int64_t size = part.getDimSize(pos);
  return offset == 0 && stride == 1 && !ShapedType::isDynamic(size) &&
         size == whole.getDimSize(pos);
}

/// `pos` when `slice` takes all of its source's dimension `pos`; nullopt
/// otherwise.
static std::optional<unsigned> slicedSource(tensor::ExtractSliceOp slice,
                                            unsigned pos) {
  if (!coversDim(slice, slice.getType(), slice.getSourceType(), pos))
    return std::nullopt;
  return pos;
}

/// The number of elements of `type`'s dimensions `dims` (kDynamic when one
/// of them is dynamic).
static int64_t elementsOf(RankedTensorType type, ArrayRef<int64_t> dims) {
  int64_t n = 1;
  for (int64_t d : dims) {
    if (type.isDynamicDim(d))
      return ShapedType::kDynamic;
    n *= type.getDimSize(d);
  }
  return n;
}

/// The source dimension of `insert`'s dimension `pos` when the insert
/// covers all of it; nullopt otherwise.
static std::optional<unsigned> insertedSource(tensor::InsertSliceOp insert,
                                              unsigned pos) {
  if (!coversDim(insert, insert.getSourceType(), insert.getType(), pos))
    return std::nullopt;
  return pos;
}

bool Rebatcher::isResizable(Value value, unsigned pos, bool leading) {
  if (dims.count(value))
    return false;
  auto type = dyn_cast<RankedTensorType>(value.getType());
  Operation *def = value.getDefiningOp();
  if (!type || !def || pos >= type.getRank())
    return false;
  // A model traced at a dynamic batch (only located, never rewritten) sizes
  // its inits with tensor.dim of the batch.
  if (type.isDynamicDim(pos) && !ShapedType::isDynamic(traced))
    return false;
  if (isa<tensor::EmptyOp>(def))
    return true;
  if (auto constant = dyn_cast<arith::ConstantOp>(def)) {
    auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
    return dense && dense.isSplat();
  }
  // An expand_shape that keeps `pos` a dimension of its own (a grouped
  // convolution's bias init, 1x4x6x6 -> 1x2x2x6x6) of a resizable value.
  if (auto expand = dyn_cast<tensor::ExpandShapeOp>(def)) {
    std::optional<unsigned> src = expandedSource(expand, pos);
    return src && isResizable(expand.getSrc(), *src, leading);
  }
  // A slice of all of `pos` of a resizable value (one layer's or
  // direction's zero state of h0 = zeros(L * dirs, B, H); the gates of
  // h0 @ U + b split along H).
  if (auto slice = dyn_cast<tensor::ExtractSliceOp>(def)) {
    std::optional<unsigned> src = slicedSource(slice, pos);
    return src && isResizable(slice.getSource(), *src, leading);
  }
  // A collapse of unit dimensions into `pos` (an RNN's zero state [1, B, H]
  // -> [B, H]) of a resizable value, or one that merges a resizable
  // dimension of the traced batch with the dimensions after it (a per-head
  // bias broadcast to [B, H, T, T] and collapsed to [B*H, T, T] beside
  // attention's merged heads, traced at B > 1).
  if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(def)) {
    if (std::optional<unsigned> src = collapsedSource(collapse, pos))
      return isResizable(collapse.getSrc(), *src, leading);
    ReassociationIndices group = collapse.getReassociationIndices()[pos];
    return leading && traced > 1 &&
           collapse.getSrcType().getDimSize(group.front()) == traced &&
           isResizable(collapse.getSrc(), group.front());
  }
  // An insert over the whole of `pos` of a resizable value into one (a ViT's
  // class token broadcast over the batch, inserted into the empty tensor
  // the patches are inserted into next).
  if (auto insert = dyn_cast<tensor::InsertSliceOp>(def)) {
    std::optional<unsigned> src = insertedSource(insert, pos);
    return src && isResizable(insert.getSource(), *src, leading) &&
           isResizable(insert.getDest(), pos, leading);
  }
  auto linalgOp = dyn_cast<linalg::LinalgOp>(def);
  if (!linalgOp || linalgOp.getNumDpsInits() != 1 || def->getNumResults() != 1)
    return false;
  // The same along `pos`: every input that reads the loop that writes it is
  // resizable there (a broadcast reads none; zeros(B, H) @ W + b, an RNN's
  // zero state through its first matmul, reads a fill).
  OpOperand *init = linalgOp.getDpsInitOperand(0);
  auto loop = dyn_cast<AffineDimExpr>(
      linalgOp.getMatchingIndexingMap(init).getResult(pos));
  if (!loop || linalgOp.getIteratorTypesArray()[loop.getPosition()] !=
                   utils::IteratorType::parallel)
    return false;
  for (OpOperand *in : linalgOp.getDpsInputOperands()) {
    AffineMap map = linalgOp.getMatchingIndexingMap(in);
    if (!map.isFunctionOfDim(loop.getPosition()))
      continue;
    std::optional<unsigned> q = map.getResultPosition(loop);
    if (!q || !isResizable(in->get(), *q, leading))
      return false;
  }
  if (usesIndexOf(linalgOp, loop.getPosition()))
    return false;
  return isResizable(init->get(), pos, leading);
}

LogicalResult Rebatcher::analyze() {
  Block &body = model.getBody().front();
  for (unsigned input : inputs) {
    BlockArgument arg = model.getArgument(input);
    dims[arg] = {BatchDim::Batched, 0};
    tracedTypes[arg] = cast<RankedTensorType>(arg.getType());
  }
  for (Operation &op : body)
    if (failed(visit(&op)))
      return failure();
  return success();
}

LogicalResult Rebatcher::visit(Operation *op) {
  if (auto ret = dyn_cast<func::ReturnOp>(op)) {
    for (auto [i, v] : llvm::enumerate(ret.getOperands())) {
      auto it = dims.find(v);
      if (it != dims.end() && it->second.factor != 1)
        return error(op) << "result #" << i << " of @" << model.getSymName()
                         << " (" << v.getType() << ") holds in its dimension "
                         << it->second.pos << " the batch (" << batchOrigin()
                         << ") merged with " << it->second.factor
                         << " elements of other dimensions (a flatten of "
                            "the batch with them); the training-step "
                            "contract needs the batch alone in dimension 0 "
                            "of the output";
      if (mode.locate) {
        if (it != dims.end() && it->second.kind != BatchDim::Batched)
          return error(op) << "result #" << i << " of @" << model.getSymName()
                           << " (" << v.getType()
                           << ") has the batch collapsed away; the "
                              "training-step contract needs the batch in "
                              "one dimension of the output";
        resultDims.push_back(it == dims.end() ? std::nullopt
                                              : std::optional(it->second.pos));
        continue;
      }
      if (it == dims.end() || it->second.kind != BatchDim::Batched ||
          it->second.pos != 0 || it->second.factor != 1)
        return error(op) << "result #" << i << " of @" << model.getSymName()
                         << " (" << v.getType() << ") does not have the batch ("
                         << batchOrigin()
                         << ") in dimension 0; the training-step contract "
                            "needs the batch in dimension 0 of the output";
    }
    return success();
  }

  // Which operands (here or in nested regions) carry the batch.
  SmallVector<OpOperand *> batchedOperands;
  op->walk([&](Operation *nested) {
    for (OpOperand &operand : nested->getOpOperands())
      if (dims.count(operand.get()))
        batchedOperands.push_back(&operand);
  });
  if (batchedOperands.empty())
    return success();
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  SmallVector<tensor::ExtractOp> gathers;
  for (OpOperand *operand : batchedOperands) {
    if (operand->getOwner() == op)
      continue;
    // A gather in a linalg body: visitLinalg checks its batch index.
    auto extract = dyn_cast<tensor::ExtractOp>(operand->getOwner());
    if (linalgOp && extract && extract->getParentOp() == op &&
        operand->get() == extract.getTensor()) {
      gathers.push_back(extract);
      continue;
    }
    return error(operand->getOwner())
           << "'" << operand->getOwner()->getName() << "' inside '"
           << op->getName() << "' reads a value that carries the batch ("
           << batchOrigin() << "); it would read across examples";
  }

  auto record = [&](Value result, BatchDim bd) {
    dims[result] = bd;
    tracedTypes[result] = cast<RankedTensorType>(result.getType());
  };
  auto single = [&]() { return dims.lookup(batchedOperands.front()->get()); };
  // Should this op fail, a retry may put an ambiguous expand's batch in
  // another of its unit dimensions.
  // (The first whose choice can still advance: a stack of several such
  // values needs each of them moved.)
  for (OpOperand *operand : batchedOperands)
    if (BatchDim bd = dims.lookup(operand->get());
        bd.unitExpand &&
        retry.unitExpandChoice.lookup(bd.unitExpand) + 1 < bd.unitCandidates) {
      unitExpandFailure = bd.unitExpand;
      unitExpandCandidates = bd.unitCandidates;
      break;
    }
  auto notSqueezed = [&]() -> LogicalResult {
    for (OpOperand *operand : batchedOperands)
      if (BatchDim bd = dims.lookup(operand->get());
          bd.kind == BatchDim::Squeezed) {
        return flattenError(bd, op);
      }
    return success();
  };

  if (linalgOp)
    return visitLinalg(linalgOp, gathers);
  if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(op))
    return visitCollapse(collapse, single());
  if (auto expand = dyn_cast<tensor::ExpandShapeOp>(op))
    return visitExpand(expand, single());
  // Elementwise ops on tensors (arith, math): every tensor operand carries
  // the batch in the same dimension.
  if (op->hasTrait<OpTrait::Elementwise>() && op->getNumResults() >= 1 &&
      isa<RankedTensorType>(op->getResult(0).getType())) {
    BatchDim bd = single();
    for (OpOperand &operand : op->getOpOperands()) {
      if (!isa<TensorType>(operand.get().getType()))
        continue;
      auto it = dims.find(operand.get());
      if (it == dims.end() || it->second.kind != bd.kind ||
          it->second.pos != bd.pos || it->second.factor != bd.factor ||
          it->second.outer != bd.outer)
        return error(op) << "'" << op->getName() << "' takes operand #"
                         << operand.getOperandNumber()
                         << ", which does not carry the batch as operand #"
                         << batchedOperands.front()->getOperandNumber()
                         << " does; broadcast it with linalg first";
    }
    for (Value result : op->getResults())
      record(result, bd);
    return success();
  }
  if (failed(notSqueezed()))
    return failure();
  if (!isa<tensor::DimOp>(op))
    for (OpOperand *operand : batchedOperands)
      if (dims.lookup(operand->get()).factor != 1)
        return mergedError(op, operand->get());

  // The size of a dimension other than the batch does not change; the
  // batch's size used as a number (x / B) would change the model. (Only
  // locating the batch changes no size: a dynamic batch's tensor.dim is
  // fine then.)
  if (auto dim = dyn_cast<tensor::DimOp>(op)) {
    BatchDim bd = single();
    std::optional<int64_t> index = dim.getConstantIndex();
    if (!mode.locate && (!index || *index == int64_t(bd.pos)))
      return error(op) << "'tensor.dim' reads the size of "
                       << (index ? "dimension " + std::to_string(*index)
                                 : std::string("a dynamic dimension"))
                       << " of a value that carries the batch ("
                       << batchOrigin() << ") in dimension " << bd.pos
                       << "; a model that computes with its batch size "
                          "cannot be re-batched";
    return success();
  }
  if (auto pad = dyn_cast<tensor::PadOp>(op)) {
    if (batchedOperands.front()->getOperandNumber() != 0)
      return error(op) << "'tensor.pad' pads with a value that carries the "
                          "batch; it cannot be re-batched";
    unsigned p = single().pos;
    auto isStaticZero = [](OpFoldResult r) {
      std::optional<int64_t> c = getConstantIntValue(r);
      return c && *c == 0;
    };
    if (!isStaticZero(pad.getMixedLowPad()[p]) ||
        !isStaticZero(pad.getMixedHighPad()[p]))
      return error(op) << "'tensor.pad' pads dimension " << p << ", the batch ("
                       << batchOrigin() << "); it cannot be re-batched";
    record(pad.getResult(), {BatchDim::Batched, p});
    return success();
  }
  if (auto concat = dyn_cast<tensor::ConcatOp>(op)) {
    unsigned p = single().pos;
    for (Value in : concat.getInputs()) {
      auto it = dims.find(in);
      if (it == dims.end() || it->second.pos != p)
        return error(op) << "'tensor.concat' joins a value that carries the "
                            "batch in dimension "
                         << p
                         << " with one that does not; it cannot be "
                            "re-batched";
    }
    if (concat.getDim() == p)
      return error(op) << "'tensor.concat' concatenates along the batch ("
                       << batchOrigin()
                       << "); it mixes examples and cannot be re-batched";
    record(concat.getResult(), {BatchDim::Batched, p});
    return success();
  }
  if (auto slice = dyn_cast<tensor::ExtractSliceOp>(op)) {
    if (batchedOperands.front()->getOperandNumber() != 0)
      return error(op) << "'tensor.extract_slice' takes an offset, size or "
                          "stride from a batched value; it cannot be "
                          "re-batched";
    unsigned p = single().pos;
    std::optional<int64_t> offset =
        getConstantIntValue(slice.getMixedOffsets()[p]);
    std::optional<int64_t> size = getConstantIntValue(slice.getMixedSizes()[p]);
    std::optional<int64_t> stride =
        getConstantIntValue(slice.getMixedStrides()[p]);
    llvm::SmallBitVector dropped = slice.getDroppedDims();
    if (!offset || *offset != 0 || !size || *size != traced || !stride ||
        *stride != 1 || dropped.test(p))
      return error(op) << "'tensor.extract_slice' takes part of dimension " << p
                       << ", the batch (" << batchOrigin()
                       << "); only a slice of the whole batch can be "
                          "re-batched";
    unsigned q = p;
    for (unsigned i = 0; i < p; ++i)
      q -= dropped.test(i);
    record(slice.getResult(), {BatchDim::Batched, q});
    return success();
  }
  if (auto insert = dyn_cast<tensor::InsertSliceOp>(op)) {
    // torch-mlir's ConvTranspose2d (the input inserted with a stride into a
    // zero tensor) and torch.cat written as insert_slices into an empty
    // tensor: the source and the destination carry the batch in the same
    // dimension (a destination that does not, an empty tensor, a splat or
    // a fill of one, is rebuilt at the new batch), and the slice covers the
    // whole batch there.
    for (OpOperand *operand : batchedOperands)
      if (operand->getOperandNumber() > 1)
        return error(op) << "'tensor.insert_slice' takes an offset, size or "
                            "stride from a batched value; it cannot be "
                            "re-batched";
    Value src = insert.getSource(), dest = insert.getDest();
    auto srcIt = dims.find(src);
    if (srcIt == dims.end() ||
        insert.getSourceType().getRank() != insert.getType().getRank())
      return error(op) << "'tensor.insert_slice' inserts a value without the "
                          "batch, or of a lower rank, into one that carries "
                          "it ("
                       << batchOrigin() << "); it cannot be re-batched";
    BatchDim bd = srcIt->second;
    unsigned p = bd.pos;
    auto destIt = dims.find(dest);
    if (destIt != dims.end()
            ? destIt->second.kind != bd.kind || destIt->second.pos != p
            : !isResizable(dest, p))
      return error(op) << "'tensor.insert_slice' inserts a value that carries "
                          "the batch in dimension "
                       << p
                       << " into one that neither does nor can be rebuilt "
                          "with it (an empty tensor, a splat or a fill of "
                          "one); it cannot be re-batched";
    if (!insertedSource(insert, p) || insert.getType().getDimSize(p) != traced)
      return error(op) << "'tensor.insert_slice' writes part of dimension " << p
                       << ", the batch (" << batchOrigin()
                       << "); only a slice of the whole batch can be "
                          "re-batched";
    record(insert.getResult(), bd);
    return success();
  }
  OpOperand *first = batchedOperands.front();
  return error(op) << "'" << op->getName() << "' takes operand #"
                   << first->getOperandNumber() << ", which carries the batch ("
                   << batchOrigin() << "), and re-batching does not know how '"
                   << op->getName() << "' treats it";
}

LogicalResult Rebatcher::visitLinalg(linalg::LinalgOp op,
                                     ArrayRef<tensor::ExtractOp> gathers) {
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  SmallVector<utils::IteratorType> iters = op.getIteratorTypesArray();
  std::optional<unsigned> loop;
  OpOperand *loopFrom = nullptr;
  SmallVector<OpOperand *> deferred;
  // The batch loop's factor (BatchDim::factor): every batched operand that
  // reads it has the same.
  std::optional<int64_t> seenFactor, seenOuter;
  Operation *squeezedBy = nullptr;
  for (OpOperand &operand : op->getOpOperands()) {
    auto it = dims.find(operand.get());
    if (it == dims.end())
      continue;
    if (it->second.kind == BatchDim::Squeezed) {
      squeezedBy = it->second.squeezedBy;
      continue;
    }
    if (!seenFactor) {
      seenFactor = it->second.factor;
      seenOuter = it->second.outer;
    }
    if (it->second.factor != *seenFactor || it->second.outer != *seenOuter)
      return error(op) << "'" << op->getName()
                       << "' takes operands whose batch (" << batchOrigin()
                       << ") is merged with " << *seenFactor << " and with "
                       << it->second.factor
                       << " elements of other dimensions; it cannot be "
                          "re-batched";
  }
  int64_t factor = seenFactor.value_or(1), outer = seenOuter.value_or(1);
  if (factor != 1 && squeezedBy) {
    squeezeFailure = squeezedBy;
    return error(op) << "'" << op->getName()
                     << "' takes an operand whose batch (" << batchOrigin()
                     << ") is merged with other dimensions and one whose "
                        "batch was collapsed away; it cannot be re-batched";
  }
  for (OpOperand &operand : op->getOpOperands()) {
    auto it = dims.find(operand.get());
    if (it == dims.end())
      continue;
    BatchDim bd = it->second;
    if (bd.kind == BatchDim::Squeezed) {
      deferred.push_back(&operand);
      continue;
    }
    AffineExpr e = maps[operand.getOperandNumber()].getResult(bd.pos);
    if (auto d = dyn_cast<AffineDimExpr>(e)) {
      if (loop && *loop != d.getPosition()) {
        for (unsigned l : {*loop, d.getPosition()})
          if (iters[l] != utils::IteratorType::parallel)
            return error(op)
                   << "'" << op->getName()
                   << "' contracts over the batch dimension (" << batchOrigin()
                   << ", loop d" << l
                   << " of the op), so the model mixes examples; it cannot "
                      "be re-batched";
        return error(op) << "'" << op->getName() << "' reads the batch ("
                         << batchOrigin() << ") of operand #"
                         << operand.getOperandNumber() << " with loop d"
                         << d.getPosition() << " and that of operand #"
                         << loopFrom->getOperandNumber() << " with loop d"
                         << *loop
                         << ", so the model mixes examples; it cannot be "
                            "re-batched";
      }
      loop = d.getPosition();
      loopFrom = &operand;
    } else if (isZero(e) && traced == 1) {
      deferred.push_back(&operand);
    } else {
      return error(op) << "'" << op->getName() << "' reads dimension " << bd.pos
                       << " of operand #" << operand.getOperandNumber()
                       << ", the batch (" << batchOrigin() << "), with "
                       << str(e)
                       << "; only a loop of its own keeps examples apart, so "
                          "it cannot be re-batched";
    }
  }
  // A gather reads each example's own slice when the index of its batch
  // dimension is linalg.index of the loop that carries the batch.
  for (tensor::ExtractOp extract : gathers) {
    BatchDim bd = dims.lookup(extract.getTensor());
    if (bd.kind == BatchDim::Squeezed)
      return flattenError(bd, extract);
    if (bd.factor != 1)
      return mergedError(extract, extract.getTensor());
    auto index = extract.getIndices()[bd.pos].getDefiningOp<linalg::IndexOp>();
    if (!index || index->getParentOp() != op)
      return error(extract)
             << "'tensor.extract' inside '" << op->getName()
             << "' reads dimension " << bd.pos
             << " of a value that carries the batch (" << batchOrigin()
             << ") at an index other than linalg.index of a loop of the op; "
                "it would read across examples";
    if (loop && *loop != index.getDim())
      return error(extract)
             << "'tensor.extract' inside '" << op->getName()
             << "' reads the batch (" << batchOrigin() << ") at loop d"
             << index.getDim() << ", but "
             << (loopFrom ? "operand #" +
                                std::to_string(loopFrom->getOperandNumber())
                          : std::string("another read"))
             << " reads it with loop d" << *loop
             << ", so the model mixes examples; it cannot be re-batched";
    loop = index.getDim();
    // The loop must visit every example: one that runs over fewer reads
    // part of the batch.
    int64_t range = op.getStaticLoopRanges()[*loop];
    if (!ShapedType::isDynamic(range) && range != traced)
      return error(op) << "'" << op->getName() << "' gathers the batch ("
                       << batchOrigin() << ") with loop d" << *loop
                       << ", which runs over " << range
                       << (range == 1 ? " example" : " examples")
                       << ", not the " << traced
                       << " it was traced with; it cannot be re-batched";
  }
  if (!loop) {
    // Traced at batch 1: a broadcast of the batch (constant 0, or squeezed
    // away) over a size-1 loop of the first output, aligned to the right.
    OpOperand *operand = deferred.front();
    BatchDim bd = dims.lookup(operand->get());
    int64_t rank = tracedTypes.lookup(operand->get()).getRank() +
                   (bd.kind == BatchDim::Squeezed ? 1 : 0);
    std::optional<unsigned> candidate;
    if (op.getNumDpsInits() >= 1) {
      AffineMap out = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
      SmallVector<int64_t> ranges = op.getStaticLoopRanges();
      // Aligned to the right (numpy's broadcast), else to the left (an
      // unsqueeze(-1).expand that adds trailing dimensions).
      for (int64_t q :
           {int64_t(bd.pos) + out.getNumResults() - rank, int64_t(bd.pos)}) {
        if (candidate || q < 0 || q >= out.getNumResults())
          continue;
        if (auto d = dyn_cast<AffineDimExpr>(out.getResult(q));
            d && ranges[d.getPosition()] == 1 &&
            llvm::none_of(op.getDpsInputOperands(), [&](OpOperand *in) {
              return op.getMatchingIndexingMap(in).isFunctionOfDim(
                  d.getPosition());
            }))
          candidate = d.getPosition();
      }
    }
    if (!candidate) {
      if (bd.kind == BatchDim::Squeezed) {
        return flattenError(bd, op);
      }
      return error(op) << "'" << op->getName() << "' reads dimension " << bd.pos
                       << " of operand #" << operand->getOperandNumber()
                       << ", the batch (" << batchOrigin()
                       << "), with a constant 0, and no size-1 loop of its "
                          "first output lines up with it (right- or "
                          "left-aligned) to carry the batch; it cannot be "
                          "re-batched";
    }
    loop = *candidate;
  }
  unsigned l = *loop;
  if (iters[l] != utils::IteratorType::parallel)
    return error(op) << "'" << op->getName()
                     << "' contracts over the batch dimension ("
                     << batchOrigin() << ", loop d" << l
                     << " of the op), so the model mixes examples; it cannot "
                        "be re-batched";
  if (usesIndexOf(op, l) && !indexReadsOnlyBatches(op, l, gathers, dims))
    return error(op) << "'" << op->getName() << "' reads linalg.index " << l
                     << ", the position in the batch (" << batchOrigin()
                     << "); it cannot be re-batched";

  MLIRContext *ctx = op.getContext();
  AffineExpr loopExpr = getAffineDimExpr(l, ctx);
  LinalgChange change;
  change.maps = maps;
  SmallVector<int64_t> initPositions;
  for (OpOperand &operand : op->getOpOperands()) {
    unsigned n = operand.getOperandNumber();
    AffineMap map = maps[n];
    SmallVector<AffineExpr> results(map.getResults());
    SmallVector<unsigned> reads;
    for (auto [i, e] : llvm::enumerate(results)) {
      if (e == loopExpr)
        reads.push_back(i);
      else if (e.isFunctionOfDim(l))
        return error(op) << "'" << op->getName() << "' indexes operand #" << n
                         << " with " << str(e) << ", which mixes loop d" << l
                         << ", the batch (" << batchOrigin()
                         << "), with other loops; it cannot be re-batched";
    }
    if (reads.size() > 1)
      return error(op) << "'" << op->getName() << "' reads loop d" << l
                       << ", the batch, in several dimensions of operand #" << n
                       << "; it cannot be re-batched";
    bool isInit = op.isDpsInit(&operand);
    auto it = dims.find(operand.get());
    int64_t batchPos = -1;
    if (it != dims.end() && it->second.kind == BatchDim::Squeezed) {
      if (!reads.empty()) {
        squeezeFailure = it->second.squeezedBy;
        return error(op) << "'" << op->getName() << "' reads loop d" << l
                         << ", the batch, in operand #" << n
                         << ", whose batch was collapsed away; it cannot be "
                            "re-batched";
      }
      batchPos = it->second.pos;
      results.insert(results.begin() + batchPos, loopExpr);
    } else if (it != dims.end()) {
      batchPos = it->second.pos;
      if (!reads.empty() && reads.front() != it->second.pos)
        return error(op) << "'" << op->getName() << "' reads loop d" << l
                         << ", the batch, in dimension " << reads.front()
                         << " of operand #" << n
                         << " and the batch of that operand in dimension "
                         << it->second.pos << "; it cannot be re-batched";
      results[batchPos] = loopExpr;
    } else if (reads.empty()) {
      if (isInit)
        return error(op) << "'" << op->getName() << "' writes operand #" << n
                         << " without loop d" << l << ", the batch ("
                         << batchOrigin()
                         << "), so it mixes examples; it cannot be "
                            "re-batched";
    } else {
      unsigned p = reads.front();
      batchPos = p;
      auto type = cast<RankedTensorType>(operand.get().getType());
      if (!isInit && isa<linalg::GenericOp>(op) && type.getDimSize(p) == 1) {
        results[p] = getAffineConstantExpr(0, ctx);
      } else if (!isInit && factor > 1 && outer == 1 && traced == 1 &&
                 type.getDimSize(p) == factor) {
        // Traced at 1, a per-head value (a relative-position or ALiBi
        // bias [H, T, T]) read along the batch merged with the heads
        // (B*H rows): every example reads it again, tiled N times.
        change.tile.push_back({n, p});
      } else if (isResizable(operand.get(), p, /*leading=*/outer == 1)) {
        change.resize.push_back({n, p});
      } else if (!isInit && type.getDimSize(p) == 1) {
        change.broadcast.push_back({n, p});
      } else {
        return error(op) << "operand #" << n << " of '" << op->getName()
                         << "' (" << type << ") is indexed by loop d" << l
                         << ", the batch (" << batchOrigin()
                         << "), but does not derive from the input; it "
                            "cannot be re-batched";
      }
    }
    if (isInit)
      initPositions.push_back(batchPos);
    AffineMap newMap =
        AffineMap::get(map.getNumDims(), map.getNumSymbols(), results, ctx);
    if (newMap != map) {
      change.maps[n] = newMap;
      change.mapsChanged = true;
    }
  }
  change.factor = factor;
  for (auto [result, pos] : llvm::zip_equal(op->getResults(), initPositions)) {
    BatchDim bd{BatchDim::Batched, unsigned(pos), nullptr, factor};
    bd.outer = outer;
    dims[result] = bd;
    tracedTypes[result] = cast<RankedTensorType>(result.getType());
  }
  linalgChanges[op] = std::move(change);
  return success();
}

LogicalResult Rebatcher::visitCollapse(tensor::CollapseShapeOp op,
                                       BatchDim src) {
  if (src.kind == BatchDim::Squeezed) {
    squeezeFailure = src.squeezedBy;
    InFlightDiagnostic diag =
        error(src.squeezedBy)
        << "'tensor.collapse_shape' merges the batch (" << batchOrigin()
        << ") with other dimensions, so the model flattens across the batch; "
           "it cannot be re-batched";
    diag.attachNote(op.getLoc()) << "collapsed again here";
    return diag;
  }
  RankedTensorType srcType = op.getSrcType();
  for (auto [g, group] : llvm::enumerate(op.getReassociationIndices())) {
    if (!llvm::is_contained(group, int64_t(src.pos)))
      continue;
    bool unitRest = llvm::all_of(group, [&](int64_t d) {
      return d == int64_t(src.pos) || srcType.getDimSize(d) == 1;
    });
    // The elements merged after the batch.
    SmallVector<int64_t> others(llvm::make_filter_range(
        group, [&](int64_t d) { return d != int64_t(src.pos); }));
    int64_t rest = elementsOf(srcType, others);
    if (unitRest) {
      BatchDim bd{BatchDim::Batched, unsigned(g), nullptr, src.factor};
      bd.outer = src.outer;
      dims[op.getResult()] = bd;
    } else if (traced == 1 && src.factor == 1 &&
               group.front() == int64_t(src.pos) &&
               !retry.mergeAtOne.contains(op)) {
      dims[op.getResult()] = {BatchDim::Squeezed, unsigned(g), op};
    } else if ((traced != 1 || src.factor != 1 ||
                retry.mergeAtOne.contains(op)) &&
               group.front() == int64_t(src.pos) &&
               !ShapedType::isDynamic(rest)) {
      // Traced at B > 1: the batch leads the merged dimension, B x rest.
      BatchDim bd{BatchDim::Batched, unsigned(g), nullptr, src.factor * rest};
      bd.outer = src.outer;
      dims[op.getResult()] = bd;
    } else if (src.factor == 1 && !ShapedType::isDynamic(rest)) {
      // The batch after other dimensions: a sequence-first [S, B, E] ->
      // [S*B, E] (a Linear or nn.MultiheadAttention's out_proj flattening
      // its rows), S x B x rest' elements.
      int64_t before = 1;
      for (int64_t d : group) {
        if (d == int64_t(src.pos))
          break;
        before *= srcType.getDimSize(d);
      }
      BatchDim bd{BatchDim::Batched, unsigned(g), nullptr, rest};
      bd.outer = before;
      dims[op.getResult()] = bd;
    } else {
      return error(op) << "'tensor.collapse_shape' merges dimension " << src.pos
                       << ", the batch (" << batchOrigin()
                       << "), with other dimensions (" << srcType << " into "
                       << op.getResultType()
                       << "), so the model flattens across the batch; it "
                          "cannot be re-batched";
    }
    tracedTypes[op.getResult()] = op.getResultType();
    return success();
  }
  llvm_unreachable("a reassociation covers every dimension");
}

LogicalResult Rebatcher::visitExpand(tensor::ExpandShapeOp op, BatchDim src) {
  RankedTensorType resultType = op.getResultType();
  SmallVector<ReassociationIndices> groups = op.getReassociationIndices();
  ReassociationIndices group = groups[src.pos];
  if (src.kind == BatchDim::Squeezed) {
    if (group.size() < 2 || resultType.getDimSize(group.front()) != 1) {
      squeezeFailure = src.squeezedBy;
      return error(src.squeezedBy)
             << "'tensor.collapse_shape' merges the batch (" << batchOrigin()
             << ") with other dimensions, and the expand_shape that uses it "
                "does not split it off again; it cannot be re-batched";
    }
    dims[op.getResult()] = {BatchDim::Batched, unsigned(group.front())};
  } else if (src.factor != 1) {
    // The batch split off again: a dimension of the traced batch with the
    // `outer` merged elements before it and the others after it.
    std::optional<unsigned> split;
    for (size_t k = 0; k < group.size() && !split; ++k) {
      ArrayRef<int64_t> dimsOf(group);
      int64_t before = elementsOf(resultType, dimsOf.take_front(k));
      int64_t after = elementsOf(resultType, dimsOf.drop_front(k + 1));
      if (resultType.getDimSize(group[k]) == traced && before == src.outer &&
          !ShapedType::isDynamic(after) && before * after == src.factor)
        split = group[k];
    }
    if (!split)
      return error(op) << "'tensor.expand_shape' splits dimension " << src.pos
                       << ", which merges the batch (" << batchOrigin()
                       << ") with " << src.factor
                       << " elements of other dimensions, into " << resultType
                       << " without splitting the batch off first; it cannot "
                          "be re-batched";
    dims[op.getResult()] = {BatchDim::Batched, *split};
  } else {
    SmallVector<unsigned> candidates;
    for (int64_t d : group)
      if (resultType.getDimSize(d) == traced)
        candidates.push_back(d);
    bool unitRest = !candidates.empty() && llvm::all_of(group, [&](int64_t d) {
      return d == int64_t(candidates.front()) || resultType.getDimSize(d) == 1;
    });
    if (!unitRest)
      return error(op) << "'tensor.expand_shape' splits dimension " << src.pos
                       << ", the batch (" << batchOrigin() << "), into "
                       << resultType << "; it cannot be re-batched";
    // Traced at 1, every unit dimension of the group may be the batch.
    BatchDim bd{BatchDim::Batched, candidates.front()};
    if (candidates.size() > 1) {
      unsigned choice = retry.unitExpandChoice.lookup(op);
      bd.pos = candidates[std::min<size_t>(choice, candidates.size() - 1)];
      bd.unitExpand = op;
      bd.unitCandidates = candidates.size();
    }
    dims[op.getResult()] = bd;
  }
  tracedTypes[op.getResult()] = resultType;
  return success();
}

//===----------------------------------------------------------------------===//
// Rewrite
//===----------------------------------------------------------------------===//

RankedTensorType Rebatcher::newType(Value value) const {
  RankedTensorType type = tracedTypes.lookup(value);
  BatchDim bd = dims.lookup(value);
  SmallVector<int64_t> shape(type.getShape());
  if (bd.kind == BatchDim::Squeezed)
    shape.insert(shape.begin() + bd.pos, batch);
  else
    shape[bd.pos] = batch == ShapedType::kDynamic ? batch : batch * bd.factor;
  return type.clone(shape);
}

Value Rebatcher::batchSize(OpBuilder &b) {
  if (!dynamicSize) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&model.getBody().front());
    Location loc = model.getArgument(inputs[0]).getLoc();
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    dynamicSize =
        tensor::DimOp::create(b, loc, model.getArgument(inputs[0]), zero);
  }
  return dynamicSize;
}

OpFoldResult Rebatcher::batchSizeOfr(OpBuilder &b, int64_t factor) {
  if (batch != ShapedType::kDynamic)
    return b.getIndexAttr(batch * factor);
  Value size = batchSize(b);
  if (factor == 1)
    return size;
  Location loc = size.getLoc();
  return arith::MulIOp::create(b, loc, size,
                               arith::ConstantIndexOp::create(b, loc, factor))
      .getResult();
}

static void setInsertionPointAfterValue(OpBuilder &b, Value v) {
  if (Operation *def = v.getDefiningOp())
    b.setInsertionPointAfter(def);
  else
    b.setInsertionPointToStart(cast<BlockArgument>(v).getOwner());
}

Value Rebatcher::resize(Value value, unsigned pos, int64_t factor) {
  auto key = std::make_tuple(value, pos, factor);
  if (Value done = resized.lookup(key))
    return done;
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> shape(type.getShape());
  shape[pos] = batch == ShapedType::kDynamic ? batch : batch * factor;
  RankedTensorType newTy = type.clone(shape);
  Operation *def = value.getDefiningOp();
  OpBuilder b(def);
  Value result;
  if (auto empty = dyn_cast<tensor::EmptyOp>(def)) {
    SmallVector<OpFoldResult> sizes = empty.getMixedSizes();
    sizes[pos] = batchSizeOfr(b, factor);
    b.setInsertionPointAfter(def);
    result =
        tensor::EmptyOp::create(b, def->getLoc(), sizes, type.getElementType());
  } else if (auto constant = dyn_cast<arith::ConstantOp>(def)) {
    auto dense = cast<DenseElementsAttr>(constant.getValue());
    b.setInsertionPointAfter(def);
    if (batch != ShapedType::kDynamic) {
      result = arith::ConstantOp::create(
          b, def->getLoc(), newTy,
          DenseElementsAttr::get(newTy, dense.getSplatValue<Attribute>()));
    } else {
      SmallVector<OpFoldResult> sizes;
      for (int64_t d : type.getShape())
        sizes.push_back(b.getIndexAttr(d));
      sizes[pos] = batchSizeOfr(b, factor);
      Value empty = tensor::EmptyOp::create(b, def->getLoc(), sizes,
                                            type.getElementType());
      Value scalar = arith::ConstantOp::create(
          b, def->getLoc(), cast<TypedAttr>(dense.getSplatValue<Attribute>()));
      result =
          linalg::FillOp::create(b, def->getLoc(), scalar, empty).getResult(0);
    }
  } else if (auto expand = dyn_cast<tensor::ExpandShapeOp>(def)) {
    Value src = resize(expand.getSrc(), *expandedSource(expand, pos), factor);
    SmallVector<OpFoldResult> shape = expand.getMixedOutputShape();
    shape[pos] = batchSizeOfr(b, factor);
    b.setInsertionPointAfter(def);
    result = tensor::ExpandShapeOp::create(
        b, def->getLoc(), newTy, src, expand.getReassociationIndices(), shape);
  } else if (auto slice = dyn_cast<tensor::ExtractSliceOp>(def)) {
    Value src = resize(slice.getSource(), pos, factor);
    SmallVector<OpFoldResult> sizes = slice.getMixedSizes();
    sizes[pos] = batchSizeOfr(b, factor);
    b.setInsertionPointAfter(def);
    result = tensor::ExtractSliceOp::create(b, def->getLoc(), newTy, src,
                                            slice.getMixedOffsets(), sizes,
                                            slice.getMixedStrides());
  } else if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(def)) {
    // The batch alone with units, or leading the merged group: its source
    // dimension takes batch x (factor / the group's other elements).
    std::optional<unsigned> from = collapsedSource(collapse, pos);
    int64_t sourceFactor = factor;
    if (!from) {
      ReassociationIndices group = collapse.getReassociationIndices()[pos];
      from = group.front();
      int64_t rest = elementsOf(collapse.getSrcType(),
                                ArrayRef<int64_t>(group).drop_front());
      assert(factor % rest == 0 && "the merged group divides the factor");
      sourceFactor = factor / rest;
    }
    Value src = resize(collapse.getSrc(), *from, sourceFactor);
    b.setInsertionPointAfter(def);
    result = tensor::CollapseShapeOp::create(
        b, def->getLoc(), newTy, src, collapse.getReassociationIndices());
  } else if (auto insert = dyn_cast<tensor::InsertSliceOp>(def)) {
    Value src = resize(insert.getSource(), pos, factor);
    Value dest = resize(insert.getDest(), pos, factor);
    SmallVector<OpFoldResult> sizes = insert.getMixedSizes();
    sizes[pos] = batchSizeOfr(b, factor);
    b.setInsertionPointAfter(def);
    result = tensor::InsertSliceOp::create(b, def->getLoc(), src, dest,
                                           insert.getMixedOffsets(), sizes,
                                           insert.getMixedStrides());
  } else {
    auto linalgOp = cast<linalg::LinalgOp>(def);
    OpOperand *init = linalgOp.getDpsInitOperand(0);
    auto loop = cast<AffineDimExpr>(
        linalgOp.getMatchingIndexingMap(init).getResult(pos));
    // The inputs that read the loop, rebuilt at the new size too.
    SmallVector<std::pair<unsigned, Value>> inputs;
    for (OpOperand *in : linalgOp.getDpsInputOperands())
      if (std::optional<unsigned> q =
              linalgOp.getMatchingIndexingMap(in).getResultPosition(loop))
        inputs.push_back(
            {in->getOperandNumber(), resize(in->get(), *q, factor)});
    Value newInit = resize(init->get(), pos, factor);
    b.setInsertionPointAfter(def);
    Operation *clone = b.clone(*def);
    for (auto [n, v] : inputs)
      clone->setOperand(n, v);
    clone->setOperand(init->getOperandNumber(), newInit);
    clone->getResult(0).setType(newInit.getType());
    result = clone->getResult(0);
  }
  resized[key] = result;
  rebuilt.insert(def);
  return result;
}

Value Rebatcher::broadcastAlong(Value value, unsigned pos, int64_t factor) {
  auto key = std::make_tuple(value, pos, factor);
  if (Value done = broadcasts.lookup(key))
    return done;
  auto type = cast<RankedTensorType>(value.getType());
  OpBuilder b(model.getContext());
  setInsertionPointAfterValue(b, value);
  // After the batch size of a dynamic batch (tensor.dim at the start of the
  // body), which a function argument's broadcast would otherwise precede.
  if (batch == ShapedType::kDynamic && isa<BlockArgument>(value))
    b.setInsertionPointAfter(batchSize(b).getDefiningOp());
  Location loc = value.getLoc();
  SmallVector<OpFoldResult> sizes;
  for (int64_t d : type.getShape())
    sizes.push_back(b.getIndexAttr(d));
  sizes[pos] = batchSizeOfr(b, factor);
  Value empty = tensor::EmptyOp::create(b, loc, sizes, type.getElementType());
  MLIRContext *ctx = b.getContext();
  AffineMap identity = b.getMultiDimIdentityMap(type.getRank());
  SmallVector<AffineExpr> in(identity.getResults());
  in[pos] = getAffineConstantExpr(0, ctx);
  AffineMap inMap = AffineMap::get(type.getRank(), 0, in, ctx);
  SmallVector<utils::IteratorType> iters(type.getRank(),
                                         utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{empty.getType()}, ValueRange{value}, ValueRange{empty},
      ArrayRef<AffineMap>{inMap, identity}, iters,
      [](OpBuilder &nb, Location nl, ValueRange args) {
        linalg::YieldOp::create(nb, nl, args[0]);
      });
  broadcasts[key] = generic.getResult(0);
  return generic.getResult(0);
}

Value Rebatcher::tileAlong(Value value, unsigned pos) {
  auto type = cast<RankedTensorType>(value.getType());
  OpBuilder b(model.getContext());
  setInsertionPointAfterValue(b, value);
  Location loc = value.getLoc();
  // [..., H, ...] -> [..., 1, H, ...]
  SmallVector<int64_t> unitShape(type.getShape());
  unitShape.insert(unitShape.begin() + pos, 1);
  SmallVector<ReassociationIndices> groups;
  for (int64_t i = 0, r = type.getRank(); i < r; ++i) {
    if (i < int64_t(pos))
      groups.push_back({i});
    else if (i == int64_t(pos))
      groups.push_back({i, i + 1});
    else
      groups.push_back({i + 1});
  }
  Value expanded = tensor::ExpandShapeOp::create(b, loc, type.clone(unitShape),
                                                 value, groups);
  // -> [..., N, H, ...] -> [..., N*H, ...]
  Value broadcast = broadcastAlong(expanded, pos);
  b.setInsertionPointAfterValue(broadcast);
  SmallVector<int64_t> tiled(type.getShape());
  tiled[pos] = batch == ShapedType::kDynamic ? batch : batch * tiled[pos];
  return tensor::CollapseShapeOp::create(b, loc, type.clone(tiled), broadcast,
                                         groups);
}

void Rebatcher::rewriteLinalg(linalg::LinalgOp op, const LinalgChange &change) {
  for (auto [n, pos] : change.resize)
    op->setOperand(n, resize(op->getOperand(n), pos, change.factor));
  for (auto [n, pos] : change.broadcast)
    op->setOperand(n, broadcastAlong(op->getOperand(n), pos, change.factor));
  for (auto [n, pos] : change.tile)
    op->setOperand(n, tileAlong(op->getOperand(n), pos));
  for (Value result : op->getResults())
    result.setType(newType(result));
  if (!change.mapsChanged)
    return;
  auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
  if (!generic) {
    IRRewriter rewriter(op.getContext());
    rewriter.setInsertionPoint(op);
    SmallVector<Value> old(op->getResults());
    FailureOr<linalg::GenericOp> done = linalg::generalizeNamedOp(rewriter, op);
    assert(succeeded(done) && "named linalg ops generalize");
    generic = *done;
    for (auto [o, n] : llvm::zip_equal(old, generic->getResults())) {
      dims[n] = dims.lookup(o);
      tracedTypes[n] = tracedTypes.lookup(o);
    }
  }
  generic.setIndexingMapsAttr(
      Builder(op.getContext()).getAffineMapArrayAttr(change.maps));
}

void Rebatcher::rewriteCollapse(tensor::CollapseShapeOp op) {
  BatchDim bd = dims.lookup(op.getResult());
  SmallVector<ReassociationIndices> groups = op.getReassociationIndices();
  RankedTensorType resultType = newType(op.getResult());
  OpBuilder b(op);
  Value src = op.getSrc();
  if (bd.kind == BatchDim::Squeezed) {
    // The batch becomes a group of its own, before the rest of its group.
    ReassociationIndices rest(groups[bd.pos].begin() + 1, groups[bd.pos].end());
    groups[bd.pos] = {groups[bd.pos].front()};
    groups.insert(groups.begin() + bd.pos + 1, rest);
  }
  Value replacement;
  if (resultType.getRank() == cast<RankedTensorType>(src.getType()).getRank())
    replacement = src;
  else
    replacement = tensor::CollapseShapeOp::create(b, op.getLoc(), resultType,
                                                  src, groups);
  replaceReshape(op, replacement, bd);
}

void Rebatcher::replaceReshape(Operation *op, Value replacement, BatchDim bd) {
  dims[replacement] = bd;
  tracedTypes[replacement] = tracedTypes.lookup(op->getResult(0));
  op->getResult(0).replaceAllUsesWith(replacement);
  op->erase();
}

void Rebatcher::rewriteExpand(tensor::ExpandShapeOp op) {
  BatchDim src = dims.lookup(op.getSrc());
  BatchDim bd = dims.lookup(op.getResult());
  SmallVector<ReassociationIndices> groups = op.getReassociationIndices();
  RankedTensorType resultType = newType(op.getResult());
  OpBuilder b(op);
  if (src.kind == BatchDim::Squeezed) {
    ReassociationIndices rest(groups[src.pos].begin() + 1,
                              groups[src.pos].end());
    groups[src.pos] = {groups[src.pos].front()};
    groups.insert(groups.begin() + src.pos + 1, rest);
  }
  SmallVector<OpFoldResult> shape = op.getMixedOutputShape();
  shape[bd.pos] = batchSizeOfr(b, bd.factor);
  Value replacement;
  if (resultType.getRank() ==
      cast<RankedTensorType>(op.getSrc().getType()).getRank())
    replacement = op.getSrc();
  else
    replacement = tensor::ExpandShapeOp::create(b, op.getLoc(), resultType,
                                                op.getSrc(), groups, shape);
  replaceReshape(op, replacement, bd);
}

void Rebatcher::rewriteExtract(tensor::ExtractSliceOp op) {
  BatchDim src = dims.lookup(op.getSource());
  OpBuilder b(op);
  SmallVector<OpFoldResult> sizes = op.getMixedSizes();
  sizes[src.pos] = batchSizeOfr(b);
  auto slice = tensor::ExtractSliceOp::create(
      b, op.getLoc(), newType(op.getResult()), op.getSource(),
      op.getMixedOffsets(), sizes, op.getMixedStrides());
  dims[slice.getResult()] = dims.lookup(op.getResult());
  tracedTypes[slice.getResult()] = tracedTypes.lookup(op.getResult());
  op.getResult().replaceAllUsesWith(slice.getResult());
  op.erase();
}

void Rebatcher::rewriteInsert(tensor::InsertSliceOp op) {
  unsigned p = dims.lookup(op.getResult()).pos;
  Value dest = op.getDest();
  if (!dims.count(dest))
    dest = resize(dest, p);
  OpBuilder b(op);
  SmallVector<OpFoldResult> sizes = op.getMixedSizes();
  sizes[p] = batchSizeOfr(b);
  auto insert = tensor::InsertSliceOp::create(b, op.getLoc(), op.getSource(),
                                              dest, op.getMixedOffsets(), sizes,
                                              op.getMixedStrides());
  dims[insert.getResult()] = dims.lookup(op.getResult());
  tracedTypes[insert.getResult()] = tracedTypes.lookup(op.getResult());
  op.getResult().replaceAllUsesWith(insert.getResult());
  op.erase();
}

void Rebatcher::rewrite() {
  Block &body = model.getBody().front();
  SmallVector<Operation *> ops;
  for (Operation &op : body)
    ops.push_back(&op);
  SmallVector<Type> args(model.getArgumentTypes());
  for (unsigned input : inputs) {
    BlockArgument arg = model.getArgument(input);
    args[input] = newType(arg);
    arg.setType(args[input]);
  }
  for (Operation *op : ops) {
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
      auto it = linalgChanges.find(op);
      if (it != linalgChanges.end())
        rewriteLinalg(linalgOp, it->second);
    } else if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(op)) {
      if (dims.count(collapse.getResult()))
        rewriteCollapse(collapse);
    } else if (auto expand = dyn_cast<tensor::ExpandShapeOp>(op)) {
      if (dims.count(expand.getResult()))
        rewriteExpand(expand);
    } else if (auto slice = dyn_cast<tensor::ExtractSliceOp>(op)) {
      if (dims.count(slice.getResult()))
        rewriteExtract(slice);
    } else if (auto insert = dyn_cast<tensor::InsertSliceOp>(op)) {
      if (dims.count(insert.getResult()))
        rewriteInsert(insert);
    } else {
      // tensor.pad, tensor.concat, elementwise ops: the type follows.
      for (Value result : op->getResults())
        if (dims.count(result))
          result.setType(newType(result));
    }
  }
  // The traced inits and broadcasts that only batched ops used.
  for (Operation &op : llvm::make_early_inc_range(llvm::reverse(body)))
    if (rebuilt.contains(&op) && op.use_empty())
      op.erase();
  Operation *ret = body.getTerminator();
  model.setFunctionType(
      FunctionType::get(model.getContext(), args, ret->getOperandTypes()));
}

/// "dimension 0 of the input, argument #2", "dimension 1 of the inputs,
/// arguments #0, #1" (`dims`: the dimension of each input that held the
/// batch in the model as given; empty: 0 for all).
static std::string originOf(ArrayRef<unsigned> inputs,
                            ArrayRef<unsigned> dims) {
  auto dimOf = [&](size_t k) { return dims.empty() ? 0u : dims[k]; };
  bool same = llvm::all_of(llvm::seq<size_t>(0, inputs.size()),
                           [&](size_t k) { return dimOf(k) == dimOf(0); });
  if (inputs.size() == 1 || !same) {
    std::string text;
    for (size_t k = 0; k < inputs.size(); ++k)
      text += (k ? ", " : "") + std::string("dimension ") +
              std::to_string(dimOf(k)) + " of " +
              (inputs.size() == 1 ? "the input" : "input") + ", argument #" +
              std::to_string(inputs[k]);
    return text;
  }
  std::string names;
  for (unsigned i : inputs)
    names += (names.empty() ? "#" : ", #") + std::to_string(i);
  return "dimension " + std::to_string(dimOf(0)) +
         " of the inputs, arguments " + names;
}

/// Runs the analysis of `model`. Traced at batch 1, a collapse of the
/// batch with other dimensions is first read as a squeeze (torch-mlir
/// broadcasts the batch back for a matmul); where that fails (attention's
/// heads [1, H, T, d] -> [H, T, d] for batch_matmul), the analysis is rerun
/// with that collapse merged (BatchDim::factor), quietly; the last
/// attempt's errors are reported and null returned. `mode` and
/// Traced at 1, an expand of the batch's unit dimension into several unit
/// dimensions puts the batch in the first; where an op reads the result
/// otherwise, the analysis is rerun with the next (a sequence-first
/// output's [1, 8] -> [1, 1, 8] inserted at [t, 0, 0] of [S, 1, 8]).
/// `mode` and `retry` must outlive the result.
static std::unique_ptr<Rebatcher>
analyzeModel(func::FuncOp model, ArrayRef<unsigned> inputs, int64_t traced,
             int64_t batch, StringRef prefix, const AnalysisMode &mode,
             Retry &retry) {
  while (true) {
    auto attempt = std::make_unique<Rebatcher>(model, inputs, traced, batch,
                                               prefix, mode, retry);
    LogicalResult analyzed = failure();
    {
      ScopedDiagnosticHandler quiet(model.getContext(),
                                    [](Diagnostic &) { return success(); });
      analyzed = attempt->analyze();
    }
    if (succeeded(analyzed))
      return attempt;
    if (traced == 1 && attempt->squeezeFailure &&
        retry.mergeAtOne.insert(attempt->squeezeFailure).second)
      continue;
    if (traced == 1 && attempt->unitExpandFailure) {
      unsigned &choice = retry.unitExpandChoice[attempt->unitExpandFailure];
      if (choice + 1 < attempt->unitExpandCandidates) {
        ++choice;
        continue;
      }
    }
    Rebatcher loud(model, inputs, traced, batch, prefix, mode, retry);
    (void)loud.analyze();
    return nullptr;
  }
}

/// A `linalg.transpose` of `value` to the layout whose dimension i is
/// `value`'s dimension `perm[i]` (tensor.empty init; dynamic sizes by
/// tensor.dim).
static Value transposed(OpBuilder &b, Location loc, Value value,
                        ArrayRef<int64_t> perm) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<OpFoldResult> sizes;
  for (int64_t from : perm) {
    if (type.isDynamicDim(from))
      sizes.push_back(tensor::DimOp::create(b, loc, value, from).getResult());
    else
      sizes.push_back(b.getIndexAttr(type.getDimSize(from)));
  }
  Value init =
      tensor::EmptyOp::create(b, loc, sizes, type.getElementType()).getResult();
  return linalg::TransposeOp::create(b, loc, value, init, perm)->getResult(0);
}

/// The permutation that moves dimension `d` of a rank-`rank` value to the
/// front: result dimension 0 is `d`, the others keep their order.
static SmallVector<int64_t> frontOf(unsigned d, int64_t rank) {
  SmallVector<int64_t> perm{static_cast<int64_t>(d)};
  for (int64_t i = 0; i < rank; ++i)
    if (i != d)
      perm.push_back(i);
  return perm;
}

/// The inverse permutation of frontOf(d, rank): back to the layout with
/// the batch in dimension `d`.
static SmallVector<int64_t> backTo(unsigned d, int64_t rank) {
  SmallVector<int64_t> perm;
  for (int64_t i = 0; i < rank; ++i)
    perm.push_back(i == d ? 0 : i < d ? i + 1 : i);
  return perm;
}

/// The checks both entry points make: a body of one block, inputs that
/// exist and are ranked tensors with dimension `dims[k]` (0 without
/// `dims`), all of one traced batch size there (returned), and no other
/// op referring to the model (its signature changes).
static FailureOr<int64_t>
checkInputs(func::FuncOp model, ArrayRef<unsigned> inputs,
            ArrayRef<unsigned> dims,
            llvm::function_ref<InFlightDiagnostic(Location)> fail) {
  if (model.isDeclaration() || !model.getBody().hasOneBlock())
    return fail(model.getLoc())
           << "@" << model.getSymName()
           << " needs a body of one block to be re-batched";
  if (inputs.empty())
    return fail(model.getLoc()) << "@" << model.getSymName()
                                << " has no input to take the batch from";
  std::optional<int64_t> traced;
  for (auto [k, input] : llvm::enumerate(inputs)) {
    unsigned d = dims.empty() ? 0 : dims[k];
    if (input >= model.getNumArguments())
      return fail(model.getLoc())
             << "input=" << input << " is out of range: @" << model.getSymName()
             << " has " << model.getNumArguments() << " arguments";
    BlockArgument arg = model.getArgument(input);
    auto type = dyn_cast<RankedTensorType>(arg.getType());
    if (!type || type.getRank() <= d)
      return fail(arg.getLoc())
             << "the input, argument #" << input << " of @"
             << model.getSymName() << ", has type " << arg.getType()
             << "; its dimension " << d
             << " is the batch, so it must be a ranked tensor of rank " << d + 1
             << " or more";
    int64_t size = type.getDimSize(d);
    if (traced && size != *traced)
      return fail(arg.getLoc())
             << "the inputs disagree on the batch they were traced at: "
                "argument #"
             << inputs[0] << " has " << *traced << " in dimension "
             << (dims.empty() ? 0 : dims[0]) << ", argument #" << input
             << " has " << size << " in dimension " << d
             << "; every input takes the batch in "
             << (dims.empty() ? "dimension 0"
                              : "the dimension batch-dim= "
                                "names");
    traced = size;
  }
  if (auto module = model->getParentOfType<ModuleOp>())
    if (!SymbolTable::symbolKnownUseEmpty(model, module))
      return fail(model.getLoc())
             << "@" << model.getSymName()
             << " is referred to by other operations; re-batching changes "
                "its signature";
  return *traced;
}

LogicalResult mlir::amp::trainstep::rebatch(func::FuncOp model,
                                            ArrayRef<unsigned> inputs,
                                            int64_t batch, StringRef prefix,
                                            ArrayRef<unsigned> givenDims) {
  AnalysisMode mode;
  mode.option = batch == ShapedType::kDynamic
                    ? std::string("batch=dynamic")
                    : "batch=" + std::to_string(batch);
  mode.origin = originOf(inputs, givenDims);
  auto fail = [&](Location loc) {
    InFlightDiagnostic diag = emitError(loc);
    diag << prefix << ": " << mode.option << ": ";
    return diag;
  };
  FailureOr<int64_t> traced = checkInputs(model, inputs, {}, fail);
  if (failed(traced))
    return failure();
  BlockArgument first = model.getArgument(inputs[0]);
  auto type = cast<RankedTensorType>(first.getType());
  if (*traced == batch)
    return success();
  if (type.isDynamicDim(0))
    return fail(first.getLoc())
           << "the input, argument #" << inputs[0] << " of @"
           << model.getSymName() << " (" << type
           << "), has a dynamic batch already; re-batch to dynamic or not at "
              "all";
  Retry retry;
  std::unique_ptr<Rebatcher> analysis =
      analyzeModel(model, inputs, *traced, batch, prefix, mode, retry);
  if (!analysis)
    return failure();
  analysis->rewrite();
  return success();
}

/// Gives each argument `inputs[k]` the type with dimension `dims[k]` moved
/// to the front and a `linalg.transpose` at the entry back to the old
/// layout for the body (checkInputs first).
static void moveInputsFirst(func::FuncOp model, ArrayRef<unsigned> inputs,
                            ArrayRef<unsigned> dims) {
  OpBuilder b = OpBuilder::atBlockBegin(&model.getBody().front());
  for (auto [input, d] : llvm::zip_equal(inputs, dims)) {
    if (d == 0)
      continue;
    BlockArgument arg = model.getArgument(input);
    auto type = cast<RankedTensorType>(arg.getType());
    SmallVector<int64_t> shape;
    for (int64_t from : frontOf(d, type.getRank()))
      shape.push_back(type.getDimSize(from));
    SmallVector<OpOperand *> uses;
    for (OpOperand &use : arg.getUses())
      uses.push_back(&use);
    arg.setType(type.clone(shape));
    Value original =
        transposed(b, arg.getLoc(), arg, backTo(d, type.getRank()));
    for (OpOperand *use : uses)
      use->set(original);
  }
}

bool mlir::amp::trainstep::followsBatch(func::FuncOp model,
                                        ArrayRef<unsigned> inputs,
                                        ArrayRef<unsigned> dims) {
  ScopedDiagnosticHandler quiet(model.getContext(),
                                [](Diagnostic &) { return success(); });
  auto fail = [&](Location loc) { return emitError(loc); };
  FailureOr<int64_t> traced = checkInputs(model, inputs, dims, fail);
  if (failed(traced) || ShapedType::isDynamic(*traced))
    return false;
  func::FuncOp copy = model.clone();
  llvm::scope_exit eraseCopy([&]() { copy.erase(); });
  moveInputsFirst(copy, inputs, dims);
  AnalysisMode mode;
  mode.locate = true;
  Retry retry;
  return analyzeModel(copy, inputs, *traced, *traced, "", mode, retry) !=
         nullptr;
}

LogicalResult mlir::amp::trainstep::moveBatchFirst(
    func::FuncOp model, ArrayRef<unsigned> inputs, ArrayRef<unsigned> dims,
    bool moveResults, StringRef prefix, StringRef option) {
  assert(inputs.size() == dims.size() && "one batch dimension per input");
  if (llvm::all_of(dims, [](unsigned d) { return d == 0; }))
    return success();
  AnalysisMode mode;
  mode.option = option.str();
  if (option.empty()) {
    mode.option = "batch-dim=";
    for (auto [k, d] : llvm::enumerate(dims))
      mode.option += (k ? "," : "") + std::to_string(d);
  }
  mode.origin = originOf(inputs, dims);
  mode.locate = true;
  auto fail = [&](Location loc) {
    InFlightDiagnostic diag = emitError(loc);
    diag << prefix << ": " << mode.option << ": ";
    return diag;
  };
  FailureOr<int64_t> traced = checkInputs(model, inputs, dims, fail);
  if (failed(traced))
    return failure();

  // On a copy, so that the model is unchanged on error.
  func::FuncOp copy = model.clone();
  llvm::scope_exit eraseCopy([&]() { copy.erase(); });
  moveInputsFirst(copy, inputs, dims);
  Block &body = copy.getBody().front();
  OpBuilder b(copy.getContext());
  Operation *ret = body.getTerminator();
  if (moveResults) {
    Retry retry;
    std::unique_ptr<Rebatcher> analysis =
        analyzeModel(copy, inputs, *traced, *traced, prefix, mode, retry);
    if (!analysis)
      return failure();
    b.setInsertionPoint(ret);
    for (auto [i, pos] : llvm::enumerate(analysis->resultDims)) {
      if (!pos || *pos == 0)
        continue;
      Value result = ret->getOperand(i);
      auto type = cast<RankedTensorType>(result.getType());
      ret->setOperand(i, transposed(b, ret->getLoc(), result,
                                    frontOf(*pos, type.getRank())));
    }
  }
  SmallVector<Type> argTypes(copy.getArgumentTypes());
  for (unsigned input : inputs)
    argTypes[input] = copy.getArgument(input).getType();
  model.getBody().takeBody(copy.getBody());
  model.setFunctionType(
      FunctionType::get(model.getContext(), argTypes, ret->getOperandTypes()));
  return success();
}
