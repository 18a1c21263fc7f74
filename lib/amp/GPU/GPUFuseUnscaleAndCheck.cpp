//===- GPUFuseUnscaleAndCheck.cpp - amp-gpu-fuse-unscale-and-check --------===//
//
// One device loop over all gradients for `amp.unscale_and_check`, the
// multi-tensor form of PyTorch's `_amp_foreach_non_finite_check_and_unscale_`
// (shared REFERENCE.md, "Loss scaling: the math and the state"): every
// gradient element is read once and written once, and one found_inf flag is
// set by any non-finite element. On the GPU this loop becomes one kernel.
//
//===----------------------------------------------------------------------===//

#include "amp/Dialect/Amp/IR/AmpOps.h"
#include "amp/GPU/Passes.h"

#include "mlir/IR/PatternMatch.h"

#include <algorithm>
#include <limits>

namespace mlir::amp {
#define GEN_PASS_DEF_GPUFUSEUNSCALEANDCHECK
#include "amp/GPU/Passes.h.inc"
} // namespace mlir::amp

using namespace mlir;
using namespace mlir::amp;

/// Number of elements of `buffer` (an index value, static or from
/// memref.dim).
static Value numElements(OpBuilder &b, Location loc, Value buffer) {
  auto type = cast<MemRefType>(buffer.getType());
  Value n = arith::ConstantIndexOp::create(b, loc, 1);
  for (int64_t d = 0; d < type.getRank(); ++d) {
    Value size =
        type.isDynamicDim(d)
            ? Value(memref::DimOp::create(b, loc, buffer, d))
            : Value(arith::ConstantIndexOp::create(b, loc, type.getDimSize(d)));
    n = arith::MulIOp::create(b, loc, n, size);
  }
  return n;
}

/// Row-major multi-index of flat position `linear` in `buffer`.
static SmallVector<Value> delinearize(OpBuilder &b, Location loc, Value linear,
                                      Value buffer) {
  auto type = cast<MemRefType>(buffer.getType());
  SmallVector<Value> indices(type.getRank());
  for (int64_t d = type.getRank() - 1; d >= 0; --d) {
    if (d == 0) {
      indices[d] = linear;
      break;
    }
    Value size =
        type.isDynamicDim(d)
            ? Value(memref::DimOp::create(b, loc, buffer, d))
            : Value(arith::ConstantIndexOp::create(b, loc, type.getDimSize(d)));
    indices[d] = arith::RemUIOp::create(b, loc, linear, size);
    linear = arith::DivUIOp::create(b, loc, linear, size);
  }
  return indices;
}

/// Unscales elements `locals` of gradient `grad` into `out` and raises
/// `flag` when any of them is +-inf or NaN. All loads come first, then the
/// stores, then one conditional flag store: several loads in flight per
/// thread (the stores to `out` could alias `grad` for all the compiler
/// knows, so it would not move a load above an earlier store itself).
static void emitElements(OpBuilder &b, Location loc, ArrayRef<Value> locals,
                         Value grad, Value out, Value invScale, Value flag) {
  auto elemType =
      cast<FloatType>(cast<MemRefType>(grad.getType()).getElementType());
  SmallVector<SmallVector<Value>> indices;
  SmallVector<Value> values;
  for (Value local : locals) {
    indices.push_back(delinearize(b, loc, local, grad));
    Value x = memref::LoadOp::create(b, loc, grad, indices.back());
    values.push_back(elemType.isF32() ? x
                                      : Value(arith::ExtFOp::create(
                                            b, loc, b.getF32Type(), x)));
  }
  Value inf = arith::ConstantOp::create(
      b, loc, b.getF32FloatAttr(std::numeric_limits<float>::infinity()));
  Value anyNonFinite;
  for (auto [xf, idx] : llvm::zip(values, indices)) {
    Value y = arith::MulFOp::create(b, loc, xf, invScale);
    if (!elemType.isF32())
      y = arith::TruncFOp::create(b, loc, elemType, y);
    memref::StoreOp::create(b, loc, y, out, idx);
    Value abs = math::AbsFOp::create(b, loc, xf);
    Value nonFinite =
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UGE, abs, inf);
    anyNonFinite =
        anyNonFinite
            ? Value(arith::OrIOp::create(b, loc, anyNonFinite, nonFinite))
            : nonFinite;
  }
  auto ifOp = scf::IfOp::create(b, loc, anyNonFinite, /*withElse=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifOp.thenBlock());
  Value one = arith::ConstantIntOp::create(b, loc, 1, 1);
  memref::StoreOp::create(b, loc, one, flag, ValueRange{});
}

/// Chunks: the check splits every gradient into chunks of kChunk elements
/// (the last one of a gradient may be shorter) and gives each chunk kLanes
/// consecutive threads, which stride over it. A chunk never spans two
/// gradients, so the gradient is chosen once per thread, uniformly across
/// its warps, and only that gradient's pointers are live in the element
/// loop. The multi-tensor scheme of PyTorch's multi_tensor_apply (chunks of
/// one tensor per thread block).
static constexpr int64_t kLanes = 256;
static constexpr int64_t kChunk = 16 * kLanes;
/// Elements a thread loads before it stores, in a full chunk.
static constexpr int64_t kUnroll = 4;
static_assert(kChunk % (kUnroll * kLanes) == 0,
              "a full chunk is a whole number of unrolled iterations");

/// Emits the element loop of the chunk `chunk` (global chunk index) for
/// gradients [lo, hi): a binary search over the gradients' first chunks
/// (`chunk < chunkOffsets[mid]`), then in gradient k the thread visits
/// elements start + lane, start + lane + kLanes, ... of that chunk.
static void emitDispatch(OpBuilder &b, Location loc, Value chunk, Value lane,
                         unsigned lo, unsigned hi, ArrayRef<Value> grads,
                         ArrayRef<Value> outs, ArrayRef<Value> sizes,
                         ArrayRef<Value> chunkOffsets, Value invScale,
                         Value flag) {
  if (hi - lo == 1) {
    Value chunkSize = arith::ConstantIndexOp::create(b, loc, kChunk);
    Value local = arith::SubIOp::create(b, loc, chunk, chunkOffsets[lo]);
    Value start = arith::MulIOp::create(b, loc, local, chunkSize);
    Value end = arith::MinUIOp::create(
        b, loc, arith::AddIOp::create(b, loc, start, chunkSize), sizes[lo]);
    Value first = arith::AddIOp::create(b, loc, start, lane);
    Value step = arith::ConstantIndexOp::create(b, loc, kLanes);
    // A full chunk: kUnroll elements kLanes apart per iteration, no bounds
    // checks. The gradient's last, partial chunk: one element at a time.
    Value full = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::eq,
        arith::SubIOp::create(b, loc, end, start), chunkSize);
    auto ifFull = scf::IfOp::create(b, loc, full, /*withElse=*/true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifFull.thenBlock());
    Value unrolledStep =
        arith::ConstantIndexOp::create(b, loc, kUnroll * kLanes);
    scf::ForOp::create(
        b, loc, first, end, unrolledStep, ValueRange{},
        [&](OpBuilder &fb, Location fl, Value i, ValueRange) {
          SmallVector<Value> locals{i};
          for (int64_t r = 1; r < kUnroll; ++r)
            locals.push_back(arith::AddIOp::create(
                fb, fl, i, arith::ConstantIndexOp::create(fb, fl, r * kLanes)));
          emitElements(fb, fl, locals, grads[lo], outs[lo], invScale, flag);
          scf::YieldOp::create(fb, fl);
        });
    b.setInsertionPointToStart(ifFull.elseBlock());
    scf::ForOp::create(b, loc, first, end, step, ValueRange{},
                       [&](OpBuilder &fb, Location fl, Value i, ValueRange) {
                         emitElements(fb, fl, {i}, grads[lo], outs[lo],
                                      invScale, flag);
                         scf::YieldOp::create(fb, fl);
                       });
    return;
  }
  unsigned mid = lo + (hi - lo) / 2;
  Value below = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, chunk,
                                      chunkOffsets[mid]);
  auto ifOp = scf::IfOp::create(b, loc, below, /*withElse=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifOp.thenBlock());
  emitDispatch(b, loc, chunk, lane, lo, mid, grads, outs, sizes, chunkOffsets,
               invScale, flag);
  b.setInsertionPointToStart(ifOp.elseBlock());
  emitDispatch(b, loc, chunk, lane, mid, hi, grads, outs, sizes, chunkOffsets,
               invScale, flag);
}

/// Replaces `op` by one loop per group of at most `groupSize` gradients
/// (normally one loop for all of them).
static LogicalResult fuse(IRRewriter &rewriter, UnscaleAndCheckOp op,
                          int64_t groupSize) {
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  auto bufferOf = [&](Value tensor) -> Value {
    auto type = cast<RankedTensorType>(tensor.getType());
    auto memrefType = MemRefType::get(type.getShape(), type.getElementType());
    return bufferization::ToBufferOp::create(rewriter, loc, memrefType, tensor,
                                             /*read_only=*/true);
  };

  SmallVector<Value> grads, outs;
  for (Value grad : op.getGrads()) {
    if (!isa<Float16Type, BFloat16Type, Float32Type>(
            getElementTypeOrSelf(grad.getType())))
      return op.emitError("amp-gpu-fuse-unscale-and-check supports f16, bf16 "
                          "and f32 gradients, not ")
             << grad.getType();
    Value buffer = bufferOf(grad);
    grads.push_back(buffer);
    SmallVector<Value> dynSizes;
    auto type = cast<MemRefType>(buffer.getType());
    for (int64_t d = 0; d < type.getRank(); ++d)
      if (type.isDynamicDim(d))
        dynSizes.push_back(memref::DimOp::create(rewriter, loc, buffer, d));
    outs.push_back(memref::AllocOp::create(rewriter, loc, type, dynSizes));
  }
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  Value invScale = bufferOf(op.getInvScale());
  auto flagType = MemRefType::get({}, rewriter.getI1Type());
  Value flag = memref::AllocOp::create(rewriter, loc, flagType);

  // found_inf = false, on the device (a one-iteration loop, i.e. a tiny
  // kernel), before the check.
  scf::ParallelOp::create(
      rewriter, loc, ValueRange{zero}, ValueRange{one}, ValueRange{one},
      [&](OpBuilder &b, Location l, ValueRange) {
        Value f = arith::ConstantIntOp::create(b, l, 0, 1);
        memref::StoreOp::create(b, l, f, flag, ValueRange{});
      });
  // The check itself: one loop over the concatenated gradients (of each
  // group).
  for (size_t first = 0; first < grads.size();
       first += static_cast<size_t>(groupSize)) {
    size_t count =
        std::min(grads.size() - first, static_cast<size_t>(groupSize));
    ArrayRef<Value> groupGrads = ArrayRef<Value>(grads).slice(first, count);
    ArrayRef<Value> groupOuts = ArrayRef<Value>(outs).slice(first, count);
    // Chunks of each gradient and where each gradient's chunks start.
    SmallVector<Value> sizes, chunkOffsets;
    Value totalChunks = zero;
    Value chunkSize = arith::ConstantIndexOp::create(rewriter, loc, kChunk);
    for (Value grad : groupGrads) {
      Value n = numElements(rewriter, loc, grad);
      sizes.push_back(n);
      chunkOffsets.push_back(totalChunks);
      totalChunks = arith::AddIOp::create(
          rewriter, loc, totalChunks,
          arith::CeilDivUIOp::create(rewriter, loc, n, chunkSize));
    }
    Value lanes = arith::ConstantIndexOp::create(rewriter, loc, kLanes);
    Value threads = arith::MulIOp::create(rewriter, loc, totalChunks, lanes);
    scf::ParallelOp::create(
        rewriter, loc, ValueRange{zero}, ValueRange{threads}, ValueRange{one},
        [&](OpBuilder &b, Location l, ValueRange ivs) {
          Value chunk = arith::DivUIOp::create(b, l, ivs[0], lanes);
          Value lane = arith::RemUIOp::create(b, l, ivs[0], lanes);
          Value s = memref::LoadOp::create(b, l, invScale, ValueRange{});
          emitDispatch(b, l, chunk, lane, 0, groupGrads.size(), groupGrads,
                       groupOuts, sizes, chunkOffsets, s, flag);
        });
  }

  SmallVector<Value> results;
  for (auto [out, result] : llvm::zip(outs, op.getUnscaled()))
    results.push_back(bufferization::ToTensorOp::create(
        rewriter, loc, result.getType(), out, /*restrict=*/true,
        /*writable=*/true));
  results.push_back(bufferization::ToTensorOp::create(
      rewriter, loc, op.getFoundInf().getType(), flag, /*restrict=*/true,
      /*writable=*/true));
  rewriter.replaceOp(op, results);
  return success();
}

namespace {
struct GPUFuseUnscaleAndCheckPass
    : amp::impl::GPUFuseUnscaleAndCheckBase<GPUFuseUnscaleAndCheckPass> {
  using Base::Base;
  void runOnOperation() override {
    if (maxGradientsPerKernel < 1) {
      emitError(getOperation().getLoc(),
                "amp-gpu-fuse-unscale-and-check: "
                "max-gradients-per-kernel must be >= 1");
      return signalPassFailure();
    }
    SmallVector<UnscaleAndCheckOp> ops;
    getOperation().walk([&](UnscaleAndCheckOp op) { ops.push_back(op); });
    IRRewriter rewriter(&getContext());
    for (UnscaleAndCheckOp op : ops)
      if (failed(fuse(rewriter, op, maxGradientsPerKernel)))
        return signalPassFailure();
  }
};
} // namespace
