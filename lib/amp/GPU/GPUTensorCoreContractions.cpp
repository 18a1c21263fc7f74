//===- GPUTensorCoreContractions.cpp - amp-gpu-tensor-core-contractions ---===//
//
// f16/bf16 -> f32 contractions (autocast's matmuls with fp32 accumulation)
// as warp tiles of m16n8k16 `vector.contract`s, which upstream
// `convert-vector-to-gpu{use-nvgpu}` turns into `nvgpu.mma.sync` (Tensor
// Cores, sm_80+); bf16 through f16 views, retyped after the conversion.
// See the pass description in Passes.td and docs/gpu.md.
//
//===----------------------------------------------------------------------===//

#include "amp/Analysis/Contraction.h"
#include "amp/GPU/Passes.h"

#include "mlir/Conversion/VectorToGPU/VectorToGPU.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <optional>

namespace mlir::amp {
#define GEN_PASS_DEF_GPUTENSORCORECONTRACTIONS
#include "amp/GPU/Passes.h.inc"
} // namespace mlir::amp

using namespace mlir;
using namespace mlir::amp;

namespace {
/// The native mma.sync shape for 16-bit operands with f32 accumulation.
constexpr int64_t kMmaM = 16, kMmaN = 8, kMmaK = 16;

/// A matched contraction C[i, j] += A[i, k] * B[k, j] on buffers (A and B
/// both f16 or both bf16, C f32), with
/// A read as A[k, i] when `transposeA` and B as B[j, k] when `transposeB`.
struct Contraction {
  linalg::GenericOp op;
  Value a, b, c;
  bool transposeA = false, transposeB = false;
  int64_t m = 0, n = 0, k = 0;
};
} // namespace

/// The contraction `op` computes, or nullopt when it is not one that the
/// m16n8k16 tile of 16-bit operands covers exactly (see the pass
/// description).
static std::optional<Contraction> matchContraction(linalg::GenericOp op) {
  std::optional<BufferContraction> match = matchBufferContraction(op);
  if (!match)
    return std::nullopt;
  Contraction c{op,       match->a,          match->b,
                match->c, match->transposeA, match->transposeB};
  auto typeOf = [](Value v) { return cast<MemRefType>(v.getType()); };
  MemRefType aType = typeOf(c.a), bType = typeOf(c.b), cType = typeOf(c.c);
  if (!aType.hasStaticShape() || !bType.hasStaticShape() ||
      !cType.hasStaticShape() || !aType.getLayout().isIdentity() ||
      !bType.getLayout().isIdentity() || !cType.getLayout().isIdentity())
    return std::nullopt;
  Type in = aType.getElementType();
  if (!(in.isF16() || in.isBF16()) || bType.getElementType() != in ||
      !cType.getElementType().isF32() || !match->extendA || !match->extendB)
    return std::nullopt;
  c.m = cType.getDimSize(0);
  c.n = cType.getDimSize(1);
  c.k = aType.getDimSize(c.transposeA ? 0 : 1);
  if (c.m == 0 || c.n == 0 || c.k == 0 || c.m % kMmaM != 0 ||
      c.n % kMmaN != 0 || c.k % kMmaK != 0)
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

/// `type` with f16 elements replaced by bf16 (vectors and scalars).
static Type toBf16(Type type) {
  Builder b(type.getContext());
  if (type.isF16())
    return b.getBF16Type();
  auto vector = dyn_cast<VectorType>(type);
  if (vector && vector.getElementType().isF16())
    return vector.clone(b.getBF16Type());
  return type;
}

/// bf16 fragments through upstream's f16 conversion. LLVM 22's
/// vector-to-nvgpu conversion knows f16 fragments only, but PTX's m16n8k16
/// fragments of .f16 and .bf16 have the same layout (16-bit elements, two
/// per register). The tile was built on f16 views of the bf16 buffers
/// (`views`, unrealized casts) and converted; here every fragment load
/// through a view reads the bf16 buffer instead, and the bf16 type flows
/// through the ops that assemble fragments up to the nvgpu.mma.sync
/// operands. Any other use of a view is an error.
static LogicalResult
retypeFragments(ArrayRef<UnrealizedConversionCastOp> views) {
  SmallVector<Value> worklist;
  for (UnrealizedConversionCastOp view : views) {
    for (OpOperand &use : llvm::make_early_inc_range(view->getUses())) {
      Operation *user = use.getOwner();
      if (!isa<memref::LoadOp, vector::LoadOp>(user))
        return user->emitError("amp-gpu-tensor-core-contractions: unexpected "
                               "use of a bf16 fragment buffer");
      use.set(view.getOperand(0));
      Value loaded = user->getResult(0);
      loaded.setType(toBf16(loaded.getType()));
      worklist.push_back(loaded);
    }
  }
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    for (Operation *user : llvm::make_early_inc_range(v.getUsers())) {
      if (isa<nvgpu::MmaSyncOp>(user))
        continue;
      if (auto insert = dyn_cast<vector::InsertOp>(user)) {
        // A fragment starts as a zero vector that values are inserted into:
        // a bf16 zero instead of the f16 one.
        Value dest = insert.getDest();
        if (cast<VectorType>(dest.getType()).getElementType().isF16()) {
          if (!matchPattern(dest, m_AnyZeroFloat()))
            return insert.emitError("amp-gpu-tensor-core-contractions: a "
                                    "fragment does not start from zero");
          OpBuilder b(insert);
          auto type = cast<VectorType>(toBf16(dest.getType()));
          Value zero = arith::ConstantOp::create(
              b, insert.getLoc(), type,
              DenseElementsAttr::get(type,
                                     b.getZeroAttr(type.getElementType())));
          insert.getDestMutable().assign(zero);
        }
      } else if (!isa<vector::FromElementsOp, vector::ToElementsOp,
                      vector::ExtractOp, vector::BroadcastOp>(user)) {
        return user->emitError("amp-gpu-tensor-core-contractions: unexpected "
                               "op between a bf16 fragment load and mma.sync");
      }
      for (Value result : user->getResults()) {
        Type type = toBf16(result.getType());
        if (type != result.getType()) {
          result.setType(type);
          worklist.push_back(result);
        }
      }
    }
  }
  for (UnrealizedConversionCastOp view : views)
    view.erase();
  return success();
}

/// nvgpu.mma.sync on bf16 fragments -> nvvm.mma.sync, which LLVM 22's nvgpu
/// lowering does not emit for bf16: each register of two bf16 is an i32
/// (element 0 in the low half, as in .f16x2), the accumulator four f32:
/// PTX `mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32`.
static void lowerBf16MmaSync(nvgpu::MmaSyncOp mma) {
  OpBuilder b(mma);
  Location loc = mma.getLoc();
  auto registers = [&](Value fragment) {
    SmallVector<Value> out;
    auto type = cast<VectorType>(fragment.getType());
    for (int64_t r = 0; r < type.getDimSize(0); ++r) {
      Value pair = vector::ExtractOp::create(b, loc, fragment, r);
      Value word = vector::BitCastOp::create(
          b, loc, VectorType::get({1}, b.getI32Type()), pair);
      out.push_back(vector::ExtractOp::create(b, loc, word, 0));
    }
    return out;
  };
  SmallVector<Value> aRegs = registers(mma.getMatrixA());
  SmallVector<Value> bRegs = registers(mma.getMatrixB());
  auto accType = cast<VectorType>(mma.getMatrixC().getType());
  SmallVector<Value> acc;
  for (int64_t r = 0; r < accType.getDimSize(0); ++r)
    for (int64_t e = 0; e < accType.getDimSize(1); ++e)
      acc.push_back(vector::ExtractOp::create(b, loc, mma.getMatrixC(),
                                              ArrayRef<int64_t>{r, e}));
  Type f32 = b.getF32Type();
  auto resultType =
      LLVM::LLVMStructType::getLiteral(b.getContext(), {f32, f32, f32, f32});
  Value result = NVVM::MmaOp::create(
      b, loc, resultType, aRegs, bRegs, acc, {kMmaM, kMmaN, kMmaK},
      /*b1Op=*/std::nullopt, /*intOverflow=*/std::nullopt,
      std::array<NVVM::MMATypes, 2>{NVVM::MMATypes::bf16, NVVM::MMATypes::bf16},
      std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                     NVVM::MMALayout::col});
  SmallVector<Value> d;
  for (int64_t i = 0; i < 4; ++i)
    d.push_back(LLVM::ExtractValueOp::create(b, loc, result, i));
  mma.replaceAllUsesWith(
      vector::FromElementsOp::create(b, loc, accType, d).getResult());
  mma.erase();
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
  // bf16 in a launch: the tile reads f16 views (retypeFragments).
  SmallVector<UnrealizedConversionCastOp> views;
  bool bf16 = cast<MemRefType>(c.a.getType()).getElementType().isBF16();
  if (launch && bf16) {
    for (Value *operand : {&c.a, &c.b}) {
      auto type = cast<MemRefType>(operand->getType());
      auto view = UnrealizedConversionCastOp::create(
          b, loc, TypeRange{type.clone(b.getF16Type())}, ValueRange{*operand});
      views.push_back(view);
      *operand = view.getResult(0);
    }
  }
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
  if (bf16) {
    if (failed(retypeFragments(views)))
      return failure();
    SmallVector<nvgpu::MmaSyncOp> mmas;
    launchOp->walk([&](nvgpu::MmaSyncOp op) { mmas.push_back(op); });
    for (nvgpu::MmaSyncOp mma : mmas)
      lowerBf16MmaSync(mma);
  }
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
      // Already device code, or the body of a loop that will be mapped to
      // blocks and threads itself: a launch there would nest launches.
      if (op->getParentOfType<gpu::LaunchOp>() ||
          op->getParentOfType<scf::ParallelOp>() ||
          op->getParentOfType<scf::ForallOp>())
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
