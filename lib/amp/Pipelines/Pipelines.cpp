//===- Pipelines.cpp - named amp pass pipelines ---------------------------===//

#include "amp/Pipelines/Pipelines.h"

#include "amp/Analysis/TrainingStep.h"
#include "amp/CPU/Passes.h"
#include "amp/Conversion/Passes.h"
#include "amp/Distributed/Passes.h"
#include "amp/Support/Counts.h"
#include "amp/Support/Threads.h"
#include "amp/Transforms/Passes.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace mlir::amp;

/// `canonicalize` without upstream's RemoveDuplicateSuccessorInputUses (new
/// in LLVM 22). That pattern compares every pair of results of an scf.if /
/// scf.for on each visit, O(results^2), and the greedy driver revisits the
/// skip-update scf.if (one result per parameter and optimizer-state tensor)
/// after every change inside it: canonicalize became cubic in the depth of
/// the model (docs/performance.md, compile time). The pattern only merges
/// results that yield the same values; loss scaling creates none.
std::unique_ptr<Pass> mlir::amp::createStepCanonicalizer() {
  return createCanonicalizerPass(
      GreedyRewriteConfig(),
      /*disabledPatterns=*/{"(anonymous namespace)::"
                            "RemoveDuplicateSuccessorInputUses"});
}

namespace {
/// Gives every func.return operand its own buffer: a memref returned a second
/// time (`return %m, %m`) is copied into a fresh allocation. Upstream
/// `buffer-results-to-out-params{hoist-static-allocs}` (LLVM 22) replaces a
/// returned static allocation by the out-parameter and erases it, and then
/// crashes on the second use (found by amp-robustness; regression test
/// test/Regression/lower-to-llvm-duplicate-result.mlir). One copy per
/// duplicate result; steps return distinct values and get none.
struct DistinctReturnedBuffersPass
    : PassWrapper<DistinctReturnedBuffersPass, OperationPass<func::FuncOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(DistinctReturnedBuffersPass)
  StringRef getName() const override { return "DistinctReturnedBuffers"; }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<memref::MemRefDialect>();
  }
  void runOnOperation() override {
    getOperation().walk([](func::ReturnOp ret) {
      llvm::SmallPtrSet<Value, 8> seen;
      OpBuilder b(ret);
      for (OpOperand &operand : ret->getOpOperands()) {
        Value v = operand.get();
        auto type = dyn_cast<MemRefType>(v.getType());
        if (seen.insert(v).second || !type || !type.hasStaticShape() ||
            !type.getLayout().isIdentity())
          continue;
        Value copy = memref::AllocOp::create(b, ret.getLoc(), type);
        memref::CopyOp::create(b, ret.getLoc(), v, copy);
        operand.set(copy);
      }
    });
  }
};

/// Turns every memref.copy that MemRefToLLVM would lower to a call of the
/// runtime's `memrefCopy` (an operand that is not contiguous: a subview of a
/// slice, a strided insert_slice, a tensor.pad's interior) into a
/// linalg.copy, which becomes loops. A JIT without libmlir_c_runner_utils
/// cannot resolve `memrefCopy`; contiguous copies stay memcpy.
struct StridedCopiesToLoopsPass
    : PassWrapper<StridedCopiesToLoopsPass, OperationPass<func::FuncOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(StridedCopiesToLoopsPass)
  StringRef getName() const override { return "StridedCopiesToLoops"; }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<linalg::LinalgDialect>();
  }
  static bool isContiguous(Type type) {
    auto memref = dyn_cast<MemRefType>(type);
    return memref && (memref.getLayout().isIdentity() ||
                      (memref.hasStaticShape() && memref.getNumElements() > 0 &&
                       memref::isStaticShapeAndContiguousRowMajor(memref)));
  }
  void runOnOperation() override {
    getOperation().walk([](memref::CopyOp copy) {
      if (isContiguous(copy.getSource().getType()) &&
          isContiguous(copy.getTarget().getType()))
        return;
      OpBuilder b(copy);
      linalg::CopyOp::create(b, copy.getLoc(), copy.getSource(),
                             copy.getTarget());
      copy.erase();
    });
  }
};

/// A `dense_resource` attribute of `op` must hold its data: one element of
/// the element type's size each (torch-mlir's weights; the blob's
/// alignment header is not part of the data). Without data
/// (`dense_resource<__elided__>`, a module printed without its weights) the
/// LLVM translation has nothing to put into the global.
LogicalResult checkResourceData(Operation *op, StringRef pipeline) {
  for (NamedAttribute a : op->getAttrs()) {
    auto resource = dyn_cast<DenseResourceElementsAttr>(a.getValue());
    if (!resource)
      continue;
    AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    StringRef key = resource.getRawHandle().getKey();
    if (!blob)
      return op->emitOpError("holds dense_resource<")
             << key
             << "> without data (the module was printed without its "
                "weights, e.g. with --mlir-elide-resource-strings-if-larger): "
             << pipeline
             << " cannot put it into the program; export the model with its "
                "weights";
    Type elem = resource.getElementType();
    unsigned bits = elem.isIntOrFloat() ? elem.getIntOrFloatBitWidth() : 0;
    int64_t bytesPer = elem.isInteger(1) ? 1 : bits / 8; // i1: one byte
    int64_t want = resource.getNumElements() * bytesPer;
    if (int64_t(blob->getData().size()) != want)
      return op->emitOpError("holds dense_resource<")
             << key << "> with " << blob->getData().size()
             << " bytes of data, but " << resource.getType() << " needs "
             << want << " (one " << elem << " per element)";
  }
  return success();
}

/// An expand_shape (tensor or memref) whose static output_shape disagrees
/// with its result type, or whose reassociation group expands into more
/// than one dynamic size: upstream MLIR 22's expand-strided-metadata
/// segfaults on the memref.expand_shape it becomes
/// (memref::ReinterpretCastOp::build via dispatchIndexOpFoldResult;
/// test/Regression/lower-to-llvm-upstream-crash-expand-shape.mlir).
template <typename ExpandOp>
LogicalResult checkExpandShape(ExpandOp op, StringRef pipeline) {
  auto result = cast<ShapedType>(op.getResult().getType());
  // tensor.expand_shape's verifier accepts a static output_shape that
  // disagrees with its result type; memref.expand_shape's, after
  // bufferization, does not (found by amp-fuzz:
  // test/Regression/lower-to-llvm-expand-shape-output-shape.mlir).
  for (auto [d, size] : llvm::enumerate(op.getStaticOutputShape()))
    if (!ShapedType::isDynamic(size) && !result.isDynamicDim(d) &&
        size != result.getDimSize(d))
      return op.emitOpError("has output_shape size ")
             << size << " in dimension " << d << " where its result type "
             << result << " has " << result.getDimSize(d) << "; " << pipeline
             << " cannot lower the inconsistent shape: make them agree";
  for (auto [k, group] : llvm::enumerate(op.getReassociationIndices())) {
    unsigned dynamic = llvm::count_if(
        group, [&](int64_t d) { return result.isDynamicDim(d); });
    if (dynamic > 1)
      return op.emitOpError("expands group #")
             << k << " into " << dynamic << " dynamic sizes (result " << result
             << "), which " << pipeline
             << " cannot lower: upstream MLIR 22's "
                "expand-strided-metadata crashes on it; make all but one "
                "size of each reassociation group static";
  }
  return success();
}

/// A value whose static shape holds 2^63 bytes or more: its size computed
/// in 64-bit arithmetic (allocation, strides) would wrap around. Reported
/// once per type (at its first user), the rest of its uses fail silently.
LogicalResult checkAddressable(Operation *op, Type type, StringRef pipeline,
                               llvm::DenseSet<Type> &reported) {
  auto shaped = dyn_cast<ShapedType>(type);
  if (!shaped || !shaped.hasRank())
    return success();
  Type elem = shaped.getElementType();
  int64_t bytes = saturatingMul(
      staticElementCount(shaped),
      elem.isIntOrFloat() ? std::max(1u, elem.getIntOrFloatBitWidth() / 8) : 8);
  if (bytes < std::numeric_limits<int64_t>::max())
    return success();
  if (!reported.insert(type).second)
    return failure();
  return op->emitOpError("uses ")
         << type
         << ", which holds 2^63 bytes or more: its size does not fit the "
            "64-bit sizes and strides of "
         << pipeline
         << " (they would wrap around); use smaller shapes or dynamic "
            "dimensions";
}

/// The checks of the input that are not about an op's dialect: resource
/// data, expand_shape groups, addressable sizes.
LogicalResult checkLowerableOp(Operation *op, StringRef pipeline,
                               llvm::DenseSet<Type> &reportedTypes) {
  if (failed(checkResourceData(op, pipeline)))
    return failure();
  if (auto expand = dyn_cast<tensor::ExpandShapeOp>(op);
      expand && failed(checkExpandShape(expand, pipeline)))
    return failure();
  if (auto expand = dyn_cast<memref::ExpandShapeOp>(op);
      expand && failed(checkExpandShape(expand, pipeline)))
    return failure();
  for (Type t : op->getResultTypes())
    if (failed(checkAddressable(op, t, pipeline, reportedTypes)))
      return failure();
  for (Region &region : op->getRegions())
    for (Block &block : region)
      for (BlockArgument arg : block.getArguments())
        if (failed(
                checkAddressable(op, arg.getType(), pipeline, reportedTypes)))
          return failure();
  return success();
}

/// Rejects, before anything is lowered, every op that the CPU pipeline has
/// no pattern for (TOSA is lowered to linalg first), with one located error
/// per op name that names the op and what to do, and the inputs it is known
/// not to handle (checkLowerableOp). Without it such ops stop one-shot
/// bufferization with upstream's "op was not bufferized", reach
/// amp-check-llvm-lowering at the end, or crash upstream passes. TOSA ops
/// left dead by the TOSA conversions (the `tosa.const_shape` of a converted
/// `tosa.reshape`) are erased first.
struct CheckLowerableInputPass
    : PassWrapper<CheckLowerableInputPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(CheckLowerableInputPass)
  CheckLowerableInputPass(StringRef pipeline, bool checkDialects)
      : pipeline(pipeline.str()), checkDialects(checkDialects) {}
  StringRef getName() const override { return "CheckLowerableInput"; }
  std::string pipeline;
  bool checkDialects;
  void runOnOperation() override {
    static const llvm::StringSet<> kLowered = {
        "builtin",       "func",   "arith",  "math",
        "linalg",        "tensor", "scf",    "amp",
        "bufferization", "memref", "affine", "cf",
        "llvm",          "index",  "ub",     "vector"};
    getOperation().walk([&](Operation *op) {
      if (op->getName().getDialectNamespace() == "tosa" &&
          isOpTriviallyDead(op))
        op->erase();
    });
    llvm::StringSet<> reported;
    llvm::DenseSet<Type> reportedTypes;
    bool ok = true;
    // The pipelines lower the functions of the module they run on; the
    // func-level passes never reach a nested module, whose ops then reach
    // convert-to-llvm unlowered (found by amp-fuzz:
    // test/Regression/lower-nested-module.mlir).
    getOperation().walk([&](ModuleOp nested) {
      if (nested == getOperation())
        return;
      ok = false;
      emitError(nested.getLoc())
          << pipeline << " lowers the functions of the module it runs on, "
          << "not those of a nested builtin.module; run it on the nested "
             "module (--pass-pipeline='builtin.module(builtin.module("
          << pipeline << "))') or move its functions to the top level";
    });
    if (!ok)
      return signalPassFailure();
    getOperation().walk([&](Operation *op) {
      ok &= succeeded(checkLowerableOp(op, pipeline, reportedTypes));
      // amp-lower-to-nvvm runs a step's scalar host code in one-thread
      // kernels: a vector.print would call the CPU runtime's printF32 from
      // the device (found by amp-robustness: the NVVM translation failed).
      if (!checkDialects && isa<vector::PrintOp>(op) &&
          reported.insert(op->getName().getStringRef()).second) {
        ok = false;
        op->emitError() << pipeline
                        << " cannot lower 'vector.print': the step's code "
                           "runs on the GPU, which has no printF32; print "
                           "on the host after the step returns";
      }
      if (!checkDialects ||
          kLowered.contains(op->getName().getDialectNamespace()))
        return;
      // The data-parallel all-reduces (amp-data-parallel-to-mpi ran first).
      if (isa_and_nonnull<mpi::MPIDialect>(op->getDialect()))
        return;
      ok = false;
      if (!reported.insert(op->getName().getStringRef()).second)
        return;
      emitError(op->getLoc())
          << "amp-lower-to-llvm could not lower '" << op->getName()
          << "' to the LLVM dialect: "
          << (op->isRegistered() ? "" : "the op is not registered; ")
          << "the CPU pipeline lowers func, linalg, tensor, arith, math, scf, "
             "memref, bufferization and amp ops (and TOSA through "
             "tosa-to-linalg); rewrite it with those, e.g. as a "
             "linalg.generic";
    });
    if (!ok)
      signalPassFailure();
  }
};
} // namespace

std::unique_ptr<Pass> mlir::amp::createDistinctReturnedBuffersPass() {
  return std::make_unique<DistinctReturnedBuffersPass>();
}

MixedPrecisionConfig MixedPrecisionOptions::toConfig() const {
  MixedPrecisionConfig config;
#define AMP_TO_CONFIG(TYPE, FIELD, NAME, DEFAULT, DESC) config.FIELD = FIELD;
#define AMP_TO_CONFIG_LIST(TYPE, FIELD, NAME, DESC)                            \
  config.FIELD.assign(FIELD.begin(), FIELD.end());
  AMP_MIXED_PRECISION_OPTIONS(AMP_TO_CONFIG, AMP_TO_CONFIG, AMP_TO_CONFIG_LIST)
#undef AMP_TO_CONFIG
#undef AMP_TO_CONFIG_LIST
  return config;
}

std::unique_ptr<Pass>
mlir::amp::createCheckLowerableInputPass(StringRef pipeline,
                                         bool checkDialects) {
  return std::make_unique<CheckLowerableInputPass>(pipeline, checkDialects);
}

void mlir::amp::addAutocast(OpPassManager &pm,
                            const MixedPrecisionConfig &config) {
  // f32: nothing to do; the pass only runs to say that a requested report
  // is not written.
  if (config.precision == Precision::F32 && config.autocastReport.empty())
    return;
  AutocastOptions autocast;
  autocast.precision = config.precision;
  autocast.allowOps.assign(config.autocastAllow.begin(),
                           config.autocastAllow.end());
  autocast.denyOps.assign(config.autocastDeny.begin(),
                          config.autocastDeny.end());
  autocast.reportFile = config.autocastReport;
  pm.addPass(createAutocast(autocast));
}

void mlir::amp::addLossScaling(OpPassManager &pm,
                               const MixedPrecisionConfig &config) {
  LossScalingOptions scaling;
  scaling.mode = config.lossScale;
  scaling.initScale = config.initScale;
  scaling.growthInterval = config.growthInterval;
  scaling.growthFactor = config.growthFactor;
  scaling.backoffFactor = config.backoffFactor;
  scaling.hysteresis = config.hysteresis;
  scaling.minScale = config.minScale;
  scaling.maxScale = config.maxScale;
  // Picks auto's mode and rejects loss scaling with bf16.
  scaling.precision = config.precision;
  pm.addPass(createLossScaling(scaling));
}

namespace {
/// Calls an observer on every training step of the module; changes nothing.
struct ObserveTrainSteps
    : PassWrapper<ObserveTrainSteps, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(ObserveTrainSteps)
  explicit ObserveTrainSteps(TrainStepObserver observe)
      : observe(std::move(observe)) {}
  StringRef getArgument() const override { return "amp-observe-train-steps"; }
  void runOnOperation() override {
    getOperation().walk([&](func::FuncOp fn) {
      if (fn->hasAttr(kTrainStepAttr))
        observe(fn);
    });
    markAllAnalysesPreserved();
  }
  TrainStepObserver observe;
};
} // namespace

void mlir::amp::buildMixedPrecisionPipeline(OpPassManager &pm,
                                            const MixedPrecisionConfig &config,
                                            TrainStepObserver observe) {
  pm.addPass(createVerifyTrainingStep());
  addAutocast(pm, config);
  if (config.precision != Precision::F32 && config.keepAccumulatorsLow) {
    // A backward that reads only the size of a forward accumulator
    // (tensor.dim of a dynamic batch) reads it from the operands instead
    // (upstream's reifyResultShapes), so that the accumulator does not
    // count as read after the seed and kept.
    pm.addPass(memref::createResolveRankedShapeTypeResultDimsPass());
    pm.addPass(createKeepAccumulatorsLow());
  }
  // Clean up before loss scaling moves the update into its scf.if, so that
  // little changes inside the (large) scf.if afterwards.
  pm.addPass(createStepCanonicalizer());
  pm.addPass(createCSEPass());
  // Needs the seed, so before loss scaling; after the clean-up, which would
  // find nothing to merge in the clones anyway (they carry amp.recomputed).
  if (config.recompute)
    pm.addPass(createRecomputeForBackward({config.recomputeElementwise}));
  // The f32 views of f16/bf16 values widened where they are read.
  if (config.precision != Precision::F32)
    pm.addPass(createExtendInConsumers());
  if (observe)
    pm.addPass(std::make_unique<ObserveTrainSteps>(std::move(observe)));
  if (config.underflowStats) {
    // Before loss scaling, which consumes the seed the backward is found by.
    InstrumentUnderflowOptions instrument;
    instrument.precision =
        config.precision == Precision::BF16 ? Precision::BF16 : Precision::F16;
    pm.addPass(createInstrumentUnderflow(instrument));
  }
  addLossScaling(pm, config);
  // After loss scaling, so that a skipped step keeps the bf16 state too.
  if (config.masterWeights != MasterWeights::F32) {
    MasterWeightsOptions storage;
    storage.mode = config.masterWeights;
    storage.seed = config.roundingSeed;
    pm.addPass(createMasterWeights(storage));
  }
  // Last: it reads the stored and the intended new values.
  if (config.updateStats)
    pm.addPass(createInstrumentUpdates());
  pm.addPass(createCSEPass());
}

void mlir::amp::buildLowerToLLVMPipeline(OpPassManager &pm,
                                         const LowerToLLVMConfig &config) {
  // Data parallelism (docs/distributed.md): the all-reduces to mpi ops on
  // buffers, before anything else; a no-op on other steps.
  pm.addPass(createDataParallelToMPI());
  // TOSA input (e.g. from a TOSA frontend) becomes linalg/arith/tensor;
  // no-ops on steps without TOSA ops.
  pm.addNestedPass<func::FuncOp>(tosa::createTosaToLinalgNamed());
  pm.addNestedPass<func::FuncOp>(tosa::createTosaToLinalg());
  pm.addNestedPass<func::FuncOp>(createTosaToArithPass());
  pm.addNestedPass<func::FuncOp>(createTosaToTensorPass());
  pm.addPass(createCheckLowerableInputPass("amp-lower-to-llvm",
                                           /*checkDialects=*/true));
  pm.addPass(createLowerAmpToStandard());
  pm.addPass(createStepCanonicalizer());
  pm.addPass(createCSEPass());
  pm.addNestedPass<func::FuncOp>(createDecomposeAggregateOps());
  // Convolutions and their gradients as GEMMs per image (before the loop
  // order of the contractions, which then includes those GEMMs).
  if (config.convolutionsAsGemm) {
    CPUConvolutionsToGemmOptions im2col;
    im2col.widenBF16 = !config.bf16Dot.value_or(false);
    pm.addNestedPass<func::FuncOp>(createCPUConvolutionsToGemm(im2col));
  }
  pm.addNestedPass<func::FuncOp>(createInterchangeContractionLoops());
  pm.addNestedPass<func::FuncOp>(createConvertElementwiseToLinalgPass());
  // On tensors: the unscale split off the fused check and fused into the
  // optimizer update (the check then only reads the gradients); with
  // fuse=true (experimental, off by default, LowerToLLVMConfig::fuse) one
  // pass over memory per elementwise chain (casts, bias, activation,
  // optimizer) as well.
  CPUFuseElementwiseOptions fusion;
  fusion.unscaleOnly = !config.fuse;
  pm.addNestedPass<func::FuncOp>(createCPUFuseElementwise(fusion));
  // Long float sums (a loss over millions of elements, a bias gradient
  // over batch x height x width) in blocks: accurate, and parallel.
  // The innermost reduction loop in 16 interleaved partial sums too: one
  // AVX-512 vector of f32 lanes instead of one scalar chain.
  SplitLongSumsOptions longSums;
  longSums.lanes = 16;
  pm.addNestedPass<func::FuncOp>(createSplitLongSums(longSums));
  // Loops over contiguous memory merged, so that the innermost loop the
  // vectorizer sees is long (an image plane, not a row).
  pm.addNestedPass<func::FuncOp>(createCPUCollapseContiguousLoops());
  pm.addPass(createStepCanonicalizer());
  pm.addPass(createCSEPass());

  addBufferizeToOutParams(pm, /*sinkResultCopies=*/true);
  pm.addNestedPass<func::FuncOp>(std::make_unique<StridedCopiesToLoopsPass>());

  // Batched contractions (attention) as loops of rank-2 ones, for the
  // micro-kernels.
  pm.addNestedPass<func::FuncOp>(createCPUSplitBatchContractions());
  CPUTileContractionsOptions tiling;
  tiling.bf16Dot = config.bf16Dot.value_or(false);
  tiling.tileCols = config.fmaTileCols.value_or(16);
  pm.addNestedPass<func::FuncOp>(createCPUTileContractions(tiling));
  pm.addNestedPass<func::FuncOp>(createCPUParallelize());
  // The step's temporaries (the packs above included) freed after their
  // last use, then in one arena.
  pm.addNestedPass<func::FuncOp>(createCPUFreeAtLastUse());
  pm.addNestedPass<func::FuncOp>(createCPUPlanBuffers());
  // Rows LLVM would leave scalar (short, f16 conversions, a pooling's
  // window maxima) as explicit vectors.
  if (config.vectorizeRows)
    pm.addNestedPass<func::FuncOp>(createCPUVectorizeRows());
  // The ops with reduction loops that are left: their output elements (a
  // tile of up to 8) carried in registers across the reductions.
  pm.addNestedPass<func::FuncOp>(createCPUAccumulateInRegisters());
  pm.addNestedPass<func::FuncOp>(createConvertLinalgToLoopsPass());
  // f32 exponentials (a softmax's) as a polynomial that vectorizes,
  // instead of one libm call per element.
  if (config.polynomialExp)
    pm.addNestedPass<func::FuncOp>(createCPUPolynomialExp());
  // And an exact GELU's erf.
  if (config.polynomialErf)
    pm.addNestedPass<func::FuncOp>(createCPUPolynomialErf());
  // And a tanh-form GELU's tanh.
  if (config.polynomialTanh)
    pm.addNestedPass<func::FuncOp>(createCPUPolynomialTanh());
  // The bf16 math and arith ops left (autocast keeps a tanh, a sin or an
  // abs between two bf16 contractions in bf16, and the backward's
  // 1 - tanh^2 with it) computed in f32 and rounded once, as LLVM's
  // promotion did: without AVX512_BF16, LLVM promotes them through a call
  // of `__truncsfbf2`, which the JIT does not resolve; arith-expand below
  // rounds in integer ops instead. (f16 is left to LLVM, which converts
  // it natively with F16C.)
  math::MathExtendToSupportedTypesOptions bf16MathInF32;
  bf16MathInF32.extraTypeStrs = {"f16"};
  pm.addNestedPass<func::FuncOp>(
      math::createMathExtendToSupportedTypes(bf16MathInF32));
  arith::ArithEmulateUnsupportedFloatsOptions bf16ArithInF32;
  bf16ArithInF32.sourceTypeStrs = {"bf16"};
  pm.addNestedPass<func::FuncOp>(
      arith::createArithEmulateUnsupportedFloats(bf16ArithInF32));
  pm.addPass(createStepCanonicalizer());
  pm.addPass(createCSEPass());
  // Each outermost loop nest a function of its own: LLVM's loop passes
  // cost more than linearly in a function's size, and a real export's
  // step is one function of some 10^5 instructions.
  if (config.outlineLoops)
    pm.addPass(createCPUOutlineLoopNests());
  // The scf.parallel loops of amp-cpu-tile-contractions and
  // amp-cpu-parallelize (inside the outlined functions too): OpenMP
  // threads, or plain loops for threads=1.
  if (config.threads == 1)
    pm.addPass(createParallelForToNestedForsPass());
  else {
    pm.addPass(createConvertSCFToOpenMPPass({config.threads}));
    // Inlines the memref.alloca_scope that wraps each loop body (there are
    // no allocas in them); scf-to-cf would make it multi-block otherwise.
    pm.addPass(createStepCanonicalizer());
  }
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  // bf16 <-> f32 casts as integer ops (round to nearest even, NaN to the
  // canonical 0x7FC0), which any x86-64 CPU runs; with bf16-dot (a CPU
  // with AVX512_BF16) left to LLVM, which rounds with one
  // `vcvtneps2bf16` per 16 lanes instead of about ten integer
  // instructions, and flushes denormals as the dot kernel does.
  // (Integer <-> bf16 conversions first: through f32 and a cast.)
  pm.addNestedPass<func::FuncOp>(createCPUBF16IntCastsViaF32());
  arith::ArithExpandOpsPassOptions expand;
  expand.includeBf16 = !config.bf16Dot.value_or(false);
  pm.addPass(arith::createArithExpandOpsPass(expand));
  // The micro-kernels' vector ops (masks, broadcasts, fma) first: the
  // generic convert-to-llvm has no patterns for vector.constant_mask.
  // (x86vector: the AVX512_BF16 kernel's vdpbf16ps, with bf16Dot.)
  ConvertVectorToLLVMPassOptions vectorToLLVM;
  vectorToLLVM.x86Vector = true;
  pm.addPass(createConvertVectorToLLVMPass(vectorToLLVM));
  // Math ops with an LLVM intrinsic first; the rest (erf, tan, ...) become
  // libm calls, which the JIT resolves in the process.
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass());
  pm.addPass(createConvertToLLVMPass());
  pm.addPass(createOpenMPIOpSymbols()); // upstream's MPIToLLVM misnames them
  pm.addPass(createReconcileUnrealizedCastsPass());
  // bf16 vectors in memory as i16 (the rows above compute them as bits).
  pm.addPass(createCPUBF16MemoryAsI16());
  pm.addPass(createCheckLLVMLowering());
}

void mlir::amp::addBufferizeToOutParams(OpPassManager &pm,
                                        bool sinkResultCopies) {
  // After the pipelines' last CSE: one buffer per destination.
  pm.addNestedPass<func::FuncOp>(createSplitSharedDestinations());
  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  // Micro-batch loops may accumulate into a fresh tensor.empty per
  // iteration instead of in destination-passing style.
  bufferize.allowReturnAllocsFromLoops = true;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  pm.addNestedPass<func::FuncOp>(createDistinctReturnedBuffersPass());
  bufferization::BufferResultsToOutParamsPassOptions outParams;
  outParams.modifyPublicFunctions = true;
  outParams.hoistStaticAllocs = true;
  pm.addPass(bufferization::createBufferResultsToOutParamsPass(outParams));
  if (sinkResultCopies) {
    pm.addNestedPass<func::FuncOp>(createCPUSinkResultCopies());
    // A buffer of static size allocated in a loop (the per-image im2col
    // copies of amp-cpu-convolutions-to-gemm) allocated once, before it:
    // then freed after its last use and planned into the arena.
    pm.addNestedPass<func::FuncOp>(
        bufferization::createBufferLoopHoistingPass());
  }
  bufferization::buildBufferDeallocationPipeline(pm);
}

void mlir::amp::registerAmpPipelines() {
  PassPipelineRegistration<MixedPrecisionOptions>(
      "amp-mixed-precision",
      "Contract check, autocast and loss scaling of an fp32 training step",
      [](OpPassManager &pm, const MixedPrecisionOptions &options) {
        buildMixedPrecisionPipeline(pm, options.toConfig());
      });
  // As PassPipelineRegistration<LowerToLLVMOptions>, plus the option
  // check of `threads` (Support/Threads.h; amp-run's --threads has it too).
  registerPassPipeline(
      "amp-lower-to-llvm",
      "Lower a (mixed-precision) training step to the LLVM dialect for the CPU",
      [](OpPassManager &pm, StringRef text,
         function_ref<LogicalResult(const Twine &)> errorHandler) {
        std::unique_ptr<LowerToLLVMOptions> options =
            LowerToLLVMOptions::createFromString(text);
        if (!options)
          return failure();
        if (options->threads > kMaxCpuThreads)
          return errorHandler(
              "amp-lower-to-llvm: threads=" + Twine(options->threads) +
              ": must be 0 (every core), 1 (no OpenMP) or up "
              "to " +
              Twine(kMaxCpuThreads));
        buildLowerToLLVMPipeline(pm, options->toConfig());
        return success();
      },
      [](function_ref<void(const mlir::detail::PassOptions &)> optHandler) {
        optHandler(LowerToLLVMOptions());
      });
}
