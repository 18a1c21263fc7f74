//===- LowerToNVVM.cpp - amp-lower-to-nvvm --------------------------------===//
//
// The GPU counterpart of amp-lower-to-llvm: host LLVM code that launches
// CUDA kernels through the mgpu* runtime, kernels serialized for one SM
// architecture. See docs/gpu.md for the stages and their reasons.
//
//===----------------------------------------------------------------------===//

#include "amp/Pipelines/Pipelines.h"

#include "amp/Conversion/Passes.h"
#include "amp/GPU/Passes.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"

#include <cstdlib>
#include <memory>

// NVPTX's MC layer (in libLLVM; gpu-module-to-binary initializes the rest).
extern "C" void LLVMInitializeNVPTXTargetInfo();
extern "C" void LLVMInitializeNVPTXTargetMC();

using namespace mlir;
using namespace mlir::amp;

static std::string toolkitPath(const LowerToNVVMOptions &options) {
  if (!options.toolkit.empty())
    return options.toolkit;
  if (const char *home = std::getenv("CUDA_HOME"))
    return home;
  return "/usr/local/cuda";
}

/// 80 for "sm_80", 90 for "sm_90a"; 0 when `chip` is not sm_<digits>
/// with an optional one-letter suffix.
static unsigned smVersion(StringRef chip) {
  unsigned version = 0;
  if (!chip.consume_front("sm_"))
    return 0;
  StringRef digits = chip.take_while(llvm::isDigit);
  StringRef suffix = chip.drop_front(digits.size());
  if (suffix.size() > 1 || (suffix.size() == 1 && !llvm::isAlpha(suffix[0])))
    return 0;
  return digits.getAsInteger(10, version) ? 0 : version;
}

/// `features` as given, or, when not given and the chip is newer than
/// sm_90, none: PTX 8.0 (the default) is too old for sm_100 and newer, and
/// with no PTX feature LLVM picks the chip's minimum version.
static std::string effectiveFeatures(const LowerToNVVMOptions &options) {
  if (options.features.hasValue() || smVersion(options.chip) <= 90)
    return options.features;
  return "";
}

/// The oldest PTX ISA version (x10) that LLVM 22's NVPTX backend accepts for
/// `chip`, 0 when not listed. Measured with llc (for each chip, the first of
/// -mattr=+ptx60 ... +ptx90 that compiles a kernel); LLVM aborts on older
/// ones instead of returning an error.
static unsigned minimumPTXVersion(StringRef chip) {
  return llvm::StringSwitch<unsigned>(chip)
      .Case("sm_70", 60)
      .Case("sm_72", 61)
      .Case("sm_75", 63)
      .Case("sm_80", 70)
      .Case("sm_86", 71)
      .Case("sm_87", 74)
      .Cases({"sm_89", "sm_90"}, 78)
      .Case("sm_90a", 80)
      .Cases({"sm_100", "sm_100a", "sm_101", "sm_101a"}, 86)
      .Cases({"sm_120", "sm_120a"}, 87)
      .Cases({"sm_100f", "sm_103", "sm_103a", "sm_121", "sm_121a"}, 88)
      .Cases({"sm_88", "sm_110", "sm_110a"}, 90)
      .Default(0);
}

std::string
mlir::amp::checkLowerToNVVMOptions(const LowerToNVVMOptions &options) {
  static const bool initialized = [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTargetMC();
    return true;
  }();
  (void)initialized;
  llvm::Triple triple("nvptx64-nvidia-cuda");
  std::string error;
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return "this LLVM has no NVPTX backend: " + error;
  // Made for a known chip (an unknown one would print warnings), asked
  // about the given one.
  std::unique_ptr<llvm::MCSubtargetInfo> subtarget(
      target->createMCSubtargetInfo(triple, "sm_80", ""));
  if (!subtarget || !subtarget->isCPUStringValid(options.chip) ||
      smVersion(options.chip) == 0)
    return "chip '" + options.chip.getValue() +
           "' is not a CUDA architecture that LLVM's NVPTX backend knows "
           "(sm_XY with an optional suffix, e.g. sm_80, sm_90a)";
  // Features: known NVPTX features only (LLVM would warn once per kernel
  // and ignore them), and a PTX version the chip accepts (LLVM aborts).
  unsigned ptx = 0;
  std::string features = effectiveFeatures(options);
  SmallVector<StringRef> tokens;
  StringRef(features).split(tokens, ',', -1, /*KeepEmpty=*/false);
  for (StringRef token : tokens) {
    StringRef name = token.trim();
    if (!name.consume_front("+") && !name.consume_front("-"))
      return "features entry '" + token.str() +
             "' must start with + or - (e.g. +ptx80)";
    bool known = llvm::any_of(subtarget->getAllProcessorFeatures(),
                              [&](const llvm::SubtargetFeatureKV &feature) {
                                return name == feature.Key;
                              });
    if (!known)
      return "features entry '" + token.str() +
             "' is not an NVPTX feature (PTX versions: +ptx60 ... +ptx90)";
    unsigned version = 0;
    if (token.trim().starts_with("+") && name.consume_front("ptx") &&
        !name.getAsInteger(10, version))
      ptx = std::max(ptx, version);
  }
  if (ptx != 0) {
    unsigned minimum = minimumPTXVersion(options.chip);
    if (minimum > ptx)
      return "PTX " + std::to_string(ptx / 10) + "." +
             std::to_string(ptx % 10) + " (features=" + features +
             ") is too old for " + options.chip + ", which needs PTX " +
             std::to_string(minimum / 10) + "." + std::to_string(minimum % 10) +
             " or newer";
  }
  if (options.format != "isa" && options.format != "bin" &&
      options.format != "fatbin")
    return "format must be isa, bin or fatbin, got '" +
           options.format.getValue() + "'";
  if (options.blockSize < 1 || options.blockSize > 1024)
    return "block-size must be in [1, 1024], got " +
           std::to_string(options.blockSize);
  if (options.optLevel > 3)
    return "opt-level must be 0-3, got " + std::to_string(options.optLevel);
  return "";
}

namespace {
/// kernel-bare-pointers=true passes each memref to a kernel as a pointer,
/// which needs static shapes; a function with a dynamic shape in its
/// signature (a `batch=dynamic` step) is refused here, located and saying
/// what to do, instead of by upstream's conversion ("failed to legalize
/// operation 'gpu.func'").
struct CheckStaticShapesForBarePointersPass
    : PassWrapper<CheckStaticShapesForBarePointersPass,
                  OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(
      CheckStaticShapesForBarePointersPass)
  StringRef getName() const override {
    return "CheckStaticShapesForBarePointers";
  }
  void runOnOperation() override {
    bool ok = true;
    for (auto fn : getOperation().getOps<func::FuncOp>()) {
      FunctionType type = fn.getFunctionType();
      for (auto [what, types] : {std::make_pair("argument", type.getInputs()),
                                 std::make_pair("result", type.getResults())})
        for (auto [i, t] : llvm::enumerate(types)) {
          auto shaped = dyn_cast<ShapedType>(t);
          if (!shaped || shaped.hasStaticShape() || !ok)
            continue;
          ok = false;
          fn.emitError() << "amp-lower-to-nvvm: " << what << " #" << i
                         << " of @" << fn.getSymName() << " has the dynamic "
                         << "shape " << t
                         << ", and kernel-bare-pointers=true (the default) "
                            "passes memrefs to kernels as bare pointers, "
                            "which needs static shapes; pass "
                            "kernel-bare-pointers=false (amp-run "
                            "--device=cuda does so by itself)";
        }
    }
    if (!ok)
      signalPassFailure();
  }
};
} // namespace

void mlir::amp::buildLowerToNVVMPipeline(OpPassManager &pm,
                                         const LowerToNVVMOptions &options) {
  // Inputs the lowering is known not to handle (upstream crashes among
  // them) are refused first, located.
  pm.addPass(createCheckLowerableInputPass("amp-lower-to-nvvm",
                                           /*checkDialects=*/false));
  if (options.kernelBarePointers)
    pm.addPass(std::make_unique<CheckStaticShapesForBarePointersPass>());
  // Tensor level: device-friendly forms of the amp ops and of the
  // scalar/control parts of the step.
  // Twice: first for what loss scaling built (1/S, the skip scf.if) before
  // canonicalization folds 1/S into host scalars, then for what
  // amp-lower-to-standard builds (the amp.update_scale rule, the seed).
  pm.addNestedPass<func::FuncOp>(createGPUKeepOnDevice());
  // Parameter space of a kernel: 4 KiB below PTX 8.1 (bare pointers: 8
  // bytes per gradient and output; descriptors of rank 1: 40 bytes).
  GPUFuseUnscaleAndCheckOptions fuse;
  fuse.maxGradientsPerKernel = options.kernelBarePointers ? 128 : 24;
  pm.addNestedPass<func::FuncOp>(createGPUFuseUnscaleAndCheck(fuse));
  pm.addPass(createLowerAmpToStandard());
  pm.addPass(createStepCanonicalizer());
  pm.addPass(createCSEPass());
  pm.addNestedPass<func::FuncOp>(createGPUKeepOnDevice());
  pm.addNestedPass<func::FuncOp>(createDecomposeAggregateOps());
  pm.addNestedPass<func::FuncOp>(createConvertElementwiseToLinalgPass());
  // Fewer kernels and fewer round trips through memory: elementwise
  // producers with one use (casts, the skip selects, optimizer updates)
  // fuse into their consumer, except into contractions, which keep the
  // body the Tensor Core rewrite matches. Values are unchanged (same ops
  // per element).
  pm.addNestedPass<func::FuncOp>(createGPUFuseElementwise());
  pm.addNestedPass<func::FuncOp>(createLinalgGeneralizeNamedOpsPass());
  // Long float sums in blocks (as on the CPU): accurate, and the partials
  // run on as many threads as there are blocks.
  pm.addNestedPass<func::FuncOp>(createSplitLongSums());
  pm.addNestedPass<func::FuncOp>(createGPUParallelDimsOuter());
  pm.addPass(createStepCanonicalizer());
  pm.addPass(createCSEPass());

  // Buffers: every memref is device memory from here on.
  addBufferizeToOutParams(pm);
  pm.addNestedPass<func::FuncOp>(createGPUStridedCopiesToLinalg());

  // Tensor Cores: f16/bf16 -> f32 contractions as warp tiles of mma.sync
  // (m16n8k16 needs sm_80).
  if (options.tensorCores && smVersion(options.chip) >= 80)
    pm.addNestedPass<func::FuncOp>(createGPUTensorCoreContractions());

  // Loops -> blocks x threads -> gpu.launch; leftovers in one-thread
  // kernels; device allocations.
  pm.addNestedPass<func::FuncOp>(createConvertLinalgToParallelLoopsPass());
  pm.addPass(createStepCanonicalizer());
  pm.addPass(createCSEPass());
  GPUMapParallelLoopsOptions mapping;
  mapping.blockSize = options.blockSize;
  pm.addNestedPass<func::FuncOp>(createGPUMapParallelLoops(mapping));
  pm.addNestedPass<func::FuncOp>(createConvertParallelLoopToGpuPass());
  pm.addNestedPass<func::FuncOp>(createGPULaunchHostCompute());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createGpuLaunchSinkIndexComputationsPass());
  pm.addPass(createGpuKernelOutliningPass());
  pm.addPass(createStepCanonicalizer());
  pm.addPass(createCSEPass());
  // One stream per call of the step; no host synchronization between
  // kernels, one at the end.
  pm.addNestedPass<func::FuncOp>(createGpuAsyncRegionPass());

  // Kernels -> NVVM.
  GpuNVVMAttachTargetOptions target;
  target.chip = options.chip;
  target.features = effectiveFeatures(options);
  target.optLevel = options.optLevel;
  pm.addPass(createGpuNVVMAttachTarget(target));
  OpPassManager &kernels = pm.nest<gpu::GPUModuleOp>();
  kernels.addPass(memref::createExpandStridedMetadataPass());
  kernels.addPass(createLowerAffinePass());
  kernels.addPass(createConvertNVGPUToNVVMPass());
  ConvertGpuOpsToNVVMOpsOptions toNVVM;
  toNVVM.useBarePtrCallConv = options.kernelBarePointers;
  kernels.addPass(createConvertGpuOpsToNVVMOps(toNVVM));
  kernels.addPass(createStepCanonicalizer());
  kernels.addPass(createCSEPass());
  kernels.addPass(createReconcileUnrealizedCastsPass());

  // Host -> LLVM with mgpu* runtime calls.
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  arith::ArithExpandOpsPassOptions expand;
  expand.includeBf16 = true;
  pm.addPass(arith::createArithExpandOpsPass(expand));
  pm.addPass(createConvertMathToLLVMPass());
  GpuToLLVMConversionPassOptions toLLVM;
  toLLVM.kernelBarePtrCallConv = options.kernelBarePointers;
  pm.addPass(createGpuToLLVMConversionPass(toLLVM));
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createCheckNVVMLowering());

  // Kernels -> PTX -> cubin / fatbin with the toolkit's ptxas.
  GpuModuleToBinaryPassOptions binary;
  binary.toolkitPath = toolkitPath(options);
  binary.compilationTarget = options.format;
  pm.addPass(createGpuModuleToBinaryPass(binary));
}

void mlir::amp::registerAmpGPUPipelines() {
  // As PassPipelineRegistration<LowerToNVVMOptions>, plus the option check:
  // a chip LLVM does not know would otherwise abort in instruction
  // selection (mma.sync) or fail later in ptxas.
  registerPassPipeline(
      "amp-lower-to-nvvm",
      "Lower a (mixed-precision) training step to CUDA kernels (NVVM, "
      "gpu.binary) and host LLVM code calling the mgpu* runtime",
      [](OpPassManager &pm, StringRef text,
         function_ref<LogicalResult(const Twine &)> errorHandler) {
        std::unique_ptr<LowerToNVVMOptions> options =
            LowerToNVVMOptions::createFromString(text);
        if (!options)
          return failure();
        std::string why = checkLowerToNVVMOptions(*options);
        if (!why.empty())
          return errorHandler("amp-lower-to-nvvm: " + why);
        buildLowerToNVVMPipeline(pm, *options);
        return success();
      },
      [](function_ref<void(const detail::PassOptions &)> optHandler) {
        optHandler(LowerToNVVMOptions());
      });
}
