//===- DataParallel.cpp - amp-data-parallel -------------------------------===//
//
// One replica of a data-parallel training step (PyTorch
// DistributedDataParallel + GradScaler; shared REFERENCE.md "Data
// parallelism with loss scaling"; docs/distributed.md): every gradient and
// the loss averaged over the ranks with upstream `shard.all_reduce` before
// the step consumes them, so that the unscale, the found_inf flag, the skip
// decision and the scale update are the same on every rank. First a plan
// (where the gradients and the loss are consumed, where the reductions go,
// which ops must follow them), then one rewrite.
//
//===----------------------------------------------------------------------===//

#include "amp/Analysis/TrainingStep.h"
#include "amp/Distributed/Passes.h"

#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/SetVector.h"

#include <limits>

namespace mlir::amp {
#define GEN_PASS_DEF_DATAPARALLEL
#include "amp/Distributed/Passes.h.inc"
} // namespace mlir::amp

using namespace mlir;
using namespace mlir::amp;

StringRef mlir::amp::stringifyGradientBucketing(GradientBucketing bucket) {
  return bucket == GradientBucketing::Flat ? "flat" : "per-gradient";
}

StringRef mlir::amp::stringifyMPIImplementation(MPIImplementation mpi) {
  return mpi == MPIImplementation::OpenMPI ? "OpenMPI" : "MPICH";
}

namespace {

/// The options of one rewrite.
struct Config {
  int64_t worldSize;
  GradientBucketing bucket;
  Precision reducePrecision;
  bool testInjection;
};

/// Where a step consumes what is to be reduced, and where the reductions go.
struct StepPlan {
  func::FuncOp func;
  /// The operand that consumes each gradient, in parameter order: the raw
  /// operand of its `amp.grad`, or an operand of `amp.unscale_and_check`.
  SmallVector<OpOperand *> gradientUses;
  OpOperand *lossUse = nullptr; ///< the return operand of the loss result
  /// The reductions go after this top-level op (null: at the entry).
  Operation *insertAfter = nullptr;
  /// Top-level ops before that point that use the gradients' consumers:
  /// they move after the reductions, in their order.
  SmallVector<Operation *> toMove;
};

} // namespace

/// The op of the entry block that holds `v`'s definition, null for an
/// argument of the entry block.
static Operation *topLevelDef(Block &entry, Value v) {
  if (auto arg = dyn_cast<BlockArgument>(v); arg && arg.getOwner() == &entry)
    return nullptr;
  Operation *def = v.getDefiningOp();
  if (!def)
    def = cast<BlockArgument>(v).getOwner()->getParentOp();
  return entry.findAncestorOpInBlock(*def);
}

/// Reads where `func` consumes its gradients and loss (TrainingStep
/// contract, before or after loss scaling) and plans the reductions.
static FailureOr<StepPlan> planStep(func::FuncOp func) {
  if (func->hasAttr(kDataParallelAttr))
    return emitError(func.getLoc(), "training step '")
           << func.getSymName() << "' is already data-parallel (it has "
           << kDataParallelAttr << "); run amp-data-parallel once";
  FailureOr<TrainingStep> analyzed =
      TrainingStep::analyze(func, /*requireMarkers=*/false);
  if (failed(analyzed))
    return failure();
  TrainingStep &step = *analyzed;
  Block &entry = func.getBody().front();
  StepPlan plan;
  plan.func = func;
  SmallVector<Operation *> consumers;
  if (!step.gradOfParam.empty()) {
    for (unsigned p : step.params) {
      GradOp grad = step.gradOfParam.lookup(p);
      if (grad->getBlock() != &entry)
        return grad.emitError(
            "amp.grad must be at the top level of the training step (after "
            "any micro-batch loop), so that the gradients are all-reduced "
            "once per optimizer step, not per micro-batch");
      plan.gradientUses.push_back(&grad.getRawMutable());
      consumers.push_back(grad);
    }
  } else {
    SmallVector<UnscaleAndCheckOp> checks;
    func.walk([&](UnscaleAndCheckOp op) { checks.push_back(op); });
    if (checks.size() != 1 || checks.front()->getBlock() != &entry)
      return emitError(func.getLoc(), "training step '")
             << func.getSymName() << "' has no amp.grad markers and "
             << checks.size()
             << " amp.unscale_and_check ops; amp-data-parallel needs the "
                "markers (before amp-loss-scaling) or the one top-level "
                "amp.unscale_and_check that amp-loss-scaling creates";
    for (OpOperand &use : checks.front().getGradsMutable())
      plan.gradientUses.push_back(&use);
    consumers.push_back(checks.front());
  }
  for (auto [k, use] : llvm::enumerate(plan.gradientUses)) {
    auto type = dyn_cast<RankedTensorType>(use->get().getType());
    if (!type || !type.hasStaticShape() || !type.getElementType().isF32())
      return use->getOwner()->emitError("amp-data-parallel reduces static f32 "
                                        "gradients (those of fp32 master "
                                        "weights); gradient #")
             << k << " has type " << use->get().getType();
  }
  Operation *terminator = entry.getTerminator();
  plan.lossUse = &terminator->getOpOperand(step.lossResult);

  // The reductions go after the last of the gradients' and the loss's
  // definitions.
  SmallVector<Value> reduced{plan.lossUse->get()};
  for (OpOperand *use : plan.gradientUses)
    reduced.push_back(use->get());
  for (Value v : reduced)
    if (Operation *def = topLevelDef(entry, v))
      if (!plan.insertAfter || plan.insertAfter->isBeforeInBlock(def))
        plan.insertAfter = def;

  // What uses a consumer (an update interleaved with the markers) and sits
  // before that point moves after the reductions.
  llvm::SetVector<Operation *> dependent(consumers.begin(), consumers.end());
  for (unsigned i = 0; i < dependent.size(); ++i)
    for (Value r : dependent[i]->getResults())
      for (Operation *user : r.getUsers())
        if (Operation *top = entry.findAncestorOpInBlock(*user);
            top && top != terminator)
          dependent.insert(top);
  for (Value v : reduced)
    if (Operation *def = topLevelDef(entry, v); def && dependent.contains(def))
      return def->emitError("this op computes a value amp-data-parallel "
                            "all-reduces (a gradient or the loss) from a "
                            "gradient the step has already consumed; compute "
                            "every gradient and the loss before the "
                            "gradients are used");
  for (Operation &op : entry)
    if (dependent.contains(&op) && plan.insertAfter &&
        op.isBeforeInBlock(plan.insertAfter))
      plan.toMove.push_back(&op);
  return plan;
}

/// `v` as a 1-D tensor (a view: collapse or expand, nothing copied).
static Value flatten(OpBuilder &b, Location loc, Value v) {
  auto type = cast<RankedTensorType>(v.getType());
  auto flat =
      RankedTensorType::get({type.getNumElements()}, type.getElementType());
  if (type.getRank() == 1)
    return v;
  if (type.getRank() == 0)
    return tensor::ExpandShapeOp::create(b, loc, flat, v,
                                         ArrayRef<ReassociationIndices>{});
  ReassociationIndices all;
  for (int64_t d = 0; d < type.getRank(); ++d)
    all.push_back(d);
  return tensor::CollapseShapeOp::create(b, loc, flat, v,
                                         ArrayRef<ReassociationIndices>{all});
}

/// The inverse of `flatten`: the 1-D `v` as a tensor of `type`.
static Value unflatten(OpBuilder &b, Location loc, Value v,
                       RankedTensorType type) {
  if (type.getRank() == 1)
    return v;
  if (type.getRank() == 0)
    return tensor::CollapseShapeOp::create(b, loc, type, v,
                                           ArrayRef<ReassociationIndices>{});
  ReassociationIndices all;
  for (int64_t d = 0; d < type.getRank(); ++d)
    all.push_back(d);
  return tensor::ExpandShapeOp::create(b, loc, type, v,
                                       ArrayRef<ReassociationIndices>{all});
}

/// out[i] = body(in[i], s) for a 1-D f32 tensor `in`, written into `init`;
/// `scalar`, if given, is a tensor<f32> read as `s` by every element.
static Value
mapElements(OpBuilder &b, Location loc, Value in, Value init, Value scalar,
            function_ref<Value(OpBuilder &, Location, Value, Value)> body) {
  MLIRContext *ctx = b.getContext();
  AffineMap id = AffineMap::getMultiDimIdentityMap(1, ctx);
  SmallVector<Value> inputs{in};
  SmallVector<AffineMap> maps{id};
  if (scalar) {
    inputs.push_back(scalar);
    maps.push_back(AffineMap::get(1, 0, {}, ctx));
  }
  maps.push_back(id);
  auto generic = linalg::GenericOp::create(
      b, loc, init.getType(), inputs, init, maps,
      {utils::IteratorType::parallel},
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        Value s = scalar ? args[1] : Value();
        linalg::YieldOp::create(nb, nloc, body(nb, nloc, args[0], s));
      });
  return generic.getResult(0);
}

static Value f32Constant(OpBuilder &b, Location loc, double value) {
  return arith::ConstantOp::create(
      b, loc, b.getF32FloatAttr(static_cast<float>(value)));
}

/// `x` rounded to `precision` and back to f32 (nothing for f32): +-inf
/// where it overflows, as an f16 or bf16 value would.
static Value roundTo(OpBuilder &b, Location loc, Value x, Precision precision) {
  if (precision == Precision::F32)
    return x;
  Type low = precision == Precision::F16 ? Type(b.getF16Type())
                                         : Type(b.getBF16Type());
  Value narrow = arith::TruncFOp::create(b, loc, low, x);
  return arith::ExtFOp::create(b, loc, b.getF32Type(), narrow);
}

/// `add` if the i32 `code` equals `value`, else -0.0 (x + -0.0 == x for
/// every x, so adding it changes nothing).
static Value injected(OpBuilder &b, Location loc, Value code, int32_t value,
                      double add) {
  Value want = arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(value));
  Value hit =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, code, want);
  return arith::SelectOp::create(b, loc, hit, f32Constant(b, loc, add),
                                 f32Constant(b, loc, -0.0));
}

static Value scalarTensor(OpBuilder &b, Location loc, Value scalar) {
  return tensor::FromElementsOp::create(
      b, loc, RankedTensorType::get({}, scalar.getType()), scalar);
}

/// Rewrites one planned step.
static void rewriteStep(StepPlan &plan, const Config &cfg) {
  func::FuncOp func = plan.func;
  MLIRContext *ctx = func.getContext();
  Block &entry = func.getBody().front();
  OpBuilder b(ctx);
  Location loc = func.getLoc();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  const double worldSize = static_cast<double>(cfg.worldSize);

  Value code; // test hook: what to inject on this rank and step
  if (cfg.testInjection) {
    b.setInsertionPointToStart(&entry);
    code = func::CallOp::create(b, loc, kTestInjectionFn,
                                TypeRange{b.getI32Type()}, ValueRange{})
               .getResult(0);
  }
  Operation *anchor = plan.insertAfter;
  for (Operation *op : plan.toMove) {
    op->moveAfter(anchor);
    anchor = op;
  }
  if (plan.insertAfter)
    b.setInsertionPointAfter(plan.insertAfter);
  else
    b.setInsertionPointToStart(&entry);
  auto allReduce = [&](Value v) -> Value {
    return shard::AllReduceOp::create(b, loc, v, kDataParallelGrid,
                                      ArrayRef<shard::GridAxis>{0},
                                      shard::ReductionKind::Sum);
  };
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);

  // The loss: the mean over the ranks, sum_r (L_r / N), in every rank's
  // result; whether it is finite decides the poison for the gradients.
  Value loss =
      tensor::ExtractOp::create(b, loc, plan.lossUse->get(), ValueRange{})
          .getResult();
  if (code)
    loss = arith::AddFOp::create(b, loc, loss, injected(b, loc, code, 2, nan));
  loss = arith::DivFOp::create(b, loc, loss, f32Constant(b, loc, worldSize));
  Value lossSum = allReduce(tensor::FromElementsOp::create(
      b, loc, RankedTensorType::get({1}, b.getF32Type()), loss));
  Value meanLoss =
      tensor::ExtractOp::create(b, loc, lossSum, ValueRange{zero}).getResult();
  plan.lossUse->set(scalarTensor(b, loc, meanLoss));
  Value finite = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::ONE,
                                       math::AbsFOp::create(b, loc, meanLoss),
                                       f32Constant(b, loc, inf));
  // 1.0 (x * 1.0 == x for every x) or NaN; a factor, not a term, so the
  // backward stays linear in the seed (SeedLinearity.h) when loss scaling
  // follows.
  Value poison = scalarTensor(
      b, loc,
      arith::SelectOp::create(b, loc, finite, f32Constant(b, loc, 1.0),
                              f32Constant(b, loc, nan)));

  // Each rank's share g_r / N (rounded to the reduce precision; the test
  // hook's +inf in the first gradient), written into `init`.
  auto share = [&](unsigned k, Value flat, Value init) {
    Value hook = code && k == 0
                     ? scalarTensor(b, loc, injected(b, loc, code, 1, inf))
                     : Value();
    return mapElements(b, loc, flat, init, hook,
                       [&](OpBuilder &nb, Location nloc, Value g, Value add) {
                         if (add)
                           g = arith::AddFOp::create(nb, nloc, g, add);
                         Value part = arith::DivFOp::create(
                             nb, nloc, g, f32Constant(nb, nloc, worldSize));
                         return roundTo(nb, nloc, part, cfg.reducePrecision);
                       });
  };
  // The poison goes into the smallest gradient (the cheapest to touch
  // again; every gradient reaches the same check).
  unsigned poisoned = 0;
  for (auto [k, use] : llvm::enumerate(plan.gradientUses))
    if (cast<RankedTensorType>(use->get().getType()).getNumElements() <
        cast<RankedTensorType>(plan.gradientUses[poisoned]->get().getType())
            .getNumElements())
      poisoned = k;
  // The reduced sum of gradient k (rounded to the reduce precision; the
  // poison).
  auto finish = [&](unsigned k, Value sum) -> Value {
    if (k != poisoned && cfg.reducePrecision == Precision::F32)
      return sum;
    Value init = tensor::EmptyOp::create(
        b, loc, cast<RankedTensorType>(sum.getType()).getShape(),
        b.getF32Type());
    return mapElements(
        b, loc, sum, init, k == poisoned ? poison : Value(),
        [&](OpBuilder &nb, Location nloc, Value s, Value p) {
          s = roundTo(nb, nloc, s, cfg.reducePrecision);
          return p ? arith::MulFOp::create(nb, nloc, s, p).getResult() : s;
        });
  };

  SmallVector<Value> flats;
  SmallVector<int64_t> sizes, offsets;
  int64_t total = 0;
  for (OpOperand *use : plan.gradientUses) {
    flats.push_back(flatten(b, loc, use->get()));
    sizes.push_back(
        cast<RankedTensorType>(use->get().getType()).getNumElements());
    offsets.push_back(total);
    total += sizes.back();
  }
  SmallVector<Value> sums;
  if (cfg.bucket == GradientBucketing::Flat) {
    // One bucket: each share is written into its slice, one all-reduce.
    Value bucket = tensor::EmptyOp::create(b, loc, {total}, b.getF32Type());
    for (auto [k, flat] : llvm::enumerate(flats)) {
      SmallVector<OpFoldResult> off{b.getIndexAttr(offsets[k])},
          size{b.getIndexAttr(sizes[k])}, stride{b.getIndexAttr(1)};
      Value slice =
          tensor::ExtractSliceOp::create(b, loc, bucket, off, size, stride);
      Value part = share(k, flat, slice);
      bucket = tensor::InsertSliceOp::create(b, loc, part, bucket, off, size,
                                             stride);
    }
    Value reducedBucket = allReduce(bucket);
    for (unsigned k = 0; k < flats.size(); ++k) {
      SmallVector<OpFoldResult> off{b.getIndexAttr(offsets[k])},
          size{b.getIndexAttr(sizes[k])}, stride{b.getIndexAttr(1)};
      sums.push_back(tensor::ExtractSliceOp::create(b, loc, reducedBucket, off,
                                                    size, stride));
    }
  } else {
    for (auto [k, flat] : llvm::enumerate(flats)) {
      Value init = tensor::EmptyOp::create(b, loc, {sizes[k]}, b.getF32Type());
      sums.push_back(allReduce(share(k, flat, init)));
    }
  }
  for (auto [k, use] : llvm::enumerate(plan.gradientUses))
    use->set(unflatten(b, loc, finish(k, sums[k]),
                       cast<RankedTensorType>(use->get().getType())));

  Builder attrs(ctx);
  func->setAttr(
      kDataParallelAttr,
      attrs.getDictionaryAttr(
          {attrs.getNamedAttr("world_size",
                              attrs.getI64IntegerAttr(cfg.worldSize)),
           attrs.getNamedAttr(
               "bucket",
               attrs.getStringAttr(stringifyGradientBucketing(cfg.bucket))),
           attrs.getNamedAttr(
               "reduce_precision",
               attrs.getStringAttr(stringifyPrecision(cfg.reducePrecision)))}));
}

/// The module-level symbols the rewrite needs: the grid, the test hook's
/// declaration, the DLTI entry of the MPI ABI. Errors name a conflict.
static LogicalResult addModuleSymbols(ModuleOp module, const Config &cfg,
                                      MPIImplementation mpi) {
  MLIRContext *ctx = module.getContext();
  OpBuilder b(ctx);
  b.setInsertionPointToStart(module.getBody());
  Location loc = module.getLoc();
  Operation *existing = SymbolTable::lookupSymbolIn(module, kDataParallelGrid);
  if (auto grid = dyn_cast_or_null<shard::GridOp>(existing)) {
    if (grid.getShape() != ArrayRef<int64_t>{cfg.worldSize})
      return grid.emitError("shard.grid @")
             << kDataParallelGrid
             << " has another shape than world-size=" << cfg.worldSize;
  } else if (existing) {
    return existing->emitError("the symbol @")
           << kDataParallelGrid
           << " is taken; amp-data-parallel names its process grid so";
  } else {
    shard::GridOp::create(b, loc, kDataParallelGrid,
                          ArrayRef<int64_t>{cfg.worldSize});
  }
  if (cfg.testInjection) {
    auto type = b.getFunctionType({}, {b.getI32Type()});
    Operation *hook = SymbolTable::lookupSymbolIn(module, kTestInjectionFn);
    auto fn = dyn_cast_or_null<func::FuncOp>(hook);
    if (hook && (!fn || fn.getFunctionType() != type))
      return hook->emitError("the symbol @")
             << kTestInjectionFn << " must be a func.func of type " << type
             << " (amp-data-parallel's test hook)";
    if (!hook)
      func::FuncOp::create(b, loc, kTestInjectionFn, type).setPrivate();
  }
  // Upstream's MPIToLLVM picks the ABI from this DLTI entry.
  constexpr StringLiteral key = "MPI:Implementation";
  StringAttr value = StringAttr::get(ctx, stringifyMPIImplementation(mpi));
  FailureOr<Attribute> current = dlti::query(module, {key}, false);
  if (succeeded(current)) {
    if (*current != value)
      return emitError(module.getLoc(), "the module's DLTI entry \"")
             << key << "\" = " << *current
             << " conflicts with mpi=" << stringifyMPIImplementation(mpi);
    return success();
  }
  SmallVector<DataLayoutEntryInterface> entries;
  if (auto map = module->getAttrOfType<MapAttr>("dlti.map"))
    llvm::append_range(entries, map.getEntries());
  entries.push_back(DataLayoutEntryAttr::get(StringAttr::get(ctx, key), value));
  module->setAttr("dlti.map", MapAttr::get(ctx, entries));
  return success();
}

namespace {
struct DataParallelPass : amp::impl::DataParallelBase<DataParallelPass> {
  using DataParallelBase::DataParallelBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (worldSize < 1) {
      emitError(module.getLoc(), "amp-data-parallel: world-size=")
          << static_cast<int64_t>(worldSize)
          << ": give the number of ranks (>= 1) the step runs on; amp-run "
             "passes MPI's world size";
      return signalPassFailure();
    }
    Config cfg{worldSize, bucket, reducePrecision, testInjection};
    SmallVector<StepPlan> plans;
    if (failed(forEachTrainStep(module, "amp-data-parallel",
                                [&](func::FuncOp func) -> LogicalResult {
                                  FailureOr<StepPlan> plan = planStep(func);
                                  if (failed(plan))
                                    return failure();
                                  plans.push_back(*plan);
                                  return success();
                                })))
      return signalPassFailure();
    if (failed(addModuleSymbols(module, cfg, mpi)))
      return signalPassFailure();
    for (StepPlan &plan : plans)
      rewriteStep(plan, cfg);
  }
};
} // namespace
