//===- GPULaunchHostCompute.cpp - amp-gpu-launch-host-compute -------------===//
//
// After the parallel loops became gpu.launch ops, what is left in a host
// function that touches memref contents runs in one-thread kernels, and
// host allocations, copies and globals become device memory operations.
//
//===----------------------------------------------------------------------===//

#include "amp/GPU/Passes.h"

#include "GPUPreconditions.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace mlir::amp {
#define GEN_PASS_DEF_GPULAUNCHHOSTCOMPUTE
#include "amp/GPU/Passes.h.inc"
} // namespace mlir::amp

using namespace mlir;

/// True when `memref` lives in host memory (a stack allocation, e.g. of the
/// deallocation lowering): accesses to it stay on the host.
static bool isHostMemory(Value memref) {
  return memref.getDefiningOp<memref::AllocaOp>() != nullptr;
}

/// True when `op` (or an op nested in it) reads or writes device memref
/// contents.
static bool touchesDeviceMemory(Operation *op) {
  bool found = false;
  op->walk([&](Operation *nested) {
    if (auto load = dyn_cast<memref::LoadOp>(nested))
      found |= !isHostMemory(load.getMemRef());
    else if (auto store = dyn_cast<memref::StoreOp>(nested))
      found |= !isHostMemory(store.getMemRef());
    return found ? WalkResult::interrupt() : WalkResult::advance();
  });
  return found;
}

/// True when `op` (or an op nested in it) must run on the host: kernel
/// launches, allocation, copies, calls.
static bool isHostOnly(Operation *op) {
  bool found = false;
  op->walk([&](Operation *nested) {
    found |=
        isa_and_nonnull<gpu::GPUDialect>(nested->getDialect()) ||
        isa<memref::AllocOp, memref::DeallocOp, memref::AllocaOp,
            memref::CopyOp, memref::GetGlobalOp, func::CallOp, func::ReturnOp>(
            nested);
    return found ? WalkResult::interrupt() : WalkResult::advance();
  });
  return found;
}

/// Moves `run` (ops of one block, in order) into a gpu.launch of one block
/// of one thread, placed after the last op of the run.
static LogicalResult launchOneThread(OpBuilder &b, ArrayRef<Operation *> run) {
  llvm::SmallPtrSet<Operation *, 16> inRun(run.begin(), run.end());
  for (Operation *op : run)
    for (Value result : op->getResults())
      for (Operation *user : result.getUsers()) {
        Operation *top = op->getBlock()->findAncestorOpInBlock(*user);
        if (!top || !inRun.contains(top))
          return op->emitError("amp-gpu-launch-host-compute: this value is "
                               "computed from device memory but used by "
                               "host code ('")
                 << user->getName()
                 << "'); keep scalar decisions in tensors (0-d) so that "
                    "they stay on the device";
      }
  Location loc = run.back()->getLoc();
  b.setInsertionPointAfter(run.back());
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  auto launch = gpu::LaunchOp::create(b, loc, one, one, one, one, one, one);
  Block &body = launch.getBody().front();
  b.setInsertionPointToEnd(&body);
  auto terminator = gpu::TerminatorOp::create(b, loc);
  for (Operation *op : run)
    op->moveBefore(terminator);
  return success();
}

static LogicalResult wrapBlock(OpBuilder &b, Block &block) {
  SmallVector<Operation *> run;
  llvm::SmallPtrSet<Operation *, 16> inRun;
  auto flush = [&]() -> LogicalResult {
    if (run.empty())
      return success();
    LogicalResult result = launchOneThread(b, run);
    run.clear();
    inRun.clear();
    return result;
  };
  for (Operation &op : llvm::make_early_inc_range(block)) {
    if (op.hasTrait<OpTrait::IsTerminator>() || isa<gpu::LaunchOp>(op) ||
        isHostOnly(&op)) {
      if (failed(flush()))
        return failure();
      if (!isa<gpu::LaunchOp>(op))
        for (Region &region : op.getRegions())
          for (Block &nested : region)
            if (failed(wrapBlock(b, nested)))
              return failure();
      continue;
    }
    bool usesRun = llvm::any_of(op.getOperands(), [&](Value v) {
      Operation *def = v.getDefiningOp();
      return def && inRun.contains(def);
    });
    if (touchesDeviceMemory(&op) || usesRun) {
      run.push_back(&op);
      inRun.insert(&op);
    }
  }
  return flush();
}

/// memref.alloc/dealloc/copy/get_global in host code -> gpu ops.
static LogicalResult useDeviceMemory(func::FuncOp func) {
  Operation *funcOp = func;
  SmallVector<Operation *> ops;
  func.walk([&](Operation *op) {
    if (op->getParentOfType<gpu::LaunchOp>())
      return;
    if (isa<memref::AllocOp, memref::DeallocOp, memref::CopyOp,
            memref::GetGlobalOp>(op))
      ops.push_back(op);
  });
  IRRewriter rewriter(func.getContext());
  for (Operation *op : ops) {
    Location loc = op->getLoc();
    rewriter.setInsertionPoint(op);
    if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
      rewriter.replaceOpWithNewOp<gpu::AllocOp>(
          alloc, alloc.getType(), /*asyncToken=*/Type(), ValueRange{},
          alloc.getDynamicSizes(), alloc.getSymbolOperands(),
          /*hostShared=*/false);
    } else if (auto dealloc = dyn_cast<memref::DeallocOp>(op)) {
      rewriter.replaceOpWithNewOp<gpu::DeallocOp>(
          dealloc, /*asyncToken=*/Type(), ValueRange{}, dealloc.getMemref());
    } else if (auto copy = dyn_cast<memref::CopyOp>(op)) {
      for (Value v : {copy.getSource(), copy.getTarget()})
        if (!cast<MemRefType>(v.getType()).getLayout().isIdentity())
          return copy.emitError("amp-gpu-launch-host-compute: memref.copy of "
                                "a non-contiguous buffer (")
                 << v.getType()
                 << ") cannot become gpu.memcpy; bufferize with "
                    "linalg.copy instead";
      rewriter.replaceOpWithNewOp<gpu::MemcpyOp>(copy, /*asyncToken=*/Type(),
                                                 ValueRange{}, copy.getTarget(),
                                                 copy.getSource());
    } else if (auto global = dyn_cast<memref::GetGlobalOp>(op)) {
      auto type = cast<MemRefType>(global.getType());
      rewriter.setInsertionPointAfter(global);
      auto device = gpu::AllocOp::create(rewriter, loc, type, Type(),
                                         ValueRange{}, ValueRange{},
                                         ValueRange{}, /*hostShared=*/false);
      rewriter.replaceAllUsesWith(global.getResult(), device.getMemref());
      gpu::MemcpyOp::create(rewriter, loc, Type(), ValueRange{},
                            device.getMemref(), global.getResult());
      // Freed when the function returns (after its last use).
      funcOp->walk([&](func::ReturnOp ret) {
        rewriter.setInsertionPoint(ret);
        gpu::DeallocOp::create(rewriter, loc, Type(), ValueRange{},
                               device.getMemref());
      });
    }
  }
  return success();
}

namespace {
struct GPULaunchHostComputePass
    : amp::impl::GPULaunchHostComputeBase<GPULaunchHostComputePass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    // Input of this stage: bufferized IR of registered ops (what
    // convert-parallel-loops-to-gpu leaves in amp-lower-to-nvvm).
    if (failed(amp::requireBufferized(func, getArgument())) ||
        failed(amp::rejectUnregisteredOps(func, getArgument())))
      return signalPassFailure();
    OpBuilder b(&getContext());
    for (Block &block : func.getBody())
      if (failed(wrapBlock(b, block)))
        return signalPassFailure();
    if (failed(useDeviceMemory(func)))
      return signalPassFailure();
  }
};
} // namespace
