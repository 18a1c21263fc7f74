//===- CPUConvolutionsToGemm.cpp - amp-cpu-convolutions-to-gemm -----------===//
//
// A convolution, its weight gradient and its input gradient are sums of
// products whose operands are read through windows (`oh + kh`) or masks,
// so no micro-kernel matches them and they ran as plain loop nests, many
// times slower than the GEMMs of the same step. This pass rewrites each of
// them, on tensors, as one GEMM per image (`im2col`): the windowed operand
// copied into a matrix, the other operand viewed or copied as one, and a
// rank-2 `out + x * y` generic that amp-cpu-tile-contractions puts on its
// micro-kernels after bufferization. See the pass description in
// CPU/Passes.td.
//
//===----------------------------------------------------------------------===//

#include "amp/Analysis/Contraction.h"
#include "amp/CPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/SetVector.h"

#include <algorithm>
#include <vector>

namespace mlir::amp {
#define GEN_PASS_DEF_CPUCONVOLUTIONSTOGEMM
#include "amp/CPU/Passes.h.inc"
} // namespace mlir::amp

using namespace mlir;
using namespace mlir::amp;

namespace {
/// How one sum of products becomes GEMMs. Loops are the op's loop
/// positions. C, the output, is laid out as [rows..., cols...]; the row
/// input is indexed by the row loops and K, the column input by the column
/// loops and K.
struct GemmPlan {
  linalg::GenericOp op;
  ProductSum sum;
  /// The loop run as an scf.for, one slice of it at a time (the batch of a
  /// convolution: a parallel loop of its output, or the reduction of its
  /// weight gradient), when there is one.
  std::optional<unsigned> peel;
  /// The output's dimensions (the peeled one excepted) as two groups.
  SmallVector<unsigned> rows, cols;
  /// The reduction loops (the peeled one excepted), in GEMM order.
  SmallVector<unsigned> k;
  /// Input number (0 or 1) of the row input.
  unsigned rowInput = 0;
  /// Masks folded into each input's copy.
  SmallVector<arith::SelectOp> masks[2];
  /// Static extent of every loop (the peeled one may be dynamic).
  SmallVector<int64_t> extents;
};
} // namespace

/// The loop positions `map` reads (any result involving them).
static llvm::SmallSetVector<unsigned, 8> loopsOf(AffineMap map) {
  llvm::SmallSetVector<unsigned, 8> loops;
  for (unsigned d = 0; d < map.getNumDims(); ++d)
    if (map.isFunctionOfDim(d))
      loops.insert(d);
  return loops;
}

/// The loops a mask reads through `linalg.index`.
static llvm::SmallSetVector<unsigned, 8> loopsOfMask(Value cond) {
  llvm::SmallSetVector<unsigned, 8> loops;
  SmallVector<Value> work{cond};
  llvm::SmallPtrSet<Operation *, 16> seen;
  while (!work.empty()) {
    Operation *def = work.pop_back_val().getDefiningOp();
    if (!def || !seen.insert(def).second)
      continue;
    if (auto index = dyn_cast<linalg::IndexOp>(def))
      loops.insert(index.getDim());
    llvm::append_range(work, def->getOperands());
  }
  return loops;
}

/// A loop that may run as an scf.for over slices: every operand that reads
/// it reads it as its plain first dimension and nowhere else, and two of
/// the three operands read it (an image of a convolution: input and output,
/// or both inputs of the weight gradient).
static std::optional<unsigned> choosePeel(ArrayRef<AffineMap> maps) {
  for (unsigned d = 0; d < maps[0].getNumDims(); ++d) {
    unsigned readers = 0;
    bool plain = true;
    for (AffineMap map : maps) {
      if (!map.isFunctionOfDim(d))
        continue;
      ++readers;
      auto first = dyn_cast<AffineDimExpr>(map.getResult(0));
      plain &= first && first.getPosition() == d &&
               !map.dropResult(0).isFunctionOfDim(d);
    }
    if (plain && readers >= 2)
      return d;
  }
  return std::nullopt;
}

/// The map of an operand inside the per-slice loop: without its first
/// result when it reads the peeled loop.
static AffineMap innerMap(AffineMap map, std::optional<unsigned> peel) {
  return peel && map.isFunctionOfDim(*peel) ? map.dropResult(0) : map;
}

/// Whether `map`'s results are exactly the loops `order`, in that order.
static bool readsInOrder(AffineMap map, ArrayRef<unsigned> order) {
  if (map.getNumResults() != order.size())
    return false;
  for (auto [expr, d] : llvm::zip(map.getResults(), order)) {
    auto dim = dyn_cast<AffineDimExpr>(expr);
    if (!dim || dim.getPosition() != d)
      return false;
  }
  return true;
}

/// The K order under which input `map` (inner) is already a matrix with
/// `group` (its parallel loops in C's order) before or after K: its plain
/// results, K's loops being the rest. Empty when it is not.
static SmallVector<unsigned> naturalK(AffineMap map, ArrayRef<unsigned> group,
                                      size_t kSize) {
  SmallVector<unsigned> dims;
  for (AffineExpr expr : map.getResults()) {
    auto dim = dyn_cast<AffineDimExpr>(expr);
    if (!dim)
      return {};
    dims.push_back(dim.getPosition());
  }
  if (dims.size() != group.size() + kSize)
    return {};
  ArrayRef<unsigned> all(dims);
  if (all.take_front(group.size()) == group)
    return SmallVector<unsigned>(all.drop_front(group.size()));
  if (all.take_back(group.size()) == group)
    return SmallVector<unsigned>(all.drop_back(group.size()));
  return {};
}

/// The plan for `op`, or nullopt when it is not a convolution-shaped sum of
/// products this pass handles.
static std::optional<GemmPlan> planGemm(linalg::GenericOp op) {
  if (!op.hasPureTensorSemantics())
    return std::nullopt;
  std::optional<ProductSum> sum = matchProductSum(op);
  if (!sum)
    return std::nullopt;
  auto typeOf = [](Value v) { return dyn_cast<RankedTensorType>(v.getType()); };
  RankedTensorType in0 = typeOf(op.getDpsInputs()[0]),
                   in1 = typeOf(op.getDpsInputs()[1]),
                   out = typeOf(op.getDpsInits()[0]);
  auto isOperandType = [](Type t) {
    return t.isF32() || t.isF16() || t.isBF16();
  };
  // The micro-kernels' types: f32 accumulation of f32/f16/bf16 operands.
  if (!in0 || !in1 || !out || !out.getElementType().isF32() ||
      !isOperandType(in0.getElementType()) ||
      !isOperandType(in1.getElementType()))
    return std::nullopt;

  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  for (AffineMap map : maps)
    if (map.getNumSymbols() != 0)
      return std::nullopt;
  // Worth it only where an input is read through a window or a mask
  // (matmul-shaped generics get their kernel as they are).
  if (sum->masks.empty() && maps[0].isProjectedPermutation() &&
      maps[1].isProjectedPermutation())
    return std::nullopt;
  // The output reads exactly the parallel loops.
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  if (!maps[2].isProjectedPermutation() ||
      maps[2].getNumResults() != op.getNumParallelLoops() ||
      llvm::any_of(maps[2].getResults(), [&](AffineExpr e) {
        return iterators[cast<AffineDimExpr>(e).getPosition()] !=
               utils::IteratorType::parallel;
      }))
    return std::nullopt;

  GemmPlan plan;
  plan.op = op;
  plan.sum = *sum;
  plan.peel = choosePeel(maps);
  plan.extents = op.getStaticLoopRanges();
  for (unsigned d = 0; d < op.getNumLoops(); ++d)
    if (ShapedType::isDynamic(plan.extents[d]) && d != plan.peel)
      return std::nullopt;

  AffineMap inner[3];
  for (unsigned i = 0; i < 3; ++i)
    inner[i] = innerMap(maps[i], plan.peel);
  llvm::SmallSetVector<unsigned, 8> reads[2] = {loopsOf(inner[0]),
                                                loopsOf(inner[1])};
  // Masks go into the copy of the input whose loops they read; a mask that
  // reads the peeled loop only into the copy of an input that reads it too
  // (that copy is made per slice; the others once, before the loop).
  for (arith::SelectOp mask : sum->masks) {
    llvm::SmallSetVector<unsigned, 8> loops = loopsOfMask(mask.getCondition());
    bool readsPeel = plan.peel && loops.remove(*plan.peel);
    auto fits = [&](unsigned i) {
      return (!readsPeel || maps[i].isFunctionOfDim(*plan.peel)) &&
             llvm::all_of(loops,
                          [&](unsigned d) { return reads[i].contains(d); });
    };
    unsigned i = 0;
    while (i < 2 && !fits(i))
      ++i;
    if (i == 2)
      return std::nullopt;
    plan.masks[i].push_back(mask);
  }

  // Each parallel loop is read by one input (an M or N loop), each
  // reduction by both (K); C's dimensions are the M loops then the N loops
  // or the other way round.
  SmallVector<unsigned> outDims;
  for (AffineExpr expr : inner[2].getResults())
    outDims.push_back(cast<AffineDimExpr>(expr).getPosition());
  for (unsigned d = 0; d < op.getNumLoops(); ++d) {
    if (d == plan.peel)
      continue;
    bool r0 = reads[0].contains(d), r1 = reads[1].contains(d);
    if (iterators[d] == utils::IteratorType::reduction) {
      if (!r0 || !r1)
        return std::nullopt;
      plan.k.push_back(d);
    } else if (r0 == r1) {
      return std::nullopt; // a batch loop of both inputs, or a broadcast
    }
  }
  auto readerOf = [&](unsigned d) { return reads[0].contains(d) ? 0u : 1u; };
  if (outDims.empty() || plan.k.empty())
    return std::nullopt;
  plan.rowInput = readerOf(outDims.front());
  size_t split = 0;
  while (split < outDims.size() && readerOf(outDims[split]) == plan.rowInput)
    ++split;
  plan.rows.assign(outDims.begin(), outDims.begin() + split);
  plan.cols.assign(outDims.begin() + split, outDims.end());
  if (plan.cols.empty() || llvm::any_of(plan.cols, [&](unsigned d) {
        return readerOf(d) == plan.rowInput;
      }))
    return std::nullopt;

  // K in the order of an input that is a matrix already (no copy), if one
  // is (the weight of a convolution, the output gradient of its weight
  // gradient).
  for (unsigned i : {plan.rowInput, 1 - plan.rowInput}) {
    if (!plan.masks[i].empty())
      continue;
    SmallVector<unsigned> k = naturalK(
        inner[i], i == plan.rowInput ? plan.rows : plan.cols, plan.k.size());
    if (!k.empty() &&
        std::is_permutation(k.begin(), k.end(), plan.k.begin(), plan.k.end())) {
      plan.k = k;
      break;
    }
  }
  return plan;
}

namespace {
/// Builds the GEMMs of one plan.
class GemmBuilder {
public:
  GemmBuilder(RewriterBase &b, GemmPlan plan, bool widenBF16)
      : b(b), plan(std::move(plan)), loc(this->plan.op.getLoc()),
        widenBF16(widenBF16) {
    for (unsigned i = 0; i < 2; ++i)
      extend[i] = this->plan.sum.extend[i];
  }

  /// Replaces the op.
  void build();

private:
  /// The slice of `v` (read through `map`) at the peeled loop's `iv`, or
  /// `v` when it does not read that loop.
  Value slice(Value v, AffineMap map, Value iv);
  /// Input `i` (inner map `map`) as a matrix [group..., K...] or
  /// [K..., group...]; sets `kFirst`.
  Value matrix(unsigned i, Value v, AffineMap map, Value iv, bool &kFirst);
  /// The GEMM of the two input matrices into C (the output's inner slice).
  Value gemm(Value rowMatrix, bool rowKFirst, Value colMatrix, bool colKFirst,
             Value c);

  RewriterBase &b;
  GemmPlan plan;
  Location loc;
  /// Whether a copy of a bf16 input is written in f32 (f16 always is).
  bool widenBF16;
  /// Whether the GEMM's body widens input i (false once its copy did).
  bool extend[2];
};
} // namespace

Value GemmBuilder::slice(Value v, AffineMap map, Value iv) {
  if (!plan.peel || !map.isFunctionOfDim(*plan.peel))
    return v;
  auto type = cast<RankedTensorType>(v.getType());
  SmallVector<OpFoldResult> offsets(type.getRank(), b.getIndexAttr(0)), sizes,
      strides(type.getRank(), b.getIndexAttr(1));
  offsets[0] = iv;
  sizes.push_back(b.getIndexAttr(1));
  for (int64_t s : type.getShape().drop_front())
    sizes.push_back(b.getIndexAttr(s));
  auto sliced = RankedTensorType::get(type.getShape().drop_front(),
                                      type.getElementType());
  return tensor::ExtractSliceOp::create(b, loc, sliced, v, offsets, sizes,
                                        strides);
}

Value GemmBuilder::matrix(unsigned i, Value v, AffineMap map, Value iv,
                          bool &kFirst) {
  ArrayRef<unsigned> group = i == plan.rowInput ? plan.rows : plan.cols;
  Type elementType = cast<RankedTensorType>(v.getType()).getElementType();
  auto collapse = [&](Value t, size_t firstGroup) -> Value {
    auto type = cast<RankedTensorType>(t.getType());
    SmallVector<ReassociationIndices> groups(2);
    for (int64_t r = 0; r < type.getRank(); ++r)
      groups[r < static_cast<int64_t>(firstGroup) ? 0 : 1].push_back(r);
    return tensor::CollapseShapeOp::create(b, loc, t, groups);
  };
  // Already a matrix: a view.
  SmallVector<unsigned> groupThenK(group), kThenGroup(plan.k);
  groupThenK.append(plan.k.begin(), plan.k.end());
  kThenGroup.append(group.begin(), group.end());
  if (plan.masks[i].empty()) {
    if (readsInOrder(map, groupThenK)) {
      kFirst = false;
      return collapse(v, group.size());
    }
    if (readsInOrder(map, kThenGroup)) {
      kFirst = true;
      return collapse(v, plan.k.size());
    }
  }
  // Else a copy, with innermost the group whose last loop is the longer
  // (the spatial loops of im2col, K's (oh, ow) in a weight gradient): the
  // copy then reads and writes runs of that length.
  kFirst = plan.extents[plan.k.back()] <= plan.extents[group.back()];
  SmallVector<unsigned> order = kFirst ? kThenGroup : groupThenK;
  SmallVector<int64_t> shape;
  SmallVector<AffineExpr> replacements(map.getNumDims(),
                                       b.getAffineConstantExpr(0));
  for (auto [pos, d] : llvm::enumerate(order)) {
    shape.push_back(plan.extents[d]);
    replacements[d] = b.getAffineDimExpr(pos);
  }
  AffineMap readMap =
      map.replaceDimsAndSymbols(replacements, {}, order.size(), 0);
  AffineMap identity = b.getMultiDimIdentityMap(order.size());
  // A 16-bit input the GEMM widens is copied in f32 (the widening the
  // micro-kernel would do in its own pack, done once in the copy), except
  // bf16 for the vdpbf16ps kernel, which reads bf16 pairs.
  bool widen =
      extend[i] && (elementType.isF16() || (elementType.isBF16() && widenBF16));
  Type copyType = widen ? b.getF32Type() : elementType;
  if (widen)
    extend[i] = false;
  Value empty = tensor::EmptyOp::create(b, loc, shape, copyType);
  SmallVector<utils::IteratorType> parallel(order.size(),
                                            utils::IteratorType::parallel);
  Block *body = plan.op.getBody();
  auto copy = linalg::GenericOp::create(
      b, loc, empty.getType(), ValueRange{v}, ValueRange{empty},
      ArrayRef<AffineMap>{readMap, identity}, parallel,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        Value x = args[0];
        if (widen)
          x = arith::ExtFOp::create(nb, nloc, copyType, x);
        if (!plan.masks[i].empty()) {
          // The masks' index arithmetic, its linalg.index ops renumbered
          // (the peeled loop's index is the scf.for's).
          llvm::SmallPtrSet<Operation *, 16> needed;
          SmallVector<Value> work;
          for (arith::SelectOp mask : plan.masks[i])
            work.push_back(mask.getCondition());
          while (!work.empty()) {
            Operation *def = work.pop_back_val().getDefiningOp();
            if (def && def->getBlock() == body && needed.insert(def).second)
              llvm::append_range(work, def->getOperands());
          }
          IRMapping mapping;
          for (Operation &old : body->without_terminator()) {
            if (!needed.contains(&old))
              continue;
            if (auto index = dyn_cast<linalg::IndexOp>(old)) {
              unsigned d = index.getDim();
              Value replacement =
                  d == plan.peel
                      ? iv
                      : linalg::IndexOp::create(
                            nb, nloc,
                            std::distance(order.begin(), llvm::find(order, d)));
              mapping.map(index.getResult(), replacement);
              continue;
            }
            nb.clone(old, mapping);
          }
          Value zero = arith::ConstantOp::create(nb, nloc, copyType,
                                                 nb.getZeroAttr(copyType));
          for (arith::SelectOp mask : plan.masks[i])
            x = arith::SelectOp::create(
                nb, nloc, mapping.lookupOrDefault(mask.getCondition()), x,
                zero);
        }
        linalg::YieldOp::create(nb, nloc, x);
      });
  return collapse(copy.getResult(0), kFirst ? plan.k.size() : group.size());
}

Value GemmBuilder::gemm(Value rowMatrix, bool rowKFirst, Value colMatrix,
                        bool colKFirst, Value c) {
  MLIRContext *ctx = b.getContext();
  // Loops (i, j, k): C[i, j] += R[i, k] * Q[k, j].
  AffineExpr i = getAffineDimExpr(0, ctx), j = getAffineDimExpr(1, ctx),
             k = getAffineDimExpr(2, ctx);
  auto mapOf = [&](AffineExpr r0, AffineExpr r1) {
    return AffineMap::get(3, 0, {r0, r1}, ctx);
  };
  SmallVector<AffineMap> maps = {rowKFirst ? mapOf(k, i) : mapOf(i, k),
                                 colKFirst ? mapOf(k, j) : mapOf(j, k),
                                 mapOf(i, j)};
  SmallVector<utils::IteratorType> iterators = {utils::IteratorType::parallel,
                                                utils::IteratorType::parallel,
                                                utils::IteratorType::reduction};
  bool extendRow = extend[plan.rowInput], extendCol = extend[1 - plan.rowInput];
  auto generic = linalg::GenericOp::create(
      b, loc, c.getType(), ValueRange{rowMatrix, colMatrix}, ValueRange{c},
      maps, iterators, [&](OpBuilder &nb, Location nloc, ValueRange args) {
        Type f32 = nb.getF32Type();
        Value x = args[0], y = args[1];
        if (extendRow)
          x = arith::ExtFOp::create(nb, nloc, f32, x);
        if (extendCol)
          y = arith::ExtFOp::create(nb, nloc, f32, y);
        Value product = arith::MulFOp::create(nb, nloc, x, y);
        linalg::YieldOp::create(
            nb, nloc, Value(arith::AddFOp::create(nb, nloc, args[2], product)));
      });
  return generic.getResult(0);
}

void GemmBuilder::build() {
  linalg::GenericOp op = plan.op;
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  Value inputs[2] = {op.getDpsInputs()[0], op.getDpsInputs()[1]};
  Value init = op.getDpsInits()[0];
  b.setInsertionPoint(op);

  // The inputs that do not read the peeled loop (a weight) are made
  // matrices once, outside the loop.
  Value hoisted[2];
  bool kFirst[2] = {false, false};
  for (unsigned i = 0; i < 2; ++i)
    if (!plan.peel || !maps[i].isFunctionOfDim(*plan.peel))
      hoisted[i] = matrix(i, inputs[i], innerMap(maps[i], plan.peel), Value(),
                          kFirst[i]);

  // One slice: the GEMM into the output's slice `outSlice`.
  auto perSlice = [&](Value iv, Value outSlice) -> Value {
    Value m[2];
    for (unsigned i = 0; i < 2; ++i)
      m[i] = hoisted[i] ? hoisted[i]
                        : matrix(i, slice(inputs[i], maps[i], iv),
                                 innerMap(maps[i], plan.peel), iv, kFirst[i]);
    auto outType = cast<RankedTensorType>(outSlice.getType());
    SmallVector<ReassociationIndices> groups(2);
    for (int64_t r = 0; r < outType.getRank(); ++r)
      groups[r < static_cast<int64_t>(plan.rows.size()) ? 0 : 1].push_back(r);
    Value c = tensor::CollapseShapeOp::create(b, loc, outSlice, groups);
    unsigned row = plan.rowInput;
    Value result = gemm(m[row], kFirst[row], m[1 - row], kFirst[1 - row], c);
    return tensor::ExpandShapeOp::create(b, loc, outType, result, groups);
  };

  Value replacement;
  if (!plan.peel) {
    replacement = perSlice(Value(), init);
  } else {
    unsigned p = *plan.peel;
    // The trip count: from the first operand that reads the loop.
    Value ub;
    for (auto [v, map] : llvm::zip(op->getOperands(), maps))
      if (!ub && map.isFunctionOfDim(p))
        ub = ShapedType::isDynamic(plan.extents[p])
                 ? Value(tensor::DimOp::create(b, loc, v, 0))
                 : Value(
                       arith::ConstantIndexOp::create(b, loc, plan.extents[p]));
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    bool outReads = maps[2].isFunctionOfDim(p);
    auto loop = scf::ForOp::create(
        b, loc, zero, ub, one, ValueRange{init},
        [&](OpBuilder &, Location, Value iv, ValueRange acc) {
          Value outSlice = slice(acc[0], maps[2], iv);
          Value result = perSlice(iv, outSlice);
          Value next = result;
          if (outReads) {
            auto type = cast<RankedTensorType>(acc[0].getType());
            SmallVector<OpFoldResult> offsets(type.getRank(),
                                              b.getIndexAttr(0)),
                sizes, strides(type.getRank(), b.getIndexAttr(1));
            offsets[0] = iv;
            sizes.push_back(b.getIndexAttr(1));
            for (int64_t s : type.getShape().drop_front())
              sizes.push_back(b.getIndexAttr(s));
            next = tensor::InsertSliceOp::create(b, loc, result, acc[0],
                                                 offsets, sizes, strides);
          }
          scf::YieldOp::create(b, loc, next);
        });
    replacement = loop.getResult(0);
  }
  b.replaceOp(op, replacement);
}

namespace {
struct CPUConvolutionsToGemmPass
    : amp::impl::CPUConvolutionsToGemmBase<CPUConvolutionsToGemmPass> {
  using Base::Base;
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    // The generics, and the named convolutions (torch-mlir's
    // linalg.conv_2d_nchw_fchw) through their generic form, each planned
    // once; a named op is replaced by its generic only where that is
    // planned.
    std::vector<GemmPlan> plans;
    SmallVector<linalg::LinalgOp> named;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (auto generic = dyn_cast<linalg::GenericOp>(op.getOperation())) {
        if (std::optional<GemmPlan> plan = planGemm(generic))
          plans.push_back(*plan);
      } else if (op.hasPureTensorSemantics() &&
                 linalg::isaConvolutionOpInterface(op)) {
        named.push_back(op);
      }
    });
    for (linalg::LinalgOp op : named) {
      rewriter.setInsertionPoint(op);
      auto clone = cast<linalg::LinalgOp>(rewriter.clone(*op));
      FailureOr<linalg::GenericOp> generic =
          linalg::generalizeNamedOp(rewriter, clone);
      if (failed(generic)) {
        rewriter.eraseOp(clone);
        continue;
      }
      std::optional<GemmPlan> plan = planGemm(*generic);
      if (!plan) {
        rewriter.eraseOp(*generic);
        continue;
      }
      rewriter.replaceOp(op, generic->getResults());
      plans.push_back(*plan);
    }
    for (const GemmPlan &plan : plans)
      GemmBuilder(rewriter, plan, widenBF16).build();
  }
};
} // namespace
