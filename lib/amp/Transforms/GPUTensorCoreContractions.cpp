//===- GPUTensorCoreContractions.cpp - amp-gpu-tensor-core-contractions ---===//
//
// f16 x f16 -> f32 contractions (autocast's matmuls with fp32 accumulation)
// as warp tiles of m16n8k16 `vector.contract`s, which upstream
// `convert-vector-to-gpu{use-nvgpu}` turns into `nvgpu.mma.sync` (Tensor
// Cores, sm_80+). See the pass description in Passes.td and docs/gpu.md.
//
//===----------------------------------------------------------------------===//

#include "amp/Transforms/Passes.h"

#include "mlir/Conversion/VectorToGPU/VectorToGPU.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <optional>

namespace mlir::amp {
#define GEN_PASS_DEF_GPUTENSORCORECONTRACTIONS
#include "amp/Transforms/Passes.h.inc"
} // namespace mlir::amp

using namespace mlir;

namespace {
/// The native mma.sync shape for 16-bit operands with f32 accumulation.
constexpr int64_t kMmaM = 16, kMmaN = 8, kMmaK = 16;

/// A matched contraction C[i, j] += A[i, k] * B[k, j] on buffers, with
/// A read as A[k, i] when `transposeA` and B as B[j, k] when `transposeB`.
struct Contraction {
  linalg::GenericOp op;
  Value a, b, c;
  bool transposeA = false, transposeB = false;
  int64_t m = 0, n = 0, k = 0;
};
} // namespace

/// True for `arith.extf` of block argument `arg` from f16 to f32.
static bool isExtOfArg(Value v, BlockArgument arg) {
  auto ext = v.getDefiningOp<arith::ExtFOp>();
  return ext && ext.getIn() == arg;
}

/// Body `yield(out + extf(a) * extf(b))` in any operand order.
static bool hasMulAddBody(linalg::GenericOp op) {
  Block &body = op.getRegion().front();
  if (body.getOperations().size() != 5)
    return false;
  auto yield = cast<linalg::YieldOp>(body.getTerminator());
  auto add = yield.getValues().front().getDefiningOp<arith::AddFOp>();
  if (!add)
    return false;
  BlockArgument a = body.getArgument(0), b = body.getArgument(1),
                out = body.getArgument(2);
  Value product = add.getLhs() == out   ? add.getRhs()
                  : add.getRhs() == out ? add.getLhs()
                                        : Value();
  auto mul = product ? product.getDefiningOp<arith::MulFOp>() : nullptr;
  if (!mul)
    return false;
  return (isExtOfArg(mul.getLhs(), a) && isExtOfArg(mul.getRhs(), b)) ||
         (isExtOfArg(mul.getLhs(), b) && isExtOfArg(mul.getRhs(), a));
}

/// The contraction `op` computes, or nullopt when it is not one that the
/// m16n8k16 f16 tile covers exactly (see the pass description).
static std::optional<Contraction> matchContraction(linalg::GenericOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInputs() != 2 ||
      op.getNumDpsInits() != 1 || op.getNumLoops() != 3)
    return std::nullopt;
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  if (iterators[0] != utils::IteratorType::parallel ||
      iterators[1] != utils::IteratorType::parallel ||
      iterators[2] != utils::IteratorType::reduction)
    return std::nullopt;
  MLIRContext *ctx = op.getContext();
  auto map = [&](unsigned r0, unsigned r1) {
    return AffineMap::get(
        3, 0, {getAffineDimExpr(r0, ctx), getAffineDimExpr(r1, ctx)}, ctx);
  };
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  Contraction c{op, op.getDpsInputs()[0], op.getDpsInputs()[1],
                op.getDpsInits()[0]};
  if (maps[2] != map(0, 1))
    return std::nullopt;
  if (maps[0] == map(2, 0))
    c.transposeA = true;
  else if (maps[0] != map(0, 2))
    return std::nullopt;
  if (maps[1] == map(1, 2))
    c.transposeB = true;
  else if (maps[1] != map(2, 1))
    return std::nullopt;
  auto typeOf = [](Value v) { return dyn_cast<MemRefType>(v.getType()); };
  MemRefType aType = typeOf(c.a), bType = typeOf(c.b), cType = typeOf(c.c);
  if (!aType || !bType || !cType || !aType.hasStaticShape() ||
      !bType.hasStaticShape() || !cType.hasStaticShape() ||
      !aType.getLayout().isIdentity() || !bType.getLayout().isIdentity() ||
      !cType.getLayout().isIdentity())
    return std::nullopt;
  if (!aType.getElementType().isF16() || !bType.getElementType().isF16() ||
      !cType.getElementType().isF32() || !hasMulAddBody(op))
    return std::nullopt;
  c.m = cType.getDimSize(0);
  c.n = cType.getDimSize(1);
  c.k = aType.getDimSize(c.transposeA ? 0 : 1);
  if (c.m % kMmaM != 0 || c.n % kMmaN != 0 || c.k % kMmaK != 0)
    return std::nullopt;
  return c;
}

/// Rows and columns of the output one warp computes: the largest of
/// 32/16 (rows) and 32/16/8 (columns) that divides the output. A 32 x 32
/// tile keeps 2 A and 4 B fragments per k-step in registers (8 mma.sync).
static std::pair<int64_t, int64_t> warpTile(const Contraction &c) {
  int64_t rows = c.m % 32 == 0 ? 32 : kMmaM;
  int64_t cols = c.n % 32 == 0 ? 32 : c.n % 16 == 0 ? 16 : kMmaN;
  return {rows, cols};
}

/// `vector<rows x cols x elem>` read from `buffer` at `row0, col0`, or, when
/// `transposed`, read from buffer[col0 + c, row0 + r] (the transpose folds
/// into the read's permutation map).
static Value readTile(OpBuilder &b, Location loc, Value buffer, Value row0,
                      Value col0, int64_t rows, int64_t cols, bool transposed) {
  Type elem = cast<MemRefType>(buffer.getType()).getElementType();
  auto type = VectorType::get({rows, cols}, elem);
  Value pad = arith::ConstantOp::create(b, loc, elem, b.getZeroAttr(elem));
  MLIRContext *ctx = b.getContext();
  AffineMap perm =
      transposed ? AffineMap::getPermutationMap(ArrayRef<unsigned>{1, 0}, ctx)
                 : AffineMap::getMultiDimIdentityMap(2, ctx);
  SmallVector<Value> indices = transposed ? SmallVector<Value>{col0, row0}
                                          : SmallVector<Value>{row0, col0};
  return vector::TransferReadOp::create(b, loc, type, buffer, indices, pad,
                                        perm, ArrayRef<bool>{true, true});
}

/// The warp tile at output origin (m0, n0): accumulators read once, a loop
/// over K accumulating m16n8k16 contractions, accumulators written once.
static void buildWarpTile(OpBuilder &b, Location loc, const Contraction &c,
                          Value m0, Value n0) {
  auto [rows, cols] = warpTile(c);
  int64_t fragRows = rows / kMmaM, fragCols = cols / kMmaN;
  // Index math as affine.apply: upstream's vector-to-nvgpu conversion
  // takes any arith op in the tile for an elementwise op on fragments.
  auto at = [&](Value base, int64_t offset) -> Value {
    if (offset == 0)
      return base;
    AffineExpr d0 = getAffineDimExpr(0, b.getContext());
    return affine::AffineApplyOp::create(
        b, loc, AffineMap::get(1, 0, d0 + offset), ValueRange{base});
  };
  SmallVector<Value> rowOf, colOf;
  for (int64_t i = 0; i < fragRows; ++i)
    rowOf.push_back(at(m0, i * kMmaM));
  for (int64_t j = 0; j < fragCols; ++j)
    colOf.push_back(at(n0, j * kMmaN));

  SmallVector<Value> accs;
  for (int64_t i = 0; i < fragRows; ++i)
    for (int64_t j = 0; j < fragCols; ++j)
      accs.push_back(
          readTile(b, loc, c.c, rowOf[i], colOf[j], kMmaM, kMmaN, false));

  MLIRContext *ctx = b.getContext();
  AffineExpr i = getAffineDimExpr(0, ctx), j = getAffineDimExpr(1, ctx),
             k = getAffineDimExpr(2, ctx);
  auto maps = b.getAffineMapArrayAttr({AffineMap::get(3, 0, {i, k}, ctx),
                                       AffineMap::get(3, 0, {k, j}, ctx),
                                       AffineMap::get(3, 0, {i, j}, ctx)});
  auto iterators = b.getArrayAttr(
      {vector::IteratorTypeAttr::get(ctx, vector::IteratorType::parallel),
       vector::IteratorTypeAttr::get(ctx, vector::IteratorType::parallel),
       vector::IteratorTypeAttr::get(ctx, vector::IteratorType::reduction)});

  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value kEnd = arith::ConstantIndexOp::create(b, loc, c.k);
  Value kStep = arith::ConstantIndexOp::create(b, loc, kMmaK);
  auto loop = scf::ForOp::create(
      b, loc, zero, kEnd, kStep, accs,
      [&](OpBuilder &lb, Location l, Value k0, ValueRange iterAccs) {
        SmallVector<Value> aFrags, bFrags;
        for (int64_t fi = 0; fi < fragRows; ++fi)
          aFrags.push_back(
              readTile(lb, l, c.a, rowOf[fi], k0, kMmaM, kMmaK, c.transposeA));
        for (int64_t fj = 0; fj < fragCols; ++fj)
          bFrags.push_back(
              readTile(lb, l, c.b, k0, colOf[fj], kMmaK, kMmaN, c.transposeB));
        SmallVector<Value> next;
        for (int64_t fi = 0; fi < fragRows; ++fi)
          for (int64_t fj = 0; fj < fragCols; ++fj)
            next.push_back(vector::ContractionOp::create(
                lb, l, aFrags[fi], bFrags[fj], iterAccs[fi * fragCols + fj],
                maps, iterators));
        scf::YieldOp::create(lb, l, next);
      });
  for (int64_t fi = 0; fi < fragRows; ++fi)
    for (int64_t fj = 0; fj < fragCols; ++fj)
      vector::TransferWriteOp::create(
          b, loc, loop.getResult(fi * fragCols + fj), c.c,
          ValueRange{rowOf[fi], colOf[fj]}, ArrayRef<bool>{true, true});
}

/// Replaces `c.op` by its warp tiles: one gpu.launch (blocks over N tiles
/// x M tiles, 32 threads) whose vector ops become per-lane fragment loads
/// and nvgpu.mma.sync, or, without `launch`, an scf.parallel of vector ops.
static LogicalResult rewrite(Contraction &c, bool launch) {
  OpBuilder b(c.op);
  Location loc = c.op.getLoc();
  auto [rows, cols] = warpTile(c);
  llvm::SmallDenseMap<int64_t, Value> constants;
  auto index = [&](int64_t v) -> Value {
    Value &constant = constants[v];
    if (!constant)
      constant = arith::ConstantIndexOp::create(b, loc, v);
    return constant;
  };
  gpu::LaunchOp launchOp;
  if (launch) {
    Value one = index(1);
    auto op = gpu::LaunchOp::create(
        b, loc, index(c.n / cols), index(c.m / rows), one, index(32), one, one);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&op.getBody().front());
    AffineExpr d0 = getAffineDimExpr(0, b.getContext());
    Value m0 =
        affine::AffineApplyOp::create(b, loc, AffineMap::get(1, 0, d0 * rows),
                                      ValueRange{op.getBlockIds().y});
    Value n0 =
        affine::AffineApplyOp::create(b, loc, AffineMap::get(1, 0, d0 * cols),
                                      ValueRange{op.getBlockIds().x});
    buildWarpTile(b, loc, c, m0, n0);
    gpu::TerminatorOp::create(b, loc);
    launchOp = op;
  } else {
    Value zero = index(0);
    scf::ParallelOp::create(b, loc, ValueRange{zero, zero},
                            ValueRange{index(c.m), index(c.n)},
                            ValueRange{index(rows), index(cols)},
                            [&](OpBuilder &pb, Location l, ValueRange ivs) {
                              buildWarpTile(pb, l, c, ivs[0], ivs[1]);
                            });
  }
  c.op.erase();
  if (!launchOp)
    return success();
  // What upstream convert-vector-to-gpu{use-nvgpu} does, on this launch
  // only (the pass would also take scalar arith elsewhere for fragments).
  MLIRContext *ctx = launchOp.getContext();
  RewritePatternSet prepare(ctx);
  populatePrepareVectorToMMAPatterns(prepare, /*useNvGpu=*/true);
  if (failed(
          applyPatternsGreedily(launchOp.getOperation(), std::move(prepare))))
    return launchOp.emitError("amp-gpu-tensor-core-contractions: could not "
                              "prepare the warp tile for mma.sync");
  IRRewriter rewriter(ctx);
  if (failed(convertVectorToNVVMCompatibleMMASync(rewriter, launchOp)))
    return launchOp.emitError("amp-gpu-tensor-core-contractions: could not "
                              "convert the warp tile to nvgpu.mma.sync");
  // The conversion leaves the vector ops it replaced behind, dead, and the
  // loop still carries the old 16 x 8 accumulators: scf.for's
  // canonicalization drops the unused iter_args, the driver the dead ops.
  RewritePatternSet cleanup(ctx);
  scf::ForOp::getCanonicalizationPatterns(cleanup, ctx);
  (void)applyPatternsGreedily(launchOp.getOperation(), std::move(cleanup));
  if (launchOp
          ->walk([](vector::ContractionOp) { return WalkResult::interrupt(); })
          .wasInterrupted())
    return launchOp.emitError("amp-gpu-tensor-core-contractions: a "
                              "vector.contract of the warp tile was not "
                              "converted to nvgpu.mma.sync");
  return success();
}

namespace {
struct GPUTensorCoreContractionsPass
    : amp::impl::GPUTensorCoreContractionsBase<GPUTensorCoreContractionsPass> {
  using Base::Base;
  void runOnOperation() override {
    SmallVector<Contraction> matches;
    getOperation().walk([&](linalg::GenericOp op) {
      if (op->getParentOfType<gpu::LaunchOp>())
        return;
      if (std::optional<Contraction> c = matchContraction(op))
        matches.push_back(*c);
    });
    for (Contraction &c : matches)
      if (failed(rewrite(c, launch)))
        return signalPassFailure();
  }
};
} // namespace
