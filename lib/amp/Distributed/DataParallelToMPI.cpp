//===- DataParallelToMPI.cpp - amp-data-parallel-to-mpi -------------------===//
//
// The data-parallel all-reduces (`shard.all_reduce` over the one axis of a
// 1-D grid, as amp-data-parallel creates them) to upstream `mpi.allreduce`
// on MPI_COMM_WORLD, before bufferization: the input's buffer is sent (a
// module-level buffer when the input is built in a tensor.empty), another
// module-level buffer receives. MPIToLLVM (through convert-to-llvm) then emits
// the MPI_Allreduce call for the ABI of the module's DLTI entry.
//
//===----------------------------------------------------------------------===//

#include "amp/Distributed/Passes.h"

#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::amp {
#define GEN_PASS_DEF_DATAPARALLELTOMPI
#include "amp/Distributed/Passes.h.inc"
} // namespace mlir::amp

using namespace mlir;
using namespace mlir::amp;

/// The MPI reduction of a shard reduction kind, if upstream has one that
/// means the same for floats and integers.
static std::optional<mpi::MPI_ReductionOpEnum>
mpiReduction(shard::ReductionKind kind) {
  switch (kind) {
  case shard::ReductionKind::Sum:
    return mpi::MPI_ReductionOpEnum::MPI_SUM;
  case shard::ReductionKind::Max:
    return mpi::MPI_ReductionOpEnum::MPI_MAX;
  case shard::ReductionKind::Min:
    return mpi::MPI_ReductionOpEnum::MPI_MIN;
  default:
    return std::nullopt;
  }
}

/// Element types upstream's MPIToLLVM has an MPI datatype for.
static bool hasMPIDatatype(Type type) {
  if (type.isF32() || type.isF64())
    return true;
  auto integer = dyn_cast<IntegerType>(type);
  return integer && llvm::is_contained({8u, 16u, 32u, 64u}, integer.getWidth());
}

/// Checks that `op` is an all-reduce this pass lowers; a located error
/// otherwise.
static LogicalResult checkLowerable(shard::AllReduceOp op,
                                    SymbolTableCollection &symbols) {
  auto grid =
      symbols.lookupNearestSymbolFrom<shard::GridOp>(op, op.getGridAttr());
  auto type = dyn_cast<RankedTensorType>(op.getInput().getType());
  auto fail = [&](const Twine &what) {
    return op.emitError("amp-data-parallel-to-mpi lowers shard.all_reduce over "
                        "the one axis of a static 1-D grid (all ranks: "
                        "MPI_COMM_WORLD) of a static 1-D tensor to "
                        "mpi.allreduce; ")
           << what;
  };
  if (!grid || grid.getRank() != 1 || ShapedType::isDynamic(grid.getShape()[0]))
    return fail("its grid is not a static 1-D shard.grid");
  if (op.getGridAxes() != ArrayRef<shard::GridAxis>{0})
    return fail("it reduces over grid axes other than [0]");
  if (!type || type.getRank() != 1 || !type.hasStaticShape())
    return fail("its operand is not a static 1-D tensor");
  if (op.getResult().getType() != type)
    return fail("its result type differs from its operand's");
  if (!hasMPIDatatype(type.getElementType()))
    return fail("upstream's MPI lowering has no datatype for ")
           << type.getElementType() << " (f32, f64, i8 to i64)";
  if (!mpiReduction(op.getReduction()))
    return fail("the reduction is not sum, max or min");
  return success();
}

namespace {
/// The one resource every MPI collective touches.
struct MPICommunication : SideEffects::Resource::Base<MPICommunication> {
  StringRef getName() final { return "mpi communication"; }
};

struct AllReduceMemoryEffects
    : MemoryEffectOpInterface::ExternalModel<AllReduceMemoryEffects,
                                             mpi::AllReduceOp> {
  void
  getEffects(Operation *op,
             SmallVectorImpl<MemoryEffects::EffectInstance> &effects) const {
    auto allReduce = cast<mpi::AllReduceOp>(op);
    effects.emplace_back(MemoryEffects::Read::get(),
                         &allReduce.getSendbufMutable());
    effects.emplace_back(MemoryEffects::Write::get(),
                         &allReduce.getRecvbufMutable());
    effects.emplace_back(MemoryEffects::Write::get(), MPICommunication::get());
  }
};
} // namespace

void mlir::amp::registerMPIMemoryEffects(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, mpi::MPIDialect *) {
    mpi::AllReduceOp::attachInterface<AllReduceMemoryEffects>(*ctx);
  });
}

/// The tensor.empty whose buffer `v` is written into, through destinations
/// (insert_slice's, a destination-style op's init), if any.
static tensor::EmptyOp destinationRoot(Value v) {
  while (Operation *def = v.getDefiningOp()) {
    if (auto empty = dyn_cast<tensor::EmptyOp>(def))
      return empty;
    if (auto insert = dyn_cast<tensor::InsertSliceOp>(def))
      v = insert.getDest();
    else if (auto dps = dyn_cast<DestinationStyleOpInterface>(def);
             dps && dps.getNumDpsInits() == 1)
      v = dps.getDpsInits()[0];
    else
      return {};
  }
  return {};
}

/// A module-level buffer of `type`, allocated once and reused by every
/// call (a `memref.global` named `name`, made unique): no allocation and no
/// fresh pages to fault in per step.
static Value persistentBuffer(OpBuilder &b, Location loc, ModuleOp module,
                              StringRef name, MemRefType type) {
  // Built detached, then inserted by the symbol table, which renames it
  // (amp_dp_recv_0, ...) when the name is taken.
  OpBuilder detached(b.getContext());
  auto global = memref::GlobalOp::create(
      detached, loc, name, detached.getStringAttr("private"), type,
      detached.getUnitAttr(), /*constant=*/false,
      detached.getI64IntegerAttr(64));
  SymbolTable(module).insert(global, module.getBody()->begin());
  return memref::GetGlobalOp::create(b, loc, type, global.getSymName());
}

namespace {
struct DataParallelToMPIPass
    : amp::impl::DataParallelToMPIBase<DataParallelToMPIPass> {
  void getDependentDialects(DialectRegistry &registry) const override {
    DataParallelToMPIBase::getDependentDialects(registry);
    registerMPIMemoryEffects(registry);
  }
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTableCollection symbols;
    SmallVector<shard::AllReduceOp> reductions;
    module.walk([&](shard::AllReduceOp op) { reductions.push_back(op); });
    for (shard::AllReduceOp op : reductions)
      if (failed(checkLowerable(op, symbols)))
        return signalPassFailure();
    // One MPI_COMM_WORLD handle per function, at its entry.
    llvm::DenseMap<Operation *, Value> commOf;
    OpBuilder b(&getContext());
    for (shard::AllReduceOp op : reductions) {
      auto func = op->getParentOfType<FunctionOpInterface>();
      Value &comm = commOf[func];
      if (!comm) {
        b.setInsertionPointToStart(&func.getFunctionBody().front());
        comm = mpi::CommWorldOp::create(b, op.getLoc(),
                                        mpi::CommType::get(&getContext()));
      }
      b.setInsertionPoint(op);
      Location loc = op.getLoc();
      auto type = cast<RankedTensorType>(op.getInput().getType());
      auto bufferType = MemRefType::get(type.getShape(), type.getElementType());
      // The buffer the input is written into (a bucket, a gradient's
      // share) and the one that receives persist across calls.
      if (tensor::EmptyOp root = destinationRoot(op.getInput());
          root && root.getType() == type) {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPoint(root);
        Value buffer = persistentBuffer(b, root.getLoc(), module, "amp_dp_send",
                                        bufferType);
        Value persistent = bufferization::ToTensorOp::create(
            b, root.getLoc(), type, buffer, /*restrict=*/true,
            /*writable=*/true);
        root.getResult().replaceAllUsesWith(persistent);
        root.erase();
      }
      Value send =
          bufferization::ToBufferOp::create(b, loc, bufferType, op.getInput(),
                                            /*read_only=*/true);
      Value recv = persistentBuffer(b, loc, module, "amp_dp_recv", bufferType);
      mpi::AllReduceOp::create(b, loc, TypeRange{}, send, recv,
                               *mpiReduction(op.getReduction()), comm);
      Value result = bufferization::ToTensorOp::create(b, loc, type, recv,
                                                       /*restrict=*/true,
                                                       /*writable=*/true);
      op.replaceAllUsesWith(result);
      op.erase();
    }
    // The grids are symbols only the all-reduces used.
    for (auto grid : llvm::make_early_inc_range(module.getOps<shard::GridOp>()))
      if (SymbolTable::symbolKnownUseEmpty(grid, module))
        grid.erase();
  }
};
} // namespace
